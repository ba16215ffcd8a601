// NetworkManager's opinion of the internet, read from the system D-Bus with sd-bus (libsystemd):
// the `Connectivity` property of /org/freedesktop/NetworkManager (0 unknown, 1 none, 2 portal,
// 3 limited, 4 full), then every change through `PropertiesChanged`, and NetworkManager
// leaving or coming back through the bus's `NameOwnerChanged`. Nothing is polled: the caller's
// poll loop watches ``NetworkManagerWatch/fileDescriptor`` for ``NetworkManagerWatch/pollEvents``
// until ``NetworkManagerWatch/deadline`` and calls ``NetworkManagerWatch/process()``. sd-bus
// honours DBUS_SYSTEM_BUS_ADDRESS, so tests point it at a private bus with a fake
// NetworkManager. Used by `window-banner monitor` only: window-banner-full links libsystemd, the
// static `window-banner` client never does.
// Start reading at `NetworkManagerWatch.start()`.

import CSDBus
import Reactor
import SDBus
import Glibc
import MonotonicClock

/// Something NetworkManager did on the bus.
public enum NetworkManagerEvent: Sendable, Hashable {
    /// Its `Connectivity` property's value: at start-up, at each change, and when it comes back.
    case connectivity(UInt32)
    /// It left the bus (stopped or restarting); nothing is known until it comes back.
    case gone
}

/// One connection to the system bus, watching NetworkManager's connectivity.
public final class NetworkManagerWatch {
    /// NetworkManager's well-known name on the bus.
    public static let service = "org.freedesktop.NetworkManager"
    private static let objectPath = "/org/freedesktop/NetworkManager"
    /// Seconds a synchronous call at start-up may take (sd-bus's own default is 25).
    private static let callTimeout: UInt64 = 5_000_000

    private let connection: BusConnection
    private var bus: OpaquePointer { connection.bus }
    private let matches: BusMatches
    private var pendingRead: OpaquePointer?
    private var received: [NetworkManagerEvent] = []

    /// Connects to the system bus (`sd_bus_open_system`: DBUS_SYSTEM_BUS_ADDRESS, else
    /// /run/dbus/system_bus_socket).
    public init() throws(BusError) {
        connection = try BusConnection.system(callTimeout: Self.callTimeout)
        matches = BusMatches(on: connection)
    }

    deinit {
        if let pendingRead { sd_bus_slot_unref(pendingRead) }
    }

    /// Whether NetworkManager owns its name on the bus now (`org.freedesktop.DBus.NameHasOwner`).
    public func serviceIsRunning() throws(BusError) -> Bool {
        try connection.nameHasOwner(Self.service)
    }

    /// Subscribes to the property's changes and to NetworkManager leaving and returning, then
    /// reads the property (in that order, so no change falls in between); returns its value.
    public func start() throws(BusError) -> UInt32 {
        let properties = "type='signal',sender='\(Self.service)',path='\(Self.objectPath)',"
            + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(Self.service)'"
        try matches.add(properties, target: self) { message, userdata, _ in
            if let message, let userdata { (BusMatches.target(userdata) as NetworkManagerWatch).propertiesChanged(message) }
            return 0
        }
        try matches.add(BusMatches.ownerChanges(of: Self.service), target: self) { message, userdata, _ in
            if let message, let userdata { (BusMatches.target(userdata) as NetworkManagerWatch).ownerChanged(message) }
            return 0
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var value: UInt32 = 0
        let result = sd_bus_get_property_trivial(
            bus, Self.service, Self.objectPath, Self.service, "Connectivity", &error, CChar(UInt8(ascii: "u")), &value)
        guard result >= 0 else { throw BusError("Connectivity", error: &error, code: result) }
        return value
    }

    /// Called with what NetworkManager did, in order, each time the loop serving this watch
    /// (it is a LoopSource) found something.
    public var onEvents: (([NetworkManagerEvent]) -> Void)?

    /// The bus connection's descriptor.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// What to poll the descriptor for now: POLLIN, plus POLLOUT while messages wait to be written.
    public var pollEvents: Int16 { connection.pollEvents }

    /// When sd-bus wants ``process()`` called even without I/O (a call's timeout), in seconds on
    /// CLOCK_MONOTONIC; nil for never.
    public var deadline: MonotonicTime? { connection.deadline }

    /// Handles everything the bus has for us; returns what NetworkManager did, in order.
    /// Throws when the connection is gone.
    public func process() throws(BusError) -> [NetworkManagerEvent] {
        try connection.process()
        defer { received = [] }
        return received
    }

    // MARK: Signals

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)`: the Connectivity entry, if any.
    private func propertiesChanged(_ message: OpaquePointer) {
        var interface: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &interface) > 0,
              let interface, String(cString: interface) == Self.service,
              sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &key) > 0, let key else { return }
            if String(cString: key) == "Connectivity", let value = Self.readVariantUInt32(message) {
                received.append(.connectivity(value))
            } else {
                sd_bus_message_skip(message, "v")
            }
            sd_bus_message_exit_container(message)
        }
    }

    /// `NameOwnerChanged(s name, s old, s new)` for NetworkManager's name: gone when the new
    /// owner is empty, else back — then its property is read again (asynchronously).
    private func ownerChanged(_ message: OpaquePointer) {
        var name: UnsafePointer<CChar>?
        var old: UnsafePointer<CChar>?
        var new: UnsafePointer<CChar>?
        let s = CChar(UInt8(ascii: "s"))
        guard sd_bus_message_read_basic(message, s, &name) > 0, sd_bus_message_read_basic(message, s, &old) > 0,
              sd_bus_message_read_basic(message, s, &new) > 0, let new else { return }
        if new.pointee == 0 {
            received.append(.gone)
        } else {
            readConnectivityAsynchronously()
        }
    }

    private func readConnectivityAsynchronously() {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(
            bus, &message, Self.service, Self.objectPath, "org.freedesktop.DBus.Properties", "Get") >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        let s = CChar(UInt8(ascii: "s"))
        guard Self.service.withCString({ sd_bus_message_append_basic(message, s, $0) }) >= 0,
              "Connectivity".withCString({ sd_bus_message_append_basic(message, s, $0) }) >= 0 else { return }
        if let pendingRead { sd_bus_slot_unref(pendingRead) }
        pendingRead = nil
        var slot: OpaquePointer?
        guard sd_bus_call_async(bus, &slot, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            if sd_bus_message_is_method_error(reply, nil) == 0, let value = NetworkManagerWatch.readVariantUInt32(reply) {
                (BusMatches.target(userdata) as NetworkManagerWatch).received.append(.connectivity(value))
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), Self.callTimeout) >= 0 else { return }
        pendingRead = slot
    }

    /// A `v` holding a `u`, read and left; nil (and skipped) when it holds something else.
    private static func readVariantUInt32(_ message: OpaquePointer) -> UInt32? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), "u") > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) > 0 else { return nil }
        return value
    }
}

extension NetworkManagerWatch: LoopSource {
    public var descriptors: [PollDescriptor] { connection.descriptors }

    /// Handles everything the bus has, and gives what NetworkManager did to ``onEvents``.
    public func process(ready: [PollDescriptor]) throws {
        let events = try process()
        if !events.isEmpty { onEvents?(events) }
    }
}
