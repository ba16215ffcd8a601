// The match rules a bus client subscribes to, each with its handler, and the object the handlers
// serve; the rules go with it. ShellExtension and NetworkManagerWatch subscribe to their
// service's signals and to its name's owner this way.

import CSDBus

/// Match rules added on one connection, removed when this goes.
public final class BusMatches {
    private let connection: BusConnection
    private var slots: [OpaquePointer] = []

    public init(on connection: BusConnection) {
        self.connection = connection
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
    }

    /// Adds `rule`, whose messages go to `callback` with `target` as its userdata (not retained:
    /// the target keeps this, so it outlives every call).
    public func add(_ rule: String, target: AnyObject, _ callback: sd_bus_message_handler_t) throws(BusError) {
        var slot: OpaquePointer?
        let result = sd_bus_add_match(connection.bus, &slot, rule, callback, Unmanaged.passUnretained(target).toOpaque())
        guard result >= 0, let slot else { throw BusError("AddMatch", code: result) }
        slots.append(slot)
    }

    /// The object a handler's userdata points at (a match's target, or what an asynchronous
    /// call passed the same way).
    public static func target<Target: AnyObject>(_ userdata: UnsafeMutableRawPointer) -> Target {
        Unmanaged<Target>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// The rule for the bus's `NameOwnerChanged` of `name`: the service left or came back.
    public static func ownerChanges(of name: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
    }
}
