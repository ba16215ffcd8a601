// The connectivity rules: NetworkManager's values, what an HTTP check's answer means, how a
// route and a report make offline / portal / online, and the check URL's parts.

import BannerConfig
import BannerCore
import BannerMonitor
import Testing

@Suite("Connectivity check rules")
struct ConnectivityCheckTests {
    static func url() throws -> CheckURL { try CheckURL("http://10.0.0.1:8080/check") }

    // MARK: Route and report

    @Test func noRouteIsOfflineWhateverTheSourceSaid() {
        let full = ConnectivityReport(level: .full, reason: "networkmanager")
        #expect(NetworkConnectivity.judge(routeExists: false, report: full) == .offline)
        #expect(NetworkConnectivity.judge(routeExists: false, report: nil) == .offline)
    }

    @Test func withARouteTheReportDecides() {
        func judge(_ level: ConnectivityLevel) -> NetworkConnectivity {
            NetworkConnectivity.judge(routeExists: true, report: .networkManager(level, checkURL: "http://check/"))
        }
        #expect(judge(.full) == .online)
        #expect(judge(.portal) == .portal(signIn: "http://check/"))
        #expect(judge(.limited) == .offline)
        #expect(judge(.none) == .offline)
        // NetworkManager with its check off, or no report at all: the route is all there is.
        #expect(judge(.unknown) == .online)
        #expect(NetworkConnectivity.judge(routeExists: true, report: nil) == .online)
    }

    @Test func networkManagersValuesAreItsConnectivityStates() {
        #expect(ConnectivityLevel(networkManagerValue: 0) == .unknown)
        #expect(ConnectivityLevel(networkManagerValue: 1) == ConnectivityLevel.none)
        #expect(ConnectivityLevel(networkManagerValue: 2) == .portal)
        #expect(ConnectivityLevel(networkManagerValue: 3) == .limited)
        #expect(ConnectivityLevel(networkManagerValue: 4) == .full)
        #expect(ConnectivityLevel(networkManagerValue: 5) == nil)
        #expect(ConnectivityReport.networkManager(.portal, checkURL: "http://check/").line == "connectivity portal (networkmanager)")
    }

    @Test func sourcesParseAndABadOneIsNamed() throws {
        #expect(try ConnectivitySource(parsing: "networkmanager") == .networkmanager)
        #expect(ConnectivitySource.default == .auto)
        #expect(throws: BannerValueError.connectivitySource("nm")) { try ConnectivitySource(parsing: "nm") }
    }

    // MARK: HTTP answers

    @Test func withoutAnExpectedBody204IsOnlineAndAnythingElseAPortal() throws {
        let rule = HTTPCheckRule(url: try Self.url(), expectedBody: nil)
        #expect(rule.report(status: 204, location: nil, body: []).level == .full)
        let wrong = rule.report(status: 200, location: nil, body: Array("welcome".utf8))
        #expect(wrong.level == .portal)
        #expect(wrong.signIn == "http://10.0.0.1:8080/check")
        #expect(wrong.line == "connectivity portal (http: unexpected 200 from http://10.0.0.1:8080/check)")
    }

    @Test func anExpectedBodyIsAPrefixOfA2xxAnswer() throws {
        let rule = HTTPCheckRule(url: try Self.url(), expectedBody: "NetworkManager is online")
        #expect(rule.report(status: 200, location: nil, body: Array("NetworkManager is online\n".utf8)).level == .full)
        #expect(rule.report(status: 200, location: nil, body: Array("Welcome".utf8)).reason
            == "http: 200 without the expected body from http://10.0.0.1:8080/check")
        #expect(rule.report(status: 204, location: nil, body: []).level == .portal)
        // An empty expected body is no expected body.
        #expect(HTTPCheckRule(url: try Self.url(), expectedBody: "").report(status: 204, location: nil, body: []).level == .full)
    }

    @Test func aRedirectSignsInAtItsTarget() throws {
        let rule = HTTPCheckRule(url: try Self.url(), expectedBody: nil)
        #expect(rule.report(status: 302, location: "http://portal.example/login", body: []).signIn == "http://portal.example/login")
        #expect(rule.report(status: 307, location: "/login?x=1", body: []).signIn == "http://10.0.0.1:8080/login?x=1")
        #expect(rule.report(status: 302, location: "login", body: []).signIn == "http://10.0.0.1:8080/login")
        // A redirect with nowhere to go is still not the internet.
        #expect(rule.report(status: 302, location: nil, body: []).signIn == "http://10.0.0.1:8080/check")
    }

    @Test(arguments: [
        "file:///etc/passwd", "javascript:alert(1)", "http://portal/a b", "http://portal/\nconnectivity full (forged)",
        "http://portal/" + String(repeating: "a", count: 2048),
    ])
    func aRedirectNoBrowserShouldOpenSignsInAtTheCheckURL(location: String) throws {
        let report = HTTPCheckRule(url: try Self.url(), expectedBody: nil).report(status: 302, location: location, body: [])
        #expect(report.level == .portal)
        #expect(report.signIn == "http://10.0.0.1:8080/check")
        #expect(report.reason == "http: unexpected 302 from http://10.0.0.1:8080/check")
    }

    @Test func aReasonFromTheNetworkIsOneShortLine() throws {
        let report = HTTPCheckRule(url: try Self.url(), expectedBody: nil).report(noAnswer: "bad\r\nconnectivity full" + String(repeating: "x", count: 1000))
        #expect(report.line.hasPrefix("connectivity limited (http: bad  connectivity full"))
        #expect(!report.line.contains("\n") && report.line.count < 340)
    }

    @Test func secondsOutsideTheirRangeAreNamed() throws {
        #expect(throws: BannerValueError.seconds("1e10", range: HTTPCheckRule.timeoutRange)) { try HTTPCheckRule.timeoutRange.parse("1e10") }
        #expect(BannerValueError.seconds("1e10", range: HTTPCheckRule.timeoutRange).description == "bad check timeout '1e10' (seconds, 0.1 to 300)")
        #expect(throws: BannerValueError.seconds("0", range: HTTPCheckRule.intervalRange)) { try HTTPCheckRule.intervalRange.parse("0") }
        #expect(throws: BannerValueError.seconds("nan", range: HTTPCheckRule.intervalRange)) { try HTTPCheckRule.intervalRange.parse("nan") }
        #expect(try HTTPCheckRule.timeoutRange.parse("300") == 300)
        #expect(try HTTPCheckRule.intervalRange.parse("1") == 1)
    }

    @Test func noAnswerIsLimited() throws {
        let report = HTTPCheckRule(url: try Self.url(), expectedBody: nil).report(noAnswer: "no answer within 10 s at http://10.0.0.1:8080/check")
        #expect(report.level == .limited)
        #expect(NetworkConnectivity.judge(routeExists: true, report: report) == .offline)
    }

    // MARK: Check URLs

    @Test func checkURLsSplitIntoHostPortAndPath() throws {
        let plain = try CheckURL("http://connectivity-check.ubuntu.com/")
        #expect(plain.host == "connectivity-check.ubuntu.com")
        #expect(plain.port == 80)
        #expect(plain.path == "/")
        #expect(plain.hostHeader == "connectivity-check.ubuntu.com")
        let full = try CheckURL("HTTP://[fd00::1]:8080/check?x=1#top")
        #expect(full.host == "fd00::1")
        #expect(full.port == 8080)
        #expect(full.path == "/check?x=1")
        #expect(full.hostHeader == "[fd00::1]:8080")
        #expect(full.description == "http://[fd00::1]:8080/check?x=1")
        #expect(try CheckURL("http://host").path == "/")
        #expect(try CheckURL("http://host?q").path == "/?q")
        let secure = try CheckURL("HTTPS://check.example/generate_204")
        #expect(secure.scheme == "https")
        #expect(secure.port == 443)
        #expect(secure.description == "https://check.example/generate_204")
        #expect(try CheckURL("https://[::1]:8443/").description == "https://[::1]:8443/")
        #expect(secure.resolve(location: "//portal.example/") == "https://portal.example/")
    }

    @Test(arguments: ["ftp://host/", "https://", "https://host:0/", "http://", "http://:80/", "http://host:0/", "http://host:65536/", "http://user@host/", "http://host/a b", "host/"])
    func badCheckURLsAreNamed(text: String) {
        #expect(throws: BannerValueError.checkURL(text)) { try CheckURL(text) }
    }

    @Test func onlyLiteralLocalAddressesAndLocalhostAreLocal() throws {
        for local in ["localhost", "127.0.0.1", "10.1.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.0.1", "[::1]", "[fd12::1]", "[fe80::1]"] {
            #expect(try CheckURL("http://\(local)/").isLocal, "\(local)")
        }
        for remote in ["connectivity-check.ubuntu.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "[2001:db8::1]", "10.0.0", "localhost.example"] {
            #expect(try CheckURL("http://\(remote)/").isLocal == false, "\(remote)")
        }
    }
}
