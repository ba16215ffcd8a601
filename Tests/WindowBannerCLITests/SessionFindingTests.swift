// Scripts from anywhere (issue 26): `show`, `status` and `dismiss` from an environment with no
// display variable — cron's, a systemd service's, ssh's, a root service's — reach the user's
// banner. Everything is real but logind and the user's systemd manager: a real Xvfb and
// openbox, the real commands and owner, a real dbus-daemon as the system bus (and one at the
// user's `$XDG_RUNTIME_DIR/bus`), with stand-ins for org.freedesktop.login1 and
// org.freedesktop.systemd1 on them (Tests/Fakes/fake-logind.py, fake-user-manager.py) that the
// session-finding code asks over D-Bus, as it asks the real ones.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

/// Tests/Fakes, found from this file's path.
private let fakesDirectory = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")) + "/Fakes"

/// A stand-in logind on `bus` with `sessions` (fake-logind.py's JSON entries) and each user's
/// runtime directory; gone when released.
final class FakeLogind {
    private let process: Subprocess
    private let file: String

    /// `shutdownFile`: where it writes its scheduled shutdown, as logind writes
    /// /run/systemd/shutdown/scheduled (nil: nowhere).
    init(on bus: PrivateSystemBus, sessions: [[String: Any]], runtime: [uid_t: String], shutdownFile: String? = nil) throws {
        file = NSTemporaryDirectory() + "wb-logind-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        var configuration: [String: Any] = ["sessions": sessions, "runtime": Dictionary(uniqueKeysWithValues: runtime.map { (String($0.key), $0.value) })]
        if let shutdownFile { configuration["shutdown_file"] = shutdownFile }
        try JSONSerialization.data(withJSONObject: configuration).write(to: URL(fileURLWithPath: file))
        process = try Subprocess(executable: "/usr/bin/python3", arguments: [fakesDirectory + "/fake-logind.py", file],
                                 environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        guard process.readLine(timeout: 10) == "ready" else { throw TestFailure("the stand-in logind did not start: \(process.standardError)") }
    }

    deinit {
        process.closeStandardInput()
        process.waitForExit()
        unlink(file)
    }
}

/// A stand-in systemd user manager on `bus` whose environment is `variables` (NAME=VALUE).
final class FakeUserManager {
    private let process: Subprocess

    init(on bus: PrivateSystemBus, _ variables: [String]) throws {
        process = try Subprocess(executable: "/usr/bin/python3", arguments: [fakesDirectory + "/fake-user-manager.py"] + variables,
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        guard process.readLine(timeout: 10) == "ready" else { throw TestFailure("the stand-in user manager did not start: \(process.standardError)") }
    }

    deinit {
        process.closeStandardInput()
        process.waitForExit()
    }
}

/// One session of fake-logind.py's.
func loginSession(_ id: String, uid: uid_t, user: String, type: String = "x11", display: String = "", active: Bool = true) -> [String: Any] {
    ["id": id, "uid": Int(uid), "user": user, "type": type, "display": display, "active": active]
}

extension WindowBannerCLITests {
    @Suite("Scripts from anywhere: finding the session")
    struct SessionFindingTests {
        /// A command as cron, a timer or root's service runs it: `env -i` with only `variables`
        /// (and the test run's mark).
        static func bare(_ arguments: [String], _ variables: [String: String], timeout: Double = 30) throws -> OwnerFixture.Outcome {
            var environment = ["PATH": "/usr/bin:/bin"].merging(variables) { $1 }
            if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
                environment[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
            }
            let process = try Subprocess(executable: windowBannerExecutable(), arguments: arguments, environment: environment)
            let status = process.waitForExit(timeout: timeout)
            return OwnerFixture.Outcome(status: status, output: process.standardOutput, error: process.standardError)
        }

        /// The user id of process `pid` (its real uid, from /proc).
        static func uid(of pid: pid_t) -> uid_t? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
            return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { uid_t($0) }
        }

        /// The environment process `pid` started with.
        static func environment(of pid: pid_t) -> [String] {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return [] }
            return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }

        /// A directory for `uid`'s runtime files (0700, theirs), as pam_systemd makes /run/user/UID.
        static func runtimeDirectory(for uid: uid_t) throws -> String {
            var template = Array("/tmp/wb-run-user-XXXXXX".utf8CString)
            let path = String(cString: try #require(mkdtemp(&template)))
            chown(path, uid, getpwuid(uid)?.pointee.pw_gid ?? gid_t(uid))
            return path
        }

        @Test func cronJobReachesTheRunningOwnerWithoutADisplay() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let cron = ["HOME": owner.fixture.desktop.environment["HOME"] ?? "/", "XDG_RUNTIME_DIR": owner.runtimeDirectory]

            let shown = try Self.bare(["show", "--title", "from cron", "--compact", "never"], cron)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(shown.error == "")
            #expect(try owner.status().title == "from cron")

            let status = try Self.bare(["status"], cron)
            #expect(status.status == 0, "\(status.error)")
            #expect(status.output.contains("on \(owner.fixture.desktop.displayName)"), "\(status.output)")
            #expect(status.output.contains("\"from cron\""), "\(status.output)")

            let dismissed = try Self.bare(["dismiss"], cron)
            #expect(dismissed.status == 0, "\(dismissed.error)")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func theOwnerKeepsNoneOfItsStartersDescriptors() throws {
            let owner = try OwnerFixture()
            // A descriptor the starting shell left open (cron's pipe to its mailer, a process
            // substitution): whoever reads its other end would wait for the owner to exit.
            let held = owner.runtimeDirectory + "/held-by-the-caller"
            var environment = owner.fixture.environment(.desktop)
            environment["HELD"] = held
            let shell = try Subprocess(executable: "/bin/bash", arguments: ["-c", #"exec 7>"$HELD"; exec "$0" show --title Held --compact never"#, windowBannerExecutable()],
                                       environment: environment)
            #expect(shell.waitForExit(timeout: 20) == 0, "\(shell.standardError)")
            let pid = try #require(owner.ownerProcesses().first)
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let targets = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            #expect(!targets.isEmpty)
            #expect(!targets.contains(held), "\(targets)")
        }

        @Test(.needsRoot("a private /run for /run/user/0"))
        func withoutXDGRuntimeDirTheOwnerUnderRunUserIsFound() throws {
            let owner = try OwnerFixture()
            let display = owner.fixture.desktop.displayName
            let client = windowBannerExecutable()
            let marker = Subprocess.runMarker ?? ""
            // Inside: /run/user/0 is root's runtime directory, and no command has XDG_RUNTIME_DIR.
            let bare = "env -i \(marker) PATH=/usr/bin:/bin HOME=/root \(client)"
            let script = """
                mount -t tmpfs -o mode=755 tmpfs /run && mkdir -p -m 700 /run/user/0 || exit 90
                env -i \(marker) PATH=/usr/bin:/bin HOME=/root DISPLAY=\(display) \(client) show --title first --compact never || exit 91
                \(bare) show --title 'from cron' --compact never || exit 92
                \(bare) status --format '{title}' || exit 93
                ls /run/user/0/window-banner | grep -F '.sock' || exit 94
                \(bare) dismiss --all --quit || exit 95
                """
            let shell = try Subprocess(executable: "/usr/bin/unshare", arguments: ["--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                       environment: ["PATH": "/usr/bin:/bin"])
            #expect(shell.waitForExit(timeout: 60) == 0, "\(shell.standardError)")
            #expect(shell.standardOutput == "from cron\ndisplay\(display).sock\n", "\(shell.standardOutput)")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func logindsActiveGraphicalSessionIsFoundWhenNoOwnerRuns() throws {
            let owner = try OwnerFixture()
            let display = owner.fixture.desktop.displayName
            let me = geteuid()
            let bus = try PrivateSystemBus()
            // The desktop exported its cookie and language to the user manager at login.
            let userBus = try PrivateSystemBus(socketPath: owner.runtimeDirectory + "/bus")
            let manager = try FakeUserManager(on: userBus, ["XAUTHORITY=/tmp/wb-no-cookie", "LANG=C.UTF-8"])
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c1", uid: me, user: "me", type: "tty"),
                loginSession("c2", uid: me, user: "me", display: ":97", active: false),
                loginSession("c3", uid: me, user: "me", display: display),
            ], runtime: [me: owner.runtimeDirectory])
            let timer = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": owner.runtimeDirectory, "HOME": owner.fixture.desktop.environment["HOME"] ?? "/"]

            let shown = try Self.bare(["show", "--title", "Backup running", "--compact", "never"], timer)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(owner.fixture.waitForBanner(height: 80))
            let pid = try #require(owner.ownerProcesses().first)
            let environment = Self.environment(of: pid)
            #expect(environment.contains("DISPLAY=\(display)"), "\(environment)")
            #expect(environment.contains("XAUTHORITY=/tmp/wb-no-cookie"), "\(environment)")
            #expect(environment.contains("LANG=C.UTF-8"), "\(environment)")
            #expect(environment.contains("DBUS_SESSION_BUS_ADDRESS=unix:path=\(owner.runtimeDirectory)/bus"), "\(environment)")

            // The owner runs now: the client finds it by itself, and so does status.
            let status = try Self.bare(["status", "--format", "{title}"], timer)
            #expect(status.output == "Backup running\n", "\(status.error)")
            #expect(try Self.bare(["dismiss", "--all", "--quit"], timer).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
            _ = (manager, logind)
        }

        @Test func timerRunsABannerForAsLongAsItsCommandInTheActiveSession() throws {
            let owner = try OwnerFixture()
            let me = geteuid()
            let bus = try PrivateSystemBus()
            let logind = try FakeLogind(on: bus, sessions: [loginSession("c3", uid: me, user: "me", display: owner.fixture.desktop.displayName)],
                                        runtime: [me: owner.runtimeDirectory])
            let timer = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": owner.runtimeDirectory, "HOME": owner.fixture.desktop.environment["HOME"] ?? "/"]
            var environment = ["PATH": "/usr/bin:/bin"].merging(timer) { $1 }
            if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
                environment[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
            }
            // The "backup" lasts until the test says so: the banner must be up meanwhile.
            let run = try Subprocess(executable: windowBannerExecutable(), arguments: [
                "run", "--title", "Backing up…", "--compact", "never", "--", "/bin/sh", "-c", "read line; exit 3",
            ], environment: environment)
            #expect(owner.fixture.waitForBanner(height: 80))
            run.writeToStandardInput("done\n")
            #expect(run.waitForExit(timeout: 20) == 3, "\(run.standardError)")
            #expect(owner.fixture.waitForRestoredDesktop())
            _ = logind
        }

        @Test func sessionAllReachesEveryGraphicalSession() throws {
            let first = try OwnerFixture()
            let second = try OwnerFixture()
            let me = geteuid()
            let bus = try PrivateSystemBus()
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c3", uid: me, user: "me", display: first.fixture.desktop.displayName),
                loginSession("c4", uid: me, user: "me", display: second.fixture.desktop.displayName, active: false),
            ], runtime: [me: first.runtimeDirectory])
            let cron = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": first.runtimeDirectory, "HOME": first.fixture.desktop.environment["HOME"] ?? "/"]

            // Without --session all, the active one only.
            #expect(try Self.bare(["show", "--title", "Active", "--compact", "never"], cron).status == 0)
            #expect(first.fixture.waitForBanner(height: 80))
            #expect(second.observer.windows(named: "window-banner").isEmpty)

            let shown = try Self.bare(["show", "--session", "all", "--title", "Everywhere", "--compact", "never"], cron)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(second.fixture.waitForBanner(height: 80))
            let status = try Self.bare(["status", "--session", "all", "--format", "{title}"], cron)
            #expect(status.output == "Everywhere\nEverywhere\n", "\(status.error)")
            let follow = try Self.bare(["status", "--session", "all", "--follow"], cron)
            #expect(follow.status == 64)
            #expect(follow.error.contains("status --follow follows one session"), "\(follow.error)")
            let dismissed = try Self.bare(["dismiss", "--session", "all", "--all", "--quit"], cron)
            #expect(dismissed.status == 0, "\(dismissed.error)")
            #expect(first.fixture.waitForRestoredDesktop())
            #expect(second.fixture.waitForRestoredDesktop())
            _ = logind
        }

        @Test func waylandSessionPassesItsSocketAndXwaylandOn() throws {
            let owner = try OwnerFixture()
            let display = owner.fixture.desktop.displayName
            let me = geteuid()
            let bus = try PrivateSystemBus()
            let userBus = try PrivateSystemBus(socketPath: owner.runtimeDirectory + "/bus")
            // A Wayland session has no Display in logind; its compositor exports Xwayland's.
            let manager = try FakeUserManager(on: userBus, ["WAYLAND_DISPLAY=wayland-1", "DISPLAY=\(display)"])
            let logind = try FakeLogind(on: bus, sessions: [loginSession("c7", uid: me, user: "me", type: "wayland")], runtime: [me: owner.runtimeDirectory])
            // The backend is chosen elsewhere (docs/wayland.md): X11 here, on Xwayland's display,
            // so the banner shows where the test looks without a compositor.
            let ssh = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": owner.runtimeDirectory, "HOME": owner.fixture.desktop.environment["HOME"] ?? "/",
                       "WINDOW_BANNER_BACKEND": "x11"]

            let shown = try Self.bare(["show", "--title", "Deploy finished", "--compact", "never"], ssh)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(owner.fixture.waitForBanner(height: 80))
            let environment = Self.environment(of: try #require(owner.ownerProcesses().first))
            #expect(environment.contains("WAYLAND_DISPLAY=wayland-1"), "\(environment)")
            #expect(environment.contains("DISPLAY=\(display)"), "\(environment)")
            #expect(try Self.bare(["dismiss", "--all", "--quit"], ssh).status == 0)
            _ = (manager, logind)
        }

        @Test func noSessionAnywhereSaysWhatWasLookedFor() throws {
            let me = geteuid()
            let bus = try PrivateSystemBus()
            let logind = try FakeLogind(on: bus, sessions: [loginSession("c1", uid: me, user: "me", type: "tty")], runtime: [:])
            let runtime = try Self.runtimeDirectory(for: me)
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            // A tty session named by its id is no desktop either.
            let tty = try Self.bare(["show", "--session", "c1", "--title", "T"], ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime])
            #expect(tty.status == 69)
            #expect(tty.error == "window-banner: no display: logind session 'c1' is not a desktop (type tty)\n", "\(tty.error)")
            for command in [["show", "--title", "Nobody sees this"], ["status"], ["dismiss"]] {
                let outcome = try Self.bare(command, ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime])
                #expect(outcome.status == 69, "\(command): \(outcome.error)")
                #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome.error)")
                #expect(outcome.error.contains("no owner answers in \(runtime)/window-banner"), "\(outcome.error)")
                #expect(outcome.error.contains("logind lists no active graphical session for uid \(me)"), "\(outcome.error)")
            }
            _ = logind
        }

        @Test func aStoppedSystemBusIsGivenUpOnNotWaitedFor() throws {
            let bus = try PrivateSystemBus()
            let runtime = try Self.runtimeDirectory(for: geteuid())
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            kill(bus.processID, SIGSTOP)
            defer { kill(bus.processID, SIGCONT) }
            // sd-bus alone would wait 90 s for the bus to authenticate the connection.
            let outcome = try Self.bare(["status"], ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime], timeout: 30)
            #expect(outcome.status == 69, "\(outcome.error)")
            #expect(outcome.error.contains("logind could not be asked (the system bus did not answer"), "\(outcome.error)")
        }

        @Test(.needsRoot("acting as another user"))
        func badSessionChoicesAreOneLineAndExit64() throws {
            let bare = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
            let unknown = try Self.bare(["show", "--user", "no-such-user-26", "--title", "T"], bare)
            #expect(unknown.status == 64)
            #expect(unknown.error == "window-banner: no such user 'no-such-user-26'\n", "\(unknown.error)")
            let session = try Self.bare(["status", "--session", "c1;rm"], bare)
            #expect(session.status == 64)
            #expect(session.error.contains("bad --session 'c1;rm'"), "\(session.error)")
            // Another user may not act for others.
            let nobody = try Subprocess(executable: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", windowBannerExecutable(), "show", "--all-users", "--title", "T"])
            #expect(nobody.waitForExit() == 64)
            #expect(nobody.standardError.contains("--all-users needs root"), "\(nobody.standardError)")
            let asRoot = try Subprocess(executable: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", windowBannerExecutable(), "dismiss", "--user", "root"])
            #expect(asRoot.waitForExit() == 64)
            #expect(asRoot.standardError.contains("--user root needs root"), "\(asRoot.standardError)")
        }

        @Test(.needsRoot("acting as another user"))
        func rootShowsInTheUsersSessionAsThatUser() throws {
            let owner = try OwnerFixture()
            let display = owner.fixture.desktop.displayName
            let nobody: uid_t = 65534
            let runtime = try Self.runtimeDirectory(for: nobody)
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            // The user's commands ask logind too: the bus must be theirs to reach.
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c1", uid: 0, user: "root", type: "tty"),
                loginSession("c5", uid: nobody, user: "nobody", display: display),
            ], runtime: [nobody: runtime])
            let service = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]

            let shown = try Self.bare(["show", "--user", "nobody", "--title", "Updates at 18:00", "--compact", "never"], service)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(owner.fixture.waitForBanner(height: 80))
            let pid = try #require(owner.ownerProcesses().first)
            #expect(Self.uid(of: pid) == nobody, "the owner must run as the user, never as root")
            #expect(access(runtime + "/window-banner/display\(display).sock", F_OK) == 0)

            let status = try Self.bare(["status", "--user", "nobody", "--format", "{title}"], service)
            #expect(status.output == "Updates at 18:00\n", "\(status.error)")
            let dismissed = try Self.bare(["dismiss", "--user", "nobody", "--all", "--quit"], service)
            #expect(dismissed.status == 0, "\(dismissed.error)")
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(owner.waitForExit(of: pid))
            _ = logind
        }

        @Test(.needsRoot("acting as another user"))
        func rootSaysSoInOneLineWhenTheUserCannotReachTheProgram() throws {
            // A build in a private (0700) directory, as a checkout in a home directory is.
            var template = Array("/tmp/window-banner-private-XXXXXX".utf8CString)
            let directory = String(cString: try #require(mkdtemp(&template)))
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
            for program in ["window-banner", "window-banner-full", "window-banner-config"] {
                _ = try Subprocess.run("/bin/cp", [windowBannerExecutable(program), directory + "/" + program])
            }
            let nobody: uid_t = 65534
            let runtime = try Self.runtimeDirectory(for: nobody)
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c5", uid: nobody, user: "nobody", display: ":93"),
            ], runtime: [nobody: runtime])
            var environment = ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus.address]
            if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
                environment[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
            }
            let show = try Subprocess(
                executable: directory + "/window-banner", arguments: ["show", "--user", "nobody", "--title", "T"], environment: environment)
            #expect(show.waitForExit(timeout: 30) == 77)
            #expect(show.standardError == "window-banner: cannot run \(directory)/window-banner-full as nobody on :93: that user cannot reach it (install window-banner, or build it in a directory every user can enter)\n",
                    "\(show.standardError)")
            _ = logind
        }

        @Test(.needsRoot("creating a user"))
        func allUsersReachesEveryUsersSessionAsThatUser() throws {
            let first = try OwnerFixture()
            let second = try OwnerFixture()
            let name = "wbtest\(getpid() % 100_000)"
            _ = try Subprocess.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name])
            // --force: an owner of theirs still on its way out would keep userdel from it.
            defer { _ = try? Subprocess.run("/usr/sbin/userdel", ["--force", name]) }
            let other = try #require(getpwnam(name)?.pointee.pw_uid)
            let nobody: uid_t = 65534
            let runtimes = [nobody: try Self.runtimeDirectory(for: nobody), other: try Self.runtimeDirectory(for: other)]
            defer { for path in runtimes.values { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) } }
            let bus = try PrivateSystemBus(public: true)
            let logind = try FakeLogind(on: bus, sessions: [
                loginSession("c5", uid: nobody, user: "nobody", display: first.fixture.desktop.displayName),
                loginSession("c6", uid: other, user: name, display: second.fixture.desktop.displayName),
                loginSession("c7", uid: other, user: name, type: "tty"),
            ], runtime: runtimes)
            let service = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]

            let shown = try Self.bare(["show", "--all-users", "--title", "Backup running", "--compact", "never"], service)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(first.fixture.waitForBanner(height: 80))
            #expect(second.fixture.waitForBanner(height: 80))
            let owners = first.ownerProcesses() + second.ownerProcesses()
            #expect(first.ownerProcesses().map(Self.uid(of:)) == [nobody])
            #expect(second.ownerProcesses().map(Self.uid(of:)) == [other])

            let dismissed = try Self.bare(["dismiss", "--all-users", "--all", "--quit"], service)
            #expect(dismissed.status == 0, "\(dismissed.error)")
            #expect(first.fixture.waitForRestoredDesktop())
            #expect(second.fixture.waitForRestoredDesktop())
            for pid in owners { #expect(first.waitForExit(of: pid)) }
            _ = logind
        }
    }
}
