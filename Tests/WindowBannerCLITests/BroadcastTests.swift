// Admin broadcasts on real sessions (issue 52): root's `window-banner broadcast` with a spool
// under a private root (WINDOW_BANNER_ROOT: the machine's own is never written), and in each
// session the monitor its XDG autostart entry starts (Resources/autostart, read here so the
// entry is what runs), as the session's user, on a real Xvfb and openbox; logind is the stand-in
// on a private system bus. What a user sees is asserted: the work area and the banner's window.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

/// Resources/autostart, found from this file's path.
private let autostartEntry = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
    + "/Resources/autostart/window-banner-notices.desktop"

extension WindowBannerCLITests {
    @Suite("Admin broadcasts on real sessions")
    struct BroadcastTests {
        /// The autostart entry's command line, with the built window-banner.
        static func autostartCommand() throws -> [String] {
            let entry = try String(contentsOfFile: autostartEntry, encoding: .utf8)
            let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") })
            let words = exec.dropFirst(5).split(separator: " ").map(String.init)
            #expect(words.first == "window-banner")
            return [windowBannerExecutable()] + words.dropFirst()
        }

        /// The session's monitor, started as `uid` would start it at login on `owner`'s display.
        static func startSession(_ owner: OwnerFixture, uid: uid_t, runtime: String, state: String, root: String, bus: PrivateSystemBus?) throws -> Subprocess {
            var environment = [
                "PATH": "/usr/bin:/bin", "DISPLAY": owner.fixture.desktop.displayName, "XDG_RUNTIME_DIR": runtime,
                "XDG_STATE_HOME": state, "HOME": state, "WINDOW_BANNER_ROOT": root, "TZ": "UTC",
            ]
            // Without a system bus of the test's, none at all: the monitor asks logind nothing.
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus?.address ?? "unix:path=/nonexistent"
            if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
                environment[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
            }
            let command = try autostartCommand() + ["--no-config"]
            return try Subprocess(
                executable: "/usr/bin/setpriv",
                arguments: ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + command, environment: environment)
        }

        /// `window-banner broadcast ARGUMENTS` as root, with the test's spool and bus.
        static func broadcast(_ arguments: [String], root: String, bus: PrivateSystemBus) throws -> OwnerFixture.Outcome {
            try SessionFindingTests.bare(["broadcast"] + arguments, ["WINDOW_BANNER_ROOT": root, "DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        }

        @Test func onlyRootMayBroadcastAndBadValuesAreOneLine() throws {
            let nobody = try Subprocess(
                executable: "/usr/bin/setpriv",
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "WINDOW_BANNER_ROOT=/nonexistent",
                            windowBannerExecutable(), "broadcast", "set", "--id", "maint", "--title", "T"])
            #expect(nobody.waitForExit() == 64)
            #expect(nobody.standardError == "window-banner: broadcast set needs root: only the administrator may write the system's broadcasts (run it with sudo)\n")
            for (arguments, message) in [
                (["set", "--id", "../etc", "--title", "T"], "bad --id '../etc' (1 to 64 letters, digits, '.', '_' or '-', not starting with '.')"),
                (["set", "--id", "m", "--for", "soon"], "bad --for 'soon' (seconds, or a number with s, m, h or d; 1 s to 31622400 s)"),
                (["set", "--id", "m", "--until", "25:00"], "bad --until '25:00' (HH:MM, YYYY-MM-DD HH:MM, an ISO 8601 time or @SECONDS, in the future)"),
                (["set", "--id", "m", "--style", "mine"], "unknown style 'mine' (a broadcast takes the built-in styles: call, offline, online, portal, sharing)"),
                (["set", "--id", "m", "--users", "a b"], "bad --users 'a b' (comma-separated names)"),
            ] {
                let outcome = try SessionFindingTests.bare(["broadcast"] + arguments, ["WINDOW_BANNER_ROOT": "/nonexistent"])
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.error == "window-banner: \(message)\n", "\(arguments)")
            }
        }

        @Test(.needsRoot("writing root's spool and acting as the session's user"))
        func aBroadcastReachesTheSessionNowAndTheNextLoginUntilCleared() throws {
            let first = try OwnerFixture()
            let nobody: uid_t = 65534
            let root = try SessionFindingTests.runtimeDirectory(for: 0)
            chmod(root, 0o755)
            let runtimes = [try SessionFindingTests.runtimeDirectory(for: nobody), try SessionFindingTests.runtimeDirectory(for: nobody)]
            let state = try SessionFindingTests.runtimeDirectory(for: nobody)
            defer { for path in runtimes + [root, state] { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) } }
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c5", uid: nobody, user: "nobody", display: first.fixture.desktop.displayName),
            ], runtime: [nobody: runtimes[0]])
            defer { _ = logind }
            let session = try Self.startSession(first, uid: nobody, runtime: runtimes[0], state: state, root: root, bus: bus)
            defer { session.signal(SIGTERM); _ = session.waitForExit(); session.killGroup() }

            let set = ["set", "--id", "maint", "--title", "Maintenance tonight at 18:00", "--compact", "never", "--for", "8h", "--json"]
            let shown = try Self.broadcast(set, root: root, bus: bus)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(shown.output.contains(#""changed":true"#), "\(shown.output)")
            #expect(first.fixture.waitForBanner(height: 80), "the session sees it now")
            let again = try Self.broadcast(set, root: root, bus: bus)
            #expect(again.status == 0 && again.output.contains(#""changed":false"#), "\(again.output)")
            #expect(again.output.contains(#""state":"shown""#), "the session says it shows it: \(again.output)")

            // A login after the broadcast: a second display of the same user.
            let later = try OwnerFixture()
            let laterSession = try Self.startSession(later, uid: nobody, runtime: runtimes[1], state: state, root: root, bus: bus)
            defer { laterSession.signal(SIGTERM); _ = laterSession.waitForExit(); laterSession.killGroup() }
            #expect(later.fixture.waitForBanner(height: 80), "a later login sees it too")

            let cleared = try Self.broadcast(["clear", "--id", "maint"], root: root, bus: bus)
            #expect(cleared.status == 0 && cleared.output == "broadcast maint cleared\n", "\(cleared.output)\(cleared.error)")
            #expect(first.fixture.waitForRestoredDesktop())
            #expect(later.fixture.waitForRestoredDesktop())
        }

        @Test(.needsRoot("writing root's spool and acting as the session's user"))
        func listSaysWhatEachSessionShowsAndThatALockedScreenHidesIt() throws {
            let owner = try OwnerFixture()
            let nobody: uid_t = 65534
            let root = try SessionFindingTests.runtimeDirectory(for: 0)
            chmod(root, 0o755)
            let runtime = try SessionFindingTests.runtimeDirectory(for: nobody)
            let state = try SessionFindingTests.runtimeDirectory(for: nobody)
            defer { for path in [root, runtime, state] { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) } }
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c5", uid: nobody, user: "nobody", display: owner.fixture.desktop.displayName),
                loginSession("c6", uid: nobody, user: "nobody", display: ":94"),
            ], runtime: [nobody: runtime])
            defer { _ = logind }
            let session = try Self.startSession(owner, uid: nobody, runtime: runtime, state: state, root: root, bus: bus)
            defer { session.signal(SIGTERM); _ = session.waitForExit(); session.killGroup() }
            let set = try Self.broadcast(["set", "--id", "maint", "--title", "Maintenance tonight at 18:00", "--compact", "never"], root: root, bus: bus)
            #expect(set.status == 0, "\(set.error)")
            #expect(owner.fixture.waitForBanner(height: 80))

            func sessions() throws -> [[String: Any]] {
                let list = try Self.broadcast(["list", "--json"], root: root, bus: bus)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any], "\(list.output)\(list.error)")
                let broadcasts = try #require(object["broadcasts"] as? [[String: Any]])
                return try #require(broadcasts.first?["sessions"] as? [[String: Any]])
            }
            var listed = try sessions()
            #expect(listed.count == 2, "\(listed)")
            #expect(listed.first { $0["session"] as? String == "c5" }?["state"] as? String == "shown", "\(listed)")
            // A second session of the user's where no monitor runs (it never started).
            let unreached = listed.first { $0["session"] as? String == "c6" }
            #expect(unreached?["state"] as? String == "unreached", "\(listed)")
            #expect(unreached?["reason"] as? String == "no monitor runs in this session, which has no session bus", "\(listed)")

            let lock = try owner.fixture.desktop.start(["i3lock", "-n", "-c", "112233"])
            defer { lock.signal(SIGTERM); _ = lock.waitForExit(timeout: 5) }
            #expect(owner.observer.wait { owner.observer.screenshot(Rect(x: 640, y: 40, width: 1, height: 1))?.pixel(x: 640, y: 40) == Pixel(hex: 0x112233) })
            // The owner hides the banner under the locker; the session says so when asked.
            let deadline = monotonicSeconds() + 20
            repeat {
                listed = try sessions()
            } while listed.first(where: { $0["session"] as? String == "c5" })?["state"] as? String != "hidden" && monotonicSeconds() < deadline
            #expect(listed.first { $0["session"] as? String == "c5" }?["state"] as? String == "hidden", "\(listed)")
            #expect(listed.first { $0["session"] as? String == "c5" }?["reason"] as? String == "the screen is locked: it shows once unlocked", "\(listed)")
        }

        /// `window-banner status --format {title}/{subtitle}` as `uid` in the session.
        static func shownText(_ owner: OwnerFixture, uid: uid_t, runtime: String) throws -> String {
            let status = try Subprocess(
                executable: "/usr/bin/setpriv",
                arguments: ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
                            "DISPLAY=" + owner.fixture.desktop.displayName, "XDG_RUNTIME_DIR=" + runtime,
                            windowBannerExecutable(), "status", "--format", "{title}/{subtitle}"])
            _ = status.waitForExit()
            return status.standardOutput.trimmingCharacters(in: .newlines)
        }

        /// Waits (bounded) until the session shows `text`; what it showed last otherwise.
        static func awaitShown(_ text: String, _ owner: OwnerFixture, uid: uid_t, runtime: String) throws -> String {
            let deadline = monotonicSeconds() + 20
            var shown = ""
            while monotonicSeconds() < deadline {
                shown = try shownText(owner, uid: uid, runtime: runtime)
                if shown == text { return shown }
                poll(nil, 0, 50)
            }
            return shown
        }

        /// `busctl --system call` on the stand-in logind, as `shutdown` calls the real one.
        static func logind(_ arguments: [String], bus: PrivateSystemBus) throws {
            let call = try Subprocess(
                executable: "/usr/bin/busctl",
                arguments: ["--system", "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager"] + arguments,
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
            guard call.waitForExit() == 0 else { throw TestFailure("busctl \(arguments): \(call.standardError)") }
        }

        /// "18:00" for `seconds` since 1970, in UTC, as the C locale writes a time without seconds.
        static func clock(_ seconds: Int) -> String {
            var moment = time_t(seconds)
            var parts = tm()
            gmtime_r(&moment, &parts)
            return String(format: "%02d:%02d", parts.tm_hour, parts.tm_min)
        }

        @Test(.needsRoot("acting as the session's user"))
        func aScheduledRestartAndARequiredRestartReachTheSession() throws {
            let owner = try OwnerFixture()
            let nobody: uid_t = 65534
            let root = try SessionFindingTests.runtimeDirectory(for: 0)
            chmod(root, 0o755)
            let runtime = try SessionFindingTests.runtimeDirectory(for: nobody)
            let state = try SessionFindingTests.runtimeDirectory(for: nobody)
            defer { for path in [root, runtime, state] { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) } }
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c5", uid: nobody, user: "nobody", display: owner.fixture.desktop.displayName),
            ], runtime: [nobody: runtime], shutdownFile: root + "/run/systemd/shutdown/scheduled")
            defer { _ = logind }
            let session = try Self.startSession(owner, uid: nobody, runtime: runtime, state: state, root: root, bus: bus)
            defer { session.signal(SIGTERM); _ = session.waitForExit(); session.killGroup() }

            // `shutdown -r +15 "kernel update"`, as systemctl asks logind for it.
            let when = Int(time(nil)) / 60 * 60 + 15 * 60
            try Self.logind(["SetWallMessage", "sb", "kernel update", "true"], bus: bus)
            try Self.logind(["ScheduleShutdown", "st", "reboot", String(when * 1_000_000)], bus: bus)
            #expect(try Self.awaitShown("Restarting at \(Self.clock(when))/kernel update", owner, uid: nobody, runtime: runtime)
                    == "Restarting at \(Self.clock(when))/kernel update")
            #expect(owner.fixture.waitForReservation(height: 18))
            // Rescheduled: the same banner says the new time.
            try Self.logind(["ScheduleShutdown", "st", "poweroff", String((when + 3600) * 1_000_000)], bus: bus)
            #expect(try Self.awaitShown("Shutting down at \(Self.clock(when + 3600))/kernel update", owner, uid: nobody, runtime: runtime)
                    == "Shutting down at \(Self.clock(when + 3600))/kernel update")
            // `shutdown -c`.
            try Self.logind(["CancelScheduledShutdown"], bus: bus)
            #expect(owner.fixture.waitForRestoredDesktop())

            // An update that needs a restart, as Debian's packages mark it.
            mkdir(root + "/run", 0o755)
            try "linux-image-amd64\nlibc6\nlinux-image-amd64\n".write(toFile: root + "/run/reboot-required.pkgs", atomically: true, encoding: .utf8)
            try "*** System restart required ***\n".write(toFile: root + "/run/reboot-required", atomically: true, encoding: .utf8)
            #expect(try Self.awaitShown("Restart required to finish updating/linux-image-amd64, libc6", owner, uid: nobody, runtime: runtime)
                    == "Restart required to finish updating/linux-image-amd64, libc6")
            unlink(root + "/run/reboot-required")
            unlink(root + "/run/reboot-required.pkgs")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        /// Every process whose environment holds `WINDOW_BANNER_ROOT=root` (a session's monitor
        /// and the owner it started), sent SIGTERM, then SIGKILL when still there.
        static func endProcesses(under root: String) {
            let mark = Data(("WINDOW_BANNER_ROOT=" + root).utf8)
            let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
                guard let pid = pid_t(entry), let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                      environment.split(separator: 0).contains(mark) else { return nil }
                return pid
            }
            for pid in pids { kill(pid, SIGTERM) }
            let deadline = monotonicSeconds() + 5
            while monotonicSeconds() < deadline, pids.contains(where: { kill($0, 0) == 0 }) { poll(nil, 0, 20) }
            for pid in pids { kill(pid, SIGKILL) }
        }

        /// On GNOME (Wayland, the extension enabled) the session's monitor shows the broadcast
        /// through the shell: Mutter's work area gives up the banner's height and gets it back.
        @Test(.needsRoot("writing root's spool"), .needsProgram("/usr/bin/gnome-shell", package: "gnome-shell"))
        func gnomeShowsTheBroadcastThroughItsExtension() throws {
            let root = try SessionFindingTests.runtimeDirectory(for: 0)
            chmod(root, 0o755)
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", root]) }
            let shell = try TestGnomeShell(withExtension: .enabled)
            defer { Self.endProcesses(under: root) }
            let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
            // The monitor as the session's user starts it (the unit's ExecStart), in its environment.
            var environment = shell.environment
            environment["WINDOW_BANNER_ROOT"] = root
            environment["PATH"] = String(windowBannerExecutable().dropLast("/window-banner".count)) + ":/usr/bin:/bin"
            let asUser = geteuid() == 0 ? ["--reuid=\(TestSway.unprivilegedUser)", "--regid=\(TestSway.unprivilegedUser)", "--clear-groups"] : ["--"]
            let monitor = try Subprocess(executable: "/usr/bin/setpriv", arguments: asUser + ["window-banner", "monitor", "--no-network"], environment: environment)
            defer { monitor.signal(SIGTERM); _ = monitor.waitForExit(); monitor.killGroup() }
            let bus = try PrivateSystemBus(public: true)

            let set = try Self.broadcast(["set", "--id", "maint", "--title", "Maintenance tonight at 18:00", "--compact", "never"], root: root, bus: bus)
            #expect(set.status == 0, "\(set.error)")
            let reserved = before.map { SwayRect(x: $0.x, y: $0.y + 80, width: $0.width, height: $0.height - 80) }
            #expect(shell.awaitWorkAreas { $0 == reserved } == reserved, "\(monitor.standardError)")
            let cleared = try Self.broadcast(["clear", "--id", "maint"], root: root, bus: bus)
            #expect(cleared.status == 0, "\(cleared.error)")
            #expect(shell.awaitWorkAreas { $0 == before } == before)
        }

        /// docs/fleet.md's exec line for sway, as written, with the built window-banner first on
        /// PATH and the test's spools (`root`).
        static func swayExecLine(root: String) throws -> String {
            let page = try String(contentsOfFile: DocumentedExamplesTests.packageRoot + "/docs/fleet.md", encoding: .utf8)
            let line = try #require(page.split(separator: "\n").first { $0.hasPrefix("exec window-banner ") }, "docs/fleet.md gives sway's exec line")
            let binaries = String(windowBannerExecutable().dropLast("/window-banner".count))
            return "exec env PATH=\(binaries):/usr/bin:/bin WINDOW_BANNER_ROOT=\(root) " + line.dropFirst("exec ".count)
        }

        @Test(.needsRoot("writing root's spool"))
        func swayRunsTheDocumentedExecLineAndShowsTheBroadcast() throws {
            let root = try SessionFindingTests.runtimeDirectory(for: 0)
            chmod(root, 0o755)
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", root]) }
            defer { Self.endProcesses(under: root) }
            let sway = try TestSway(extraConfig: try Self.swayExecLine(root: root))
            _ = try sway.startFoot()
            _ = try sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
            let bus = try PrivateSystemBus(public: true)
            let set = try Self.broadcast(["set", "--id", "maint", "--title", "Maintenance tonight at 18:00", "--compact", "never"], root: root, bus: bus)
            #expect(set.status == 0, "\(set.error)")
            // Bounds, not a pace: the monitor sway's exec line started may still be starting (and
            // starting its owner) while CI's other suites load the machine; once it took over 10 s.
            _ = try sway.awaitWindowRect(appID: "foot", timeout: 60) { $0 == SwayRect(x: 0, y: 80, width: 1280, height: 640) }
            let cleared = try Self.broadcast(["clear", "--id", "maint"], root: root, bus: bus)
            #expect(cleared.status == 0, "\(cleared.error)")
            _ = try sway.awaitWindowRect(appID: "foot", timeout: 60) { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
        }
    }
}
