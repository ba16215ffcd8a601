// The desktop's XSETTINGS, followed live: the manager is whoever owns the `_XSETTINGS_S<screen>`
// selection; its window's `_XSETTINGS_SETTINGS` property changes when a setting does, and a new
// manager (a restart, another desktop's daemon) announces itself with a MANAGER client message
// on the root. Nothing is polled. Events only mark the settings stale; the display reads them
// once per loop turn, however many arrived (`refresh`).

import CX11
import Glibc

final class XSettingsWatch {
    private unowned let connection: XConnection
    private let selection: Atom
    private let property: Atom
    private let manager: Atom
    /// The manager's window; 0 when there is none.
    private(set) var owner: Window = 0
    /// The manager's settings; empty when there is none or its property is malformed.
    private(set) var settings = XSettings()
    /// Whether an event said the settings or their manager changed since the last `refresh`.
    private(set) var needsRefresh = false

    /// The most of the property read: real managers publish a few kilobytes; more is refused
    /// rather than read.
    static let maximumBytes = 64 * 1024

    init(connection: XConnection) {
        self.connection = connection
        selection = connection.atom("_XSETTINGS_S\(connection.screen)")
        property = connection.atom("_XSETTINGS_SETTINGS")
        manager = connection.atom("MANAGER")
    }

    /// Takes in an event of the root (StructureNotify: MANAGER messages, destructions of its
    /// children) or of the manager's window (PropertyChange); marks the settings stale when it
    /// says they changed.
    func handle(_ event: inout XEvent) {
        switch event.type {
        case ClientMessage:
            let message = event.xclient
            guard message.window == connection.root, message.message_type == manager,
                  Atom(UInt(bitPattern: message.data.l.1)) == selection else { return }
        case DestroyNotify:
            guard owner != 0, event.xdestroywindow.window == owner else { return }
        case PropertyNotify:
            guard owner != 0, event.xproperty.window == owner, event.xproperty.atom == property else { return }
        default:
            return
        }
        needsRefresh = true
    }

    /// Finds the manager and reads its settings; `watch` makes sure the manager window's
    /// property changes are heard before the property is read, so none is missed in between.
    /// Returns whether the settings changed.
    func refresh(watch: (Window) -> Void) -> Bool {
        needsRefresh = false
        owner = XGetSelectionOwner(connection.display, selection)
        if owner != 0 { watch(owner) }
        let read = owner == 0 ? XSettings() : readSettings(of: owner)
        guard read != settings else { return false }
        settings = read
        return true
    }

    private func readSettings(of window: Window) -> XSettings {
        let xcb = connection.xcb
        let cookie = xcb_get_property(xcb, 0, UInt32(window), UInt32(property), XCB_GET_PROPERTY_TYPE_ANY.rawValue, 0, UInt32(Self.maximumBytes / 4))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = XConnection.xcbReply(xcb_get_property_reply(xcb, cookie, &error), &error) else { return XSettings() }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard reply.pointee.format == 8, reply.pointee.bytes_after == 0, length > 0, length <= Self.maximumBytes,
              let value = xcb_get_property_value(reply) else { return XSettings() }
        let bytes = Array(UnsafeBufferPointer(start: value.bindMemory(to: UInt8.self, capacity: length), count: length))
        return XSettings(parsing: bytes) ?? XSettings()
    }
}
