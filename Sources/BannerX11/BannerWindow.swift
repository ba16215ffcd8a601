// The visible banner: an override-redirect top-level window. The window manager leaves it
// alone, so it can slide freely above everything; it never takes focus and carries no struts
// (a WM that did honour them would count the space twice: the dock below reserves it).

import CX11
import Glibc
import BannerCore

final class BannerWindow {
    private unowned let connection: XConnection
    let window: Window
    private(set) var x: Int
    private(set) var y: Int
    private(set) var width: Int
    private(set) var height: Int

    init(connection: XConnection, x: Int, y: Int, width: Int, height: Int) {
        self.connection = connection
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0
        attributes.event_mask = ExposureMask | StructureNotifyMask
        window = XCreateWindow(
            connection.display, connection.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0,
            connection.depth, UInt32(InputOutput), connection.visual,
            UInt(CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes
        )
        connection.setClass(window, name: "window-banner", className: "WindowBanner")
        connection.setUTF8(window, "_NET_WM_NAME", "window-banner")
        connection.setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_NOTIFICATION"])
        connection.setCardinals(window, "_NET_WM_PID", [Int(getpid())])
    }

    private(set) var isMapped = false

    /// Maps the window on top of its siblings; called once its first frame is in place.
    func mapIfNeeded() {
        guard !isMapped else { return }
        XMapRaised(connection.display, window)
        isMapped = true
    }

    func raise() {
        XRaiseWindow(connection.display, window)
    }

    func moveResize(x newX: Int, y newY: Int, width newWidth: Int, height newHeight: Int) {
        guard newX != x || newY != y || newWidth != width || newHeight != height else { return }
        if newWidth != width || newHeight != height {
            XMoveResizeWindow(connection.display, window, Int32(newX), Int32(newY), UInt32(newWidth), UInt32(newHeight))
        } else {
            XMoveWindow(connection.display, window, Int32(newX), Int32(newY))
        }
        x = newX
        y = newY
        width = newWidth
        height = newHeight
    }

    func destroy() {
        XDestroyWindow(connection.display, window)
    }
}
