// What a script in a Wayland session has: a private runtime directory (HOME, XDG_RUNTIME_DIR,
// config and state in it) and an environment that names the compositor's socket, for the
// window-banner built here. The Wayland suites' sessions hold one each.

import Foundation
import Glibc
import ProcessTestSupport
import WaylandTestSupport
import X11TestSupport

final class WaylandScript {
    let runtimeDirectory: String
    let environment: [String: String]
    /// The user the script runs as; nil for the tests' own.
    let user: uid_t?

    /// A script's environment on the compositor at `socketPath`, with `extra` on top, run as
    /// `user` when given (the session's user, whose bus lets its portal answer only its own).
    init(socketPath: String, extra: [String: String] = [:], user: uid_t? = nil) throws {
        var template = Array("/tmp/wb-script-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        runtimeDirectory = String(cString: made)
        self.user = user
        if let user { chown(runtimeDirectory, user, user) }
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": runtimeDirectory, "XDG_RUNTIME_DIR": runtimeDirectory,
            "XDG_CONFIG_HOME": runtimeDirectory + "/config", "XDG_STATE_HOME": runtimeDirectory + "/state",
            "WAYLAND_DISPLAY": socketPath,
        ].merging(extra) { _, chosen in chosen }
    }

    deinit {
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory])
    }

    /// Runs window-banner with `arguments` to its end (or `timeout` seconds).
    func run(_ arguments: [String], timeout: Double = 20) throws -> (status: Int32?, output: String, error: String) {
        let process = try start(arguments)
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// Starts window-banner with `arguments`, its standard input closed.
    func start(_ arguments: [String]) throws -> Subprocess {
        var command = [windowBannerExecutable()] + arguments
        if let user {
            command = TestSway.running(as: user) + command
        }
        let process = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: environment)
        process.closeStandardInput()
        return process
    }

    /// The owner's log (its standard error; with `WAYLAND_DEBUG=client`, libwayland's protocol
    /// lines too).
    func ownerLog() -> String {
        let directory = (environment["XDG_RUNTIME_DIR"] ?? runtimeDirectory) + "/window-banner"
        let logs = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".log") }
        return logs.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }.joined()
    }

    /// The most buffers the owner attached to one of its surfaces in `log` (a protocol log: the
    /// banner's; its zone's surface takes one).
    static func attaches(in log: Substring) -> Int {
        var counts: [Substring: Int] = [:]
        for line in log.split(separator: "\n") where line.contains(".attach(") {
            guard let start = line.range(of: "wl_surface")?.lowerBound, let end = line[start...].firstIndex(of: ".") else { continue }
            counts[line[start..<end], default: 0] += 1
        }
        return counts.values.max() ?? 0
    }

    /// How many buffers the owner attached to one surface while `body` ran (see `attaches`).
    func attaches(during body: () throws -> Void) rethrows -> Int {
        let before = ownerLog().utf8.count
        try body()
        return Self.attaches(in: Substring(ownerLog().utf8.dropFirst(before)))
    }
}

/// What `take` returns (a banner's rows of pixels) once two takes 100 ms apart are alike,
/// contain `colour`, and differ from `other`; a failure after 20 s.
func settledRows(containing colour: UInt32, unlike other: [UInt32]? = nil, _ take: () throws -> [UInt32]) throws -> [UInt32] {
    // Generous: on a loaded machine a screenshot, and a portal reading a file again, take seconds.
    let deadline = monotonicSeconds() + 60
    var previous: [UInt32] = []
    while monotonicSeconds() < deadline {
        let rows = try take()
        if rows == previous, rows != other, rows.contains(colour) { return rows }
        previous = rows
        poll(nil, 0, 100)
    }
    throw TestFailure("the banner never held still\(other == nil ? "" : " in a new look")")
}
