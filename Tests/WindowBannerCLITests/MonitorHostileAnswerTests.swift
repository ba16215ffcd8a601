// `window-banner monitor --connectivity http` against a hostile network: in a private network
// namespace, the check URL is served by Tests/Fakes/hostile-server.py, which answers with each
// malformed answer in turn (garbage, a chunk size no number holds, a negative one, an endless
// header line, endless headers, endless interim answers, an endless body, a huge length, a slow
// drip, a reset, a redirect loop, a redirect to a file). After each the test awaits the
// monitor's verdict line and banner, checks the one warning on stderr, that the process still
// runs, and its resident memory; then the honest answer again, so every verdict is news.
// Memory is read from /proc (VmRSS) and bounded generously: the point is "bounded", not a figure.
// Last, the user's proxy variable: the check goes through the proxy the session names.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite(
        "monitor: hostile answers to the connectivity check",
        // Needs root for the namespace; under CI=true it runs anyway, so a missing root fails.
        .needsRoot("creating network namespaces")
    )
    struct MonitorHostileAnswerTests {
        /// One hostile answer, the report it gives, the banner that follows, and whether it is
        /// warned about on stderr (an answer that broke HTTP or a limit, not a missing one).
        struct Case: CustomStringConvertible, Sendable {
            let mode: HostileServer.Mode
            let report: String
            let banner: String
            let warns: Bool
            var description: String { mode.rawValue }
        }

        static func cases(url: String) -> [Case] {
            let limited = "connectivity limited (http: "
            let portal = "connectivity portal (http: "
            return [
                Case(mode: .garbage, report: limited + "bad answer: ", banner: "offline banner shown", warns: true),
                // The answer that crashed the hand-written client: the chunk size overflowed.
                Case(mode: .hugeChunk, report: limited + "bad answer: ", banner: "offline banner shown", warns: true),
                Case(mode: .negativeChunk, report: limited + "bad answer: ", banner: "offline banner shown", warns: true),
                Case(mode: .endlessLine, report: limited + "bad answer: a header line over 100 KiB (or out of memory) at \(url))", banner: "offline banner shown", warns: true),
                Case(mode: .endlessHeaders, report: limited + "bad answer: headers over 32 KiB at \(url))", banner: "offline banner shown", warns: true),
                Case(mode: .endlessInterim, report: limited + "bad answer: headers over 32 KiB at \(url))", banner: "offline banner shown", warns: true),
                // The first 4 KiB are read and are not the expected text.
                Case(mode: .endlessBody, report: portal + "200 without the expected body from \(url))", banner: "portal banner shown", warns: false),
                Case(mode: .hugeLength, report: limited + "bad answer: ", banner: "offline banner shown", warns: true),
                Case(mode: .drip, report: limited + "bad answer: answer not complete within 10 s at \(url))", banner: "offline banner shown", warns: true),
                Case(mode: .reset, report: limited + "connection reset by peer at \(url))", banner: "offline banner shown", warns: false),
                // Redirects are not followed: the first one is the verdict.
                Case(mode: .redirectLoop, report: portal + "302 to \(url))", banner: "portal banner shown", warns: false),
                // A target no browser should be handed: the portal signs in at the check URL.
                Case(mode: .redirectFile, report: portal + "unexpected 302 from \(url))", banner: "portal banner shown", warns: false),
            ]
        }

        /// VmRSS of `pid` in KiB, from /proc.
        static func residentKiB(_ pid: pid_t) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        }

        /// Events up to and including the first for which `matches` holds (others are banners
        /// coming and going on the way); fails naming what came instead.
        static func awaitEvent(_ monitor: MonitorProcess, _ what: String, _ matches: (String) -> Bool) throws -> String {
            var seen: [String] = []
            while seen.count < 8 {
                let event = try monitor.nextEvent(timeout: 30)
                if matches(event) { return event }
                seen.append(event)
            }
            throw TestFailure("no \(what) from the monitor; it printed \(seen)")
        }

        @Test func everyHostileAnswerIsLimitedOrAPortalAndTheMonitorStaysUpAndSmall() throws {
            try #require(geteuid() == 0, "creating network namespaces needs root (CI=true: this test must run)")
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.ip("link set lo up")
            try namespace.connectIPv4()
            let server = try HostileServer(mode: .body, in: namespace.command([]))
            let url = server.url
            let online = "connectivity full (http: 200 with the expected body from \(url))"
            // An expected body: the case in which the old client read the chunks it overflowed on.
            let monitor = try MonitorProcess(
                owner, in: namespace,
                ["--connectivity", "http", "--check-url", url, "--check-expect", "NetworkManager is online",
                 "--check-interval", "1", "--check-timeout", "10", "--hide-delay", "600"])
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == online)
            let pid = monitor.process.pid
            let before = try Self.residentKiB(pid)
            var peak = before
            let warning = "window-banner: warning: dropped the connectivity check's answer from \(url): "
            func warnings() -> Int { monitor.process.standardError.components(separatedBy: warning).count - 1 }

            for hostile in Self.cases(url: url) {
                let warned = warnings()
                try server.switchTo(hostile.mode)
                let report = try Self.awaitEvent(monitor, "report for \(hostile)") { $0.hasPrefix("connectivity ") }
                #expect(report.hasPrefix(hostile.report), "\(hostile): \(report)")
                #expect(try Self.awaitEvent(monitor, "banner for \(hostile)") { $0.hasSuffix("banner shown") } == hostile.banner, "\(hostile)")
                // One warning for an answer that broke HTTP or a limit; none for no answer.
                #expect(warnings() == warned + (hostile.warns ? 1 : 0), "\(hostile): \(monitor.process.standardError)")
                // Still running, and answering: the next honest answer is heard.
                #expect(kill(pid, 0) == 0, "\(hostile): the monitor is gone")
                peak = max(peak, try Self.residentKiB(pid))
                try server.switchTo(.body)
                #expect(try Self.awaitEvent(monitor, "online after \(hostile)") { $0.hasPrefix("connectivity ") } == online, "\(hostile)")
                #expect(try Self.awaitEvent(monitor, "restored banner after \(hostile)") { $0.hasSuffix("banner shown") } == "restored banner shown")
            }
            // The monitor loaded libcurl; the owner it started, the same program, did not.
            // (cat: /proc files report no size, and a sized read stops at the first page.)
            #expect(try Subprocess.run("/bin/cat", ["/proc/\(pid)/maps"]).contains("/libcurl.so.4"))
            let owners = owner.ownerProcesses()
            #expect(owners.count == 1)
            for ownerPID in owners {
                #expect(try !Subprocess.run("/bin/cat", ["/proc/\(ownerPID)/maps"]).contains("/libcurl.so.4"))
            }
            let after = try Self.residentKiB(pid)
            peak = max(peak, after)
            // Generous: libcurl, OpenSSL and the owner connection are all in `before`; an answer
            // held in memory would be tens of MiB (each endless one sends hundreds).
            #expect(peak - before < 16 * 1024, "VmRSS \(before) KiB before, peak \(peak) KiB, \(after) KiB after")
            print("monitor VmRSS: \(before) KiB before the hostile answers, peak \(peak) KiB, \(after) KiB after")
            #expect(monitor.terminate().status == 0)
        }

        @Test func theUsersProxyCarriesTheCheck() throws {
            try #require(geteuid() == 0, "creating network namespaces needs root (CI=true: this test must run)")
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.ip("link set lo up")
            try namespace.connectIPv4()
            // 10.1.0.1 is the route's gateway, which nobody plays: only the proxy can answer.
            let proxy = try HostileServer(mode: .online, in: namespace.command([]))
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--connectivity", "http", "--check-url", "http://10.1.0.1/check", "--check-timeout", "30"],
                environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (http: 204 from http://10.1.0.1/check)")
            #expect(monitor.terminate().status == 0)
        }
    }
}
