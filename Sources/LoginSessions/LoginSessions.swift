// The user's graphical sessions as logind knows them, and their systemd user manager's
// environment, read with sd-bus (libsystemd) for commands that name no display: a cron job, a
// systemd timer, a root service. logind (`org.freedesktop.login1` on the system bus) lists
// sessions with their type, display, seat state and user; a user's runtime directory is on
// their User object. The user manager (`org.freedesktop.systemd1` on the user bus,
// `$XDG_RUNTIME_DIR/bus`) holds what the desktop exported at login with `systemctl --user
// import-environment`: XAUTHORITY, WAYLAND_DISPLAY, the language. sd-bus honours
// DBUS_SYSTEM_BUS_ADDRESS, so tests point it at a private bus with a stand-in logind. Every
// call is bounded (`callTimeout`). Linked by window-banner-x11 only.
// Start reading at `LoginManager.sessions()`.

import CSDBus
import Glibc

/// One session of logind's.
public struct LoginSession: Sendable, Hashable {
    /// logind's id (`c2`, `3`), what `--session ID` names.
    public var id: String
    /// The user's id.
    public var uid: UInt32
    /// The user's login name.
    public var userName: String
    /// `x11`, `wayland`, `tty`, `mir`, `unspecified`.
    public var type: String
    /// The X display (`:0`), also of a Wayland session's Xwayland; empty when there is none.
    public var display: String
    /// The session in the foreground of its seat.
    public var active: Bool
    /// Logged in from elsewhere (ssh, xrdp): its screen is not this machine's.
    public var remote: Bool
    /// `user`, `greeter`, `lock-screen`, `background`.
    public var sessionClass: String
    /// `online`, `active` or `closing` (logged out, processes left behind).
    public var state: String

    /// A local desktop a person is logged in to: X11 or Wayland, not a login screen, not closing.
    public var isGraphical: Bool {
        ["x11", "wayland"].contains(type) && !remote && sessionClass.hasPrefix("user") && state != "closing"
    }

    /// A session with these properties, as logind reports them.
    public init(id: String, uid: UInt32, userName: String, type: String, display: String, active: Bool, remote: Bool, sessionClass: String, state: String) {
        self.id = id
        self.uid = uid
        self.userName = userName
        self.type = type
        self.display = display
        self.active = active
        self.remote = remote
        self.sessionClass = sessionClass
        self.state = state
    }
}

/// A failed D-Bus exchange: what was asked and why it failed.
public struct LoginBusError: Error, Hashable, CustomStringConvertible {
    /// What was asked: a D-Bus method or property, or the connection.
    public var operation: String
    /// The D-Bus error's message, or strerror(3) of a negative errno.
    public var reason: String

    /// `operation: reason`.
    public var description: String { "\(operation): \(reason)" }

    init(_ operation: String, code: Int32) {
        self.operation = operation
        reason = String(cString: strerror(-code))
    }

    init(_ operation: String, error: inout sd_bus_error, code: Int32) {
        self.operation = operation
        if sd_bus_error_is_set(&error) != 0 {
            reason = error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) } ?? "failed"
        } else {
            reason = String(cString: strerror(-code))
        }
    }
}

/// One bus connection and the calls made on it.
final class BusConnection {
    /// Microseconds any call may take (sd-bus's own default is 25 s): a stalled logind costs a
    /// script this long, then the command says what it could not find.
    static let callTimeout: UInt64 = 5_000_000

    let bus: OpaquePointer

    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else /run/dbus/system_bus_socket).
    init() throws(LoginBusError) {
        var opened: OpaquePointer?
        let result = sd_bus_open_system(&opened)
        guard result >= 0, let opened else { throw LoginBusError("cannot connect to the system bus", code: result) }
        bus = opened
        sd_bus_set_method_call_timeout(bus, Self.callTimeout)
        try waitUntilReady(what: "the system bus")
    }

    /// The bus at `address` (a user bus: `unix:path=/run/user/UID/bus`).
    init(address: String) throws(LoginBusError) {
        var created: OpaquePointer?
        var result = sd_bus_new(&created)
        guard result >= 0, let created else { throw LoginBusError("sd_bus_new", code: result) }
        bus = created
        sd_bus_set_method_call_timeout(bus, Self.callTimeout)
        result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        // Thrown with every property set, so deinit closes the half-made connection.
        guard result >= 0 else { throw LoginBusError("cannot connect to \(address)", code: result) }
        try waitUntilReady(what: address)
    }

    /// Waits, at most `callTimeout`, for the connection's authentication: sd-bus would wait for
    /// it up to 90 s in the first call, whatever that call's own timeout (a stopped bus daemon).
    private func waitUntilReady(what: String) throws(LoginBusError) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000 + Self.callTimeout
        while true {
            let ready = sd_bus_is_ready(bus)
            guard ready >= 0 else { throw LoginBusError("cannot connect to \(what)", code: ready) }
            if ready > 0 { return }
            let processed = sd_bus_process(bus, nil)
            guard processed >= 0 else { throw LoginBusError("cannot connect to \(what)", code: processed) }
            if processed > 0 { continue }
            clock_gettime(CLOCK_MONOTONIC, &now)
            let current = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            guard current < deadline else { throw LoginBusError("\(what) did not answer", code: -ETIMEDOUT) }
            let waited = sd_bus_wait(bus, deadline - current)
            guard waited >= 0 || waited == -EINTR else { throw LoginBusError("cannot connect to \(what)", code: waited) }
        }
    }

    // Not sd_bus_flush_close_unref: every call here waited for its reply, so there is nothing
    // to flush, and a flush waits for a connection that never authenticated (90 s).
    deinit { sd_bus_close_unref(bus) }

    /// Calls `member`, with one argument when given (`u` or `s`); the reply, to unref.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, uid: UInt32? = nil, strings: [String] = []) throws(LoginBusError) -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw LoginBusError(member, code: result) }
        defer { sd_bus_message_unref(message) }
        if var uid { result = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &uid) }
        for string in strings where result >= 0 {
            result = string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        guard result >= 0 else { throw LoginBusError(member, code: result) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else { throw LoginBusError(member, error: &error, code: result) }
        return reply
    }

    /// A property through org.freedesktop.DBus.Properties.Get; the reply is left inside the
    /// variant, for `read`.
    func property(_ destination: String, _ path: String, _ interface: String, _ name: String, type: String) throws(LoginBusError) -> OpaquePointer {
        let reply = try call(destination, path, "org.freedesktop.DBus.Properties", "Get", strings: [interface, name])
        let result = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), type)
        guard result > 0 else {
            sd_bus_message_unref(reply)
            throw LoginBusError("\(name) of \(path)", code: result < 0 ? result : -EBADMSG)
        }
        return reply
    }

    func stringProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(LoginBusError) -> String {
        let reply = try property(destination, path, interface, name, type: "s")
        defer { sd_bus_message_unref(reply) }
        return try readString(reply, what: name)
    }

    func booleanProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(LoginBusError) -> Bool {
        let reply = try property(destination, path, interface, name, type: "b")
        defer { sd_bus_message_unref(reply) }
        var value: Int32 = 0
        let result = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &value)
        guard result > 0 else { throw LoginBusError(name, code: result < 0 ? result : -EBADMSG) }
        return value != 0
    }

    /// The next basic value of type `s` or `o` in `message`.
    func readString(_ message: OpaquePointer, type: Character = "s", what: String) throws(LoginBusError) -> String {
        var pointer: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, CChar(type.asciiValue ?? 0), &pointer)
        guard result > 0, let pointer else { throw LoginBusError(what, code: result < 0 ? result : -EBADMSG) }
        return String(cString: pointer)
    }
}

/// logind on the system bus.
public final class LoginManager {
    private static let service = "org.freedesktop.login1"
    private let connection: BusConnection

    /// Connects to the system bus.
    public init() throws(LoginBusError) {
        connection = try BusConnection()
    }

    /// Every session (`ListSessions`), with the properties that say whether it is a desktop.
    public func sessions() throws(LoginBusError) -> [LoginSession] {
        let reply = try connection.call(Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListSessions")
        defer { sd_bus_message_unref(reply) }
        var listed: [(id: String, uid: UInt32, user: String, path: String)] = []
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "(susso)") > 0 else {
            throw LoginBusError("ListSessions", code: -EBADMSG)
        }
        while sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "susso") > 0 {
            let id = try connection.readString(reply, what: "ListSessions")
            var uid: UInt32 = 0
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &uid) > 0 else { throw LoginBusError("ListSessions", code: -EBADMSG) }
            let user = try connection.readString(reply, what: "ListSessions")
            _ = try connection.readString(reply, what: "ListSessions")
            let path = try connection.readString(reply, type: "o", what: "ListSessions")
            sd_bus_message_exit_container(reply)
            listed.append((id, uid, user, path))
        }
        return try listed.map { entry throws(LoginBusError) in
            let interface = "org.freedesktop.login1.Session"
            func string(_ name: String) throws(LoginBusError) -> String {
                try connection.stringProperty(Self.service, entry.path, interface, name)
            }
            return LoginSession(
                id: entry.id, uid: entry.uid, userName: entry.user, type: try string("Type"), display: try string("Display"),
                active: try connection.booleanProperty(Self.service, entry.path, interface, "Active"),
                remote: try connection.booleanProperty(Self.service, entry.path, interface, "Remote"),
                sessionClass: try string("Class"), state: try string("State"))
        }
    }

    /// The user's runtime directory (`/run/user/UID`): their User object's `RuntimePath`.
    public func runtimeDirectory(uid: UInt32) throws(LoginBusError) -> String {
        let reply = try connection.call(Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetUser", uid: uid)
        let path: String
        do {
            defer { sd_bus_message_unref(reply) }
            path = try connection.readString(reply, type: "o", what: "GetUser")
        }
        return try connection.stringProperty(Self.service, path, "org.freedesktop.login1.User", "RuntimePath")
    }
}

/// The user's systemd manager, on their user bus.
public enum UserManager {
    /// Its `Environment` (what `systemctl --user show-environment` prints), from the bus in
    /// `runtimeDirectory`; only variables of the form NAME=VALUE.
    public static func environment(runtimeDirectory: String) throws(LoginBusError) -> [String: String] {
        let connection = try BusConnection(address: "unix:path=\(runtimeDirectory)/bus")
        let reply = try connection.property(
            "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "Environment", type: "as")
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 else {
            throw LoginBusError("Environment", code: -EBADMSG)
        }
        var environment: [String: String] = [:]
        while true {
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &pointer) > 0, let pointer else { break }
            let entry = String(cString: pointer)
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return environment
    }
}
