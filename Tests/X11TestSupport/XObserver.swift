// An independent X client that looks at the desktop the way a user (or a pager) would: the
// window manager's `_NET_WORKAREA`, where windows really are, and the pixels on screen. It
// shares nothing with the code under test but the X server.

import CX11
import CXRes
import Glibc
import ProcessTestSupport

/// A window's rectangle in root coordinates.
public struct Rect: Equatable, CustomStringConvertible, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// An RGB pixel.
public struct Pixel: Equatable, CustomStringConvertible, Sendable {
    public var red: Int, green: Int, blue: Int
    public init(red: Int, green: Int, blue: Int) { self.red = red; self.green = green; self.blue = blue }
    public init(hex: Int) { self.init(red: hex >> 16 & 0xFF, green: hex >> 8 & 0xFF, blue: hex & 0xFF) }
    /// Largest per-channel difference.
    public func distance(to other: Pixel) -> Int {
        max(abs(red - other.red), abs(green - other.green), abs(blue - other.blue))
    }
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// A grab of part of the screen.
public struct Screenshot: Equatable, Sendable {
    public let area: Rect
    let pixels: [Pixel]
    public func pixel(x: Int, y: Int) -> Pixel { pixels[(y - area.y) * area.width + (x - area.x)] }
    /// Columns (root x) in which some pixel is within `tolerance` of `colour`.
    public func columns(matching colour: Pixel, tolerance: Int) -> [Int] {
        (0..<area.width).filter { column in
            (0..<area.height).contains { row in pixels[row * area.width + column].distance(to: colour) <= tolerance }
        }.map { $0 + area.x }
    }
    public func count(matching colour: Pixel, tolerance: Int) -> Int {
        pixels.filter { $0.distance(to: colour) <= tolerance }.count
    }
}

/// A record of a ConfigureNotify the server sent for a top-level window.
public struct ConfigureRecord: Sendable {
    public var window: UInt
    /// Relative to the parent: root coordinates for a top-level window.
    public var y: Int
    public var width: Int
    public var height: Int
}

public final class XObserver {
    public let display: OpaquePointer
    public let root: Window
    private let workAreaAtom: Atom
    public private(set) var configures: [ConfigureRecord] = []
    public private(set) var maps: [UInt] = []
    /// Top-level windows unmapped, in order.
    public private(set) var unmaps: [UInt] = []
    /// `_NET_WORKAREA` as read each time the WM changed it, in order.
    public private(set) var workAreaHistory: [[Rect]] = []

    public init(displayName: String) throws {
        guard let display = XOpenDisplay(displayName) else { throw TestFailure("observer cannot open \(displayName)") }
        self.display = display
        root = wb_RootWindow(display, wb_DefaultScreen(display))
        workAreaAtom = XInternAtom(display, "_NET_WORKAREA", 0)
        XSetErrorHandler { _, _ in 0 }
        XSelectInput(display, root, PropertyChangeMask | SubstructureNotifyMask)
        XSync(display, 0)
    }

    private var closed = false

    /// Closes the connection; do this before the server goes away.
    public func close() {
        guard !closed else { return }
        closed = true
        XCloseDisplay(display)
    }

    deinit { close() }

    public var fileDescriptor: Int32 { wb_ConnectionNumber(display) }

    /// Reads every queued event, recording configures, maps and unmaps of top-level windows,
    /// configures of windows watched with `watchStructure(of:)`, and work-area changes.
    /// A round trip: every event the server has sent this connection by now is then queued.
    public func sync() { XSync(display, 0) }

    public func drainEvents() {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case ConfigureNotify where event.xconfigure.event == root || event.xconfigure.event == event.xconfigure.window:
                configures.append(ConfigureRecord(
                    window: event.xconfigure.window, y: Int(event.xconfigure.y),
                    width: Int(event.xconfigure.width), height: Int(event.xconfigure.height)
                ))
            case MapNotify where event.xmap.event == root:
                maps.append(event.xmap.window)
            case UnmapNotify where event.xunmap.event == root:
                unmaps.append(event.xunmap.window)
            case PropertyNotify where event.xproperty.window == root && event.xproperty.atom == workAreaAtom:
                // Read now: the history is what a pager would have seen, change by change.
                workAreaHistory.append(workAreas())
            default:
                break
            }
        }
    }

    public func clearRecords() {
        drainEvents()
        configures.removeAll()
        maps.removeAll()
        unmaps.removeAll()
        workAreaHistory.removeAll()
    }

    /// Also records the configures of `window` itself (a child window, whose position is
    /// relative to its parent); the selection is in place when this returns.
    public func watchStructure(of window: Window) {
        XSelectInput(display, window, StructureNotifyMask)
        XSync(display, 0)
    }

    /// Waits, woken by X events, until `condition` holds or `timeout` seconds pass.
    @discardableResult
    public func wait(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while true {
            drainEvents()
            if condition() {
                // The condition's own round trips may have queued events: record them too.
                drainEvents()
                return true
            }
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return false }
            var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(min(remaining, 0.25) * 1000) + 1)
        }
    }

    // MARK: Properties

    public func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// A format-32 property as Ints (C longs).
    public func cardinals(_ window: Window, _ property: String) -> [Int]? {
        withProperty(window, property, format: 32) { data, count in
            data.withMemoryRebound(to: Int.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
        }
    }

    public func string(_ window: Window, _ property: String) -> String? {
        withProperty(window, property, format: 8) { data, count in
            String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
        }
    }

    /// Reads a property of the given format and hands its items to `body`; nil when absent.
    private func withProperty<T>(_ window: Window, _ property: String, format wanted: Int32,
                                 _ body: (UnsafeMutablePointer<UInt8>, Int) -> T) -> T? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom(property), 0, 4096, 0, Atom(AnyPropertyType), &type, &format, &count, &after, &data) == Success,
              let data
        else { return nil }
        defer { XFree(data) }
        return format == wanted ? body(data, Int(count)) : nil
    }

    /// Makes the root window's background a pixmap of one colour and names it in
    /// `_XROOTPMAP_ID`, as wallpaper setters do: what a compositor paints under every window
    /// (picom paints grey without it). The pixmap lives as long as this connection.
    public func setWallpaper(_ colour: Pixel) {
        let screen = wb_DefaultScreen(display)
        let width = UInt32(wb_DisplayWidth(display, screen))
        let height = UInt32(wb_DisplayHeight(display, screen))
        let pixmap = XCreatePixmap(display, root, width, height, UInt32(wb_DefaultDepth(display, screen)))
        let gc = XCreateGC(display, pixmap, 0, nil)
        XSetForeground(display, gc, UInt(colour.red << 16 | colour.green << 8 | colour.blue))
        XFillRectangle(display, pixmap, gc, 0, 0, width, height)
        XFreeGC(display, gc)
        var id = Int(pixmap)
        withUnsafeBytes(of: &id) { bytes in
            _ = XChangeProperty(display, root, XInternAtom(display, "_XROOTPMAP_ID", 0), Atom(XA_PIXMAP), 32, PropModeReplace,
                                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
        XSetWindowBackgroundPixmap(display, root, pixmap)
        XClearWindow(display, root)
        XSync(display, 0)
    }

    /// The window that owns selection `name` (`_NET_WM_CM_S0`: the compositing manager), 0 for none.
    public func selectionOwner(_ name: String) -> UInt {
        UInt(XGetSelectionOwner(display, XInternAtom(display, name, 0)))
    }

    /// `_NET_WORKAREA` as one Rect per desktop; empty when the WM publishes none.
    public func workAreas() -> [Rect] {
        guard let values = cardinals(root, "_NET_WORKAREA") else { return [] }
        return stride(from: 0, to: values.count - 3, by: 4).map {
            Rect(x: values[$0], y: values[$0 + 1], width: values[$0 + 2], height: values[$0 + 3])
        }
    }

    /// True when a window manager has announced itself on the root and on its check window.
    public var windowManagerIsReady: Bool {
        guard let check = cardinals(root, "_NET_SUPPORTING_WM_CHECK")?.first, check != 0,
              let own = cardinals(Window(check), "_NET_SUPPORTING_WM_CHECK")?.first
        else { return false }
        return own == check
    }

    // MARK: Windows

    public func geometry(of window: Window) -> Rect? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        return Rect(x: Int(x), y: Int(y), width: Int(attributes.width), height: Int(attributes.height))
    }

    public func isViewable(_ window: Window) -> Bool {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return false }
        return attributes.map_state == IsViewable
    }

    public func isOverrideRedirect(_ window: Window) -> Bool {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return false }
        return attributes.override_redirect != 0
    }

    /// Every window (any depth) whose WM_CLASS instance name is `name`.
    public func windows(named name: String) -> [Window] {
        var found: [Window] = []
        func visit(_ window: Window) {
            if className(of: window) == name { found.append(window) }
            children(of: window).forEach(visit)
        }
        visit(root)
        return found
    }

    /// The direct children of `window`, bottom to top.
    public func children(of window: Window) -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// The root's child that holds `window` (its WM frame, or the window itself if unmanaged).
    public func topLevel(of window: Window) -> Window {
        var current = window
        while true {
            var rootReturn: Window = 0
            var parent: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            guard XQueryTree(display, current, &rootReturn, &parent, &children, &count) != 0 else { return current }
            if let children { XFree(children) }
            if parent == root || parent == 0 { return current }
            current = parent
        }
    }

    /// The window that has the keyboard focus (`XGetInputFocus`).
    public var inputFocus: Window {
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        return focus
    }

    /// The rectangles of `window`'s input shape (`XShapeGetRectangles` with `ShapeInput`).
    public func inputShape(of window: Window) -> [Rect] {
        shape(of: window, kind: ShapeInput)
    }

    /// The rectangles of `window`'s bounding shape (what shows of it; its whole rectangle when unshaped).
    public func boundingShape(of window: Window) -> [Rect] {
        shape(of: window, kind: ShapeBounding)
    }

    private func shape(of window: Window, kind: Int32) -> [Rect] {
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rectangles = XShapeGetRectangles(display, window, kind, &count, &ordering) else { return [] }
        defer { XFree(rectangles) }
        return UnsafeBufferPointer(start: rectangles, count: Int(count)).map {
            Rect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height))
        }
    }

    /// The names of the atoms in `window`'s `property` (an ATOM list such as `_NET_WM_STATE`).
    public func atomNames(_ window: Window, _ property: String) -> [String] {
        (cardinals(window, property) ?? []).compactMap { value in
            guard let name = XGetAtomName(display, Atom(value)) else { return nil }
            defer { XFree(name) }
            return String(cString: name)
        }
    }

    /// The root's children bottom to top, with class, geometry and map state: for failure messages.
    public func describeStack() -> String {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return "?" }
        let list = Array(UnsafeBufferPointer(start: children, count: Int(count)))
        XFree(children)
        return list.compactMap { window -> String? in
            guard isViewable(window) else { return nil }
            let rect = geometry(of: window).map(\.description) ?? "?"
            return "0x\(String(window, radix: 16)) \(className(of: window) ?? "-") \(rect)\(isOverrideRedirect(window) ? " OR" : "")"
        }.joined(separator: "; ")
    }

    public func className(of window: Window) -> String? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let className = hint.res_class { XFree(className) }
        }
        return hint.res_name.map { String(cString: $0) }
    }

    /// Creates and maps an ordinary client window (`maximized`: with the maximized state set
    /// before mapping; call `requestMaximize` once it is managed for WMs that ignore that;
    /// `fullscreen`: with the fullscreen state set before mapping).
    public func mapClientWindow(maximized: Bool, fullscreen: Bool = false, className: String = "test-client") -> Window {
        let window = XCreateSimpleWindow(display, root, 100, 100, 400, 300, 0, 0, 0x808080)
        className.withCString { name in
            var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: name), res_class: UnsafeMutablePointer(mutating: name))
            XSetClassHint(display, window, &hint)
        }
        let names = (maximized ? ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"] : [])
            + (fullscreen ? ["_NET_WM_STATE_FULLSCREEN"] : [])
        if !names.isEmpty {
            let states = names.map { Int(atom($0)) }
            states.withUnsafeBytes { bytes in
                _ = XChangeProperty(display, window, atom("_NET_WM_STATE"), Atom(XA_ATOM), 32, PropModeReplace,
                                    bytes.bindMemory(to: UInt8.self).baseAddress, Int32(states.count))
            }
        }
        XSelectInput(display, window, StructureNotifyMask | PropertyChangeMask)
        XMapWindow(display, window)
        XSync(display, 0)
        return window
    }

    /// Asks the WM to make managed `window` full-screen (`_NET_WM_STATE` add), as an application
    /// does, and waits until its state says so. openbox now and then manages a window mapped with
    /// the full-screen state as an ordinary one; asking again once it is managed settles it.
    @discardableResult
    public func requestFullscreen(_ window: Window, timeout: Double = 10) -> Bool {
        sendToRoot(window, "_NET_WM_STATE", [1, Int(atom("_NET_WM_STATE_FULLSCREEN")), 0, 1])
        return wait(timeout: timeout) { atomNames(window, "_NET_WM_STATE").contains("_NET_WM_STATE_FULLSCREEN") }
    }

    /// openbox announces itself before its main loop runs, and a window mapped in between stays
    /// unmanaged until some later event wakes it. Map a probe window and nudge the WM with a
    /// no-op request until the probe is managed: from then on the WM serves every request.
    /// (Other WMs may do the same; every one of them is waited for this way.)
    public func waitUntilWindowManagerManagesWindows(timeout: Double = 20) throws {
        let probe = mapClientWindow(maximized: false, className: "wm-probe")
        defer {
            XDestroyWindow(display, probe)
            XSync(display, 0)
        }
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            // Listed as a client, or given its ICCCM WM_STATE (pekwm lists its frames instead).
            let managed = wait(timeout: 0.1) {
                cardinals(root, "_NET_CLIENT_LIST")?.contains(Int(probe)) == true || cardinals(probe, "WM_STATE") != nil
            }
            if managed { return }
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.window = root
            event.xclient.message_type = atom("_NET_CURRENT_DESKTOP")
            event.xclient.format = 32
            XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
            XSync(display, 0)
        }
        throw TestFailure("the window manager never managed a probe window")
    }

    /// Where a maximized `window` belongs in `workArea`, going by the WM's `_NET_FRAME_EXTENTS`
    /// (nil until the WM has framed it).
    public func maximizedGeometry(of window: Window, in workArea: Rect) -> Rect? {
        guard let extents = cardinals(window, "_NET_FRAME_EXTENTS"), extents.count == 4 else { return nil }
        return Rect(
            x: workArea.x + extents[0], y: workArea.y + extents[2],
            width: workArea.width - extents[0] - extents[1], height: workArea.height - extents[2] - extents[3]
        )
    }

    /// Sends the EWMH client message `type` about `window` to the root (what pagers and
    /// applications send to the WM), with `data` as its longs.
    public func sendToRoot(_ window: Window, _ type: String, _ data: [Int]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atom(type)
        event.xclient.format = 32
        withUnsafeMutableBytes(of: &event.xclient.data.l) { bytes in
            for (index, value) in data.prefix(5).enumerated() { bytes.storeBytes(of: value, toByteOffset: index * MemoryLayout<Int>.size, as: Int.self) }
        }
        XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XSync(display, 0)
    }

    /// Asks the WM to maximize `window` the EWMH way (a `_NET_WM_STATE` client message).
    public func requestMaximize(_ window: Window) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atom("_NET_WM_STATE")
        event.xclient.format = 32
        event.xclient.data.l.0 = 1 // _NET_WM_STATE_ADD
        event.xclient.data.l.1 = Int(atom("_NET_WM_STATE_MAXIMIZED_VERT"))
        event.xclient.data.l.2 = Int(atom("_NET_WM_STATE_MAXIMIZED_HORZ"))
        event.xclient.data.l.3 = 1
        XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XSync(display, 0)
    }

    /// Sets `Xft.dpi` in the server's resource database (RESOURCE_MANAGER on the root).
    public func setXftDPI(_ dpi: Int) {
        let text = Array("Xft.dpi:\t\(dpi)\n".utf8)
        text.withUnsafeBufferPointer { buffer in
            _ = XChangeProperty(display, root, Atom(XA_RESOURCE_MANAGER), Atom(XA_STRING), 8, PropModeReplace, buffer.baseAddress, Int32(buffer.count))
        }
        XSync(display, 0)
    }

    // MARK: Pixels

    public func screenshot(_ area: Rect) -> Screenshot? {
        guard let image = XGetImage(display, root, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height), UInt(~0 as UInt32), ZPixmap) else {
            return nil
        }
        defer { _ = wb_XDestroyImage(image) }
        var pixels: [Pixel] = []
        pixels.reserveCapacity(area.width * area.height)
        for row in 0..<area.height {
            for column in 0..<area.width {
                let value = Int(wb_XGetPixel(image, Int32(column), Int32(row)))
                pixels.append(Pixel(hex: value & 0xFF_FFFF))
            }
        }
        return Screenshot(area: area, pixels: pixels)
    }
}

