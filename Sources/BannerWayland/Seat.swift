// The seat's pointer, routed to the layer surface it is over: libwayland names the surface only
// in `enter`, so the seat remembers it until `leave` and hands every motion, button and scroll
// in between to that surface.

import CWayland
import CWaylandProtocols

/// What the pointer did on a banner, in the surface's buffer pixels (logical coordinates times
/// its scale), the units the banner is drawn in.
public enum PointerEvent: Equatable, Sendable {
    /// The pointer came over the surface at (x, y).
    case entered(x: Double, y: Double)
    /// The pointer moved to (x, y).
    case moved(x: Double, y: Double)
    /// The pointer left the surface.
    case left
    /// A button (Linux input code: 0x110 left, 0x111 right, 0x112 middle) was pressed or
    /// released with the pointer at (x, y).
    case button(code: UInt32, pressed: Bool, x: Double, y: Double)
    /// A wheel or finger scroll: positive `vertical` is down, positive `horizontal` right, in the
    /// compositor's scroll units (about 10 per wheel step on sway).
    case scrolled(vertical: Double, horizontal: Double)
}

/// The `wl_seat` and, while it has one, its `wl_pointer`.
final class Seat {
    private let proxy: OpaquePointer
    private unowned let connection: WaylandConnection
    private let seatListener: UnsafeMutablePointer<wl_seat_listener>
    private let pointerListener: UnsafeMutablePointer<wl_pointer_listener>
    private var pointer: OpaquePointer?
    /// The layer surface the pointer is over, and where on it (buffer pixels).
    private weak var focus: LayerSurface?
    private var x = 0.0
    private var y = 0.0

    init(proxy: OpaquePointer, connection: WaylandConnection) {
        self.proxy = proxy
        self.connection = connection
        seatListener = .allocate(capacity: 1)
        pointerListener = .allocate(capacity: 1)
        var seatSlots = wl_seat_listener()
        seatSlots.capabilities = { data, _, capabilities in Seat.from(data)?.capabilitiesChanged(capabilities) }
        seatSlots.name = { _, _, _ in }
        seatListener.initialize(to: seatSlots)

        // Every slot is filled: libwayland calls whichever event comes, whatever the version.
        var slots = wl_pointer_listener()
        slots.enter = { data, _, _, surface, x, y in
            guard let seat = Seat.from(data) else { return }
            seat.focus = seat.connection.layerSurface(for: surface)
            seat.moved(x, y, entering: true)
        }
        slots.leave = { data, _, _, _ in
            guard let seat = Seat.from(data), let surface = seat.focus else { return }
            seat.focus = nil
            surface.onPointer?(.left)
        }
        slots.motion = { data, _, _, x, y in Seat.from(data)?.moved(x, y, entering: false) }
        slots.button = { data, _, _, _, button, state in
            guard let seat = Seat.from(data), let surface = seat.focus else { return }
            let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
            surface.onPointer?(.button(code: button, pressed: pressed, x: seat.x, y: seat.y))
        }
        slots.axis = { data, _, _, axis, value in
            guard let seat = Seat.from(data), let surface = seat.focus else { return }
            let amount = wl_fixed_to_double(value)
            let vertical = axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
            surface.onPointer?(.scrolled(vertical: vertical ? amount : 0, horizontal: vertical ? 0 : amount))
        }
        slots.frame = { _, _ in }
        slots.axis_source = { _, _, _ in }
        slots.axis_stop = { _, _, _, _ in }
        slots.axis_discrete = { _, _, _, _ in }
        slots.axis_value120 = { _, _, _, _ in }
        pointerListener.initialize(to: slots)
        wl_seat_add_listener(proxy, seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> Seat? {
        data.map { Unmanaged<Seat>.fromOpaque($0).takeUnretainedValue() }
    }

    private func capabilitiesChanged(_ capabilities: UInt32) {
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasPointer, pointer == nil {
            pointer = wl_seat_get_pointer(proxy)
            wl_pointer_add_listener(pointer, pointerListener, Unmanaged.passUnretained(self).toOpaque())
        } else if !hasPointer, let pointer {
            releasePointer(pointer)
        }
    }

    private func moved(_ surfaceX: wl_fixed_t, _ surfaceY: wl_fixed_t, entering: Bool) {
        guard let surface = focus else { return }
        x = wl_fixed_to_double(surfaceX) * surface.scale
        y = wl_fixed_to_double(surfaceY) * surface.scale
        surface.onPointer?(entering ? .entered(x: x, y: y) : .moved(x: x, y: y))
    }

    private func releasePointer(_ pointer: OpaquePointer) {
        if wl_proxy_get_version(pointer) >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
        self.pointer = nil
        focus = nil
    }

    func release() {
        if let pointer { releasePointer(pointer) }
        if wl_proxy_get_version(proxy) >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
        seatListener.deallocate()
        pointerListener.deallocate()
    }
}
