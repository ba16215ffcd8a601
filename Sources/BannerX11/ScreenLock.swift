// Whether the screen is locked, as far as a banner must care. While it is, no banner may show:
// whatever a script wrote on it ("Call from Anna") must not appear over the lock screen, and
// re-raising over a locker that raises itself would be a war burning a core.
// A locker or screensaver is an override-redirect window that draws (not InputOnly), covers a
// whole monitor (allowing the 1-pixel border xsecurelock leaves round its "obscurer" window) and
// sits above every window the window manager manages for other clients: lockers map themselves
// raised and raise themselves again whenever anything goes over them (i3lock, xsecurelock,
// light-locker, slock, xscreensaver: docs/x11.md). Full-screen override-redirect windows under
// the managed windows, or at the very bottom of the stack, are no lockers and hide nothing:
// mutter's and muffin's guard window (lowered, then mapped), a desktop widget such as conky's
// `own_window_type override` (mapped, then lowered). So the root's children are kept in stacking
// order (read once at start, then followed through CreateNotify, ConfigureNotify with its `above`
// sibling, CirculateNotify, ReparentNotify, DestroyNotify), and a window is judged each time it
// maps or moves, and stays a locker until it moves again (under other clients' windows or to the
// bottom), unmaps or is destroyed — not when something else goes over it: a WM stacks a dock
// it has just mapped (ours, a panel's) and windows of its own in its top layer, over the locker,
// until the locker raises itself again, and the banner must not show in between. Our own dock is
// a managed window that never counts. The X server's own saver, reported on by MIT-SCREEN-SAVER,
// counts too. Nothing is polled. A compositing manager's overlay window is not a locker.
// Start reading at `isLocker(at:)`, then `handle(_:)`.

import CX11
import Glibc
import BannerCore

final class ScreenLock {
    /// One child of the root, as the rule needs it.
    private struct TopLevel {
        let window: Window
        var isMapped: Bool
        var isOverrideRedirect: Bool
        /// An InputOnly window shows nothing, so it hides nothing (mutter's guard window is one).
        var drawsNothing: Bool
        var rect: MonitorGeometry
    }

    private unowned let connection: XConnection
    /// The root's children, bottom to top.
    private var stack: [TopLevel] = []
    /// The monitors a window must cover to count as a locker.
    private var monitors: [MonitorGeometry]
    private var saverOn = false
    private var saverEventBase: Int32 = -1
    private let isOwn: (Window) -> Bool

    /// Watches `connection`'s screen, whose root must already select SubstructureNotify (so no
    /// window slips between the read of the stack and the first event).
    init(connection: XConnection, monitors: [MonitorGeometry], isOwn: @escaping (Window) -> Bool) {
        self.connection = connection
        self.monitors = monitors
        self.isOwn = isOwn
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        if XScreenSaverQueryExtension(connection.display, &eventBase, &errorBase) != 0 {
            saverEventBase = eventBase
            XScreenSaverSelectInput(connection.display, connection.root, UInt(ScreenSaverNotifyMask))
            if let info = XScreenSaverAllocInfo() {
                if XScreenSaverQueryInfo(connection.display, connection.root, info) != 0 {
                    saverOn = info.pointee.state == ScreenSaverOn
                }
                XFree(info)
            }
        }
        stack = Self.readStack(connection)
        lockers = Set(stack.indices.filter(isLocker(at:)).map { stack[$0].window })
    }

    /// True while a locker covers a monitor or the server's screensaver is on.
    var isLocked: Bool { saverOn || !lockers.isEmpty }
    /// The windows judged lockers; each stays one until it moves itself, unmaps or goes.
    private var lockers: Set<Window> = []
    /// The WM's frames around our own docks (learnt from their ReparentNotify).
    private var ownFrames: Set<Window> = []

    /// Whether the window at `index` of the stack could be a locker: another client's mapped
    /// override-redirect window that draws and covers a monitor.
    private func couldBeLocker(at index: Int) -> Bool {
        let child = stack[index]
        return child.isMapped && child.isOverrideRedirect && !child.drawsNothing && !isOwn(child.window) && covers(child.rect)
    }

    /// Whether the window at `index`, just mapped or moved, is a locker: it covers a monitor, is
    /// not at the very bottom, and no managed window of another client is above it. With no
    /// managed window mapped at all there is nothing to be under, and a covering window counts
    /// unless it is at the bottom: hiding for a moment is safe, showing over a lock screen is not.
    private func isLocker(at index: Int) -> Bool {
        guard index > 0, couldBeLocker(at: index) else { return false }
        return !stack[(index + 1)...].contains { $0.isMapped && !$0.isOverrideRedirect && !isOwn($0.window) && !ownFrames.contains($0.window) }
    }

    /// Takes in an event; returns true when `isLocked` changed.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case CreateNotify where event.xcreatewindow.parent == connection.root:
            let created = event.xcreatewindow
            // A new window goes on top of its siblings.
            stack.append(TopLevel(
                window: created.window, isMapped: false, isOverrideRedirect: created.override_redirect != 0, drawsNothing: false,
                rect: MonitorGeometry(x: Int(created.x), y: Int(created.y), width: Int(created.width), height: Int(created.height))))
            // Only a window that could count needs its class: one request, and only for these.
            if created.override_redirect != 0, covers(stack[stack.count - 1].rect) {
                stack[stack.count - 1].drawsNothing = drawsNothing(created.window)
            }
        case MapNotify where event.xmap.event == connection.root:
            guard let index = index(of: event.xmap.window) else { return false }
            // A compositing manager's overlay window (Composite's COW) is created at the root and
            // covers the screen too; it is the one such window the root's QueryTree never lists.
            if event.xmap.override_redirect != 0, covers(stack[index].rect), !connection.rootChildren().contains(event.xmap.window) {
                stack.remove(at: index)
                return false
            }
            stack[index].isMapped = true
            stack[index].isOverrideRedirect = event.xmap.override_redirect != 0
            return rejudge(event.xmap.window)
        case UnmapNotify where event.xunmap.event == connection.root:
            guard let index = index(of: event.xunmap.window) else { return false }
            stack[index].isMapped = false
        case ConfigureNotify where event.xconfigure.event == connection.root:
            let configure = event.xconfigure
            guard let index = index(of: configure.window) else { return false }
            var child = stack.remove(at: index)
            let wasCovering = covers(child.rect)
            child.rect = MonitorGeometry(x: Int(configure.x), y: Int(configure.y), width: Int(configure.width), height: Int(configure.height))
            child.isOverrideRedirect = configure.override_redirect != 0
            if !wasCovering, child.isOverrideRedirect, covers(child.rect) { child.drawsNothing = drawsNothing(child.window) }
            // `above` is the sibling it now sits directly above; None puts it at the bottom.
            let position = configure.above == 0 ? 0 : (self.index(of: configure.above).map { $0 + 1 } ?? stack.count)
            stack.insert(child, at: position)
            return rejudge(configure.window)
        case CirculateNotify where event.xcirculate.event == connection.root:
            guard let index = index(of: event.xcirculate.window) else { return false }
            let child = stack.remove(at: index)
            if event.xcirculate.place == PlaceOnTop { stack.append(child) } else { stack.insert(child, at: 0) }
            return rejudge(child.window)
        case ReparentNotify where event.xreparent.event == connection.root:
            let reparent = event.xreparent
            if reparent.parent == connection.root {
                // Handed back to the root (a WM letting go of a client): on top, unmapped.
                guard index(of: reparent.window) == nil else { return false }
                stack.append(TopLevel(
                    window: reparent.window, isMapped: false, isOverrideRedirect: reparent.override_redirect != 0, drawsNothing: false,
                    rect: connection.rootGeometry(of: reparent.window) ?? MonitorGeometry(x: 0, y: 0, width: 0, height: 0)))
            } else {
                if isOwn(reparent.window) { ownFrames.insert(reparent.parent) }
                guard let index = index(of: reparent.window) else { return false }
                stack.remove(at: index)
            }
        case DestroyNotify where event.xdestroywindow.event == connection.root:
            ownFrames.remove(event.xdestroywindow.window)
            guard let index = index(of: event.xdestroywindow.window) else { return false }
            stack.remove(at: index)
        case saverEventBase + ScreenSaverNotify where saverEventBase >= 0:
            let notify = withUnsafePointer(to: &event) { $0.withMemoryRebound(to: XScreenSaverNotifyEvent.self, capacity: 1) { $0.pointee } }
            let before = isLocked
            saverOn = notify.state == ScreenSaverOn
            return isLocked != before
        default:
            return false
        }
        return rejudge()
    }

    /// The monitor layout changed: every window is judged against the new monitors.
    func monitorsChanged(to new: [MonitorGeometry]) -> Bool {
        let before = isLocked
        monitors = new
        for index in stack.indices where stack[index].isOverrideRedirect && covers(stack[index].rect) {
            stack[index].drawsNothing = drawsNothing(stack[index].window)
        }
        lockers = Set(stack.indices.filter(isLocker(at:)).map { stack[$0].window })
        return isLocked != before
    }

    /// Judges `moved` (it mapped or moved) afresh; a locker stays one while it is mapped and
    /// covers a monitor, whatever goes above it, until it moves itself. Returns whether
    /// `isLocked` changed.
    private func rejudge(_ moved: Window? = nil) -> Bool {
        let before = isLocked
        lockers = Set(stack.indices.filter { index in
            let window = stack[index].window
            return window == moved ? isLocker(at: index) : lockers.contains(window) && couldBeLocker(at: index)
        }.map { stack[$0].window })
        return isLocked != before
    }

    private func index(of window: Window) -> Int? {
        stack.firstIndex { $0.window == window }
    }

    /// Covers a monitor but for at most a 1-pixel border: xsecurelock's obscurer window leaves
    /// one on purpose (so compositors do not take it for a full-screen game and unredirect it).
    private func covers(_ rect: MonitorGeometry) -> Bool {
        let grown = MonitorGeometry(x: rect.x - 1, y: rect.y - 1, width: rect.width + 2, height: rect.height + 2)
        return monitors.contains { $0.isCovered(by: grown) }
    }

    private func drawsNothing(_ window: Window) -> Bool {
        let cookie = xcb_get_window_attributes(connection.xcb, UInt32(window))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = XConnection.xcbReply(xcb_get_window_attributes_reply(connection.xcb, cookie, &error), &error) else { return true }
        defer { free(reply) }
        return reply.pointee._class == UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue)
    }

    /// The root's children bottom to top, each with its map state, override-redirect flag, class
    /// and rectangle: one query of the tree, then every child's attributes and geometry in one
    /// batch (one round trip for any number of windows). The compositing manager's overlay
    /// window is the one mapped child the tree never lists, so it never enters the stack.
    private static func readStack(_ connection: XConnection) -> [TopLevel] {
        let xcb = connection.xcb
        let children = connection.rootChildren()
        let cookies = children.map {
            (attributes: xcb_get_window_attributes(xcb, UInt32($0)), geometry: xcb_get_geometry(xcb, UInt32($0)))
        }
        var stack: [TopLevel] = []
        stack.reserveCapacity(children.count)
        for (window, cookie) in zip(children, cookies) {
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let attributes = XConnection.xcbReply(xcb_get_window_attributes_reply(xcb, cookie.attributes, &error), &error)
            let geometry = XConnection.xcbReply(xcb_get_geometry_reply(xcb, cookie.geometry, &error), &error)
            defer { free(attributes); free(geometry) }
            // Gone since the query: its DestroyNotify is on its way and finds nothing to remove.
            guard let attributes, let geometry else { continue }
            stack.append(TopLevel(
                window: window,
                isMapped: attributes.pointee.map_state != UInt8(XCB_MAP_STATE_UNMAPPED.rawValue),
                isOverrideRedirect: attributes.pointee.override_redirect != 0,
                drawsNothing: attributes.pointee._class == UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue),
                rect: MonitorGeometry(x: Int(geometry.pointee.x), y: Int(geometry.pointee.y),
                                      width: Int(geometry.pointee.width), height: Int(geometry.pointee.height))))
        }
        return stack
    }
}
