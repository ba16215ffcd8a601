// Protocol 3's messages for private banners: a watcher's `sharing` report (one boolean, anything
// else refused naming what is wrong), the owner's `held` answer and state, `show`'s `private`
// and `status`'s `waiting` banners, and a private banner handed over with `--private`.

import BannerCore
import OwnerProtocol
import Testing

@Suite("sharing reports and private banners on the wire")
struct SharingMessageTests {
    static func decode(_ json: String) -> Result<OwnerRequest, DecodeFailure> {
        OwnerProtocol.decode(OwnerRequest.self, from: Array(json.utf8))
    }

    @Test func aSharingReportIsOneBooleanUnderItsCommand() throws {
        let report = OwnerRequest(SharingReport(sharing: true))
        #expect(String(decoding: OwnerProtocol.encode(report), as: UTF8.self)
            == #"{"command":"sharing","sharing":{"sharing":true},"v":\#(OwnerProtocol.version)}"#)
        #expect(try Self.decode(#"{"v":3,"command":"sharing","sharing":{"sharing":false}}"#).get()
            == OwnerRequest(.sharing(SharingReport(sharing: false)), version: 3))
    }

    @Test func aReportOfAnyOtherShapeIsRefusedNamingWhatIsWrong() {
        for (json, reason) in [
            (#"{"v":3,"command":"sharing"}"#, "missing field 'sharing'"),
            (#"{"v":3,"command":"sharing","sharing":null}"#, "wrong type at 'sharing'"),
            (#"{"v":3,"command":"sharing","sharing":{}}"#, "missing field 'sharing'"),
            (#"{"v":3,"command":"sharing","sharing":{"sharing":1}}"#, "wrong type at 'sharing.sharing'"),
            (#"{"v":3,"command":"sharing","sharing":{"sharing":"true"}}"#, "wrong type at 'sharing.sharing'"),
            (#"{"v":3,"command":"sharing","sharing":"on"}"#, "wrong type at 'sharing'"),
            (#"{"v":3,"command":"sharing-on"}"#, "bad value at 'command'"),
        ] {
            #expect(Self.decode(json) == .failure(DecodeFailure(reason: reason)), "\(json)")
        }
    }

    @Test func theOwnerAnswersHowManyItHoldsAndAHeldShowSaysSo() throws {
        func decode(_ json: String) throws -> OwnerResponse.Message {
            try OwnerProtocol.decode(OwnerResponse.self, from: Array(json.utf8)).get().message
        }
        #expect(try decode(#"{"v":3,"held":2}"#) == .held(2))
        #expect(try decode(#"{"v":3,"shown":{"state":"held","monitors":["HDMI-1"],"wait":true}}"#)
            == .shown(ShownReply(state: .held, monitors: ["HDMI-1"], wait: true), warnings: nil))
    }

    @Test func aShowsPrivateIsOptionalAndTravelsWhenSet() throws {
        let older = try Self.decode(
            #"{"v":3,"command":"show","show":{"settings":{"title":"Pay"},"sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false}}"#
        ).get()
        #expect(older.show?.private == nil)
        let marked = try Self.decode(
            #"{"v":3,"command":"show","show":{"settings":{"title":"Pay"},"sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false,"private":true}}"#
        ).get()
        #expect(marked.show?.private == true)
        let handed = Handover.describe(try #require(marked.show), environment: nil, display: ":0", mode: .sticky, enqueue: false)
        #expect(handed.arguments.contains("--private"))
    }

    @Test func statusListsTheHeldBannersAndCutsTheirTextsToFit() throws {
        let held = HeldBannerStatus(held: "sharing", title: String(repeating: "p", count: 40_000), id: "pay", monitors: ["HDMI-1"])
        let status = OwnerStatus(pid: 1, display: ":0", monitors: [], waiting: [held])
        let fitted = status.fitted(within: 16_000)
        #expect(OwnerProtocol.encode(OwnerResponse(status: fitted)).count <= 16_000)
        #expect(fitted.waiting?.first?.title.hasSuffix("…") == true)
        #expect(fitted.waiting?.first?.held == "sharing")
        let json = String(decoding: OwnerProtocol.encode(OwnerStatus(pid: 1, display: ":0", monitors: [], waiting: [
            HeldBannerStatus(held: "sharing", title: "Pay", monitors: ["HDMI-1"]),
        ])), as: UTF8.self)
        #expect(json == #"{"display":":0","monitors":[],"pid":1,"waiting":[{"held":"sharing","monitors":["HDMI-1"],"title":"Pay"}]}"#)
    }
}
