// Whether the screen is locked, as far as a banner must care: a screen locker or screensaver is an
// override-redirect window covering a whole monitor (i3lock, xsecurelock, xscreensaver's), or the
// X server's own saver reported on by the MIT-SCREEN-SAVER extension. While either is there no
// banner may show: whatever a script wrote on it ("Call from Anna") must not appear over the lock
// screen, and re-raising over a locker that raises itself would be a war burning a core.
// Heard from the root's SubstructureNotify (maps, unmaps, configures of override-redirect
// windows: their geometry comes with the event) and ScreenSaverNotify; nothing is polled. A
// compositing manager's overlay window is not a locker.
// Start reading at `handle(_:)`.

import CX11
import BannerCore

final class ScreenLock {
    private unowned let connection: XConnection
    /// Mapped override-redirect windows of other clients, with their rectangles.
    private var overlays: [Window: MonitorGeometry] = [:]
    /// The monitors a window must cover to count as a locker.
    private var monitors: [MonitorGeometry]
    private var saverOn = false
    private var saverEventBase: Int32 = -1
    private let isOwn: (Window) -> Bool

    /// Watches `connection`'s screen; `mappedAtStart` are the override-redirect windows already
    /// mapped at the root (read in one batch by PanelWatch).
    init(connection: XConnection, monitors: [MonitorGeometry], mappedAtStart: [Window], isOwn: @escaping (Window) -> Bool) {
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
        for window in mappedAtStart where !isOwn(window) {
            overlays[window] = connection.rootGeometry(of: window)
        }
    }

    /// True while a locker covers a monitor or the server's screensaver is on.
    var isLocked: Bool { saverOn || overlays.values.contains(where: covers) }

    /// Takes in an event; returns true when `isLocked` may have changed.
    func handle(_ event: inout XEvent) -> Bool {
        let before = isLocked
        switch event.type {
        case MapNotify where event.xmap.event == connection.root:
            guard event.xmap.override_redirect != 0, !isOwn(event.xmap.window), let rect = connection.rootGeometry(of: event.xmap.window) else { return false }
            // A compositing manager's overlay window (Composite's COW) covers the screen too;
            // it is the one such window the root's QueryTree never lists.
            if covers(rect), !connection.rootChildren().contains(event.xmap.window) { return false }
            overlays[event.xmap.window] = rect
        case ConfigureNotify where event.xconfigure.event == connection.root:
            let configure = event.xconfigure
            guard overlays[configure.window] != nil else { return false }
            overlays[configure.window] = MonitorGeometry(x: Int(configure.x), y: Int(configure.y), width: Int(configure.width), height: Int(configure.height))
        case UnmapNotify where event.xunmap.event == connection.root:
            guard overlays.removeValue(forKey: event.xunmap.window) != nil else { return false }
        case DestroyNotify where event.xdestroywindow.event == connection.root:
            guard overlays.removeValue(forKey: event.xdestroywindow.window) != nil else { return false }
        case saverEventBase + ScreenSaverNotify where saverEventBase >= 0:
            let notify = withUnsafePointer(to: &event) { $0.withMemoryRebound(to: XScreenSaverNotifyEvent.self, capacity: 1) { $0.pointee } }
            saverOn = notify.state == ScreenSaverOn
        default:
            return false
        }
        return isLocked != before
    }

    /// The monitor layout changed: a locker is judged against the new monitors.
    func monitorsChanged(to new: [MonitorGeometry]) -> Bool {
        let before = isLocked
        monitors = new
        return isLocked != before
    }

    private func covers(_ rect: MonitorGeometry) -> Bool {
        monitors.contains { $0.isCovered(by: rect) }
    }
}
