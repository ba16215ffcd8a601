// Resources/networkmanager/90-window-banner as NetworkManager runs it: as root, with an almost
// empty environment, one event at a time. Around it — and only around it — stand stand-ins for
// logind (Tests/Fakes/fake-logind.py naming this test's X display as root's active session, on
// a private dbus-daemon whose socket is the namespace's /run/dbus/system_bus_socket) and
// `nmcli` (the state the test chooses, bind-mounted over /usr/local/bin), in a private mount
// namespace with a private /run. The script itself, the real `window-banner` finding the
// session over D-Bus, its owner and the X server are the real ones.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite(
        "NetworkManager dispatcher script",
        .needsRoot("a private mount namespace")
    )
    struct DispatcherScriptTests {
        /// A private /run and /usr/local/bin for the script, and the desktop it shows banners on.
        final class Dispatcher {
            let owner: OwnerFixture
            let root: String
            var run: String { root + "/run" }
            var stubs: String { root + "/bin" }
            private var bus: PrivateSystemBus?
            private var logind: FakeLogind?

            /// With `desktopSession` false, logind knows of nobody logged in to a desktop.
            init(desktopSession: Bool = true) throws {
                owner = try OwnerFixture()
                var template = Array("/tmp/wb-dispatcher-XXXXXX".utf8CString)
                root = String(cString: try #require(mkdtemp(&template)))
                for directory in [run, run + "/dbus", run + "/user", run + "/user/0", stubs] { mkdir(directory, 0o755) }
                chmod(run + "/user/0", 0o700)
                // Root's desktop session, with /run/user/0 as logind names it inside.
                let bus = try PrivateSystemBus(socketPath: run + "/dbus/system_bus_socket")
                logind = try FakeLogind(on: bus, sessions: [
                    loginSession("c1", uid: 0, user: "root", type: desktopSession ? "x11" : "tty", display: owner.fixture.desktop.displayName),
                ], runtime: [0: "/run/user/0"])
                self.bus = bus
                try stub("nmcli", "cat \(root)/nm-state")
                symlink(windowBannerExecutable(), stubs + "/window-banner")
                try setNetworkManagerState("connected")
                // The owner the script starts uses /run/user/0 inside; the same directory here.
                owner.fixture.extraEnvironment["XDG_RUNTIME_DIR"] = run + "/user/0"
            }

            deinit {
                for pid in owner.ownerProcesses() { kill(pid, SIGKILL) }
                logind = nil
                bus = nil
                _ = try? Subprocess.run("/bin/rm", ["-rf", root])
            }

            func setNetworkManagerState(_ state: String) throws {
                try (state + "\n").write(toFile: root + "/nm-state", atomically: true, encoding: .utf8)
            }

            private func stub(_ name: String, _ body: String) throws {
                let path = stubs + "/" + name
                try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
                chmod(path, 0o755)
            }

            /// Runs the script for `event` on `interface` as NetworkManager would; its exit status.
            @discardableResult
            func dispatch(_ event: String, interface: String = "eth0", connectivity: String? = nil) throws -> Int32? {
                // Tests/WindowBannerCLITests/ThisFile.swift → the package root.
                let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                let script = root.appendingPathComponent("Resources/networkmanager/90-window-banner").path
                // NetworkManager's almost empty environment, and the mark of this test run
                // (scripts/check-leftovers.sh): the owner the script starts must carry it.
                var environment = ["env", "-i"] + (Subprocess.runMarker.map { [$0] } ?? [])
                if let connectivity { environment.append("CONNECTIVITY_STATE=\(connectivity)") }
                // Quoted: the checkout's path may hold a space.
                func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
                let inside = "mount --bind \(quoted(stubs)) /usr/local/bin && mount --bind \(quoted(run)) /run && exec "
                    + (environment + [script, interface, event]).map(quoted).joined(separator: " ")
                let process = try Subprocess(executable: "/usr/bin/unshare", arguments: ["--mount", "--propagation", "private", "/bin/sh", "-c", inside])
                let status = process.waitForExit(timeout: 30)
                #expect(process.standardError == "", "\(process.standardError)")
                return status
            }

            var markerExists: Bool { FileManager.default.fileExists(atPath: run + "/window-banner-nm-offline") }

            /// `status --follow` on the owner the script started: "title remaining" per change,
            /// as the owner pushes it the moment it happens. "Back Online" lasts 2 s, so a later
            /// `status` of a slow machine could come after it is gone: only a follower
            /// subscribed before it sees it for sure.
            func follow() throws -> Subprocess {
                try owner.fixture.launch(["status", "--follow", "--format", "{title} {remaining}"])
            }
        }

        /// The next line of `follower`, which must come.
        static func nextLine(_ follower: Subprocess) throws -> String {
            guard let line = follower.readLine(timeout: 20) else {
                throw TestFailure("no line from status --follow (stderr: \(follower.standardError))")
            }
            return line
        }

        /// "Back Online", transient with at most 2 s left, then nothing: the follower's lines.
        static func expectBackOnlineForTwoSeconds(_ follower: Subprocess) throws {
            let line = try nextLine(follower)
            #expect(line.hasPrefix("Back Online "), "\(line)")
            let remaining = try #require(Double(line.dropFirst("Back Online ".count)), "\(line)")
            #expect(remaining > 0 && remaining <= 2, "\(line)")
            #expect(try nextLine(follower) == "")
        }

        @Test func noConnectivityShowsTheOfflineBannerOnTheSessionsDisplay() throws {
            let dispatcher = try Dispatcher()
            #expect(try dispatcher.dispatch("connectivity-change", connectivity: "NONE") == 0)
            let status = try dispatcher.owner.status()
            #expect(status.title == "No Internet Connection")
            #expect(status.mode == "sticky")
            #expect(status.id == "window-banner-monitor")
            #expect(dispatcher.markerExists)
        }

        @Test func fullConnectivityAfterOfflineShowsBackOnlineForTwoSeconds() throws {
            let dispatcher = try Dispatcher()
            #expect(try dispatcher.dispatch("connectivity-change", connectivity: "PORTAL") == 0)
            let follower = try dispatcher.follow()
            #expect(try Self.nextLine(follower) == "No Internet Connection ")
            #expect(try dispatcher.dispatch("connectivity-change", connectivity: "FULL") == 0)
            try Self.expectBackOnlineForTwoSeconds(follower)
            #expect(!dispatcher.markerExists)
            #expect(dispatcher.owner.fixture.waitForRestoredDesktop())
        }

        @Test func onlineWithoutAnEarlierOfflineBannerShowsNothing() throws {
            let dispatcher = try Dispatcher()
            #expect(try dispatcher.dispatch("connectivity-change", connectivity: "FULL") == 0)
            #expect(try dispatcher.dispatch("up") == 0)
            #expect(try dispatcher.owner.status().presented == false)
        }

        @Test func downWhenNetworkManagerIsDisconnectedShowsOfflineAndUpBringsBackOnline() throws {
            let dispatcher = try Dispatcher()
            try dispatcher.setNetworkManagerState("disconnected")
            #expect(try dispatcher.dispatch("down") == 0)
            let follower = try dispatcher.follow()
            #expect(try Self.nextLine(follower) == "No Internet Connection ")
            try dispatcher.setNetworkManagerState("connected")
            #expect(try dispatcher.dispatch("up") == 0)
            try Self.expectBackOnlineForTwoSeconds(follower)
        }

        @Test func nobodyAtADesktopMeansNothingShownAndNothingLogged() throws {
            let dispatcher = try Dispatcher(desktopSession: false)
            // dispatch() expects an empty stderr: NetworkManager's log stays quiet.
            #expect(try dispatcher.dispatch("connectivity-change", connectivity: "NONE") == 0)
            #expect(try dispatcher.owner.status().presented == false)
            #expect(dispatcher.owner.ownerProcesses().isEmpty)
        }

        @Test func downWhileAnotherDeviceStillConnectsShowsNothing() throws {
            let dispatcher = try Dispatcher()
            #expect(try dispatcher.dispatch("down") == 0)
            #expect(try dispatcher.owner.status().presented == false)
            #expect(!dispatcher.markerExists)
        }
    }
}
