// The user's graphical sessions as logind knows them, and their systemd user manager's
// environment, read with sd-bus (libsystemd) for commands that name no display: a cron job, a
// systemd timer, a root service. logind (`org.freedesktop.login1` on the system bus) lists
// sessions with their type, display, seat state and user; a user's runtime directory is on
// their User object. The user manager (`org.freedesktop.systemd1` on the user bus,
// `$XDG_RUNTIME_DIR/bus`) holds what the desktop exported at login with `systemctl --user
// import-environment`: XAUTHORITY, WAYLAND_DISPLAY, the language. sd-bus honours
// DBUS_SYSTEM_BUS_ADDRESS, so tests point it at a private bus with a stand-in logind. Every
// call is bounded (SDBus's call timeout). Linked by window-banner-full only.
// Start reading at `LoginManager.sessions()`.

import CSDBus
import SDBus
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

/// A shutdown logind has scheduled (`shutdown -r 18:00 "kernel update"`).
public struct ScheduledShutdown: Sendable, Equatable {
    /// `poweroff`, `reboot`, `halt`, `kexec`, or one of them with `dry-` before it.
    public var type: String
    /// When, in microseconds since 1970.
    public var microseconds: UInt64
    /// The message given to `shutdown`, "" for none.
    public var wallMessage: String

    public init(type: String, microseconds: UInt64, wallMessage: String) {
        self.type = type
        self.microseconds = microseconds
        self.wallMessage = wallMessage
    }
}

/// logind on the system bus.
public final class LoginManager {
    private static let service = "org.freedesktop.login1"
    private let connection: BusConnection

    /// Connects to the system bus.
    public init() throws(BusError) {
        connection = try BusConnection.system(waitingUntilReady: true, flushesOnClose: false)
    }

    /// Every session (`ListSessions`), with the properties that say whether it is a desktop.
    public func sessions() throws(BusError) -> [LoginSession] {
        let reply = try connection.call(Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListSessions")
        defer { sd_bus_message_unref(reply) }
        var listed: [(id: String, uid: UInt32, user: String, path: String)] = []
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "(susso)") > 0 else {
            throw BusError("ListSessions", code: -EBADMSG)
        }
        while sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "susso") > 0 {
            let id = try BusConnection.readString(reply, what: "ListSessions")
            var uid: UInt32 = 0
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &uid) > 0 else { throw BusError("ListSessions", code: -EBADMSG) }
            let user = try BusConnection.readString(reply, what: "ListSessions")
            _ = try BusConnection.readString(reply, what: "ListSessions")
            let path = try BusConnection.readString(reply, type: "o", what: "ListSessions")
            sd_bus_message_exit_container(reply)
            listed.append((id, uid, user, path))
        }
        return try listed.map { entry throws(BusError) in
            let interface = "org.freedesktop.login1.Session"
            func string(_ name: String) throws(BusError) -> String {
                try connection.stringProperty(Self.service, entry.path, interface, name)
            }
            return LoginSession(
                id: entry.id, uid: entry.uid, userName: entry.user, type: try string("Type"), display: try string("Display"),
                active: try connection.booleanProperty(Self.service, entry.path, interface, "Active"),
                remote: try connection.booleanProperty(Self.service, entry.path, interface, "Remote"),
                sessionClass: try string("Class"), state: try string("State"))
        }
    }

    /// The shutdown logind has scheduled (`ScheduledShutdown (st)`, with `WallMessage`), nil
    /// for none.
    public func scheduledShutdown() throws(BusError) -> ScheduledShutdown? {
        let path = "/org/freedesktop/login1"
        let interface = "org.freedesktop.login1.Manager"
        let reply = try connection.property(Self.service, path, interface, "ScheduledShutdown", type: "(st)")
        let type: String
        var microseconds: UInt64 = 0
        do {
            defer { sd_bus_message_unref(reply) }
            guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "st") > 0 else { throw BusError("ScheduledShutdown", code: -EBADMSG) }
            type = try BusConnection.readString(reply, what: "ScheduledShutdown")
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "t")), &microseconds) > 0 else { throw BusError("ScheduledShutdown", code: -EBADMSG) }
        }
        guard !type.isEmpty else { return nil }
        // Older loginds may lack it: no message.
        let message = (try? connection.stringProperty(Self.service, path, interface, "WallMessage")) ?? ""
        return ScheduledShutdown(type: String(type.prefix(32)), microseconds: microseconds, wallMessage: String(message.prefix(1024)))
    }

    /// The user's runtime directory (`/run/user/UID`): their User object's `RuntimePath`.
    public func runtimeDirectory(uid: UInt32) throws(BusError) -> String {
        let reply = try connection.call(Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetUser", uid: uid)
        let path: String
        do {
            defer { sd_bus_message_unref(reply) }
            path = try BusConnection.readString(reply, type: "o", what: "GetUser")
        }
        return try connection.stringProperty(Self.service, path, "org.freedesktop.login1.User", "RuntimePath")
    }
}

/// The user's systemd manager, on their user bus.
public enum UserManager {
    /// Its `Environment` (what `systemctl --user show-environment` prints), from the bus in
    /// `runtimeDirectory`; only variables of the form NAME=VALUE.
    public static func environment(runtimeDirectory: String) throws(BusError) -> [String: String] {
        let connection = try BusConnection(address: "unix:path=\(runtimeDirectory)/bus")
        let reply = try connection.property(
            "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "Environment", type: "as")
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 else {
            throw BusError("Environment", code: -EBADMSG)
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
