// The owner's log, where a user looks after something went wrong: an X protocol error provoked
// for real (the owner's dock window destroyed by another client, then the banner dismissed)
// is one timestamped line naming the error, the request and the window; a second owner appends
// to the first one's log instead of erasing it; the log is rotated before it passes its cap,
// the previous file kept as `….log.1`.

import CX11
import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("the owner's log")
    struct OwnerLogTests {
        /// What OwnerLog.maximumBytes says (256 KiB), as documented in docs/reliability.md.
        static let cap = 256 * 1024

        static func logPath(_ owner: OwnerFixture) -> String {
            owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log"
        }

        static func read(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }

        /// Waits (bounded) until the log holds a line containing `text`.
        static func waitForLine(_ owner: OwnerFixture, containing text: String, in path: String? = nil) -> Bool {
            let deadline = monotonicSeconds() + 10
            while monotonicSeconds() < deadline {
                if read(path ?? logPath(owner)).contains(text) { return true }
                poll(nil, 0, 20)
            }
            return false
        }

        /// A line starts with its UTC time, to the millisecond.
        static func isStamped(_ line: Substring) -> Bool {
            line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z window-banner: "#, options: .regularExpression) != nil
        }

        @Test func anXErrorIsOneTimestampedLineNamingTheRequestAndTheWindow() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Doomed dock", "--compact", "never"])
            #expect(owner.fixture.waitForBanner())
            let dock = try #require(owner.observer.windows(named: "window-banner-reservation").first)
            // Any client may destroy any window: the owner's next requests on its dock fail.
            XDestroyWindow(owner.observer.display, Window(dock))
            XSync(owner.observer.display, 0)
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(Self.waitForLine(owner, containing: "X error BadWindow"), "\(Self.read(Self.logPath(owner)))")
            let lines = Self.read(Self.logPath(owner)).split(separator: "\n")
            let error = try #require(lines.first { $0.contains("X error BadWindow") })
            print("the owner logged: \(error)")
            #expect(Self.isStamped(error), "\(error)")
            #expect(error.contains("resource 0x" + String(dock, radix: 16)), "\(error)")
            #expect(error.contains(" on X_"), "the core request's name: \(error)")
            // The owner recovered: it still answers and shows.
            try owner.show(["--title", "Still here", "--compact", "never"])
            #expect(try owner.status().title == "Still here")
        }

        @Test func aSecondOwnerKeepsTheFirstOnesLastLines() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "First owner"])
            let first = try #require(owner.ownerProcesses().first)
            // A fault the first owner recovers from: an icon it cannot read.
            #expect(try owner.run(["show", "--title", "Broken icon", "--icon", "/nonexistent/first-owner.png"]).status == 0)
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(owner.waitForExit(of: first))
            try owner.show(["--title", "Second owner"])
            let second = try #require(owner.ownerProcesses().first)
            #expect(second != first)
            #expect(Self.waitForLine(owner, containing: "owner started for \(owner.fixture.desktop.displayName) (pid \(second))"))
            let lines = Self.read(Self.logPath(owner)).split(separator: "\n")
            let started = lines.firstIndex { $0.contains("owner started") && $0.contains("(pid \(first))") }
            let icon = lines.firstIndex { $0.contains("cannot read icon '/nonexistent/first-owner.png'") }
            let stopped = lines.firstIndex { $0.contains("owner for \(owner.fixture.desktop.displayName) stopped") }
            let restarted = lines.firstIndex { $0.contains("owner started") && $0.contains("(pid \(second))") }
            #expect(started != nil && icon != nil && stopped != nil && restarted != nil, "\(lines)")
            if let started, let icon, let stopped, let restarted { #expect(started < icon && icon < stopped && stopped < restarted) }
            #expect(lines.allSatisfy(Self.isStamped), "\(lines)")
        }

        @Test func theLogIsRotatedBeforeItPassesItsCap() throws {
            let owner = try OwnerFixture()
            let path = Self.logPath(owner)
            // An old owner's log just under the cap: the new owner's first line cannot fit.
            mkdir(owner.runtimeDirectory + "/window-banner", 0o700)
            var old = String(repeating: "an old line of a previous owner\n", count: (Self.cap - 60) / 32)
            old += "the old owner's last words\n"
            #expect(old.utf8.count > Self.cap - 60 && old.utf8.count <= Self.cap)
            try old.write(toFile: path, atomically: false, encoding: .utf8)
            try owner.show(["--title", "Rotated"])
            #expect(Self.waitForLine(owner, containing: "owner started"))
            #expect(Self.read(path + ".1").hasSuffix("the old owner's last words\n"))
            #expect(!Self.read(path).contains("old line"))
            // Written past the cap by the owner itself: 3,000 hostile peers, one line each.
            var largest = 0
            for round in 0..<3_000 {
                let peer = try RawSocket(owner.socketPath)
                peer.write(frame(Array("not json, round \(round)".utf8)))
                _ = peer.readAll()
                var info = stat()
                if round % 100 == 0, stat(path, &info) == 0 { largest = max(largest, Int(info.st_size)) }
            }
            #expect(Self.waitForLine(owner, containing: "not a window-banner request"))
            #expect(largest <= Self.cap, "\(largest) bytes")
            for file in [path, path + ".1"] {
                var info = stat()
                #expect(stat(file, &info) == 0 && Int(info.st_size) <= Self.cap, "\(file): \(info.st_size) bytes")
            }
            // Rotated again: the old owner's file is gone, the refusals fill both.
            #expect(!Self.read(path + ".1").contains("the old owner's last words"))
            #expect(Self.read(path + ".1").contains("refused a request (protocol): not a window-banner request"))
            #expect(try owner.status().title == "Rotated")
        }
    }
}
