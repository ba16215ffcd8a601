// What a window manager's guard window or a desktop widget looks like to other clients: an
// override-redirect window covering the whole monitor, in one colour, that never raises itself.
// Mutter and muffin create theirs, lower it, then map it, so it is never above anything; conky's
// `own_window_type override` maps its window and then lowers it. A client of its own.

import CX11
import ProcessTestSupport

public final class FullScreenOverlay {
    public let window: Window
    public let colour: Pixel
    private let display: OpaquePointer
    private var closed = false

    /// How the window reaches the bottom of the stack.
    public enum Arrival: Sendable {
        /// Lowered, then mapped: never above anything (mutter's guard window).
        case loweredBeforeMapping
        /// Mapped on top, then lowered (conky's override window).
        case mappedThenLowered
    }

    public init(displayName: String, arrival: Arrival, width: Int = 1280, height: Int = 800, colour: Int = 0x2E8B57) throws {
        guard let display = XOpenDisplay(displayName) else { throw TestFailure("overlay cannot open \(displayName)") }
        self.display = display
        self.colour = Pixel(hex: colour)
        let root = wb_RootWindow(display, wb_DefaultScreen(display))
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = UInt(colour)
        window = XCreateWindow(display, root, 0, 0, UInt32(width), UInt32(height), 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
                               UInt(CWOverrideRedirect | CWBackPixel), &attributes)
        switch arrival {
        case .loweredBeforeMapping:
            XLowerWindow(display, window)
            XMapWindow(display, window)
        case .mappedThenLowered:
            XMapWindow(display, window)
            XLowerWindow(display, window)
        }
        XSync(display, 0)
    }

    deinit { close() }

    /// Puts the window on top of every other, as a locker would be.
    public func raise() {
        XRaiseWindow(display, window)
        XSync(display, 0)
    }

    /// Puts the window back under every other.
    public func lower() {
        XLowerWindow(display, window)
        XSync(display, 0)
    }

    public func close() {
        guard !closed else { return }
        closed = true
        XDestroyWindow(display, window)
        XSync(display, 0)
        XCloseDisplay(display)
    }
}
