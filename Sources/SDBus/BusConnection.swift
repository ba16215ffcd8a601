// One sd-bus connection, and what every bus client here needs of it: opening the system bus,
// the session bus or a bus at an address, bounded waits, synchronous calls and properties, one
// error type naming what was asked, and what a poll loop serving the connection needs
// (descriptor, events, deadline, process). The clients — logind's sessions, NetworkManager's
// connectivity, the accessibility bus — each add only their own messages. libsystemd is loaded
// on the first call (CSDBus). Start reading at `BusConnection.system()`.

import CSDBus
import Glibc
import MonotonicClock
import Reactor

/// A failed D-Bus exchange: what was asked, and why it failed.
public struct BusError: Error, Hashable, CustomStringConvertible {
    /// What was asked: a D-Bus method or property, or the connection.
    public var operation: String
    /// The D-Bus error's message, or strerror(3) of a negative errno.
    public var reason: String

    /// `operation: reason`.
    public var description: String { "\(operation): \(reason)" }

    /// `operation` failed with the negative errno `code`.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        reason = String(cString: strerror(-code))
    }

    /// `operation` failed with `error` when it is set, else with the negative errno `code`.
    public init(_ operation: String, error: inout sd_bus_error, code: Int32) {
        self.operation = operation
        if sd_bus_error_is_set(&error) != 0 {
            reason = error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) } ?? "failed"
        } else {
            reason = String(cString: strerror(-code))
        }
    }
}

/// One bus connection (an `sd_bus *`), closed when released.
public final class BusConnection {
    /// Microseconds a call may take unless said otherwise (sd-bus's own default is 25 s).
    public static let defaultCallTimeout: UInt64 = 5_000_000

    /// The `sd_bus *`, for a client's own messages and match rules.
    public let bus: OpaquePointer
    private let callTimeout: UInt64
    /// Whether closing flushes what is queued first: a connection whose calls all waited for
    /// their replies has nothing to flush, and a flush waits for a connection that never
    /// authenticated (90 s).
    private let flushesOnClose: Bool

    private init(bus: OpaquePointer, callTimeout: UInt64, flushesOnClose: Bool) {
        self.bus = bus
        self.callTimeout = callTimeout
        self.flushesOnClose = flushesOnClose
        sd_bus_set_method_call_timeout(bus, callTimeout)
    }

    deinit {
        if flushesOnClose { sd_bus_flush_close_unref(bus) } else { sd_bus_close_unref(bus) }
    }

    /// The system bus (`sd_bus_open_system`: DBUS_SYSTEM_BUS_ADDRESS, else
    /// /run/dbus/system_bus_socket); with `waitingUntilReady`, its authentication is awaited
    /// for at most a call's timeout (sd-bus would wait up to 90 s in the first call).
    public static func system(callTimeout: UInt64 = defaultCallTimeout, waitingUntilReady: Bool = false, flushesOnClose: Bool = true) throws(BusError) -> BusConnection {
        var opened: OpaquePointer?
        let result = sd_bus_open_system(&opened)
        guard result >= 0, let opened else { throw BusError("cannot connect to the system bus", code: result) }
        let connection = BusConnection(bus: opened, callTimeout: callTimeout, flushesOnClose: flushesOnClose)
        if waitingUntilReady { try connection.waitUntilReady(what: "the system bus") }
        return connection
    }

    /// The session bus (`sd_bus_open_user`: DBUS_SESSION_BUS_ADDRESS, else the `bus` socket in
    /// XDG_RUNTIME_DIR).
    public static func session(callTimeout: UInt64 = defaultCallTimeout) throws(BusError) -> BusConnection {
        var opened: OpaquePointer?
        let result = sd_bus_open_user(&opened)
        guard result >= 0, let opened else { throw BusError("cannot connect to the session bus", code: result) }
        return BusConnection(bus: opened, callTimeout: callTimeout, flushesOnClose: true)
    }

    /// The bus at `address` (a user's bus, `unix:path=/run/user/UID/bus`, or the accessibility
    /// bus), as a client; with `waitingUntilReady`, its authentication is awaited for at most a
    /// call's timeout.
    public init(address: String, callTimeout: UInt64 = defaultCallTimeout, waitingUntilReady: Bool = true, flushesOnClose: Bool = false) throws(BusError) {
        var created: OpaquePointer?
        var result = sd_bus_new(&created)
        guard result >= 0, let created else { throw BusError("sd_bus_new", code: result) }
        bus = created
        self.callTimeout = callTimeout
        self.flushesOnClose = flushesOnClose
        sd_bus_set_method_call_timeout(bus, callTimeout)
        result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        // Thrown with every property set, so deinit closes the half-made connection.
        guard result >= 0 else { throw BusError("cannot connect to \(address)", code: result) }
        if waitingUntilReady { try waitUntilReady(what: address) }
    }

    /// Waits, at most a call's timeout, for the connection's authentication.
    private func waitUntilReady(what: String) throws(BusError) {
        let giveUp = PollWait.deadline(in: Double(callTimeout) / 1e6)
        while true {
            let ready = sd_bus_is_ready(bus)
            guard ready >= 0 else { throw BusError("cannot connect to \(what)", code: ready) }
            if ready > 0 { return }
            let processed = sd_bus_process(bus, nil)
            guard processed >= 0 else { throw BusError("cannot connect to \(what)", code: processed) }
            if processed > 0 { continue }
            guard !PollWait.hasPassed(giveUp) else { throw BusError("\(what) did not answer", code: -ETIMEDOUT) }
            // What sd-bus waits for (the authentication's next bytes), until its own deadline
            // or the call timeout, whichever is first.
            let wake = deadline.map { min($0, giveUp) } ?? giveUp
            if case .failed(let code) = PollWait.wait(fd: fileDescriptor, events: pollEvents, until: wake) {
                throw BusError("cannot connect to \(what)", code: -code)
            }
        }
    }

    /// This connection's unique name on the bus (`sd_bus_get_unique_name`).
    public func uniqueName() throws(BusError) -> String {
        var name: UnsafePointer<CChar>?
        let result = sd_bus_get_unique_name(bus, &name)
        guard result >= 0, let name else { throw BusError("sd_bus_get_unique_name", code: result) }
        return String(cString: name)
    }

    // MARK: Calls

    /// Calls `member` and waits for the reply, to unref: with `uid` (a `u`) first when given,
    /// then `strings` (each an `s`).
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String, uid: UInt32? = nil, strings: [String] = []) throws(BusError) -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw BusError(member, code: result) }
        defer { sd_bus_message_unref(message) }
        if var uid { result = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &uid) }
        for string in strings where result >= 0 {
            result = string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        guard result >= 0 else { throw BusError(member, code: result) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else { throw BusError(member, error: &error, code: result) }
        return reply
    }

    /// Whether `name` has an owner on the bus now (`org.freedesktop.DBus.NameHasOwner`), which
    /// starts nothing.
    public func nameHasOwner(_ name: String) throws(BusError) -> Bool {
        let reply = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", strings: [name])
        defer { sd_bus_message_unref(reply) }
        var owned: Int32 = 0
        let result = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned)
        guard result > 0 else { throw BusError("NameHasOwner", code: result < 0 ? result : -EBADMSG) }
        return owned != 0
    }

    /// A property through org.freedesktop.DBus.Properties.Get, of D-Bus `type`; the reply (to
    /// unref) is left inside the variant, for reading.
    public func property(_ destination: String, _ path: String, _ interface: String, _ name: String, type: String) throws(BusError) -> OpaquePointer {
        let reply = try call(destination, path, "org.freedesktop.DBus.Properties", "Get", strings: [interface, name])
        let result = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), type)
        guard result > 0 else {
            sd_bus_message_unref(reply)
            throw BusError("\(name) of \(path)", code: result < 0 ? result : -EBADMSG)
        }
        return reply
    }

    /// A string property.
    public func stringProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(BusError) -> String {
        let reply = try property(destination, path, interface, name, type: "s")
        defer { sd_bus_message_unref(reply) }
        return try Self.readString(reply, what: name)
    }

    /// A boolean property.
    public func booleanProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(BusError) -> Bool {
        let reply = try property(destination, path, interface, name, type: "b")
        defer { sd_bus_message_unref(reply) }
        var value: Int32 = 0
        let result = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &value)
        guard result > 0 else { throw BusError(name, code: result < 0 ? result : -EBADMSG) }
        return value != 0
    }

    /// The next basic value of type `s` or `o` in `message`; `what` names it in the error.
    public static func readString(_ message: OpaquePointer, type: Character = "s", what: String) throws(BusError) -> String {
        var pointer: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, CChar(type.asciiValue ?? 0), &pointer)
        guard result > 0, let pointer else { throw BusError(what, code: result < 0 ? result : -EBADMSG) }
        return String(cString: pointer)
    }

    // MARK: A poll loop's view

    /// The connection's descriptor (`sd_bus_get_fd`), to poll for ``pollEvents``.
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// What to poll the descriptor for now (`sd_bus_get_events`): POLLIN, plus POLLOUT while
    /// messages wait to be written.
    public var pollEvents: Int16 { Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))) }

    /// When sd-bus wants ``process()`` called even without I/O (a call's timeout), on
    /// CLOCK_MONOTONIC (`sd_bus_get_timeout`); nil for never.
    public var deadline: MonotonicTime? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        return MonotonicTime(microseconds: usec)
    }

    /// Writes out every message queued (`sd_bus_flush`): calls sent without waiting reach the
    /// bus before the caller goes on.
    public func flush() {
        _ = sd_bus_flush(bus)
    }

    /// Handles everything the bus has for us (`sd_bus_process` until it has nothing more): the
    /// callbacks of match rules and served objects run from here. Throws when the connection
    /// is gone.
    public func process() throws(BusError) {
        while true {
            let result = sd_bus_process(bus, nil)
            guard result >= 0 else { throw BusError("the bus connection", code: result) }
            if result == 0 { return }
        }
    }
}

extension BusConnection: LoopSource {
    /// The connection's descriptor, with what sd-bus waits for on it now.
    public var descriptors: [PollDescriptor] { [PollDescriptor(fd: fileDescriptor, events: pollEvents)] }

    /// Handles everything the bus has (``process()``).
    public func process(ready: [PollDescriptor]) throws { try process() }
}
