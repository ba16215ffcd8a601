// What the owner must survive without wedging the desktop: bad values on every flag, hostile
// peers on its socket, other users, a window manager that dies or comes late, and a crowd of
// clients at once. Each test checks that the visible banner keeps showing and the owner keeps
// answering.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("reliability: bad input, hostile peers, other users, WM restarts, load")
    struct ReliabilityTests {
        /// One bad `show` and what it must give back.
        struct BadShow: CustomTestStringConvertible {
            var arguments: [String]
            var status: Int32
            /// Text the single stderr line must contain.
            var mentions: String
            var testDescription: String { arguments.map { $0.count > 40 ? "<\($0.utf8.count) bytes>" : $0 }.joined(separator: " ") }
        }

        /// Every flag of `show` with empty, huge, negative, NaN/inf, wrong-type and
        /// control-character values. 100 KiB is close to the largest single argument Linux passes
        /// (MAX_ARG_STRLEN, 128 KiB); the library refuses a 1 MiB title the same way.
        static let badShows: [BadShow] = {
            let huge = String(repeating: "a", count: 100 * 1024)
            var cases: [BadShow] = [
                BadShow(arguments: ["--title", huge], status: 64, mentions: "title too long: 102400 bytes"),
                BadShow(arguments: ["--subtitle", huge], status: 64, mentions: "subtitle too long: 102400 bytes"),
                BadShow(arguments: ["--id", huge], status: 64, mentions: "request too large"),
                BadShow(arguments: ["--timeout", "0"], status: 64, mentions: "'0'"),
                BadShow(arguments: ["--timeout", "-1"], status: 64, mentions: "'-1'"),
                BadShow(arguments: ["--timeout", "nan"], status: 64, mentions: "'nan'"),
                BadShow(arguments: ["--timeout", "inf"], status: 64, mentions: "'inf'"),
                BadShow(arguments: ["--timeout", "soon"], status: 64, mentions: "'soon'"),
                BadShow(arguments: ["--timeout="], status: 64, mentions: "--timeout"),
                BadShow(arguments: ["--monitor", ""], status: 64, mentions: "''"),
                BadShow(arguments: ["--monitor", "HDMI-9"], status: 64, mentions: "'HDMI-9'"),
                BadShow(arguments: ["--monitor", "\u{1B}[2J"], status: 64, mentions: "'\\u{1b}[2J'"),
                BadShow(arguments: ["--style", ""], status: 64, mentions: "''"),
                BadShow(arguments: ["--style", "nope"], status: 64, mentions: "'nope'"),
                BadShow(arguments: ["--sticky", "--transient"], status: 64, mentions: "--sticky"),
                BadShow(arguments: ["--no-such-flag"], status: 64, mentions: "'--no-such-flag'"),
                BadShow(arguments: ["--display", ":999"], status: 69, mentions: "':999'"),
            ]
            for flag in ["--background", "--text-color"] {
                for value in ["", "-1", "nan", "#12345", "#GGGGGG", "\u{1B}[31m", huge] {
                    cases.append(BadShow(arguments: [flag, value], status: 64, mentions: mention(value, flag: flag)))
                }
            }
            for flag in ["--height", "--title-top-inset"] {
                for value in ["", "-5", "nan", "inf", "-inf", "1e309", "tall", "\u{7}", huge] {
                    cases.append(BadShow(arguments: [flag, value], status: 64, mentions: mention(value, flag: flag)))
                }
            }
            for flag in ["--font", "--subtitle-font"] {
                for value in ["Sans:size=-3", "Sans:size=nan", "Sans:size=inf", "Sans:size=0", "Sans:weight=heavyish"] {
                    cases.append(BadShow(arguments: [flag, value], status: 64, mentions: "'\(value)'"))
                }
            }
            for value in ["", "sideways", "\u{7F}"] {
                cases.append(BadShow(arguments: ["--compact", value], status: 64, mentions: mention(value, flag: "--compact")))
            }
            return cases
        }()

        /// What the message quotes: the value as printed (control characters escaped, long
        /// values cut with …).
        static func mention(_ value: String, flag: String) -> String {
            value.count > 80 ? "…" : "'\(value.printableForTest)'"
        }

        @Test func everyBadValueGetsOneLineAndItsCodeWhileTheVisibleBannerStays() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let window = owner.observer.windows(named: "window-banner")
            for bad in Self.badShows {
                let outcome = try owner.run(["show", "--title", "Bad"] + bad.arguments)
                #expect(outcome.status == bad.status, "\(bad.testDescription): \(outcome.error)")
                let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 2 && lines[1].isEmpty, "\(bad.testDescription): not one line: \(outcome.error.prefix(300))")
                #expect(outcome.error.hasPrefix("window-banner: "))
                #expect(outcome.error.contains(bad.mentions), "\(bad.testDescription): \(outcome.error.prefix(300))")
                #expect(outcome.error.utf8.count < 400, "\(bad.testDescription): message not cut")
            }
            let status = try owner.status()
            #expect(status.title == "Visible")
            #expect(owner.observer.windows(named: "window-banner") == window)
            #expect(owner.observer.workAreas() == owner.fixture.workAreas(shrunkBy: 80))
        }

        @Test func invalidUTF8AndControlCharactersInATitleAreShownNotFatal() throws {
            let owner = try OwnerFixture()
            let outcome = try owner.fixture.launch(rawArguments: [Array("show".utf8), Array("--title".utf8), [0x4F, 0x66, 0xFF, 0xFE, 0x0A, 0x07, 0x66]])
            #expect(outcome.waitForExit() == 0)
            #expect(outcome.standardError == "")
            let title = try #require(try owner.status().title)
            #expect(title.hasPrefix("Of\u{FFFD}\u{FFFD}"))
        }

        @Test func hostilePeersNeverStopTheOwnerServing() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let pid = try #require(owner.ownerProcesses().first)
            let rssBefore = residentKiB(of: pid)
            let path = owner.socketPath
            var generator = SplitMix64(seed: 0x5EED)

            // Random bytes, some long enough to look like huge length prefixes.
            for _ in 0..<50 {
                let socket = try RawSocket(path)
                socket.write((0..<Int.random(in: 1...4000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }
            // An oversized length prefix is answered with a protocol error and closed.
            let oversized = try RawSocket(path)
            oversized.write([0x7F, 0xFF, 0xFF, 0xFF])
            #expect(oversized.readAll().contains(#""kind":"protocol""#))
            // A frame cut short, and 500 connections that never write, all held open at once.
            let truncated = try RawSocket(path)
            truncated.write([0, 0, 0, 100] + Array("{\"v\":1,".utf8))
            let silent = try (0..<500).map { _ in try RawSocket(path) }

            let start = monotonicSeconds()
            let status = try owner.status()
            let latency = monotonicSeconds() - start
            print("status with 500 silent peers connected: \(Int(latency * 1000)) ms (whole `status` process)")
            #expect(status.title == "Visible")
            #expect(try owner.run(["show", "--title", "Still here", "--compact", "never"]).status == 0)
            #expect(try owner.status().title == "Still here")
            let rssAfter = residentKiB(of: pid)
            print("owner RSS: \(rssBefore) KiB before, \(rssAfter) KiB with 500 peers connected")
            #expect(rssAfter - rssBefore < 32 * 1024, "owner memory must stay bounded")
            _ = silent
            _ = truncated
        }

        @Test(.needsRoot("acting as another user"))
        func otherUsersCanNeitherReachNorDriveTheOwner() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            // The directory is 0700: another user's client cannot even find the socket.
            let blocked = try Subprocess(executable: nobody[0], arguments: Array(nobody.dropFirst()) + [windowBannerExecutable(), "dismiss", "--all"],
                                         environment: owner.fixture.environment(.desktop))
            #expect(blocked.waitForExit() == 75)
            #expect(blocked.standardError.contains("Permission denied") || blocked.standardError.contains("refusing"))
            // Even with the directory and socket opened up, the owner checks the peer's uid
            // (SO_PEERCRED) and closes the connection without a word.
            chmod(owner.runtimeDirectory, 0o755)
            chmod(owner.runtimeDirectory + "/window-banner", 0o755)
            chmod(owner.socketPath, 0o666)
            defer {
                chmod(owner.socketPath, 0o600)
                chmod(owner.runtimeDirectory + "/window-banner", 0o700)
                chmod(owner.runtimeDirectory, 0o700)
            }
            let script = """
                import socket, struct, sys
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                body = b'{"v":3,"command":"dismiss","dismiss":{"all":true}}'
                # The owner may close before the request is even sent (a broken pipe) or after
                # (a reset, or the end of the stream): in every order, no byte comes back.
                try:
                    s.sendall(struct.pack('>I', len(body)) + body); s.settimeout(10)
                    print(len(s.recv(4096)))
                except (BrokenPipeError, ConnectionResetError):
                    print(0)
                """
            let intruder = try Subprocess(executable: nobody[0], arguments: Array(nobody.dropFirst()) + ["/usr/bin/env", "python3", "-c", script, owner.socketPath],
                                          environment: ["PATH": "/usr/bin:/bin"])
            #expect(intruder.waitForExit() == 0, "\(intruder.standardError)")
            #expect(intruder.standardOutput == "0\n")
            #expect(try owner.status().title == "Visible")
        }

        @Test func reservationComesBackWhenTheWindowManagerRestarts() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            // A killed WM leaves its last _NET_WORKAREA on the root: wait for one the new WM publishes.
            owner.observer.clearRecords()
            owner.fixture.desktop.killWindowManager()
            try owner.fixture.desktop.startWindowManager(.openbox)
            #expect(owner.observer.wait {
                !owner.observer.workAreaHistory.isEmpty && owner.observer.workAreas() == owner.fixture.workAreas(shrunkBy: 80)
            }, "work areas \(owner.observer.workAreas()), published since the restart \(owner.observer.workAreaHistory)")
            // And the banner goes on working with the new window manager.
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func windowManagerStartedAfterTheBannerHonoursItsReservation() throws {
            let owner = try OwnerFixture(windowManager: .none)
            try owner.show(["--title", "T", "--compact", "never"])
            #expect(owner.fixture.observer.wait { !owner.observer.windows(named: "window-banner").isEmpty })
            try owner.fixture.desktop.startWindowManager(.openbox)
            #expect(owner.observer.wait { owner.observer.workAreas().first.map { $0.y == 80 && $0.height == 720 } ?? false })
        }

        @Test func twoHundredCallsFromTwentyClientsLeaveOneOwnerAndAConsistentStatus() throws {
            let owner = try OwnerFixture()
            let start = monotonicSeconds()
            var finalTitles: [String] = []
            for round in 0..<10 {
                let arguments: [[String]] = (0..<20).map { client in
                    if round == 9 { return ["show", "--title", "final \(client)"] }
                    return (round + client) % 3 == 2 ? ["dismiss"] : ["show", "--title", "r\(round)c\(client)", "--enqueue"]
                }
                if round == 9 { finalTitles = arguments.map { $0[2] } }
                let processes = try arguments.map { try owner.fixture.launch($0) }
                for process in processes {
                    #expect(process.waitForExit(timeout: 30) == 0)
                    #expect(process.standardError == "")
                }
            }
            print("200 show/dismiss calls from 20 parallel clients: \(Int((monotonicSeconds() - start) * 1000)) ms")
            #expect(owner.ownerProcesses().count == 1)
            let status = try owner.status()
            #expect(finalTitles.contains(status.title ?? ""))
        }

        @Test func aThousandUpdatesInABurstAreServedAndTheLastOneWins() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "start", "--compact", "never"])
            let pid = try #require(owner.ownerProcesses().first)
            let cpuBefore = cpuTicks(of: pid)
            let start = monotonicSeconds()
            // 20 connections at a time, each one update, as fast as the owner answers.
            var sent = 0
            while sent < 1000 {
                let sockets = try (0..<20).map { index -> RawSocket in
                    let socket = try RawSocket(owner.socketPath)
                    let body = #"{"v":3,"command":"show","show":{"settings":{"title":"update \#(sent + index)","compact":"never"},"sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false}}"#
                    socket.write(frame(Array(body.utf8)))
                    return socket
                }
                for socket in sockets { #expect(socket.readAll().contains(#""shown""#)) }
                sent += 20
            }
            let elapsed = monotonicSeconds() - start
            let ticks = cpuTicks(of: pid) - cpuBefore
            print("1000 updates: \(Int(elapsed * 1000)) ms wall, owner CPU \(ticks * 10) ms")
            // The last update of a burst wins.
            try owner.show(["--title", "final", "--compact", "never"])
            #expect(try owner.status().title == "final")
            #expect(owner.fixture.waitForBanner(height: 80))
        }
    }
}

/// A blocking client socket for speaking raw bytes to the owner.
final class RawSocket {
    let fd: Int32

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the owner sends until it closes (or 10 s pass), as text.
    func readAll() -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

/// `body` with its 4-byte big-endian length.
func frame(_ body: [UInt8]) -> [UInt8] {
    [UInt8(body.count >> 24 & 0xFF), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
}

/// VmRSS of `pid` in KiB.
func residentKiB(of pid: pid_t) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// utime + stime of `pid` in clock ticks.
func cpuTicks(of pid: pid_t) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return 0 }
    let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
}

extension String {
    /// How BannerCore's messages print a value: control characters escaped.
    var printableForTest: String {
        String(unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined())
    }
}
