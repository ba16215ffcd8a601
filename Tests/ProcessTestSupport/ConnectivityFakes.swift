// What surrounds `window-banner monitor --connectivity` in its tests, each a real program the
// test starts and stops itself: a private D-Bus daemon standing in for the system bus, a fake
// NetworkManager on it (Tests/Fakes/fake-networkmanager.py), and an HTTP server answering the
// connectivity check like the internet or a captive portal would (Tests/Fakes/check-server.py),
// inside a network namespace the test created. Nothing here reaches beyond loopback.

import Glibc

/// Tests/Fakes, found from this file's path.
let fakesDirectory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)
    return parts.joined(separator: "/") + "/Fakes"
}()

/// Debian's python3, which python3-dbus and python3-gi are installed for (a python3 earlier on
/// PATH, from pyenv or a venv, would lack them).
let python = "/usr/bin/python3"

/// A `dbus-daemon` on a socket in a directory of its own: the system bus of whoever gets
/// ``address`` as DBUS_SYSTEM_BUS_ADDRESS. Stopped when released.
public final class PrivateSystemBus {
    /// The bus's address, for DBUS_SYSTEM_BUS_ADDRESS.
    public let address: String
    /// Where its socket is.
    public let socketPath: String
    /// The daemon's process id: a test may stop it (SIGSTOP) to see what its clients do.
    public var processID: pid_t { daemon.pid }
    private let daemon: Subprocess
    private let directory: String

    /// A bus listening at `socketPath` (default: in a directory of its own, which only this
    /// user can enter unless `public`).
    public init(socketPath: String? = nil, public: Bool = false) throws {
        var template = Array("/tmp/wb-bus-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        if `public` { chmod(directory, 0o755) }
        let socket = socketPath ?? directory + "/system_bus_socket"
        self.socketPath = socket
        // A path, not an abstract socket: abstract sockets belong to a network namespace, and
        // the monitor under test runs in one of its own.
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        let configPath = directory + "/bus.conf"
        guard let file = fopen(configPath, "w") else { throw TestFailure("cannot write \(configPath)") }
        fputs(config, file)
        fclose(file)
        daemon = try Subprocess(executable: "/usr/bin/dbus-daemon", arguments: ["--config-file=\(configPath)", "--nofork", "--print-address"])
        guard let line = daemon.readLine(timeout: 10), line.hasPrefix("unix:") else {
            throw TestFailure("dbus-daemon did not start: \(daemon.standardError)")
        }
        address = line
    }

    deinit {
        daemon.signal(SIGTERM)
        daemon.waitForExit()
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }
}

/// A fake NetworkManager on `bus`: owns org.freedesktop.NetworkManager and exports its
/// `Connectivity` property, changed with ``set(_:)`` (which emits PropertiesChanged).
public final class FakeNetworkManager {
    /// NMConnectivityState's values.
    public enum Connectivity: UInt32 {
        case unknown = 0, none = 1, portal = 2, limited = 3, full = 4
    }

    private let process: Subprocess

    /// Starts it with `connectivity`; returns once it owns its name.
    public init(on bus: PrivateSystemBus, connectivity: Connectivity) throws {
        process = try Subprocess(
            executable: python, arguments: [fakesDirectory + "/fake-networkmanager.py", String(connectivity.rawValue)],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        guard process.readLine(timeout: 10) == "ready" else {
            throw TestFailure("the fake NetworkManager did not start: \(process.standardError)")
        }
    }

    /// Sets the property and emits its change; returns once it has.
    public func set(_ connectivity: Connectivity) throws {
        process.writeToStandardInput("\(connectivity.rawValue)\n")
        guard process.readLine(timeout: 10) == "set \(connectivity.rawValue)" else {
            throw TestFailure("the fake NetworkManager did not change: \(process.standardError)")
        }
    }

    /// Leaves the bus (as NetworkManager does when it stops): its stdin closes, it exits.
    public func stop() {
        process.closeStandardInput()
        process.waitForExit()
    }

    deinit { stop() }
}

/// The connectivity check's server on 127.0.0.1 (of the namespace it runs in, if any): answers
/// every GET as its current ``Mode`` says.
public final class CheckServer {
    /// How it answers.
    public enum Mode: String {
        /// 204 No Content: the internet.
        case online
        /// 200 with "NetworkManager is online\n": the internet, for a check with an expected body.
        case body
        /// 302 to /portal/login?from=check: a captive portal.
        case redirect
        /// 200 with a welcome page: a portal answering in the internet's place.
        case wrong
        /// Accepts and never answers: a dead upstream.
        case silent
    }

    /// The port it listens on.
    public let port: Int
    private let process: Subprocess
    /// Request paths read so far (``waitForRequest`` collects them).
    public private(set) var requests: [String] = []

    /// Starts it with `mode`, run through `wrapper` (e.g. `ip netns exec NAME`) when given.
    public init(mode: Mode, in wrapper: [String] = []) throws {
        let command = wrapper + [python, fakesDirectory + "/check-server.py", mode.rawValue]
        process = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin"])
        guard let line = process.readLine(timeout: 10), line.hasPrefix("listening "), let port = Int(line.dropFirst("listening ".count)) else {
            throw TestFailure("the check server did not start: \(process.standardError)")
        }
        self.port = port
    }

    /// `http://127.0.0.1:PORT/check`.
    public var url: String { "http://127.0.0.1:\(port)/check" }

    /// Answers every later request as `mode` says; returns once it does.
    public func switchTo(_ mode: Mode) throws {
        process.writeToStandardInput(mode.rawValue + "\n")
        while let line = process.readLine(timeout: 10) {
            if line == "mode \(mode.rawValue)" { return }
            if line.hasPrefix("request ") { requests.append(String(line.dropFirst("request ".count))) }
        }
        throw TestFailure("the check server did not switch to \(mode): \(process.standardError)")
    }

    /// The path of the next request it gets within `timeout` seconds; nil when none comes.
    public func waitForRequest(timeout: Double = 10) -> String? {
        while let line = process.readLine(timeout: timeout) {
            if line.hasPrefix("request ") {
                let path = String(line.dropFirst("request ".count))
                requests.append(path)
                return path
            }
        }
        return nil
    }

    deinit {
        process.closeStandardInput()
        process.signal(SIGTERM)
        process.waitForExit()
    }
}

/// A server on 127.0.0.1 (of the namespace it runs in, if any) answering the connectivity check
/// with bytes that break HTTP (Tests/Fakes/hostile-server.py): each ``Mode`` is one hostile
/// answer, `body` and `online` the internet's.
public final class HostileServer {
    /// How it answers; see hostile-server.py for the bytes.
    public enum Mode: String, CaseIterable, Sendable {
        case body, online, garbage
        case hugeChunk = "huge-chunk", negativeChunk = "negative-chunk"
        case endlessLine = "endless-line", endlessHeaders = "endless-headers", endlessInterim = "endless-interim"
        case endlessBody = "endless-body", hugeLength = "huge-length", drip, reset
        case redirectLoop = "redirect-loop", redirectFile = "redirect-file"
    }

    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT/check`, `https://…` with TLS, `[::1]` on IPv6.
    public let url: String
    private let process: Subprocess

    /// Starts it with `mode`, run through `wrapper` (e.g. `ip netns exec NAME`) when given; on
    /// ::1 with `ipv6`, speaking TLS with the certificate and key files `tls` names.
    public init(mode: Mode, in wrapper: [String] = [], ipv6: Bool = false, tls: (certificate: String, key: String)? = nil) throws {
        let options = (ipv6 ? ["--ipv6"] : []) + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let command = wrapper + [python, fakesDirectory + "/hostile-server.py", mode.rawValue] + options
        process = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin"])
        guard let line = process.readLine(timeout: 10), line.hasPrefix("listening "), let port = Int(line.dropFirst("listening ".count)) else {
            throw TestFailure("the hostile server did not start: \(process.standardError)")
        }
        self.port = port
        url = "\(tls == nil ? "http" : "https")://\(ipv6 ? "[::1]" : "127.0.0.1"):\(port)/check"
    }

    /// Answers every later connection as `mode` says; returns once it does.
    public func switchTo(_ mode: Mode) throws {
        process.writeToStandardInput(mode.rawValue + "\n")
        while let line = process.readLine(timeout: 10) {
            if line == "mode \(mode.rawValue)" { return }
        }
        throw TestFailure("the hostile server did not switch to \(mode): \(process.standardError)")
    }

    deinit {
        process.closeStandardInput()
        process.signal(SIGTERM)
        process.waitForExit()
    }
}
