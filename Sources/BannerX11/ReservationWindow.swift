// The space keeper: a managed `_NET_WM_WINDOW_TYPE_DOCK` window under the banner whose
// `_NET_WM_STRUT_PARTIAL` makes the window manager shrink `_NET_WORKAREA` and move maximized
// windows down. Window managers ignore struts on override-redirect windows, hence this second
// window. It takes no input and sits on every desktop; when the process dies the X server
// destroys it and the reservation goes with it. Under a banner with rounded corners its
// bounding shape has the same corners cut, so the desktop shows there, not the dock.

import CX11
import Glibc
import BannerCore

final class ReservationWindow {
    private unowned let connection: XConnection
    let window: Window
    private var monitor: MonitorGeometry
    /// The reserved height now in effect, in pixels below the monitor's top edge.
    private(set) var reservedHeight: Int
    private(set) var isMapped = false
    /// The bounding shape; nil while it is a plain rectangle.
    private var outline: [PixelRect]?

    init(connection: XConnection, monitor: MonitorGeometry, reservedHeight: Int, background: RGBA) {
        self.connection = connection
        self.monitor = monitor
        self.reservedHeight = reservedHeight
        var attributes = XSetWindowAttributes()
        var opaque = background
        opaque.alpha = 1
        connection.withXftColour(opaque) { attributes.background_pixel = $0.pointee.pixel }
        attributes.event_mask = StructureNotifyMask
        window = XCreateWindow(
            connection.display, connection.root, Int32(monitor.x), Int32(monitor.y),
            UInt32(monitor.width), UInt32(max(reservedHeight, 1)), 0,
            connection.depth, UInt32(InputOutput), connection.visual,
            UInt(CWBackPixel | CWEventMask), &attributes
        )
        connection.setClass(window, name: "window-banner-reservation", className: "WindowBanner")
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
        // Clicks on the reserved strip must not reach (or focus) the dock: empty input shape.
        XShapeCombineRectangles(connection.display, window, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        applyGeometryHints()
        applyStrut()
    }

    /// Maps the window; the WM places it, and `confirmPosition` puts it back if it strays.
    func map() {
        XMapWindow(connection.display, window)
        isMapped = true
    }

    /// Reserves `height` pixels at the top of the monitor (the dock is resized to match), its
    /// outline cut like the banner's above it (nil: a plain rectangle).
    func reserve(_ height: Int, on newMonitor: MonitorGeometry, outline newOutline: [PixelRect]?) {
        if newOutline != outline, height > 0 {
            // The input shape stays empty: only what shows follows the banner's corners.
            connection.setShape(window, newOutline, kinds: [ShapeBounding])
            outline = newOutline
        }
        guard height != reservedHeight || newMonitor != monitor else { return }
        reservedHeight = height
        monitor = newMonitor
        applyGeometryHints()
        XMoveResizeWindow(
            connection.display, window, Int32(monitor.x), Int32(monitor.y),
            UInt32(monitor.width), UInt32(max(height, 1))
        )
        applyStrut()
    }

    /// Some WMs place docks by their own rules: if it is not at the monitor's top-left, move it back.
    func confirmPosition() {
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(connection.display, window, connection.root, 0, 0, &rootX, &rootY, &child)
        if Int(rootX) != monitor.x || Int(rootY) != monitor.y {
            XMoveWindow(connection.display, window, Int32(monitor.x), Int32(monitor.y))
        }
    }

    /// Zeroes the strut first (some WMs never shrink their padding when a strut vanishes with
    /// its window), then destroys the window.
    func destroy() {
        reservedHeight = 0
        applyStrut()
        connection.sync()
        if isMapped { XUnmapWindow(connection.display, window) }
        XDestroyWindow(connection.display, window)
    }

    private func applyStrut() {
        let strut = BannerLayout.topStrut(monitor: monitor, reservedHeight: reservedHeight)
        connection.setCardinals(window, "_NET_WM_STRUT_PARTIAL", strut.partial)
        connection.setCardinals(window, "_NET_WM_STRUT", strut.legacy)
    }

    /// Position hints at the monitor's top-left with the real size: without them openbox and
    /// fluxbox put a dock wherever they like, and a 0×0 size gives a 1 px dock on tiling WMs.
    private func applyGeometryHints() {
        guard let hints = XAllocSizeHints() else { return }
        hints.pointee.flags = USPosition | PPosition | USSize | PSize
        hints.pointee.x = Int32(monitor.x)
        hints.pointee.y = Int32(monitor.y)
        hints.pointee.width = Int32(monitor.width)
        hints.pointee.height = Int32(max(reservedHeight, 1))
        XSetWMNormalHints(connection.display, window, hints)
        XFree(hints)
    }
}
