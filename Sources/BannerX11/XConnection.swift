// The connection to one X display and the small vocabulary the rest of the layer speaks:
// atoms, properties, monitors, the Xft DPI. Every raw Xlib call outside drawing goes through here.

import CX11
import Glibc
import BannerCore
import BannerRuntime
import StartupTrace


/// A RandR monitor: its name and root-window rectangle.
public struct Monitor: Sendable, Hashable {
    public var name: String
    public var geometry: MonitorGeometry
    public var isPrimary: Bool
}

/// Owns the `Display*`; closed exactly once, by `X11Display`.
final class XConnection {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    let visual: UnsafeMutablePointer<Visual>
    let colormap: Colormap
    let depth: Int32
    let name: String
    private(set) var randrEventBase: Int32 = -1
    private var atoms: [String: Atom] = [:]
    /// The ARGB surface once looked up (see Surface.swift).
    var argbSurfaceCache: Surface?

    init(name requested: String?) throws(BannerDisplayError) {
        let environment = getenv("DISPLAY").map { String(cString: $0) }
        let effective = requested ?? environment
        guard let effective, !effective.isEmpty else { throw .cannotOpen(nil) }
        StartupTrace.mark("X connection")
        guard let display = XOpenDisplay(effective) else { throw .cannotOpen(effective) }
        StartupTrace.mark("X connected")
        // The handler is process-wide: errors of another connection that once had this
        // address (one this library did not open) must not count against this one.
        XErrorTrap.forget(display)
        XErrorTrap.install()
        self.display = display
        name = effective
        screen = wb_DefaultScreen(display)
        root = wb_RootWindow(display, screen)
        visual = wb_DefaultVisual(display, screen)
        colormap = wb_DefaultColormap(display, screen)
        depth = wb_DefaultDepth(display, screen)
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        if XRRQueryExtension(display, &eventBase, &errorBase) != 0 {
            randrEventBase = eventBase
        }
        internAtoms(Self.knownAtoms + ["_XSETTINGS_S\(screen)"])
    }

    /// Every atom the banner, its reservation and the desktop watches use: interned in one round
    /// trip at start-up, not one each on the way to the first banner.
    static let knownAtoms = [
        "MANAGER", "UTF8_STRING", "_NET_ACTIVE_WINDOW", "_NET_WM_DESKTOP", "_NET_WM_NAME", "_NET_WM_PID",
        "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_SKIP_PAGER", "_NET_WM_STATE_SKIP_TASKBAR",
        "_NET_WM_STATE_STICKY", "_NET_WM_STRUT", "_NET_WM_STRUT_PARTIAL", "_NET_WM_WINDOW_TYPE",
        "_NET_WM_WINDOW_TYPE_DOCK", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_XSETTINGS_SETTINGS",
    ]

    /// Interns `names` in one round trip.
    private func internAtoms(_ names: [String]) {
        var cNames = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var values = [Atom](repeating: 0, count: names.count)
        guard XInternAtoms(display, &cNames, Int32(names.count), 0, &values) != 0 else { return }
        for (name, value) in zip(names, values) where value != 0 { atoms[name] = value }
    }

    func close() {
        if let argb = argbSurfaceCache { XFreeColormap(display, argb.colormap) }
        XCloseDisplay(display)
        XErrorTrap.forget(display)
    }

    var fileDescriptor: Int32 { wb_ConnectionNumber(display) }

    /// The server's extensions by major opcode (a round trip each: only when an error needs them).
    func extensionOpcodes() -> [UInt8: String] {
        var count: Int32 = 0
        guard let list = XListExtensions(display, &count) else { return [:] }
        defer { XFreeExtensionList(list) }
        var names: [UInt8: String] = [:]
        for index in 0..<Int(count) {
            guard let name = list[index] else { continue }
            var major: Int32 = 0
            var event: Int32 = 0
            var error: Int32 = 0
            if XQueryExtension(display, name, &major, &event, &error) != 0, major > 0, major < 256 {
                names[UInt8(major)] = String(cString: name)
            }
        }
        return names
    }

    func atom(_ name: String) -> Atom {
        if let known = atoms[name] { return known }
        let value = XInternAtom(display, name, 0)
        atoms[name] = value
        return value
    }

    func flush() { XFlush(display) }
    func sync() { XSync(display, 0) }

    // MARK: Properties

    /// Sets a format-32 property; X wants C `long`s, which are `Int` on 64-bit Linux.
    func setCardinals(_ window: Window, _ property: String, type: Atom = Atom(XA_CARDINAL), _ values: [Int]) {
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                display, window, atom(property), type, 32, PropModeReplace,
                bytes.bindMemory(to: UInt8.self).baseAddress, Int32(values.count)
            )
        }
    }

    func setAtoms(_ window: Window, _ property: String, _ names: [String]) {
        setCardinals(window, property, type: Atom(XA_ATOM), names.map { Int(bitPattern: UInt(atom($0))) })
    }

    func setUTF8(_ window: Window, _ property: String, _ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            _ = XChangeProperty(
                display, window, atom(property), atom("UTF8_STRING"), 8, PropModeReplace,
                buffer.baseAddress, Int32(buffer.count)
            )
        }
    }

    func setClass(_ window: Window, name: String, className: String) {
        name.withCString { namePointer in
            className.withCString { classPointer in
                var hint = XClassHint(
                    res_name: UnsafeMutablePointer(mutating: namePointer),
                    res_class: UnsafeMutablePointer(mutating: classPointer)
                )
                XSetClassHint(display, window, &hint)
            }
        }
    }

    /// Sets `window`'s shapes of `kinds` (XShape's `ShapeBounding`: what shows, `ShapeInput`:
    /// what takes the pointer) to `rectangles`, banded top to bottom as
    /// ``BannerLayout/roundedBottomShape(width:bannerHeight:visibleHeight:radius:)`` makes them;
    /// nil gives the window back its plain rectangle.
    func setShape(_ window: Window, _ rectangles: [PixelRect]?, kinds: [Int32] = [ShapeBounding, ShapeInput]) {
        for kind in kinds {
            guard let rectangles else {
                XShapeCombineMask(display, window, kind, 0, 0, Pixmap(None), ShapeSet)
                continue
            }
            var xRectangles = rectangles.map {
                XRectangle(x: Int16(clamping: $0.x), y: Int16(clamping: $0.y), width: UInt16(clamping: $0.width), height: UInt16(clamping: $0.height))
            }
            XShapeCombineRectangles(display, window, kind, 0, 0, &xRectangles, Int32(xRectangles.count), ShapeSet, YXBanded)
        }
    }

    // MARK: Monitors and resources

    /// The active RandR monitors, or the whole screen as one monitor named `default`.
    func monitors() -> [Monitor] {
        var count: Int32 = 0
        if randrEventBase >= 0, let list = XRRGetMonitors(display, root, 1, &count), count > 0 {
            defer { XRRFreeMonitors(list) }
            return (0..<Int(count)).map { index in
                let info = list[index]
                var monitorName = "monitor-\(index)"
                if let cName = XGetAtomName(display, info.name) {
                    monitorName = String(cString: cName)
                    XFree(cName)
                }
                return Monitor(
                    name: monitorName,
                    geometry: MonitorGeometry(x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height)),
                    isPrimary: info.primary != 0
                )
            }
        }
        let geometry = MonitorGeometry(
            x: 0, y: 0, width: Int(wb_DisplayWidth(display, screen)), height: Int(wb_DisplayHeight(display, screen))
        )
        return [Monitor(name: "default", geometry: geometry, isPrimary: true)]
    }

    /// `Xft.dpi` from the server's resource database, if set.
    func xftDPI() -> Double? {
        guard let value = XGetDefault(display, "Xft", "dpi") else { return nil }
        return Double(String(cString: value))
    }

    /// `colour` as an allocated XftColor for the duration of `body`. Xft wants premultiplied
    /// 16-bit components; its `pixel` is right for `surface`'s visual (the screen's by default).
    func withXftColour(_ colour: RGBA, on surface: Surface? = nil, _ body: (UnsafeMutablePointer<XftColor>) -> Void) {
        let visual = surface?.visual ?? visual
        let colormap = surface?.colormap ?? colormap
        func component(_ value: Double) -> UInt16 {
            UInt16((min(max(value * colour.alpha, 0), 1) * 65535).rounded())
        }
        var render = XRenderColor(
            red: component(colour.red), green: component(colour.green), blue: component(colour.blue),
            alpha: UInt16((min(max(colour.alpha, 0), 1) * 65535).rounded())
        )
        var xft = XftColor()
        guard XftColorAllocValue(display, visual, colormap, &render, &xft) != 0 else { return }
        body(&xft)
        XftColorFree(display, visual, colormap, &xft)
    }

    /// `surface`'s pixel value for `colour`: opaque on an opaque surface (a window's
    /// background has no alpha without a compositor), premultiplied on an ARGB one.
    func pixel(of colour: RGBA, on surface: Surface) -> UInt {
        var shown = colour
        if !surface.hasAlpha { shown.alpha = 1 }
        var pixel: UInt = 0
        withXftColour(shown, on: surface) { pixel = $0.pointee.pixel }
        return pixel
    }

    // MARK: Other clients' windows, through XCB

    /// XCB on Xlib's own connection: requests whose replies can be awaited together, and whose
    /// errors (a window gone meanwhile) stay out of Xlib's error handler.
    var xcb: OpaquePointer { XGetXCBConnection(display) }

    /// `reply`, with the error freed when there is one instead: a window that went away between
    /// the event that named it and the read is no error of ours (given no error pointer, XCB
    /// would hand it to Xlib's error handler).
    static func xcbReply<Reply>(_ reply: UnsafeMutablePointer<Reply>?, _ error: inout UnsafeMutablePointer<xcb_generic_error_t>?) -> UnsafeMutablePointer<Reply>? {
        if let failed = error {
            free(failed)
            error = nil
        }
        return reply
    }

    /// The values of the format-32 property a GetProperty request asked for; nil when absent or
    /// the window is gone.
    func cardinals(from cookie: xcb_get_property_cookie_t) -> [Int]? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = Self.xcbReply(xcb_get_property_reply(xcb, cookie, &error), &error) else { return nil }
        defer { free(reply) }
        guard reply.pointee.format == 32, reply.pointee.value_len > 0, let value = xcb_get_property_value(reply) else { return nil }
        let count = Int(reply.pointee.value_len)
        return UnsafeBufferPointer(start: value.bindMemory(to: UInt32.self, capacity: count), count: count).map { Int($0) }
    }

    /// Another client's format-32 property, its first `count` values at most (one round trip);
    /// nil when absent or the window is gone.
    func cardinals(_ window: Window, _ property: String, count: Int = 64) -> [Int]? {
        cardinals(from: xcb_get_property(xcb, 0, UInt32(window), UInt32(atom(property)), 0, 0, UInt32(clamping: count)))
    }

    /// The first value of the format-32 `property` of each of `windows` (the requests sent at
    /// once, one round trip in all); nil for a window without it or gone.
    func firstCardinal(of windows: [Window], _ property: String) -> [Int?] {
        let name = UInt32(atom(property))
        let cookies = windows.map { xcb_get_property(xcb, 0, UInt32($0), name, 0, 0, 1) }
        return cookies.map { cardinals(from: $0)?.first }
    }

    /// Asks the window manager, as EWMH's root-window client messages do, for `message` about
    /// `window` with up to five `values`.
    func askWindowManager(_ message: String, about window: Window, _ values: [Int]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.serial = 0
        event.xclient.send_event = 1
        event.xclient.display = display
        event.xclient.window = window
        event.xclient.message_type = atom(message)
        event.xclient.format = 32
        withUnsafeMutableBytes(of: &event.xclient.data.l) { data in
            let longs = data.bindMemory(to: Int.self)
            for (index, value) in values.prefix(longs.count).enumerated() { longs[index] = value }
        }
        XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        flush()
    }

    /// Another client's window's rectangle in root coordinates; nil when it is gone.
    /// The root window's children as QueryTree lists them (one round trip).
    func rootChildren() -> [Window] {
        let cookie = xcb_query_tree(xcb, UInt32(root))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = Self.xcbReply(xcb_query_tree_reply(xcb, cookie, &error), &error) else { return [] }
        defer { free(reply) }
        guard let children = xcb_query_tree_children(reply) else { return [] }
        return (0..<Int(xcb_query_tree_children_length(reply))).map { Window(children[$0]) }
    }

    func rootGeometry(of window: Window) -> MonitorGeometry? {
        let geometryCookie = xcb_get_geometry(xcb, UInt32(window))
        let translateCookie = xcb_translate_coordinates(xcb, UInt32(window), UInt32(root), 0, 0)
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let geometry = Self.xcbReply(xcb_get_geometry_reply(xcb, geometryCookie, &error), &error)
        let translated = Self.xcbReply(xcb_translate_coordinates_reply(xcb, translateCookie, &error), &error)
        defer { free(geometry); free(translated) }
        guard let geometry, let translated else { return nil }
        return MonitorGeometry(x: Int(translated.pointee.dst_x), y: Int(translated.pointee.dst_y),
                               width: Int(geometry.pointee.width), height: Int(geometry.pointee.height))
    }

    /// Resolves an X11 colour name through the server's colour database.
    func lookupColour(_ name: String) -> RGBA? {
        var exact = XColor()
        guard XParseColor(display, colormap, name, &exact) != 0 else { return nil }
        return RGBA(red: Double(exact.red) / 65535, green: Double(exact.green) / 65535, blue: Double(exact.blue) / 65535)
    }
}
