// A status bar as polybar, lemonbar or xfce4-panel put one on screen: a client of its own (its
// own X connection), a `_NET_WM_WINDOW_TYPE_DOCK` window along a monitor's top edge — or a
// vertical panel or dock along the screen's left or right edge — filled with one colour, whose
// struts are set before it is mapped and changed when it is resized.

import CX11
import Glibc
import ProcessTestSupport

public final class StandInPanel {
    /// The screen edge the panel reserves space from.
    public enum Edge: Sendable { case top, left, right }

    public let window: Window
    public let edge: Edge
    /// The panel's colour, to find its pixels on screen.
    public let colour: Pixel
    private let display: OpaquePointer
    private let root: Window
    private let columns: (x: Int, width: Int)
    private let top: Int
    private let screenWidth: Int
    public private(set) var height: Int
    private var removed = false
    private var closed = false

    /// Maps a panel `height` px tall along the top of the monitor at (`x`, `y`), `width` px wide;
    /// with `edge` `.left` or `.right`, a vertical one at that rectangle reserving its columns
    /// from the screen's edge over its rows.
    public init(
        displayName: String, edge: Edge = .top, x: Int = 0, y: Int = 0, width: Int = 1280, height: Int = 30, colour: Int = 0x2040A0
    ) throws {
        guard let display = XOpenDisplay(displayName) else { throw TestFailure("panel cannot open \(displayName)") }
        self.display = display
        self.edge = edge
        root = wb_RootWindow(display, wb_DefaultScreen(display))
        screenWidth = Int(wb_DisplayWidth(display, wb_DefaultScreen(display)))
        self.colour = Pixel(hex: colour)
        columns = (x, width)
        top = y
        self.height = height
        window = XCreateSimpleWindow(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, UInt(colour))
        "stand-in-panel".withCString { name in
            var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: name), res_class: UnsafeMutablePointer(mutating: name))
            XSetClassHint(display, window, &hint)
        }
        setCardinals("_NET_WM_WINDOW_TYPE", [Int(atom("_NET_WM_WINDOW_TYPE_DOCK"))], type: Atom(XA_ATOM))
        setCardinals("_NET_WM_DESKTOP", [0xFFFF_FFFF])
        if let hints = XAllocSizeHints() {
            hints.pointee.flags = USPosition | PPosition | USSize | PSize
            hints.pointee.x = Int32(x)
            hints.pointee.y = Int32(y)
            hints.pointee.width = Int32(width)
            hints.pointee.height = Int32(height)
            XSetWMNormalHints(display, window, hints)
            XFree(hints)
        }
        setStruts()
        XMapWindow(display, window)
        XSync(display, 0)
    }

    deinit { close() }

    /// Grows or shrinks the panel and its struts, as a bar does when its font changes.
    public func resize(to newHeight: Int) {
        height = newHeight
        XResizeWindow(display, window, UInt32(columns.width), UInt32(newHeight))
        setStruts()
        XSync(display, 0)
    }

    /// Unmaps and destroys the panel, as a bar that quits does.
    public func remove() {
        guard !removed else { return }
        removed = true
        XUnmapWindow(display, window)
        XDestroyWindow(display, window)
        XSync(display, 0)
    }

    /// Disconnects (the server destroys the panel if it is still there).
    public func close() {
        guard !closed else { return }
        closed = true
        remove()
        XCloseDisplay(display)
    }

    private func setStruts() {
        let bottom = top + height
        switch edge {
        case .top:
            setCardinals("_NET_WM_STRUT_PARTIAL", [0, 0, bottom, 0, 0, 0, 0, 0, columns.x, columns.x + columns.width - 1, 0, 0])
            setCardinals("_NET_WM_STRUT", [0, 0, bottom, 0])
        case .left:
            let reach = columns.x + columns.width
            setCardinals("_NET_WM_STRUT_PARTIAL", [reach, 0, 0, 0, top, bottom - 1, 0, 0, 0, 0, 0, 0])
            setCardinals("_NET_WM_STRUT", [reach, 0, 0, 0])
        case .right:
            let reach = screenWidth - columns.x
            setCardinals("_NET_WM_STRUT_PARTIAL", [0, reach, 0, 0, 0, 0, top, bottom - 1, 0, 0, 0, 0])
            setCardinals("_NET_WM_STRUT", [0, reach, 0, 0])
        }
    }

    private func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    private func setCardinals(_ property: String, _ values: [Int], type: Atom = Atom(XA_CARDINAL)) {
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, window, atom(property), type, 32, PropModeReplace,
                                bytes.bindMemory(to: UInt8.self).baseAddress, Int32(values.count))
        }
    }
}
