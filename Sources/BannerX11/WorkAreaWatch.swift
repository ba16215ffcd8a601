// The window manager's work area on the current desktop, kept current from the root's
// PropertyNotify: per monitor where the WM publishes `_GTK_WORKAREAS_D<desktop>` (Mutter and
// its forks: GNOME Shell, Cinnamon), else the one screen-wide rectangle of `_NET_WORKAREA`. It
// is how a shell's own top bar, which no X11 window carries, is found (see ShellPanel in
// BannerCore). Nothing is polled. Start reading at `refresh()`.

import CX11
import BannerCore

final class WorkAreaWatch {
    /// A work area: one per monitor, or one for the whole screen.
    enum Areas: Equatable {
        case perMonitor([MonitorGeometry])
        case screenWide(MonitorGeometry)
        case none
    }

    private unowned let connection: XConnection
    private let workAreaAtom: Atom
    private let currentDesktopAtom: Atom
    private var desktop = 0
    private var perMonitorAtom: Atom
    /// The work area as last read.
    private(set) var areas: Areas = .none
    /// Whether a property it depends on changed since the last `refresh()`.
    private(set) var needsRefresh = true

    /// The root's PropertyChangeMask must be selected (X11Display does).
    init(connection: XConnection) {
        self.connection = connection
        workAreaAtom = connection.atom("_NET_WORKAREA")
        currentDesktopAtom = connection.atom("_NET_CURRENT_DESKTOP")
        perMonitorAtom = connection.atom("_GTK_WORKAREAS_D0")
    }

    /// Notes a change of the root's work-area properties; the next `refresh()` reads them.
    func handle(_ event: inout XEvent) {
        guard event.type == PropertyNotify, event.xproperty.window == connection.root else { return }
        let atom = event.xproperty.atom
        if atom == workAreaAtom || atom == currentDesktopAtom || atom == perMonitorAtom { needsRefresh = true }
    }

    /// Reads the work area of the current desktop again; returns whether it changed.
    @discardableResult
    func refresh() -> Bool {
        needsRefresh = false
        let current = connection.cardinals(connection.root, "_NET_CURRENT_DESKTOP")?.first ?? 0
        if current != desktop || areas == .none {
            desktop = current
            perMonitorAtom = connection.atom("_GTK_WORKAREAS_D\(current)")
        }
        let read: Areas
        if let values = connection.cardinals(connection.root, "_GTK_WORKAREAS_D\(desktop)"), values.count >= 4 {
            read = .perMonitor(Self.rectangles(values))
        } else if let values = connection.cardinals(connection.root, "_NET_WORKAREA"), values.count >= 4 * (desktop + 1) {
            read = .screenWide(Self.rectangles(Array(values[(4 * desktop)..<(4 * desktop + 4)]))[0])
        } else {
            read = .none
        }
        guard read != areas else { return false }
        areas = read
        return true
    }

    /// The top edge of the work area over `monitor` (root coordinates), and whether it is the
    /// screen-wide one; nil when the WM publishes none that covers the monitor.
    func top(over monitor: MonitorGeometry) -> (top: Int, screenWide: Bool)? {
        switch areas {
        case .none:
            return nil
        case .screenWide(let area):
            return overlap(area, monitor) > 0 ? (area.y, true) : nil
        case .perMonitor(let list):
            // The monitor's own: the one covering most of it (GTK matches them the same way).
            guard let best = list.max(by: { overlap($0, monitor) < overlap($1, monitor) }), overlap(best, monitor) > 0 else { return nil }
            return (best.y, false)
        }
    }

    private func overlap(_ a: MonitorGeometry, _ b: MonitorGeometry) -> Int {
        let width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return width > 0 && height > 0 ? width * height : 0
    }

    private static func rectangles(_ values: [Int]) -> [MonitorGeometry] {
        stride(from: 0, to: values.count - 3, by: 4).map {
            MonitorGeometry(x: values[$0], y: values[$0 + 1], width: values[$0 + 2], height: values[$0 + 3])
        }
    }
}
