// The visible banner: two windows. The top-level one is override-redirect — the window manager
// leaves it alone, so it can animate freely above everything; it never takes focus and carries
// no struts (a WM that did honour them would count the space twice: the dock below reserves
// it). It is a clip: it sits at the monitor's top edge, exactly as tall as the part of the
// banner that shows, and the full-height banner is a child window moved inside it. Sliding
// moves the child and resizes the clip, so the rows still "above" the edge are cut off instead
// of showing on a monitor above this one. The child takes the pointer's button presses and
// releases (clicks, the wheel, drags: see BannerHost.pointerButton); the dock below takes none.
// Rounded bottom corners are cut from the clip with XShape, bounding and input alike: the
// banner's bottom edge is always the clip's, and a window's shape also clips its children,
// so shaping the clip alone hides the corners and lets clicks there through to what is below.

import CX11
import Glibc
import BannerCore

final class BannerWindow {
    private unowned let connection: XConnection
    /// The top-level clip window: the one stacked, mapped and seen by other clients.
    let window: Window
    /// The full-height banner inside the clip; its background is the back buffer.
    let content: Window
    private var clip: (x: Int, y: Int, width: Int, height: Int)
    private var contentFrame: (y: Int, width: Int, height: Int)
    /// The clip's bounding and input shape; nil while it is a plain rectangle.
    private var outline: [PixelRect]?
    private(set) var isMapped = false

    init(connection: XConnection, monitor: MonitorGeometry, bannerHeight: Int, placement: BannerPlacement) {
        self.connection = connection
        // X has no empty windows: a clip with nothing to show stays unmapped at 1 px.
        clip = (monitor.x, monitor.y, monitor.width, max(placement.visibleHeight, 1))
        contentFrame = (placement.contentOffset, monitor.width, bannerHeight)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        // No background: the content always covers the whole clip, and painting one first
        // would flash on every resize.
        attributes.background_pixmap = Pixmap(None)
        window = XCreateWindow(
            connection.display, connection.root, Int32(clip.x), Int32(clip.y), UInt32(clip.width), UInt32(clip.height), 0,
            connection.depth, UInt32(InputOutput), connection.visual,
            UInt(CWOverrideRedirect | CWBackPixmap), &attributes
        )
        // A press starts X's implicit grab, so the release comes here even when the pointer
        // was dragged off the banner: a drag needs no motion events.
        attributes.event_mask = ButtonPressMask | ButtonReleaseMask
        content = XCreateWindow(
            connection.display, window, 0, Int32(contentFrame.y), UInt32(contentFrame.width), UInt32(contentFrame.height), 0,
            connection.depth, UInt32(InputOutput), connection.visual,
            UInt(CWBackPixmap | CWEventMask), &attributes
        )
        // Mapped now, viewable once the clip is: the clip alone decides visibility.
        XMapWindow(connection.display, content)
        connection.setClass(window, name: "window-banner", className: "WindowBanner")
        connection.setUTF8(window, "_NET_WM_NAME", "window-banner")
        connection.setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_NOTIFICATION"])
        connection.setCardinals(window, "_NET_WM_PID", [Int(getpid())])
    }

    /// Puts the banner where `placement` says on `monitor`, cut to `outline` (the clip's shape,
    /// nil for none: see ``BannerLayout/roundedBottomShape(width:bannerHeight:visibleHeight:radius:)``),
    /// and shows the clip while any of it is visible. Call once the content's back buffer holds
    /// the frame: a growing clip uncovers it.
    func place(on monitor: MonitorGeometry, bannerHeight: Int, placement: BannerPlacement, outline newOutline: [PixelRect]?) {
        // The content first, so the clip never uncovers it in its old place.
        let newContent = (y: placement.contentOffset, width: monitor.width, height: bannerHeight)
        if newContent != contentFrame {
            if newContent.width != contentFrame.width || newContent.height != contentFrame.height {
                XMoveResizeWindow(connection.display, content, 0, Int32(newContent.y), UInt32(newContent.width), UInt32(newContent.height))
            } else {
                XMoveWindow(connection.display, content, 0, Int32(newContent.y))
            }
            contentFrame = newContent
        }
        let newClip = (x: monitor.x, y: monitor.y, width: monitor.width, height: max(placement.visibleHeight, 1))
        if newClip != clip {
            XMoveResizeWindow(connection.display, window, Int32(newClip.x), Int32(newClip.y), UInt32(newClip.width), UInt32(newClip.height))
            clip = newClip
        }
        if newOutline != outline, placement.visibleHeight > 0 {
            connection.setShape(window, newOutline)
            outline = newOutline
        }
        if placement.visibleHeight > 0, !isMapped {
            XMapRaised(connection.display, window)
            isMapped = true
        } else if placement.visibleHeight == 0, isMapped {
            XUnmapWindow(connection.display, window)
            isMapped = false
        }
    }

    func raise() {
        XRaiseWindow(connection.display, window)
    }

    /// Destroys the clip and, with it, the content.
    func destroy() {
        XDestroyWindow(connection.display, window)
    }
}
