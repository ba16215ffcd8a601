// The screen reader's side of the accessibility tests (AccessibilityTests.swift): a session bus
// of the test's own, on which at-spi2-core's bus launcher starts the accessibility bus and the
// registry, and at-spi2-core's own client (Tests/Clients/atspi-client.py) listening as Orca does.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

/// A session bus of the test's own, in a private XDG_RUNTIME_DIR (where the accessibility bus's
/// socket goes); it and everything it started (the bus launcher, the accessibility bus, the
/// registry) are one process group, killed when it goes.
final class PrivateSessionBus {
    let address: String
    let runtimeDirectory: String
    private let daemon: Subprocess

    /// `activation`: more of the environment the services the bus starts on demand get
    /// (xfconfd's XDG_CONFIG_HOME, where it keeps the settings).
    init(activation: [String: String] = [:]) throws {
        var template = Array("/tmp/wb-session-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        runtimeDirectory = String(cString: made)
        var environment = activation.merging(["XDG_RUNTIME_DIR": runtimeDirectory, "PATH": "/usr/bin:/bin"]) { $1 }
        if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
            environment[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
        }
        daemon = try Subprocess(
            executable: "/usr/bin/dbus-daemon",
            arguments: ["--session", "--nofork", "--print-address=1", "--address=unix:path=\(runtimeDirectory)/bus"], environment: environment)
        guard let line = daemon.readLine(timeout: 10), line.hasPrefix("unix:") else {
            throw TestFailure("dbus-daemon did not start: \(daemon.standardError)")
        }
        address = line
    }

    deinit {
        daemon.killGroup()
        daemon.waitForExit()
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory])
    }

    /// What a program on this bus needs in its environment.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": runtimeDirectory] }

    /// `dbus-send --print-reply arguments…` on this bus (or the bus at `address`); its output.
    func call(_ arguments: [String], address: String? = nil) throws -> String {
        try Subprocess.run("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=\(address ?? self.address)", "/usr/bin/dbus-send", "--session", "--print-reply"] + arguments)
    }

    /// Whether a call got an answer, a reply or an error, within dbus-send's 5 seconds.
    func answered(_ arguments: [String], address: String) throws -> Bool {
        let process = try Subprocess(
            executable: "/usr/bin/dbus-send", arguments: ["--session", "--print-reply", "--reply-timeout=5000"] + arguments,
            environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        let status = process.waitForExit(timeout: 10)
        return status == 0 || (status == 1 && !process.standardError.contains("NoReply"))
    }

    /// The names on the bus now (`ListNames`), the asking connection's own among them.
    func names() throws -> [String] {
        let output = try Subprocess.run(
            "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", "/usr/bin/dbus-send", "--session", "--print-reply",
                             "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"])
        return output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "\"")
            return line.contains("string \"") && parts.count >= 2 ? String(parts[1]) : nil
        }
    }
}

/// at-spi2-core's client library as a screen reader, listening from the moment it is ready.
final class ScreenReaderClient {
    /// An event as the listener saw it, with its source's role and name asked of the owner.
    struct Event: Decodable, Equatable {
        var event: String
        var detail1: Int
        var app: String?
        var role: String?
        var name: String?
        var description: String?
    }

    /// An accessible object and its descendants.
    struct Node: Decodable {
        var role: String
        var name: String
        var description: String
        var showing: Bool
        var attributes: [String: String]
        var actions: [String]
        var children: [Node]
    }

    private let process: Subprocess
    private var events: [Event] = []

    convenience init(on bus: PrivateSessionBus) throws {
        try self.init(environment: bus.environment)
    }

    /// A listener on the session bus `environment` names (its address and runtime directory),
    /// running as `user` when given (a session's bus admits its own user only).
    init(environment session: [String: String], user: uid_t? = nil) throws {
        var environment = session
        environment["PATH"] = "/usr/bin:/bin"
        if let user {
            // The checkout may be private: the script goes where that user can read it.
            let copy = session["XDG_RUNTIME_DIR", default: "/tmp"] + "/atspi-client.py"
            try Subprocess.run("/usr/bin/install", ["-m", "644", Self.script, copy])
            process = try Subprocess(
                executable: "/usr/bin/setpriv",
                arguments: ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--", "/usr/bin/python3", copy], environment: environment)
        } else {
            process = try Subprocess(executable: "/usr/bin/python3", arguments: [Self.script], environment: environment)
        }
        guard process.readLine(timeout: 20) == "\"ready\"" else {
            throw TestFailure("the AT-SPI client did not start: \(process.standardError)")
        }
    }

    deinit {
        process.closeStandardInput()
        if process.waitForExit(timeout: 5) == nil { process.killGroup() }
    }

    private static let script: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Clients/atspi-client.py"
    }()

    /// Events heard until `condition` holds for them, or `timeout` seconds pass; all heard so far.
    func events(within timeout: Double = 15, until condition: ([Event]) -> Bool) -> [Event] {
        let deadline = monotonicSeconds() + timeout
        while !condition(events), let line = process.readLine(timeout: max(0, deadline - monotonicSeconds())) {
            if let event = try? JSONDecoder().decode(Event.self, from: Data(line.utf8)) { events.append(event) }
        }
        return events
    }

    /// Sends `command` and returns its answer line (events that come first are kept).
    private func ask(_ command: String) throws -> Data {
        process.writeToStandardInput(command + "\n")
        while let line = process.readLine(timeout: 15) {
            if let event = try? JSONDecoder().decode(Event.self, from: Data(line.utf8)) {
                events.append(event)
            } else {
                return Data(line.utf8)
            }
        }
        throw TestFailure("the AT-SPI client did not answer \(command): \(process.standardError)")
    }

    /// The `window-banner` application's tree; nil when it is not on the desktop.
    func tree() throws -> Node? { try JSONDecoder().decode(Node?.self, from: ask("tree")) }

    /// The applications on the desktop, by name.
    func applications() throws -> [String] { try JSONDecoder().decode([String].self, from: ask("apps")) }

    /// Does the first action of the object called `name`; whether the owner said it did.
    func press(_ name: String) throws -> Bool {
        struct Pressed: Decodable { var pressed: Bool }
        return try JSONDecoder().decode(Pressed.self, from: ask("press \(name)")).pressed
    }
}
