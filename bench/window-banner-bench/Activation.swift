// A notification server measured from a cold start, as a login meets it: a private session bus
// on which org.freedesktop.Notifications is not running, only declared in a service file, so the
// first `notify-send` makes the bus start it (D-Bus activation) and waits for it to answer. After
// each run the server is ended and the bus forgets its name, so the next run starts it again.
// That is the same race window-banner's cold `show` runs: a command that starts the process
// that draws.

import Glibc

final class ActivatedServer {
    let supervisor: Supervisor
    /// The bus's address: what `notify-send` is given.
    let address: String
    private let bus: Child
    private var environment: [String: String]
    static let name = "org.freedesktop.Notifications"

    /// Starts a bus that activates `server` (its command line) for the notifications name. The
    /// server gets `environment` (its display), with this bus as its session bus.
    init(supervisor: Supervisor, work: String, label: String, environment: [String: String], server: [String]) throws {
        self.supervisor = supervisor
        let services = "\(work)/\(label)-services"
        try makeDirectory(services)
        let exec = server.map { "'" + $0.replacingOccurrences("'", "'\\''") + "'" }.joined(separator: " ")
        try writeFile("\(services)/\(Self.name).service", "[D-BUS Service]\nName=\(Self.name)\nExec=\(exec)\n")
        let socket = "\(work)/\(label)-bus"
        address = "unix:path=\(socket)"
        let config = "\(work)/\(label)-bus.conf"
        try writeFile(config, """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """)
        var busEnvironment = environment
        busEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address
        self.environment = busEnvironment
        bus = try supervisor.spawn(["dbus-daemon", "--config-file=\(config)", "--nofork", "--print-address=1"],
                                   environment: busEnvironment, name: "dbus-daemon (\(label), activation)", stdout: .pipe)
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), bus.isRunning else {
            throw BenchFailure("dbus-daemon (\(label)) did not start")
        }
    }

    /// Whether a server owns the notifications name now.
    private func nameIsOwned() throws -> Bool {
        try call("NameHasOwner").contains { $0.contains("boolean true") }
    }

    /// The bus asked about its notifications name: the server's pid, nil when none owns it.
    private func serverPID() throws -> pid_t? {
        guard try nameIsOwned() else { return nil }
        let reply: [String]
        do { reply = try call("GetConnectionUnixProcessID") } catch {
            // The server let the name go between the two questions.
            if try !nameIsOwned() { return nil }
            throw error
        }
        guard let line = reply.first(where: { $0.contains("uint32") }), let field = line.split(separator: " ").last, let pid = pid_t(field) else {
            throw BenchFailure("the bus did not name the notification server's process: \(reply)")
        }
        return pid
    }

    private func call(_ method: String) throws -> [String] {
        try supervisor.run(["dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus.\(method)", "string:\(Self.name)"], environment: environment)
    }

    /// Ends the server the last run started and waits until the bus has forgotten its name, so
    /// the next `notify-send` starts it again.
    func endServer() throws {
        guard let pid = try serverPID() else { return }
        kill(pid, SIGTERM)
        guard try supervisor.check(seconds: 5, until: { try !nameIsOwned() }) else {
            kill(pid, SIGKILL)
            throw BenchFailure("the activated notification server (pid \(pid)) did not end within 5 s of SIGTERM")
        }
    }

    /// Ends the server, if one runs, and the bus.
    func stop() {
        if bus.isRunning, let pid = try? serverPID() { kill(pid, SIGTERM) }
        supervisor.stop(bus)
    }
}
