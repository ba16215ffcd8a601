// NetworkPath's HTTP check against a real HTTP server on this machine's loopback
// (Tests/Fakes/check-server.py): what comes back for the internet's 204, a portal's redirect
// and welcome page, a server that never answers, and a port nobody listens on. Each wait is
// for the check's own descriptor, with a deadline.

import Glibc
import NetworkPath
import ProcessTestSupport
import Testing

@Suite("HTTP check")
struct HTTPCheckTests {
    /// Runs one check of `port`'s /check and waits for its answer.
    func check(port: Int, wantsBody: Bool = false, timeout: Double = 5) throws -> HTTPCheckAnswer {
        let check = try HTTPCheck(HTTPCheck.Request(
            host: "127.0.0.1", port: UInt16(port), path: "/check", hostHeader: "127.0.0.1:\(port)",
            wantsBody: wantsBody, maximumBody: 4096, timeout: timeout))
        var entry = pollfd(fd: check.fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32((timeout + 5) * 1000)) == 1, let answer = check.answer else {
            throw TestFailure("the check did not answer within \(timeout + 5) s")
        }
        return answer
    }

    @Test func noContentIsA204WithNoBody() throws {
        let server = try CheckServer(mode: .online)
        #expect(try check(port: server.port) == .response(status: 204, location: nil, body: []))
        #expect(server.waitForRequest() == "/check")
    }

    @Test func aRedirectBringsItsLocation() throws {
        let server = try CheckServer(mode: .redirect)
        #expect(try check(port: server.port) == .response(status: 302, location: "/portal/login?from=check", body: []))
    }

    @Test func theBodyIsReadOnlyWhenItMatters() throws {
        let server = try CheckServer(mode: .wrong)
        #expect(try check(port: server.port, wantsBody: true)
            == .response(status: 200, location: nil, body: Array("<html>Welcome to the hotel Wi-Fi</html>\n".utf8)))
        #expect(try check(port: server.port, wantsBody: false) == .response(status: 200, location: nil, body: []))
        try server.switchTo(.body)
        #expect(try check(port: server.port, wantsBody: true) == .response(status: 200, location: nil, body: Array("NetworkManager is online\n".utf8)))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try CheckServer(mode: .silent)
        #expect(try check(port: server.port, timeout: 0.5) == .failure("no answer within 0.5 s"))
    }

    @Test func aPortNobodyListensOnIsRefused() throws {
        // A port the server held and gave back: nothing listens there now.
        let port = try CheckServer(mode: .online).port
        #expect(try check(port: port) == .failure("Connection refused"))
    }
}
