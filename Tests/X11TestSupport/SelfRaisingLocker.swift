// What a screen locker looks like to other clients, at its most insistent: an override-redirect
// window covering the whole monitor, in one colour, that raises itself each time anything
// obscures it (VisibilityNotify), as i3lock does. A client of its own; serve it with `service()`
// from the test's loop. `raises` counts how often it had to take the top back.

import CX11
import ProcessTestSupport

public final class SelfRaisingLocker {
    public let window: Window
    public let colour: Pixel
    public private(set) var raises = 0
    private let display: OpaquePointer
    private var closed = false

    public init(displayName: String, width: Int = 1280, height: Int = 800, colour: Int = 0x101820) throws {
        guard let display = XOpenDisplay(displayName) else { throw TestFailure("locker cannot open \(displayName)") }
        self.display = display
        self.colour = Pixel(hex: colour)
        window = createCoveringWindow(display, width: width, height: height, colour: colour, eventMask: VisibilityChangeMask)
        XMapRaised(display, window)
        XSync(display, 0)
    }

    deinit { close() }

    public var fileDescriptor: Int32 { wb_ConnectionNumber(display) }

    /// Handles what arrived: back on top whenever something covers it.
    public func service() {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == VisibilityNotify, event.xvisibility.state != VisibilityUnobscured {
                raises += 1
                XRaiseWindow(display, window)
            }
        }
        XFlush(display)
    }

    /// Unlocks: the window goes, and the connection with it.
    public func close() {
        guard !closed else { return }
        closed = true
        XDestroyWindow(display, window)
        XSync(display, 0)
        XCloseDisplay(display)
    }
}

/// An override-redirect window of one `colour` at the root's top-left corner, `width`×`height`,
/// selecting `eventMask`; not mapped yet. What a locker, a guard window and a desktop widget
/// have in common.
func createCoveringWindow(_ display: OpaquePointer, width: Int, height: Int, colour: Int, eventMask: Int = 0) -> Window {
    let root = wb_RootWindow(display, wb_DefaultScreen(display))
    var attributes = XSetWindowAttributes()
    attributes.override_redirect = 1
    attributes.background_pixel = UInt(colour)
    attributes.event_mask = eventMask
    return XCreateWindow(display, root, 0, 0, UInt32(width), UInt32(height), 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
                         UInt(CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
}
