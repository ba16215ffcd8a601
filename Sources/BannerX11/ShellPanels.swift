// Top panels that no X11 window carries: a shell's own bar, drawn by the compositor (GNOME
// Shell's top bar, Cinnamon's panel moved to the top), reserves its rows only in the window
// manager's work area, so the work area is the one place to learn where it ends. Struts overlap
// rather than stack: while a banner reserves "panel + banner" the work area's top is the
// banner's and hides the bar, so the bar's bottom is remembered from a work area that no strut
// explains. Pure: the X11 layer reads the work area and the struts, this decides.

import BannerCore

/// Where a shell's own top panel ends on one monitor, learnt from the window manager's work area.
public enum ShellPanel {
    /// The root row where a top panel that only the work area shows ends on `monitor`, or nil
    /// for none: `workAreaTop` is the work area's top edge there (root coordinates; nil when the
    /// WM publishes none). A top that another client's strut reaches (`otherStrutTops`: a
    /// status bar, found by its window) is that panel's, already known; one that a banner's own
    /// strut ends at (`bannerStrutTops`: this process's reservations, now or lately, and other
    /// window-banner processes') is the banner's own, and then the panel is where it was
    /// (`previous`): hidden under the reservation, or the WM not yet done giving it back.
    public static func bottom(
        workAreaTop: Int?, on monitor: MonitorGeometry, otherStrutTops: [Int], bannerStrutTops: Set<Int>, previous: Int?
    ) -> Int? {
        guard let top = workAreaTop, top > monitor.y, top < monitor.y + monitor.height else { return nil }
        if bannerStrutTops.contains(top) { return previous }
        if otherStrutTops.contains(where: { $0 >= top }) { return nil }
        return top
    }

    /// The shell's panel as a strut across `monitor`, ending at root row `bottom`, for
    /// ``StrutLayout/panelInset(of:panels:placement:bannerHeight:)`` to sit the banner under.
    public static func strut(bottom: Int, on monitor: MonitorGeometry) -> TopStrut {
        TopStrut(top: bottom, startX: monitor.x, endX: monitor.x + monitor.width - 1)
    }
}
