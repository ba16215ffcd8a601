// What a window manager's guard window looks like to other clients: an override-redirect window
// covering the whole monitor that never raises itself. Mutter and muffin create theirs, lower it,
// then map it, so it is never above anything; theirs is InputOnly, this one draws in one colour
// (so only its place in the stack tells it from a locker). A client of its own; `raise()` and
// `lower()` move it as a locker or a desktop would move.

import CX11
import ProcessTestSupport

public final class FullScreenOverlay {
    public let window: Window
    public let colour: Pixel
    private let display: OpaquePointer
    private var closed = false

    /// Creates the window, lowers it, then maps it.
    public init(displayName: String, width: Int = 1280, height: Int = 800, colour: Int = 0x2E8B57) throws {
        guard let display = XOpenDisplay(displayName) else { throw TestFailure("overlay cannot open \(displayName)") }
        self.display = display
        self.colour = Pixel(hex: colour)
        window = createCoveringWindow(display, width: width, height: height, colour: colour)
        XLowerWindow(display, window)
        XMapWindow(display, window)
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
