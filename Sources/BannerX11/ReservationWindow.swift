// The space keeper: a managed `_NET_WM_WINDOW_TYPE_DOCK` window under the banner whose struts
// make the window manager shrink `_NET_WORKAREA` and move maximized windows down. Window
// managers ignore struts on override-redirect windows, hence this second window.
// Its strut is whole before it is mapped and never changes while it lives: some WMs (awesome,
// bspwm) read a dock's strut only when they manage it, and every change re-lays maximized
// windows out. So one dock serves one reservation — mapped before the banner slides in, struts
// zeroed and destroyed after it has slid out — and a reservation that must change (a height
// change, a panel above it moving) gets a new dock, mapped before the old one goes.
// Most WMs leave the dock where its position hints say (under the panels); a WM that lays docks
// out itself and keeps ours elsewhere (i3 stacks its docks in its own order) is asked once to put
// it back, and then the banner goes where the dock is (`placedInset`), so it never covers a panel
// the WM moved below it.
// The dock shows the banner's background (and its rounded corners): it is what the strip the WM
// has just emptied shows until the sliding banner covers it, and what stays once the banner has
// slid out above it, instead of the wallpaper flashing there. On an ARGB surface (a compositor
// runs) it is transparent instead: a translucent banner over it shows the desktop, not the dock,
// and its corners stay anti-aliased. It takes no input and sits on every desktop; when the
// process dies the X server destroys it and the reservation goes with it.

import CX11
import Glibc
import BannerCore

final class ReservationWindow {
    /// Where a dock goes and what its strut reserves.
    struct Geometry: Equatable {
        /// The monitor whose top edge is reserved.
        var monitor: MonitorGeometry
        /// Rows of other clients' panels above the banner, reserved again by our strut (struts
        /// count from the screen's edge).
        var panelInset: Int
        /// The banner's own rows: the dock's height.
        var height: Int
        /// Columns side panels take at the monitor's edges: the dock and its reservation span
        /// the banner's columns only.
        var sides = SideInsets()

        /// The dock's rectangle in root coordinates.
        var frame: MonitorGeometry {
            var area = StrutLayout.bannerArea(on: monitor, panelInset: panelInset, sides: sides)
            area.height = max(height, 1)
            return area
        }
    }

    private unowned let connection: XConnection
    private let surface: Surface
    let window: Window
    let geometry: Geometry
    private(set) var isMapped = false
    /// Rows below the monitor's top edge where the window manager has put the dock; nil until
    /// it has placed it.
    private(set) var placedInset: Int?
    private var askedBack = false
    private var background: RGBA
    private var cornerRadius: Int

    /// Creates the dock with its whole strut; `background` and `cornerRadius` (of the bottom
    /// corners, in pixels; 0 for square ones) as the banner's.
    init(connection: XConnection, surface: Surface, geometry: Geometry, background: RGBA, cornerRadius: Int) {
        self.connection = connection
        self.surface = surface
        self.geometry = geometry
        self.background = background
        self.cornerRadius = cornerRadius
        let frame = geometry.frame
        var attributes = XSetWindowAttributes()
        // Transparent (pixel 0) on an ARGB surface.
        attributes.background_pixel = surface.hasAlpha ? 0 : connection.pixel(of: background, on: surface)
        attributes.event_mask = StructureNotifyMask
        let visualMask = surface.windowAttributes(&attributes)
        window = XCreateWindow(
            connection.display, connection.root, Int32(frame.x), Int32(frame.y),
            UInt32(frame.width), UInt32(frame.height), 0,
            surface.depth, UInt32(InputOutput), surface.visual,
            UInt(CWBackPixel | CWEventMask) | visualMask, &attributes
        )
        connection.setClass(window, name: "window-banner-reservation", className: PanelWatch.ownClass)
        connection.setUTF8(window, "_NET_WM_NAME", "window-banner reservation")
        connection.setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_DOCK"])
        connection.setAtoms(window, "_NET_WM_STATE", ["_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"])
        connection.setCardinals(window, "_NET_WM_DESKTOP", [0xFFFF_FFFF])
        connection.setCardinals(window, "_NET_WM_PID", [Int(getpid())])
        if let hints = XAllocWMHints() {
            hints.pointee.flags = InputHint
            hints.pointee.input = 0
            XSetWMHints(connection.display, window, hints)
            XFree(hints)
        }
        // Nothing to click: clicks on the reserved strip must not reach (or focus) the dock.
        XShapeCombineRectangles(connection.display, window, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        if cornerRadius > 0 { connection.setShape(window, outline, kinds: [ShapeBounding]) }
        applyGeometryHints()
        applyStrut(reserving: true)
    }

    /// The rows this dock reserves below the monitor's top edge for the banner (panels excluded).
    var reservedHeight: Int { geometry.height }

    /// Maps the window; the WM places it, and `confirmPosition` puts it back if it strays.
    func map() {
        XMapWindow(connection.display, window)
        isMapped = true
    }

    /// Shows `newBackground` with corners of `newRadius` from now on; nothing is sent when
    /// neither changed (the case of every frame but a look's first).
    func paint(background newBackground: RGBA, cornerRadius newRadius: Int) {
        guard !surface.hasAlpha else { return }
        if newBackground != background {
            background = newBackground
            XSetWindowBackground(connection.display, window, connection.pixel(of: newBackground, on: surface))
            XClearWindow(connection.display, window)
        }
        if newRadius != cornerRadius {
            cornerRadius = newRadius
            connection.setShape(window, outline, kinds: [ShapeBounding])
        }
    }

    /// The dock's bounding shape: the banner's rounded outline at the dock's height; nil (a
    /// plain rectangle) for square corners.
    private var outline: [PixelRect]? {
        guard cornerRadius > 0, !surface.hasAlpha else { return nil }
        let frame = geometry.frame
        return BannerLayout.roundedBottomShape(width: frame.width, bannerHeight: frame.height, visibleHeight: frame.height, radius: cornerRadius)
    }

    /// Rows below the monitor's top edge where the banner goes: over the dock.
    var bannerInset: Int { placedInset ?? geometry.panelInset }

    /// The WM mapped, moved or reparented the dock: notes where it is. Where it does not
    /// belong, the WM is asked once to move it back; if it keeps it there, that is where the
    /// banner goes. Returns whether `bannerInset` changed.
    func windowManagerPlacedIt() -> Bool {
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(connection.display, window, connection.root, 0, 0, &rootX, &rootY, &child)
        let wanted = geometry.frame
        let before = bannerInset
        if Int(rootX) == wanted.x, Int(rootY) == wanted.y {
            placedInset = geometry.panelInset
        } else if !askedBack {
            askedBack = true
            XMoveWindow(connection.display, window, Int32(wanted.x), Int32(wanted.y))
        } else {
            placedInset = StrutLayout.dockInset(dockY: Int(rootY), on: geometry.monitor, bannerHeight: geometry.height)
        }
        return bannerInset != before
    }

    /// Zeroes the strut first (some WMs never shrink their padding when a strut vanishes with
    /// its window), then destroys the window.
    func destroy() {
        applyStrut(reserving: false)
        connection.sync()
        if isMapped { XUnmapWindow(connection.display, window) }
        XDestroyWindow(connection.display, window)
    }

    /// The strut this dock holds while it reserves: the panels' rows and the banner's.
    var strut: TopStrut {
        StrutLayout.topStrut(monitor: geometry.monitor, reservedHeight: geometry.panelInset + geometry.height, sides: geometry.sides)
    }

    private func applyStrut(reserving: Bool) {
        let strut = reserving ? strut : StrutLayout.topStrut(monitor: geometry.monitor, reservedHeight: 0)
        connection.setCardinals(window, "_NET_WM_STRUT_PARTIAL", strut.partial)
        connection.setCardinals(window, "_NET_WM_STRUT", strut.legacy)
    }

    /// Position hints where the dock belongs, with the real size: without them openbox and
    /// fluxbox put a dock wherever they like, and a 0×0 size gives a 1 px dock on tiling WMs.
    private func applyGeometryHints() {
        guard let hints = XAllocSizeHints() else { return }
        hints.pointee.flags = USPosition | PPosition | USSize | PSize
        let frame = geometry.frame
        hints.pointee.x = Int32(frame.x)
        hints.pointee.y = Int32(frame.y)
        hints.pointee.width = Int32(frame.width)
        hints.pointee.height = Int32(frame.height)
        XSetWMNormalHints(connection.display, window, hints)
        XFree(hints)
    }
}
