import BannerCore
import OwnerProtocol
import Testing

@Suite struct FrameTests {
    @Test func framesSurviveArrivingOneByteAtATime() throws {
        let bodies: [[UInt8]] = [Array("{\"v\":1}".utf8), Array(repeating: 0x41, count: 3000), [0x7B]]
        let stream = bodies.flatMap(Frame.encode)
        var reader = FrameReader()
        var received: [[UInt8]] = []
        for byte in stream {
            reader.append([byte])
            while let body = try reader.nextFrame() { received.append(body) }
        }
        #expect(received == bodies)
        #expect(reader.bufferedCount == 0)
    }

    @Test func oversizedLengthIsRefusedBeforeItsBodyArrives() {
        var reader = FrameReader()
        reader.append([0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: FrameError.badLength(0x7FFF_FFFF)) { try reader.nextFrame() }
    }

    @Test func zeroLengthIsRefused() {
        var reader = FrameReader()
        reader.append([0, 0, 0, 0])
        #expect(throws: FrameError.badLength(0)) { try reader.nextFrame() }
    }

    @Test func largestFrameIsAccepted() throws {
        var reader = FrameReader()
        reader.append(Frame.encode(Array(repeating: 0x20, count: Frame.maximumLength)))
        #expect(try reader.nextFrame()?.count == Frame.maximumLength)
    }

    @Test func truncatedFrameWaitsForMore() throws {
        var reader = FrameReader()
        reader.append(Frame.encode(Array("{\"v\":1}".utf8)).dropLast())
        #expect(try reader.nextFrame() == nil)
    }
}

@Suite struct MessageTests {
    @Test func showRequestRoundTrips() throws {
        let request = OwnerRequest(ShowRequest(
            settings: AppearanceSettings(title: "Call in progress", background: "#34C759", height: "44"),
            style: "call", configPath: "/home/u/.config/window-banner/config.toml", timeout: 3,
            monitor: "all", id: "call", enqueue: true, wait: true, directory: "/home/u",
            dataDirectories: ["/home/u/.local/share", "/usr/share"]))
        let body = OwnerProtocol.encode(request)
        #expect(OwnerProtocol.version(of: body) == OwnerProtocol.version)
        #expect(try OwnerProtocol.decode(OwnerRequest.self, from: body).get() == request)
    }

    @Test func versionIsReadFromAnyObjectWithV() {
        #expect(OwnerProtocol.version(of: Array("{\"v\":2,\"something\":[1,2]}".utf8)) == 2)
        #expect(OwnerProtocol.version(of: Array("not json".utf8)) == nil)
        #expect(OwnerProtocol.version(of: Array("{\"command\":\"show\"}".utf8)) == nil)
    }

    @Test func decodingFailuresNameTheProblem() {
        let missing = OwnerProtocol.decode(OwnerRequest.self, from: Array("{\"v\":1}".utf8))
        #expect(missing == .failure(DecodeFailure(reason: "missing field 'command'")))
        let wrongType = OwnerProtocol.decode(OwnerRequest.self, from: Array("{\"v\":\"one\",\"command\":\"show\"}".utf8))
        #expect(wrongType == .failure(DecodeFailure(reason: "wrong type at 'v'")))
        let garbage = OwnerProtocol.decode(OwnerRequest.self, from: [0xFF, 0x00, 0x13])
        #expect(garbage == .failure(DecodeFailure(reason: "not JSON")))
        let unknownCommand = OwnerProtocol.decode(OwnerRequest.self, from: Array("{\"v\":1,\"command\":\"explode\"}".utf8))
        #expect(unknownCommand == .failure(DecodeFailure(reason: "bad value at 'command'")))
    }

    @Test func responsesRoundTrip() throws {
        let responses = [
            OwnerResponse(error: OwnerError(.usage, "unknown monitor 'HDMI-9'")),
            OwnerResponse(shown: ShownReply(state: .queued, position: 2, monitors: ["screen"])),
            OwnerResponse(ended: .timeout),
            OwnerResponse(status: OwnerStatus(pid: 42, display: ":5", monitors: [
                MonitorStatus(monitor: "screen", primary: true, presented: true, title: "Offline", id: nil, height: 80,
                              reserved: 80, compact: false, mode: "transient", remaining: 1.5, queue: 1),
            ])),
        ]
        for response in responses {
            #expect(try OwnerProtocol.decode(OwnerResponse.self, from: OwnerProtocol.encode(response)).get() == response)
        }
    }
}
