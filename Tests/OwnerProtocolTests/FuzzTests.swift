// Seeded random input for the owner's decoder: random bytes, valid frames with bytes flipped,
// cut, or spliced. The decoder must never crash, never buffer past one frame's bound, and
// answer every bad input with a one-line reason. WINDOW_BANNER_FUZZ_ITERATIONS runs longer
// (`make fuzz`); the default is a short pass for `make test`.

import BannerCore
import Glibc
import OwnerProtocol
import ProcessTestSupport
import Testing

/// Iterations per fuzz test.
let fuzzIterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? 3000

@Suite("Fuzz: the owner's decoder")
struct ProtocolFuzzTests {
    static let samples: [[UInt8]] = [
        OwnerProtocol.encode(OwnerRequest(ShowRequest(settings: AppearanceSettings(title: "Offline", background: "systemRed", height: "44"),
                                                      style: "offline", timeout: 2, id: "net", enqueue: true, wait: true))),
        OwnerProtocol.encode(OwnerRequest(DismissRequest(monitor: "all", id: "net", all: true))),
        OwnerProtocol.encode(OwnerRequest.status),
        OwnerProtocol.encode(OwnerRequest.stats(after: "sync")),
        OwnerProtocol.encode(OwnerRequest.frozen(.handover, version: 1)),
        // What a client reads from an owner of another version.
        OwnerProtocol.encode(OwnerResponse(handover: Handover(banners: [
            ShowArgumentsRequest(arguments: ["--title", "Call", "--sticky"], environment: ["LANG": "C"], directory: "/"),
        ]))),
    ]

    @Test func randomBytesNeverCrashTheFrameReaderOrDecoder() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<fuzzIterations {
            var reader = FrameReader()
            let bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var offset = 0
            while offset < bytes.count {
                let step = Int.random(in: 1...64, using: &random)
                reader.append(bytes[offset..<min(bytes.count, offset + step)])
                offset += step
                do {
                    while let body = try reader.nextFrame() { check(body) }
                } catch {
                    #expect("\(error)".contains("frame length"))
                    break
                }
                #expect(reader.bufferedCount <= Frame.maximumLength + 4)
            }
        }
    }

    @Test func mutatedValidRequestsDecodeOrFailWithOneLine() {
        var random = SplitMix64(seed: 2)
        for _ in 0..<fuzzIterations {
            var body = Self.samples.randomElement(using: &random) ?? []
            switch Int.random(in: 0...3, using: &random) {
            case 0:
                for _ in 0...Int.random(in: 0...4, using: &random) where !body.isEmpty {
                    body[Int.random(in: 0..<body.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                body = Array(body.prefix(Int.random(in: 0...body.count, using: &random)))
            case 2:
                let other = Self.samples.randomElement(using: &random) ?? []
                body = Array(body.prefix(Int.random(in: 0...body.count, using: &random))) + other.suffix(Int.random(in: 0...other.count, using: &random))
            default:
                let insert = Array(#"{}[]":,0-9eE.\u0000"#.utf8)
                for _ in 0...Int.random(in: 0...4, using: &random) {
                    body.insert(insert.randomElement(using: &random) ?? 0, at: Int.random(in: 0...body.count, using: &random))
                }
            }
            check(body)
        }
    }

    private func check(_ body: [UInt8]) {
        _ = OwnerProtocol.version(of: body)
        switch OwnerProtocol.decode(OwnerRequest.self, from: body) {
        case .success(let request):
            // Whatever decodes must encode again without loss.
            #expect((try? OwnerProtocol.decode(OwnerRequest.self, from: OwnerProtocol.encode(request)).get()) == request)
        case .failure(let failure):
            #expect(!failure.reason.isEmpty && !failure.reason.contains("\n"))
        }
        if case .success(let response) = OwnerProtocol.decode(OwnerResponse.self, from: body) {
            #expect((try? OwnerProtocol.decode(OwnerResponse.self, from: OwnerProtocol.encode(response)).get()) == response)
        }
    }
}
