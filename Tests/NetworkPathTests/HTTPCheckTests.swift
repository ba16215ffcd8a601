// NetworkPath's HTTP check (libcurl on the caller's poll loop) against real servers on this
// machine's loopback: the internet's 204, a portal's redirect and welcome page, a server that
// never answers, a port nobody listens on (Tests/Fakes/check-server.py), and every hostile
// answer of Tests/Fakes/hostile-server.py. Each check is driven by a poll loop like the
// monitor's, until its answer or a deadline.

import Foundation
import Glibc
import MonotonicClock
import NetworkPath
import ProcessTestSupport
import Testing

@Suite("HTTP check")
struct HTTPCheckTests {
    /// Runs one check of `url` on a poll loop of its own and returns its answer. The timeout is
    /// generous: an answer ends the check as soon as it is in, however busy the machine.
    func check(_ url: String, wantsBody: Bool = false, timeout: Double = 30) throws -> HTTPCheckAnswer {
        let check = try HTTPCheck(HTTPCheck.Request(url: url, wantsBody: wantsBody, maximumBody: 4096, timeout: timeout), clock: monotonicNow)
        let giveUp = monotonicSeconds() + timeout + 5
        while check.answer == nil {
            let now = monotonicSeconds()
            guard now < giveUp else { throw TestFailure("the check did not answer within \(timeout + 5) s") }
            let sockets = Array(check.sockets)
            var entries = sockets.map { pollfd(fd: $0.key, events: $0.value, revents: 0) }
            let wake = min(check.deadline?.seconds ?? giveUp, giveUp)
            _ = poll(&entries, nfds_t(entries.count), Int32(max(0, (wake - now) * 1000).rounded(.up)))
            for (index, socket) in sockets.enumerated() where entries[index].revents != 0 {
                check.socketReady(socket.key)
            }
            if let deadline = check.deadline, deadline.seconds <= monotonicSeconds() { check.deadlineReached() }
        }
        return try #require(check.answer)
    }

    // MARK: Honest servers

    @Test func noContentIsA204WithNoBody() throws {
        let server = try CheckServer(mode: .online)
        #expect(try check(server.url) == .response(status: 204, location: nil, body: []))
        #expect(server.waitForRequest() == "/check")
    }

    @Test func aRedirectBringsItsLocation() throws {
        let server = try CheckServer(mode: .redirect)
        #expect(try check(server.url) == .response(status: 302, location: "/portal/login?from=check", body: []))
    }

    @Test func theBodyIsReadOnlyWhenItMatters() throws {
        let server = try CheckServer(mode: .wrong)
        #expect(try check(server.url, wantsBody: true)
            == .response(status: 200, location: nil, body: Array("<html>Welcome to the hotel Wi-Fi</html>\n".utf8)))
        #expect(try check(server.url, wantsBody: false) == .response(status: 200, location: nil, body: []))
        try server.switchTo(.body)
        #expect(try check(server.url, wantsBody: true) == .response(status: 200, location: nil, body: Array("NetworkManager is online\n".utf8)))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try CheckServer(mode: .silent)
        #expect(try check(server.url, timeout: 0.5) == .failure("no answer within 0.5 s"))
    }

    @Test func aPortNobodyListensOnIsRefused() throws {
        // A port the server held and gave back: nothing listens there now.
        let port = try CheckServer(mode: .online).port
        #expect(try check("http://127.0.0.1:\(port)/check") == .failure("Connection refused"))
    }

    // MARK: Hostile servers

    /// An answer in a few words, for comparing: a long body as its size.
    func summary(_ answer: HTTPCheckAnswer) -> String {
        switch answer {
        case .response(let status, let location, let body): "\(status) to \(location ?? "-"), \(body.count) body bytes"
        case .failure(let reason): "failure: \(reason)"
        case .rejected(let reason): "rejected: \(reason)"
        }
    }

    /// What each hostile answer gives, with and without a body to read. A response is what the
    /// server said before it broke anything the check needed; libcurl's own refusals are
    /// matched by their start only (its words, which another version may change).
    @Test(arguments: [
        (HostileServer.Mode.garbage, true, "rejected: "),
        (.hugeChunk, false, "200 to -, 0 body bytes"),
        (.negativeChunk, false, "200 to -, 0 body bytes"),
        (.endlessLine, true, "rejected: a header line over 100 KiB (or out of memory)"),
        (.endlessHeaders, true, "rejected: headers over 32 KiB"),
        (.endlessInterim, true, "rejected: headers over 32 KiB"),
        (.endlessBody, true, "200 to -, 4096 body bytes"),
        (.endlessBody, false, "200 to -, 0 body bytes"),
        (.hugeLength, true, "rejected: "),
        (.drip, false, "rejected: answer not complete within 20 s"),
        (.redirectLoop, false, "302 to /check, 0 body bytes"),
        (.redirectFile, false, "302 to file:///etc/passwd, 0 body bytes"),
    ])
    func aHostileAnswerEndsTheCheckWithinItsLimits(mode: HostileServer.Mode, wantsBody: Bool, expected: String) throws {
        let server = try HostileServer(mode: mode)
        let got = summary(try check(server.url, wantsBody: wantsBody, timeout: 20))
        let wanted = expected.replacingOccurrences(of: "PORT", with: String(server.port))
        #expect(wanted.hasSuffix(": ") ? got.hasPrefix(wanted) && got.count > wanted.count : got == wanted, "\(got)")
    }

    @Test func aChunkSizeNoNumberCanHoldIsRefusedWhenTheBodyMatters() throws {
        // The answer that crashed the hand-written client (issue 21): 20 hex digits.
        let server = try HostileServer(mode: .hugeChunk)
        guard case .rejected(let reason) = try check(server.url, wantsBody: true) else {
            Issue.record("a chunk size of 20 hex digits was read")
            return
        }
        #expect(!reason.isEmpty)
        try server.switchTo(.negativeChunk)
        guard case .rejected = try check(server.url, wantsBody: true) else {
            Issue.record("a negative chunk size was read")
            return
        }
    }

    @Test func anIPv6AddressIsChecked() throws {
        let server = try HostileServer(mode: .online, ipv6: true)
        #expect(server.url.hasPrefix("http://[::1]:"))
        #expect(try check(server.url) == .response(status: 204, location: nil, body: []))
    }

    @Test func anHTTPSCheckVerifiesTheCertificate() throws {
        // A certificate no authority signed, as a portal breaking into TLS would show: no answer.
        let directory = try Subprocess.run("/bin/mktemp", ["-d", "/tmp/wb-tls-XXXXXX"]).trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
        _ = try Subprocess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem",
        ])
        let server = try HostileServer(mode: .online, tls: (directory + "/cert.pem", directory + "/key.pem"))
        #expect(server.url.hasPrefix("https://127.0.0.1:"))
        guard case .failure(let reason) = try check(server.url) else {
            Issue.record("an untrusted certificate was accepted")
            return
        }
        #expect(reason.contains("certificate"), "\(reason)")
    }

    @Test func aResetIsNoAnswer() throws {
        let server = try HostileServer(mode: .reset)
        #expect(try check(server.url) == .failure("Connection reset by peer"))
    }
}
