// Other clients' top struts — status bars, docks, panels — kept current from X events, so each
// banner can sit directly under them (BannerLayout.panelInset decides where). Nothing is polled:
// the root's SubstructureNotify says when top-level windows come, go, map, unmap and move into
// WM frames, and PropertyChangeMask on every other client's window says when a strut changes.
// Windows are read in batches over XCB on Xlib's own connection (one round trip for any number
// of windows), so a desktop with a hundred windows costs three round trips at start-up, not
// hundreds. Windows of class WindowBanner — ours and other window-banner processes' docks —
// never count: a banner stacking itself under its own reservation would grow without end.
// Start reading at `start()`, then `handle(_:)`.

import CX11
import Glibc
import BannerCore

final class PanelWatch {
    private unowned let connection: XConnection
    private let xcb: OpaquePointer
    /// Every window seen, with the root's child that holds it (itself, or its WM frame).
    private var topLevels: [Window: Window] = [:]
    /// Root children that are mapped.
    private var mapped: Set<Window> = []
    /// Windows carrying a top strut, and that strut (other clients' only).
    private var carriers: [Window: TopStrut] = [:]
    /// Windows to read at the next `refresh()`.
    private var pending: Set<Window> = []
    /// Windows whose PropertyNotify events we already asked for.
    private var watched: Set<Window> = []
    private let strutPartial: Atom
    private let strut: Atom
    private let windowClass = Atom(XA_WM_CLASS)
    private let ownBase: UInt32
    private let ownMask: UInt32
    /// The top struts of the other clients' mapped windows, in root coordinates.
    private(set) var panels: [TopStrut] = []

    init(connection: XConnection) {
        self.connection = connection
        xcb = XGetXCBConnection(connection.display)
        strutPartial = connection.atom("_NET_WM_STRUT_PARTIAL")
        strut = connection.atom("_NET_WM_STRUT")
        let setup = xcb_get_setup(xcb)
        ownBase = setup?.pointee.resource_id_base ?? 0
        ownMask = setup?.pointee.resource_id_mask ?? 0
    }

    /// Reads the windows already there: the root's children and theirs (clients in WM frames).
    /// The root's SubstructureNotify must be selected first, so no window slips between.
    func start() {
        let roots = queryTree(connection.root)
        for window in roots { topLevels[window] = window }
        let cookies = roots.map { xcb_query_tree(xcb, UInt32($0)) }
        for (frame, cookie) in zip(roots, cookies) {
            for child in children(from: cookie) { topLevels[child] = frame }
        }
        pending.formUnion(topLevels.keys)
        _ = refresh()
    }

    /// Takes in an event of the root's substructure or a watched window's property; returns true
    /// when it changed `panels`. Windows to read are left for the next `refresh()`.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case CreateNotify where event.xcreatewindow.parent == connection.root:
            let window = event.xcreatewindow.window
            topLevels[window] = window
            pending.insert(window)
            return false
        case DestroyNotify where event.xdestroywindow.event == connection.root:
            let window = event.xdestroywindow.window
            forget(window)
            return recompute()
        case MapNotify where event.xmap.event == connection.root:
            mapped.insert(event.xmap.window)
            return holdsCarrier(event.xmap.window) && recompute()
        case UnmapNotify where event.xunmap.event == connection.root:
            mapped.remove(event.xunmap.window)
            return holdsCarrier(event.xunmap.window) && recompute()
        case ReparentNotify where event.xreparent.event == connection.root:
            let window = event.xreparent.window
            if event.xreparent.parent == connection.root {
                // Back at the root (its WM went away): a top-level of its own, mapped or not.
                topLevels[window] = window
                pending.insert(window)
            } else {
                mapped.remove(window)
                topLevels[window] = topLevels[event.xreparent.parent] ?? event.xreparent.parent
            }
            return carriers[window] != nil && recompute()
        case PropertyNotify:
            let atom = event.xproperty.atom
            guard atom == strutPartial || atom == strut || atom == windowClass,
                  topLevels[event.xproperty.window] != nil else { return false }
            pending.insert(event.xproperty.window)
            return false
        default:
            return false
        }
    }

    /// Whether windows are waiting to be read.
    var needsRefresh: Bool { !pending.isEmpty }

    /// Reads every pending window in one batch; returns whether `panels` changed.
    @discardableResult
    func refresh() -> Bool {
        let windows = pending.filter { !isOwn($0) }
        pending.removeAll()
        guard !windows.isEmpty else { return false }
        var mask = UInt32(PropertyChangeMask)
        let requests = windows.map { window in
            let id = UInt32(window)
            let select = watched.contains(window) ? nil : xcb_change_window_attributes_checked(xcb, id, XCB_CW_EVENT_MASK.rawValue, &mask)
            return (
                window: window, select: select,
                partial: xcb_get_property(xcb, 0, id, UInt32(strutPartial), XCB_ATOM_CARDINAL.rawValue, 0, 12),
                legacy: xcb_get_property(xcb, 0, id, UInt32(strut), XCB_ATOM_CARDINAL.rawValue, 0, 4),
                className: xcb_get_property(xcb, 0, id, UInt32(windowClass), XCB_ATOM_STRING.rawValue, 0, 64),
                attributes: xcb_get_window_attributes(xcb, id)
            )
        }
        let screenWidth = Int(wb_DisplayWidth(connection.display, connection.screen))
        for request in requests {
            let partial = cardinals(request.partial)
            let legacy = cardinals(request.legacy)
            let className = classOf(request.className)
            var gone = false
            if let select = request.select {
                if let error = xcb_request_check(xcb, select) { free(error); gone = true } else { watched.insert(request.window) }
            }
            if let reply = xcb_get_window_attributes_reply(xcb, request.attributes, nil) {
                if topLevels[request.window] == request.window {
                    if reply.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue) {
                        mapped.insert(request.window)
                    } else {
                        mapped.remove(request.window)
                    }
                }
                free(reply)
            } else {
                gone = true
            }
            if gone {
                forget(request.window)
            } else if className != Self.ownClass, let found = TopStrut(partial: partial, legacy: legacy, screenWidth: screenWidth) {
                carriers[request.window] = found
            } else {
                carriers.removeValue(forKey: request.window)
            }
        }
        return recompute()
    }

    /// Recomputes `panels`; returns whether they changed.
    private func recompute() -> Bool {
        let current = carriers
            .filter { window, _ in topLevels[window].map(mapped.contains) ?? false }
            .map(\.value)
            .sorted { ($0.top, $0.startX, $0.endX) < ($1.top, $1.startX, $1.endX) }
        guard current != panels else { return false }
        panels = current
        return true
    }

    private func forget(_ window: Window) {
        topLevels.removeValue(forKey: window)
        mapped.remove(window)
        carriers.removeValue(forKey: window)
        watched.remove(window)
        pending.remove(window)
        // A frame destroyed takes the clients it held out of view (they are reparented or gone).
        for (client, frame) in topLevels where frame == window { topLevels[client] = client }
    }

    private func holdsCarrier(_ topLevel: Window) -> Bool {
        carriers.keys.contains { topLevels[$0] == topLevel }
    }

    /// Windows this connection created: ours are never panels, and their event masks are ours.
    private func isOwn(_ window: Window) -> Bool {
        UInt32(truncatingIfNeeded: window) & ~ownMask == ownBase
    }

    /// WM_CLASS's class of every window-banner window (see BannerWindow, ReservationWindow).
    static let ownClass = "WindowBanner"

    // MARK: XCB replies

    private func queryTree(_ window: Window) -> [Window] {
        children(from: xcb_query_tree(xcb, UInt32(window)))
    }

    private func children(from cookie: xcb_query_tree_cookie_t) -> [Window] {
        guard let reply = xcb_query_tree_reply(xcb, cookie, nil) else { return [] }
        defer { free(reply) }
        guard let list = xcb_query_tree_children(reply) else { return [] }
        return UnsafeBufferPointer(start: list, count: Int(xcb_query_tree_children_length(reply))).map { Window($0) }
    }

    /// A format-32 property's values; nil when absent (or the window is gone).
    private func cardinals(_ cookie: xcb_get_property_cookie_t) -> [Int]? {
        guard let reply = xcb_get_property_reply(xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.format == 32, reply.pointee.value_len > 0, let value = xcb_get_property_value(reply) else { return nil }
        let values = value.bindMemory(to: UInt32.self, capacity: Int(reply.pointee.value_len))
        return UnsafeBufferPointer(start: values, count: Int(reply.pointee.value_len)).map { Int(Int32(bitPattern: $0)) }
    }

    /// WM_CLASS's second string (the class); nil when absent.
    private func classOf(_ cookie: xcb_get_property_cookie_t) -> String? {
        guard let reply = xcb_get_property_reply(xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard reply.pointee.format == 8, length > 0, let value = xcb_get_property_value(reply) else { return nil }
        let bytes = UnsafeBufferPointer(start: value.assumingMemoryBound(to: UInt8.self), count: length)
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    }
}
