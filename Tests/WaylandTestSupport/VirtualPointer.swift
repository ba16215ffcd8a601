// A pointer device for a headless compositor, which has none: a wlr-virtual-pointer made by a
// connection of its own. Its being there gives the seat a pointer (clients then get wl_pointer);
// the test moves and clicks it with sway's own commands (`seat seat0 cursor set X Y`,
// `seat seat0 cursor press button1`), or, where the compositor has none (labwc), through the
// device itself (`click`).

import CWayland
import CWaylandTestProtocols
import ProcessTestSupport

/// A virtual pointer on the compositor at `socketPath`, there until released.
public final class VirtualPointer {
    private let display: OpaquePointer
    private var manager: OpaquePointer?
    private var pointer: OpaquePointer?

    public init(socketPath: String) throws {
        guard let display = wl_display_connect(socketPath) else { throw TestFailure("cannot connect to \(socketPath)") }
        self.display = display
        manager = bindGlobal(on: display, named: "zwlr_virtual_pointer_manager_v1") { registry, name, _ in
            OpaquePointer(wl_registry_bind(registry, name, wb_zwlr_virtual_pointer_manager_v1_interface(), 1))
        }
        guard let manager else {
            throw TestFailure("the compositor offers no zwlr_virtual_pointer_manager_v1")
        }
        // No seat named: the compositor's default seat (seat0).
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil)
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("the virtual pointer was refused") }
    }

    /// Moves the pointer to (`x`, `y`) on an output of `width`×`height` logical pixels (the
    /// only one) and clicks the left button there, each step its own frame, for a compositor
    /// with no commands of its own for that (labwc).
    public func click(x: Int, y: Int, width: Int, height: Int) throws {
        guard let pointer else { throw TestFailure("no virtual pointer") }
        let leftButton: UInt32 = 0x110  // BTN_LEFT
        zwlr_virtual_pointer_v1_motion_absolute(pointer, 0, UInt32(x), UInt32(y), UInt32(width), UInt32(height))
        zwlr_virtual_pointer_v1_frame(pointer)
        // The compositor has the pointer over the surface (and told it so) before the press.
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("the compositor closed the virtual pointer's connection") }
        zwlr_virtual_pointer_v1_button(pointer, 1, leftButton, 1)
        zwlr_virtual_pointer_v1_frame(pointer)
        zwlr_virtual_pointer_v1_button(pointer, 2, leftButton, 0)
        zwlr_virtual_pointer_v1_frame(pointer)
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("the compositor closed the virtual pointer's connection") }
    }

    deinit {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        if let manager { zwlr_virtual_pointer_manager_v1_destroy(manager) }
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
    }
}

/// The global called `name` that the compositor on `display` announces, bound by `bind` (given
/// the registry, the global's number and the version the compositor offers; nil to leave it),
/// after one round trip; nil when there is none.
func bindGlobal(on display: OpaquePointer, named name: String,
                _ bind: @escaping (_ registry: OpaquePointer, _ global: UInt32, _ version: UInt32) -> OpaquePointer?) -> OpaquePointer? {
    final class Search {
        let name: String
        let bind: (OpaquePointer, UInt32, UInt32) -> OpaquePointer?
        var found: OpaquePointer?
        init(name: String, bind: @escaping (OpaquePointer, UInt32, UInt32) -> OpaquePointer?) { (self.name, self.bind) = (name, bind) }
    }
    let search = Search(name: name, bind: bind)
    // Held until after the registry is destroyed (the defers run last to first).
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    defer { listener.deallocate() }
    listener.initialize(to: wl_registry_listener(
        global: { data, registry, global, interface, version in
            guard let data, let registry, let interface else { return }
            let search = Unmanaged<Search>.fromOpaque(data).takeUnretainedValue()
            guard search.found == nil, String(cString: interface) == search.name else { return }
            search.found = search.bind(registry, global, version)
        },
        global_remove: { _, _, _ in }
    ))
    let registry = wl_display_get_registry(display)
    defer { wl_registry_destroy(registry) }
    return withExtendedLifetime(search) {
        wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(search).toOpaque())
        guard wl_display_roundtrip(display) >= 0 else { return nil }
        return search.found
    }
}
