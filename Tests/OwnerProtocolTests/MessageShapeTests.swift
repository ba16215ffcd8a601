// OwnerRequest and OwnerResponse are enums of messages in code and today's JSON objects on the
// wire: every command and answer decodes from the JSON older code sent, into the case with its
// fields, and the frozen requests encode to exactly the bytes every owner has always read.

import BannerCore
import OwnerProtocol
import Testing

@Suite("owner messages: one case per command and answer, today's JSON on the wire")
struct MessageShapeTests {
    static func decode(_ json: String) throws -> OwnerRequest {
        try OwnerProtocol.decode(OwnerRequest.self, from: Array(json.utf8)).get()
    }

    @Test func everyCommandDecodesFromTheJSONOlderClientsSendIntoItsCase() throws {
        #expect(try Self.decode(#"{"v":2,"command":"status"}"#) == OwnerRequest(.status, version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"dismiss","dismiss":{"id":"net","all":false}}"#)
            == OwnerRequest(.dismiss(DismissRequest(id: "net")), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"quit","dismiss":{"all":true}}"#) == OwnerRequest(.quit(DismissRequest(all: true)), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"quit"}"#) == OwnerRequest(.quit(nil), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"stats","stats":{"after":"sync"}}"#) == OwnerRequest(.stats(StatsRequest(after: "sync")), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"stats"}"#) == OwnerRequest(.stats(nil), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"subscribe","subscribe":{"keepalive":5}}"#)
            == OwnerRequest(.subscribe(SubscribeRequest(keepalive: 5)), version: 2))
        #expect(try Self.decode(#"{"v":2,"command":"action","action":{"label":"Join","secondary":false}}"#)
            == OwnerRequest(.action(ActionRequest(label: "Join")), version: 2))
        #expect(try Self.decode(#"{"v":1,"command":"handover"}"#) == OwnerRequest(.handover, version: 1))
        let show = try Self.decode(
            #"{"v":2,"command":"show","show":{"settings":{"title":"Call"},"sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false}}"#)
        #expect(show.command == .show && show.show?.settings.title == "Call")
    }

    @Test func aShowWithoutItsFieldsIsRefusedNamingThem() {
        #expect(OwnerProtocol.decode(OwnerRequest.self, from: Array(#"{"v":2,"command":"show"}"#.utf8))
            == .failure(DecodeFailure(reason: "missing field 'show'")))
        #expect(OwnerProtocol.decode(OwnerRequest.self, from: Array(#"{"v":2,"command":"show-arguments"}"#.utf8))
            == .failure(DecodeFailure(reason: "missing field 'showArguments'")))
    }

    @Test func theFrozenRequestsAreTheBytesEveryOwnerReads() {
        #expect(String(decoding: OwnerProtocol.encode(OwnerRequest.frozen(.quit, version: 1)), as: UTF8.self) == #"{"command":"quit","v":1}"#)
        #expect(String(decoding: OwnerProtocol.encode(OwnerRequest.frozen(.handover, version: 7)), as: UTF8.self) == #"{"command":"handover","v":7}"#)
        #expect(String(decoding: OwnerProtocol.encode(OwnerRequest.status), as: UTF8.self) == #"{"command":"status","v":\#(OwnerProtocol.version)}"#)
    }

    @Test func everyAnswerDecodesFromTheJSONOlderOwnersSendIntoItsCase() throws {
        func decode(_ json: String) throws -> OwnerResponse.Message {
            try OwnerProtocol.decode(OwnerResponse.self, from: Array(json.utf8)).get().message
        }
        #expect(try decode(#"{"v":2,"error":{"kind":"usage","message":"unknown monitor 'HDMI-9'"}}"#)
            == .error(OwnerError(.usage, "unknown monitor 'HDMI-9'")))
        #expect(try decode(#"{"v":2,"shown":{"state":"presented","monitors":["screen"]},"warnings":["low contrast"]}"#)
            == .shown(ShownReply(state: .presented, monitors: ["screen"]), warnings: ["low contrast"]))
        #expect(try decode(#"{"v":2,"dismissed":3}"#) == .dismissed(3))
        #expect(try decode(#"{"v":2,"ended":"clicked"}"#) == .ended(.clicked))
        #expect(try decode(#"{"v":2,"keepalive":true}"#) == .keepalive)
        #expect(try decode(#"{"v":2,"stats":{"keys":{}},"more":true}"#) == .stats(BannerStats(), more: true))
        #expect(OwnerProtocol.decode(OwnerResponse.self, from: Array(#"{"v":2}"#.utf8))
            == .failure(DecodeFailure(reason: "missing field 'error, shown, dismissed, status, ended, stats, handover, held or keepalive'")))
        // The version error every owner sends, whatever it speaks.
        #expect(String(decoding: OwnerProtocol.encode(OwnerResponse(error: OwnerError(.version, "speak 2"))), as: UTF8.self)
            == #"{"error":{"kind":"version","message":"speak 2"},"v":\#(OwnerProtocol.version)}"#)
    }
}
