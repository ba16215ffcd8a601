// Seeded random answers for the bytes of the network the monitor still reads itself: the header
// lines and body pieces libcurl hands to HTTPAnswerReader, cut anywhere, and what BannerCore's
// HTTPCheckRule makes of the status, redirect target and body that come out. Whatever the
// bytes: no crash, every amount within its limit, and every report one printable line.
// `make test` runs a short pass; `make fuzz` sets WINDOW_BANNER_FUZZ_ITERATIONS=200000.

import BannerConfig
import BannerCore
import BannerMonitor
import Glibc
import NetworkPath
import ProcessTestSupport
import Testing

private let iterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? 3000

/// Bytes made of pieces an HTTP answer is made of, and random ones.
private func randomBytes(_ random: inout SplitMix64, pieces count: ClosedRange<Int> = 0...16) -> [UInt8] {
    let pieces = ["HTTP/1.1 ", "HTTP/2 ", "HTTP/1.0 ", "100", "200", "204", "302", "999", "20", " OK", "\r\n", "\n", "\r",
                  "\r\n\r\n", "Location: ", "http://", "https://", "file:///", "javascript:", "Transfer-Encoding: chunked",
                  "Content-Length: ", "-1", "ffffffffffffffffffff", ":", " ", "\u{0}", "\u{1B}[2J", "é", "NetworkManager is online"]
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: count, using: &random) {
        if Bool.random(using: &random), let piece = pieces.randomElement(using: &random) {
            bytes += Array(piece.utf8)
        } else {
            for _ in 0..<Int.random(in: 1...8, using: &random) { bytes.append(UInt8.random(in: 0...255, using: &random)) }
        }
    }
    return bytes
}

private func expectOneLine(_ text: String, below limit: Int) {
    #expect(!text.contains("\n") && !text.contains("\r"))
    #expect(text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
    #expect(text.count < limit)
}

@Suite("Fuzz: HTTP answers")
struct HTTPAnswerFuzzTests {
    @Test func anyHeaderLinesAndBodyPiecesStayWithinTheLimits() {
        var random = SplitMix64(seed: 21)
        for _ in 0..<iterations {
            let maximumBody = Bool.random(using: &random) ? 0 : Int.random(in: 1...4096, using: &random)
            var reader = HTTPAnswerReader(maximumBody: maximumBody)
            var stopped = false
            // Some answers get a long header block, so the limit itself is reached.
            let lines = Int.random(in: 0...(Bool.random(using: &random) ? 8 : 2000), using: &random)
            for _ in 0..<lines where !stopped {
                let line = randomBytes(&random, pieces: 0...4)
                stopped = !line.withUnsafeBytes { reader.header($0) }
            }
            for _ in 0..<Int.random(in: 0...8, using: &random) where !stopped {
                let piece = randomBytes(&random, pieces: 0...64)
                stopped = !piece.withUnsafeBytes { reader.body($0) }
            }
            #expect(reader.body.count <= maximumBody)
            #expect(reader.headerBytes <= HTTPCheckLimits.maximumHeaderBytes + 4096)
            if reader.brokenLimit != nil { #expect(stopped) }
            let ending = HTTPAnswerReader.Ending(
                succeeded: Bool.random(using: &random), timedOut: Bool.random(using: &random), brokeHTTP: Bool.random(using: &random),
                systemError: Bool.random(using: &random) ? nil : String(decoding: randomBytes(&random, pieces: 0...3), as: UTF8.self),
                message: String(decoding: randomBytes(&random, pieces: 0...40), as: UTF8.self))
            let answer = reader.answer(status: Int.random(in: -1...1000, using: &random), ending: ending, timeout: 10)
            switch answer {
            case .response(let status, _, let body):
                #expect((200...599).contains(status))
                #expect(body.count <= maximumBody)
            case .failure(let reason), .rejected(let reason):
                expectOneLine(reason, below: 240)
            }
        }
    }

    @Test func anyStatusTargetAndBodyMakeAOneLineReport() throws {
        var random = SplitMix64(seed: 2121)
        let url = try CheckURL("http://10.0.0.1:8080/check")
        for _ in 0..<iterations {
            let expected = Bool.random(using: &random) ? nil : String(decoding: randomBytes(&random, pieces: 0...3), as: UTF8.self)
            let rule = HTTPCheckRule(url: url, expectedBody: expected)
            let location = Bool.random(using: &random) ? nil : String(decoding: randomBytes(&random), as: UTF8.self)
            let report = rule.report(status: Int.random(in: 100...599, using: &random), location: location, body: randomBytes(&random))
            #expect(report.level == .full || report.level == .portal)
            expectOneLine(report.line, below: 2300)
            if let signIn = report.signIn {
                #expect(signIn.lowercased().hasPrefix("http://") || signIn.lowercased().hasPrefix("https://"))
                #expect(signIn.utf8.allSatisfy { (0x21...0x7E).contains($0) })
            }
            let failed = rule.report(noAnswer: String(decoding: randomBytes(&random, pieces: 0...64), as: UTF8.self))
            #expect(failed.level == .limited)
            expectOneLine(failed.line, below: 340)
        }
    }
}
