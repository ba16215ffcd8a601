// Other clients' top, left and right struts — status bars, docks, vertical panels — kept current
// from X events, so each banner can sit directly under the top ones and between the side ones
// (StrutLayout.panelInset and sideInsets decide where). Nothing is polled:
// the root's SubstructureNotify says when top-level windows come, go, map and unmap,
// PropertyChangeMask on every other client's window says when a strut changes, and a window
// that carries one has its own structure watched too, so it is heard inside a WM's frame.
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
    /// Windows seen: the root's children, their children (clients in WM frames), and every
    /// window created at the root since.
    private var known: Set<Window> = []
    /// Known windows that are mapped (their own map state).
    private var mapped: Set<Window> = []
    /// Known windows inside a WM's frame, and the frame: destroyed with it, unheard otherwise.
    private var frames: [Window: Window] = [:]
    /// Windows carrying a top or side strut, and those struts (other clients' only). Their
    /// structure is watched too, so their own map, unmap and destruction are heard inside a WM's frame.
    private var carriers: [Window: Struts] = [:]
    /// Windows to read at the next `refresh()`.
    private var pending: Set<Window> = []
    /// Windows whose events we asked for, and with which mask.
    private var selected: [Window: UInt32] = [:]
    private let strutPartial: Atom
    private let strut: Atom
    private let windowClass = Atom(XA_WM_CLASS)
    private let ownBase: UInt32
    private let ownMask: UInt32
    /// The top struts of the other clients' mapped windows, in root coordinates.
    private(set) var panels: [TopStrut] = []
    /// The left and right struts of the other clients' mapped windows, in root coordinates.
    private(set) var sidePanels: [SideStrut] = []
    /// Where other window-banner processes' docks end (their top struts' root rows), the latest
    /// few: a work area ending there is a banner's, not a shell's panel (see ShellPanel).
    private(set) var bannerTops: [Int] = []

    init(connection: XConnection) {
        self.connection = connection
        xcb = connection.xcb
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
        let cookies = roots.map { xcb_query_tree(xcb, UInt32($0)) }
        known.formUnion(roots)
        for (frame, cookie) in zip(roots, cookies) {
            for client in children(from: cookie) {
                known.insert(client)
                frames[client] = frame
            }
        }
        pending.formUnion(known)
        _ = refresh()
    }

    /// Takes in an event of the root's substructure or of a watched window; returns true when it
    /// changed `panels` or `sidePanels`. Windows to read are left for the next `refresh()`.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case CreateNotify where event.xcreatewindow.parent == connection.root:
            known.insert(event.xcreatewindow.window)
            pending.insert(event.xcreatewindow.window)
            return false
        case DestroyNotify:
            let window = event.xdestroywindow.window
            guard known.contains(window) else { return false }
            forget(window)
            for (client, frame) in frames where frame == window { forget(client) }
            return recompute()
        case ReparentNotify where event.xreparent.event == connection.root:
            let window = event.xreparent.window
            guard known.contains(window) else { return false }
            if event.xreparent.parent == connection.root {
                frames.removeValue(forKey: window)
            } else {
                frames[window] = event.xreparent.parent
            }
            return false
        case MapNotify:
            let window = event.xmap.window
            guard known.contains(window) else { return false }
            mapped.insert(window)
            return carriers[window] != nil && recompute()
        case UnmapNotify:
            let window = event.xunmap.window
            guard known.contains(window) else { return false }
            mapped.remove(window)
            return carriers[window] != nil && recompute()
        case PropertyNotify:
            let atom = event.xproperty.atom
            guard atom == strutPartial || atom == strut || atom == windowClass, known.contains(event.xproperty.window) else { return false }
            pending.insert(event.xproperty.window)
            return false
        default:
            return false
        }
    }

    /// The screen changed size: right struts count from its right edge, and a legacy strut
    /// spans all of it, so every carrier is read again at the next `refresh()`.
    func screenResized() {
        pending.formUnion(carriers.keys)
    }

    /// Whether windows are waiting to be read.
    var needsRefresh: Bool { !pending.isEmpty }

    /// Makes sure `window`'s property changes are heard from now on, selecting them at once if
    /// that was still pending (the focused window: a property read after this call misses no
    /// later change); returns whether `panels` or `sidePanels` changed.
    func watch(_ window: Window) -> Bool {
        guard window != 0, selected[window] == nil, !isOwn(window) else { return false }
        known.insert(window)
        pending.insert(window)
        return refresh()
    }

    /// Reads every pending window in one batch (a second, small one for windows found to carry
    /// a strut, whose structure is watched from then on); returns whether `panels` or
    /// `sidePanels` changed.
    @discardableResult
    func refresh() -> Bool {
        var windows = Array(pending.filter { !isOwn($0) })
        pending.removeAll()
        var first = true
        while !windows.isEmpty {
            windows = read(windows, selecting: first ? UInt32(PropertyChangeMask) : UInt32(PropertyChangeMask | StructureNotifyMask))
            first = false
        }
        return recompute()
    }

    /// Selects `mask` on `windows` where not yet selected, reads their struts, class and map
    /// state; returns the new carriers whose structure is not watched yet.
    private func read(_ windows: [Window], selecting mask: UInt32) -> [Window] {
        var value = mask
        let requests = windows.map { window in
            let id = UInt32(window)
            let select = (selected[window] ?? 0) & mask == mask
                ? nil : xcb_change_window_attributes_checked(xcb, id, XCB_CW_EVENT_MASK.rawValue, &value)
            return (
                window: window, select: select,
                partial: xcb_get_property(xcb, 0, id, UInt32(strutPartial), XCB_ATOM_CARDINAL.rawValue, 0, 12),
                legacy: xcb_get_property(xcb, 0, id, UInt32(strut), XCB_ATOM_CARDINAL.rawValue, 0, 4),
                className: xcb_get_property(xcb, 0, id, UInt32(windowClass), XCB_ATOM_STRING.rawValue, 0, 64),
                attributes: xcb_get_window_attributes(xcb, id)
            )
        }
        let screenWidth = Int(wb_DisplayWidth(connection.display, connection.screen))
        let screenHeight = Int(wb_DisplayHeight(connection.display, connection.screen))
        var unwatched: [Window] = []
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        for request in requests {
            let partial = connection.cardinals(from: request.partial)
            let legacy = connection.cardinals(from: request.legacy)
            let className = classOf(request.className)
            var gone = false
            if let select = request.select {
                if let error = xcb_request_check(xcb, select) { free(error); gone = true } else { selected[request.window] = mask }
            }
            if let reply = XConnection.xcbReply(xcb_get_window_attributes_reply(xcb, request.attributes, &error), &error) {
                if reply.pointee.map_state == UInt8(XCB_MAP_STATE_UNMAPPED.rawValue) {
                    mapped.remove(request.window)
                } else {
                    mapped.insert(request.window)
                }
                free(reply)
            } else {
                gone = true
            }
            if gone {
                forget(request.window)
            } else if className == Self.ownClass {
                carriers.removeValue(forKey: request.window)
                if let top = TopStrut(partial: partial, legacy: legacy, screenWidth: screenWidth)?.top {
                    Self.remember(top, in: &bannerTops)
                }
            } else if let found = Struts(partial: partial, legacy: legacy, screenWidth: screenWidth, screenHeight: screenHeight) {
                carriers[request.window] = found
                if (selected[request.window] ?? 0) & UInt32(StructureNotifyMask) == 0 { unwatched.append(request.window) }
            } else {
                carriers.removeValue(forKey: request.window)
            }
        }
        return unwatched
    }

    /// Recomputes `panels` and `sidePanels`; returns whether they changed.
    private func recompute() -> Bool {
        let shown = carriers.filter { mapped.contains($0.key) }.map(\.value)
        let top = shown.compactMap(\.top).sorted { ($0.top, $0.startX, $0.endX) < ($1.top, $1.startX, $1.endX) }
        let sides = shown.flatMap(\.sides).sorted { ($0.startX, $0.endX, $0.startY, $0.endY) < ($1.startX, $1.endX, $1.startY, $1.endY) }
        guard top != panels || sides != sidePanels else { return false }
        panels = top
        sidePanels = sides
        return true
    }

    private func forget(_ window: Window) {
        known.remove(window)
        frames.removeValue(forKey: window)
        mapped.remove(window)
        carriers.removeValue(forKey: window)
        selected.removeValue(forKey: window)
        pending.remove(window)
    }

    /// Windows this connection created: ours are never panels, and their event masks are ours.
    func isOwn(_ window: Window) -> Bool {
        UInt32(truncatingIfNeeded: window) & ~ownMask == ownBase
    }

    /// Adds `top` to `tops`, a list of the latest 16 banner strut tops.
    static func remember(_ top: Int, in tops: inout [Int]) {
        tops.removeAll { $0 == top }
        tops.append(top)
        if tops.count > 16 { tops.removeFirst() }
    }

    /// WM_CLASS's class of every window-banner window (see BannerWindow, ReservationWindow).
    static let ownClass = "WindowBanner"

    // MARK: XCB replies

    private func queryTree(_ window: Window) -> [Window] {
        children(from: xcb_query_tree(xcb, UInt32(window)))
    }

    private func children(from cookie: xcb_query_tree_cookie_t) -> [Window] {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = XConnection.xcbReply(xcb_query_tree_reply(xcb, cookie, &error), &error) else { return [] }
        defer { free(reply) }
        guard let list = xcb_query_tree_children(reply) else { return [] }
        return UnsafeBufferPointer(start: list, count: Int(xcb_query_tree_children_length(reply))).map { Window($0) }
    }

    /// WM_CLASS's second string (the class); nil when absent.
    private func classOf(_ cookie: xcb_get_property_cookie_t) -> String? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = XConnection.xcbReply(xcb_get_property_reply(xcb, cookie, &error), &error) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard reply.pointee.format == 8, length > 0, let value = xcb_get_property_value(reply) else { return nil }
        let bytes = UnsafeBufferPointer(start: value.assumingMemoryBound(to: UInt8.self), count: length)
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    }

    /// What one window reserves at the edges the banner cares about (a bottom strut never
    /// touches it).
    private struct Struts {
        var top: TopStrut?
        var sides: [SideStrut]

        /// Nil when the window reserves nothing at the top, left or right.
        init?(partial: [Int]?, legacy: [Int]?, screenWidth: Int, screenHeight: Int) {
            top = TopStrut(partial: partial, legacy: legacy, screenWidth: screenWidth)
            sides = SideStrut.struts(partial: partial, legacy: legacy, screenWidth: screenWidth, screenHeight: screenHeight)
            guard top != nil || !sides.isEmpty else { return nil }
        }
    }
}
