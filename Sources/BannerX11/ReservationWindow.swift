// The space keeper: a managed `_NET_WM_WINDOW_TYPE_DOCK` window under the banner whose
// `_NET_WM_STRUT_PARTIAL` makes the window manager shrink `_NET_WORKAREA` and move maximized
// windows down. Window managers ignore struts on override-redirect windows, hence this second
// window. It takes no input, shows nothing (its bounding shape is empty: the banner above is
// what the user sees, and the desktop shows through the banner's rounded corners) and sits on
// every desktop; when the process dies the X server destroys it and the reservation goes with
// it. It is as tall as the banner: while the banner slides only the strut follows it, one
// request per frame.
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
    /// The dock's height: the banner's.
    private var height: Int

    init(connection: XConnection, monitor: MonitorGeometry, bannerHeight: Int) {
        self.connection = connection
        self.monitor = monitor
        reservedHeight = 0
        height = max(bannerHeight, 1)
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = Pixmap(None)
        attributes.event_mask = StructureNotifyMask
        window = XCreateWindow(
            connection.display, connection.root, Int32(monitor.x), Int32(monitor.y),
            UInt32(monitor.width), UInt32(height), 0,
            connection.depth, UInt32(InputOutput), connection.visual,
            UInt(CWBackPixmap | CWEventMask), &attributes
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
        // Nothing to see and nothing to click: empty bounding and input shapes. Clicks on the
        // reserved strip must not reach (or focus) the dock.
        XShapeCombineRectangles(connection.display, window, ShapeBounding, 0, 0, nil, 0, ShapeSet, Unsorted)
        XShapeCombineRectangles(connection.display, window, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        applyGeometryHints()
        applyStrut()
    }

    /// Maps the window; the WM places it, and `confirmPosition` puts it back if it strays.
    func map() {
        XMapWindow(connection.display, window)
        isMapped = true
    }

    /// Reserves `reserved` pixels at the top of the monitor under a banner `bannerHeight` px
    /// tall. While only the reservation changes (a slide) that is one request: the partial
    /// strut, which EWMH window managers use instead of the legacy one; the legacy strut
    /// follows when the slide ends (all or nothing reserved) and with every geometry change.
    func reserve(_ reserved: Int, bannerHeight: Int, on newMonitor: MonitorGeometry) {
        let newHeight = max(bannerHeight, 1)
        if newHeight != height || newMonitor != monitor {
            height = newHeight
            monitor = newMonitor
            reservedHeight = reserved
            applyGeometryHints()
            XMoveResizeWindow(
                connection.display, window, Int32(monitor.x), Int32(monitor.y),
                UInt32(monitor.width), UInt32(height)
            )
            applyStrut()
        } else if reserved != reservedHeight {
            reservedHeight = reserved
            applyStrut(legacy: reserved == 0 || reserved >= bannerHeight)
        }
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

    private func applyStrut(legacy: Bool = true) {
        let strut = BannerLayout.topStrut(monitor: monitor, reservedHeight: reservedHeight)
        connection.setCardinals(window, "_NET_WM_STRUT_PARTIAL", strut.partial)
        if legacy { connection.setCardinals(window, "_NET_WM_STRUT", strut.legacy) }
    }

    /// Position hints at the monitor's top-left with the real size: without them openbox and
    /// fluxbox put a dock wherever they like, and a 0×0 size gives a 1 px dock on tiling WMs.
    private func applyGeometryHints() {
        guard let hints = XAllocSizeHints() else { return }
        hints.pointee.flags = USPosition | PPosition | USSize | PSize
        hints.pointee.x = Int32(monitor.x)
        hints.pointee.y = Int32(monitor.y)
        hints.pointee.width = Int32(monitor.width)
        hints.pointee.height = Int32(height)
        XSetWMNormalHints(connection.display, window, hints)
        XFree(hints)
    }
}
