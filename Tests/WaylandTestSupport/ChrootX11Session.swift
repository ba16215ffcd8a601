// A newer Debian's X11 desktop session for one test: its programs (a window manager, its panel,
// its locker) from a chroot (see DebianChroot), started together as TestSway's unprivileged user
// on a private session bus (dbus-run-session, dconf and xfconf behind it) and a private HOME,
// drawing on an X server this machine runs (the caller's Xvfb, whose socket under /tmp the chroot
// shares). Commands run in the same session (`run`), as a user's terminal would: a locker's
// command, gsettings. Everything the session started, bus-activated services too, goes when it
// is released.

import Foundation
import Glibc
import ProcessTestSupport

public final class ChrootX11Session {
    public let chroot: DebianChroot
    public let directory: String
    public let runtimeDirectory: String
    private let environment: [String: String]
    private let session: Subprocess

    /// Starts `programs` (shell command lines, each in the background) on `display` with
    /// `XDG_CURRENT_DESKTOP` `desktop`, after `setup`'s command lines (gsettings writes a user
    /// makes before logging in), and waits until the session bus is up.
    public init(from chroot: DebianChroot, display: String, desktop: String, setup: [String] = [], programs: [String]) throws {
        self.chroot = chroot
        (directory, runtimeDirectory) = try TestSway.makeSessionDirectory("x11-session")
        environment = ["DISPLAY": display, "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": desktop, "NO_AT_BRIDGE": "1"]
        let logs = directory + "/home"
        let script = (["echo \"$DBUS_SESSION_BUS_ADDRESS\" > '\(directory)/bus.new' && mv '\(directory)/bus.new' '\(directory)/bus'"]
            + setup.map { "\($0) >>'\(logs)/setup.log' 2>&1" }
            + programs.enumerated().map { "\($1) >'\(logs)/program-\($0).log' 2>&1 &" } + ["wait"]).joined(separator: "\n")
        try TestSway.write(script, to: directory + "/session")
        if geteuid() == 0 { chown(directory + "/session", TestSway.unprivilegedUser, TestSway.unprivilegedUser) }
        session = try TestSway.spawn(["dbus-run-session", "--", "/bin/sh", directory + "/session"], in: directory, runtime: runtimeDirectory,
                                     extra: environment, log: directory + "/session.log", chroot: chroot)
        let deadline = monotonicSeconds() + 30
        while busAddress == nil {
            if session.hasEnded { throw TestFailure("the session ended at start: \(self.logs)") }
            guard monotonicSeconds() < deadline else { throw TestFailure("the session's bus did not start within 30 s: \(self.logs)") }
            poll(nil, 0, 20)
        }
    }

    deinit {
        session.killGroup()
        _ = session.waitForExit(timeout: 5)
        SessionProcesses.kill(runtime: runtimeDirectory)
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }

    /// The session bus's address, once written.
    public var busAddress: String? {
        let text = (try? String(contentsOfFile: directory + "/bus", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return text?.isEmpty == false ? text : nil
    }

    /// Runs `command` in the session (its display, bus and HOME, as its user) to its end;
    /// its exit status and output.
    @discardableResult
    public func run(_ command: [String], timeout: Double = 30) throws -> (status: Int32?, output: String, error: String) {
        var extra = environment
        extra["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        let process = try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: extra, log: nil, chroot: chroot)
        process.closeStandardInput()
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// The end of each program's log, for a failure's message.
    public var logs: String {
        let home = directory + "/home"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: home)) ?? []).filter { $0.hasSuffix(".log") }.sorted()
        return names.map { name in
            "\(name): …\(((try? String(contentsOfFile: home + "/" + name, encoding: .utf8)) ?? "").suffix(800))"
        }.joined(separator: "\n")
    }
}
