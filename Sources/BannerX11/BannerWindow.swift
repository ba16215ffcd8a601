// The visible banner: two windows. The top-level one is override-redirect — the window manager
// leaves it alone, so it can animate freely above everything; it never takes focus and carries
// no struts (a WM that did honour them would count the space twice: the dock below reserves
// it). The full-height banner is a child window inside it whose background is the back buffer,
// so the X server repaints whatever a move uncovers without asking us.
// The banner slides into its area: its monitor, or the part of it below the status bars there
// and between the side panels.
// How depends on what lies above that area's top edge:
// - Nothing (the usual case: a monitor at the top of the layout, no bar): the top-level window
//   is as tall as the banner and simply moves down, its rows not yet shown off every screen.
//   One request per slide frame.
// - A bar, or another monitor: the top-level window is a clip at the area's top edge, exactly
//   as tall as the part of the banner that shows, and the child moves inside it, so the rows
//   still "above" the edge are cut off instead of covering the bar or showing on the monitor
//   above. Two requests.
// The child takes the pointer's button presses and releases (clicks, the wheel, drags: see
// X11Host.pointerButton); the dock below takes none.
// Rounded bottom corners are cut from the top-level window with XShape, bounding and input
// alike (a window's shape also clips its children), so the desktop shows through the corners
// and clicks there go through to what is below. On an ARGB surface (a compositor runs) the
// corners are transparent pixels with anti-aliased edges instead (Canvas), and only the input
// shape is cut.

import CX11
import Glibc
import BannerCore

final class BannerWindow {
    /// A window's place: x, y in its parent, then its size.
    typealias Frame = (x: Int, y: Int, width: Int, height: Int)

    private unowned let connection: XConnection
    private let surface: Surface
    /// The top-level window: the one stacked, mapped and seen by other clients.
    let window: Window
    /// The full-height banner inside it; its background is the back buffer.
    let content: Window
    private var frame: Frame
    private var contentFrame: Frame
    /// The top-level window's bounding and input shape; nil while it is a plain rectangle.
    private var outline: [PixelRect]?
    private(set) var isMapped = false
    /// True while the screen is locked: the window stays unmapped whatever `place` says.
    var isSuppressed = false {
        didSet {
            if isSuppressed, isMapped {
                XUnmapWindow(connection.display, window)
                isMapped = false
            }
        }
    }

    init(connection: XConnection, surface: Surface, monitor: MonitorGeometry, bannerHeight: Int, placement: BannerPlacement, clipsAtEdge: Bool) {
        self.connection = connection
        self.surface = surface
        (frame, contentFrame) = Self.frames(on: monitor, bannerHeight: bannerHeight, placement: placement, clipsAtEdge: clipsAtEdge)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        // No background: the content always covers the whole window, and painting one first
        // would flash on every resize.
        attributes.background_pixmap = Pixmap(None)
        let visualMask = surface.windowAttributes(&attributes)
        window = XCreateWindow(
            connection.display, connection.root, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height), 0,
            surface.depth, UInt32(InputOutput), surface.visual,
            UInt(CWOverrideRedirect | CWBackPixmap) | visualMask, &attributes
        )
        // A press starts X's implicit grab, so the release comes here even when the pointer
        // was dragged off the banner: a drag needs no motion events.
        attributes.event_mask = ButtonPressMask | ButtonReleaseMask
        content = XCreateWindow(
            connection.display, window, Int32(contentFrame.x), Int32(contentFrame.y),
            UInt32(contentFrame.width), UInt32(contentFrame.height), 0,
            surface.depth, UInt32(InputOutput), surface.visual,
            UInt(CWBackPixmap | CWEventMask) | visualMask, &attributes
        )
        // Mapped now, viewable once the top-level window is: that one alone decides visibility.
        XMapWindow(connection.display, content)
        connection.setClass(window, name: "window-banner", className: "WindowBanner")
        connection.setUTF8(window, "_NET_WM_NAME", "window-banner")
        connection.setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_NOTIFICATION"])
        connection.setCardinals(window, "_NET_WM_PID", [Int(getpid())])
    }

    /// Where the top-level window (in root coordinates) and the content (inside it) go.
    /// X has no empty windows: a clip with nothing to show stays unmapped at 1 px.
    static func frames(on monitor: MonitorGeometry, bannerHeight: Int, placement: BannerPlacement, clipsAtEdge: Bool) -> (window: Frame, content: Frame) {
        if clipsAtEdge {
            return ((monitor.x, monitor.y, monitor.width, max(placement.visibleHeight, 1)),
                    (0, placement.contentOffset, monitor.width, bannerHeight))
        }
        return ((monitor.x, monitor.y + placement.contentOffset, monitor.width, max(bannerHeight, 1)),
                (0, 0, monitor.width, max(bannerHeight, 1)))
    }

    /// Puts the banner where `placement` says on `monitor`, cut to `outline` (the top-level
    /// window's shape, nil for none: see ``BannerLayout/roundedBottomShape(width:bannerHeight:visibleHeight:radius:)``),
    /// and shows it while any of it is visible. Call once the content's back buffer holds the
    /// frame: a move uncovers it.
    func place(on monitor: MonitorGeometry, bannerHeight: Int, placement: BannerPlacement, clipsAtEdge: Bool, outline newOutline: [PixelRect]?) {
        let (newFrame, newContent) = Self.frames(on: monitor, bannerHeight: bannerHeight, placement: placement, clipsAtEdge: clipsAtEdge)
        // The content first, so the window never uncovers it in its old place.
        move(content, from: contentFrame, to: newContent)
        contentFrame = newContent
        move(window, from: frame, to: newFrame)
        frame = newFrame
        if newOutline != outline, placement.visibleHeight > 0 {
            connection.setShape(window, newOutline, kinds: surface.hasAlpha ? [ShapeInput] : [ShapeBounding, ShapeInput])
            outline = newOutline
        }
        if placement.visibleHeight > 0, !isMapped, !isSuppressed {
            XMapRaised(connection.display, window)
            isMapped = true
        } else if placement.visibleHeight == 0, isMapped {
            XUnmapWindow(connection.display, window)
            isMapped = false
        }
    }

    /// One request when anything changed: a move, or a move and resize.
    private func move(_ window: Window, from old: Frame, to new: Frame) {
        guard new != old else { return }
        if new.width != old.width || new.height != old.height {
            XMoveResizeWindow(connection.display, window, Int32(new.x), Int32(new.y), UInt32(new.width), UInt32(new.height))
        } else {
            XMoveWindow(connection.display, window, Int32(new.x), Int32(new.y))
        }
    }

    func raise() {
        XRaiseWindow(connection.display, window)
    }

    /// Destroys the top-level window and, with it, the content.
    func destroy() {
        XDestroyWindow(connection.display, window)
    }
}
