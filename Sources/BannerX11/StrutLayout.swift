// Where the X11 banner goes among the other clients' panels and docks, and the strut it
// reserves its space with: geometry only the X11 backend needs (a Wayland compositor and GNOME
// Shell place the banner themselves). Pure: X11Host, ReservationWindow and PanelWatch read the
// server, this decides.

import BannerCore

public enum StrutLayout {
    /// Whether a banner `bannerHeight` px tall sliding into `area` (its monitor, or the part of
    /// it below the panels: see ``bannerArea(on:panelInset:)``) must be clipped at the area's
    /// top edge: true when the area starts below the monitor's top (the rows not yet shown would
    /// cover the panels), or when another of `monitors` overlaps the strip just above it, where
    /// they would otherwise appear. Without either (a monitor at the top of the layout without
    /// panels, the usual case), those rows are simply off every screen and the whole banner can
    /// move as one window: one request per slide frame instead of two.
    public static func clipsAtTopEdge(of area: MonitorGeometry, on monitor: MonitorGeometry, bannerHeight: Int, among monitors: [MonitorGeometry]) -> Bool {
        guard bannerHeight > 0 else { return false }
        if area.y > monitor.y { return true }
        let above = MonitorGeometry(x: monitor.x, y: monitor.y - bannerHeight, width: monitor.width, height: bannerHeight)
        return monitors.contains { other in
            other != monitor
                && other.x < above.x + above.width && above.x < other.x + other.width
                && other.y < above.y + above.height && above.y < other.y + other.height
        }
    }

    // MARK: Panels

    /// How far below `monitor`'s top edge the banner goes: the deepest of the other clients' top
    /// struts (`panels`, in root coordinates: see ``TopStrut/init(partial:legacy:screenWidth:)``)
    /// that reach into the monitor's columns, so the banner sits directly under a status bar
    /// instead of covering it. 0 with `.screenEdge`, and without panels. At most the monitor's
    /// height less the banner's, so a panel that reserves nearly all of it still leaves the
    /// banner on its monitor.
    public static func panelInset(of monitor: MonitorGeometry, panels: [TopStrut], placement: EdgePlacement, bannerHeight: Int) -> Int {
        guard placement == .belowPanels else { return 0 }
        let deepest = panels
            .filter { $0.top > monitor.y && $0.startX <= monitor.x + monitor.width - 1 && $0.endX >= monitor.x }
            .map { $0.top - monitor.y }
            .max() ?? 0
        return max(0, min(deepest, monitor.height - bannerHeight))
    }

    /// Where the banner goes when the window manager keeps its dock at root row `dockY` instead
    /// of where it was asked (a WM that lays docks out itself): over the dock, as rows below
    /// `monitor`'s top edge, never off the monitor.
    public static func dockInset(dockY: Int, on monitor: MonitorGeometry, bannerHeight: Int) -> Int {
        min(max(dockY - monitor.y, 0), max(monitor.height - bannerHeight, 0))
    }

    /// Whether a window at `rect` (root coordinates) is on `monitor`: its centre is.
    public static func isOnMonitor(_ rect: MonitorGeometry, _ monitor: MonitorGeometry) -> Bool {
        let x = rect.x + rect.width / 2
        let y = rect.y + rect.height / 2
        return x >= monitor.x && x < monitor.x + monitor.width && y >= monitor.y && y < monitor.y + monitor.height
    }

    /// How many of `monitor`'s columns other clients' side panels take at the banner's rows:
    /// the widest left strut and the widest right strut (`panels`, in root coordinates: see
    /// BannerX11's `SideStrut.struts(partial:legacy:screenWidth:screenHeight:)`) that reserve columns of
    /// the monitor over any of the `bannerHeight` rows starting `panelInset` rows below its top
    /// edge, so the banner starts right of a left panel and ends left of a right one. None with
    /// `.screenEdge` (the banner covers panels), and none from a strut that misses those rows (a
    /// side panel that starts below the banner). The banner keeps at least half the monitor's
    /// width: a strut reaching past that is cut back, the left one first.
    public static func sideInsets(
        of monitor: MonitorGeometry, panels: [SideStrut], placement: EdgePlacement, panelInset: Int, bannerHeight: Int
    ) -> SideInsets {
        guard placement == .belowPanels, monitor.width > 0 else { return SideInsets() }
        let top = monitor.y + panelInset
        let bottom = top + max(bannerHeight, 1) - 1
        let monitorEnd = monitor.x + monitor.width - 1
        let reaching = panels.filter { $0.startY <= bottom && $0.endY >= top && $0.startX <= monitorEnd && $0.endX >= monitor.x }
        let left = reaching.filter { $0.edge == .left }.map { $0.endX + 1 - monitor.x }.max() ?? 0
        let right = reaching.filter { $0.edge == .right }.map { monitorEnd + 1 - $0.startX }.max() ?? 0
        let limit = monitor.width / 2
        let keptLeft = min(left, limit)
        return SideInsets(left: keptLeft, right: min(right, limit - keptLeft))
    }

    /// The part of `monitor` the banner slides into: below the first `panelInset` rows, and
    /// between the side panels' columns (`sides`).
    public static func bannerArea(on monitor: MonitorGeometry, panelInset: Int, sides: SideInsets = SideInsets()) -> MonitorGeometry {
        MonitorGeometry(
            x: monitor.x + sides.left, y: monitor.y + panelInset,
            width: monitor.width - sides.left - sides.right, height: monitor.height - panelInset)
    }

    /// The struts that reserve `reservedHeight` px at the top of `monitor`, in root coordinates
    /// as EWMH wants them: the top edge of a monitor below another is `monitor.y + height`, and
    /// `top_start_x … top_end_x` keep the reservation to the banner's own columns: the monitor's,
    /// less what side panels take (`sides`). Struts count from the screen's edge, so a banner
    /// under panels reserves the panels' rows too (`reservedHeight` includes them): the work
    /// area is the union of every dock's strut. All zero when nothing is reserved.
    public static func topStrut(monitor: MonitorGeometry, reservedHeight: Int, sides: SideInsets = SideInsets()) -> TopStrut {
        guard reservedHeight > 0 else { return TopStrut(top: 0, startX: 0, endX: 0) }
        let area = bannerArea(on: monitor, panelInset: 0, sides: sides)
        return TopStrut(top: monitor.y + reservedHeight, startX: area.x, endX: area.x + area.width - 1)
    }
}
