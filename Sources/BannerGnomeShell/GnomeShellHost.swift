// One banner on one GNOME Shell monitor: what its BannerController (the runtime's, shared with
// X11 and Wayland) decides, drawn here into an image (BannerPixman's drawing, which Wayland shares: the same
// pixels as on any desktop) and handed to the shell extension. The extension reserves the
// height once per show and once per dismissal and runs the slide itself with Clutter's easing
// of the same curve, so a slide costs one call, not one per frame; a cross-fade or a moving
// progress bar sends an image per frame slot. The sibling of X11's X11Host and Wayland's
// WaylandHost.

import BannerCore
import BannerRuntime
import BannerPixman
import MonotonicClock
import Reactor

/// The banner of one monitor of GNOME Shell.
public final class GnomeShellHost: BannerBackendHost {
    /// The monitor's connector name (`DP-1`, `Meta-0`), as GNOME's Settings shows it.
    public let monitorName: String
    /// Over full-screen windows (`show`) or hidden under them until they end (`delay`).
    public var fullscreenPolicy: FullscreenPolicy = .show
    /// Under the top bar (the default) or over it, at the screen's edge.
    public var placement: EdgePlacement = .belowPanels
    /// Why a presented banner is not on screen: the extension is gone (disabled, the shell
    /// restarting) until it comes back.
    public var hiddenReason: String? { isBannerPresented && !display.extensionIsThere ? "extension-disabled" : nil }
    /// The presentation, looks, gestures and actions of this monitor's banner.
    public private(set) lazy var controller = BannerController(surface: self, timing: display.timing, clock: { [unowned display] in display.loop.now })

    private unowned let display: GnomeShellDisplay
    private(set) var monitor: ShellMonitor
    private let image = BannerImage()
    private var resources: ScaledResources<GnomeShellDisplay>
    /// What the extension has of this banner: nothing until the first call of a presentation.
    private var sent: SentState?
    private var serial: UInt32 = 0
    private var nextFrameDue: MonotonicTime?
    /// The next frame's.
    private lazy var frameTimer = LoopTimer(on: display.loop)

    /// What was last sent: the content drawn, the reserved height and the slide (or resting
    /// offset) the image is on.
    private struct SentState {
        var content: DrawnContent?
        var reserve = 0
        var slideStart: MonotonicTime?
        var restingOffset: Double?
        var placement = ""
        var fullscreen = ""
    }

    init(monitor: ShellMonitor, display: GnomeShellDisplay) {
        self.monitor = monitor
        self.display = display
        monitorName = monitor.name
        resources = ScaledResources(display: display, deviceScale: monitor.scale)
    }

    /// The monitor moved, resized or changed scale: the banner is laid out and drawn again.
    func monitorChanged(to changed: ShellMonitor) {
        guard changed != monitor else { return }
        monitor = changed
        controller.forgetLooks()
        if controller.phase != .hidden { resend() }
    }

    /// The text scale or the system font changed: the banner is laid out and drawn again.
    func lookChanged() {
        controller.forgetLooks()
        if controller.phase != .hidden { resend() }
    }

    /// The extension came back (or is new): everything is sent again on the next frame.
    func resend() {
        sent = nil
        if controller.phase != .hidden { requestFrame() }
    }

    /// True while the banner moves: a slide, a cross-fade, a progress bar.
    public var isAnimating: Bool { nextFrameDue != nil }
    /// When this host draws its next frame; nil when nothing moves. While the shell runs a slide
    /// alone, the slide's end.
    public var frameDeadline: MonotonicTime? { nextFrameDue }
    /// Logical pixels reserved for the banner now; 0 when none is.
    public var reservedHeight: Int { sent?.reserve ?? 0 }

    /// The height of the banner presented here once settled; nil when none is.
    public var presentedHeight: Int? {
        isBannerPresented ? controller.presentedLook?.height : nil
    }

    /// Ends the presentation at once (the monitor gone, the display closing).
    func close() {
        if sent != nil { display.shell.hide(monitorName) }
        sent = nil
        stopFrames()
        controller.end()
    }

    // MARK: Frames, on the owner's clock

    private func requestFrame() {
        schedule(at: display.loop.now)
    }

    private func schedule(at due: MonotonicTime) {
        nextFrameDue = due
        frameTimer.set(at: due) { [weak self] in
            guard let self else { return }
            frame(at: display.loop.now)
        }
    }

    private func stopFrames() {
        nextFrameDue = nil
        frameTimer.cancel()
    }

    private func frame(at now: MonotonicTime) {
        nextFrameDue = nil
        controller.renderFrame(at: now)
    }

    /// Sends `frame` to the extension (when it is there) as far as it changed; the frame as
    /// the shell was asked to show it, or nil when nothing went to the shell (no extension,
    /// nothing changed, or the image could not be drawn): only what something drew is reported.
    public func draw(_ frame: ComposedFrame) -> RenderedFrame? {
        guard display.extensionIsThere, send(frame), controller.onFrame != nil else { return nil }
        return frame.rendered(panelInset: placement == .belowPanels ? monitor.topInset : 0)
    }

    /// The one call this frame needs, if any: a new image when the content changed, the
    /// reservation when its height or policies did, a slide when one started. Whether a call
    /// went to the shell.
    @discardableResult
    private func send(_ composed: ComposedFrame) -> Bool {
        let (frame, height, reserve, now) = (composed.frame, composed.height, composed.reservedHeight, composed.time)
        var state = sent ?? SentState()
        let placementName = placement == .belowPanels ? "below-panels" : "screen-edge"
        let fullscreenName = fullscreenPolicy == .show ? "show" : "delay"
        var fields = ShowFields(serial: serial &+ 1, reserve: reserve, placement: placementName, fullscreen: fullscreenName)
        var changed = sent == nil || state.reserve != reserve || state.placement != placementName || state.fullscreen != fullscreenName

        if composed.content != state.content {
            guard image.draw(composed.content, radius: composed.cornerRadius, scale: resources.pixelsPerPoint) else { return false }
            fields.image = image
            state.content = composed.content
            changed = true
        }

        // The image's place: a slide is handed over once, as it starts (Clutter eases it along
        // the core's curve); standing still, its offset once.
        if let slide = controller.runningSlide {
            if state.slideStart != slide.start || sent == nil {
                fields.offset = Double(offset(reveal: frame.reveal, height: height))
                fields.slideTo = Double(offset(reveal: slide.to, height: height))
                fields.slideDuration = max(0, slide.end - now)
                fields.curve = Self.curveName(slide.curve)
                state.slideStart = slide.start
                state.restingOffset = nil
                changed = true
            }
        } else {
            let resting = Double(offset(reveal: frame.reveal, height: height))
            if state.restingOffset != resting || state.slideStart != nil {
                fields.offset = resting
                state.restingOffset = resting
                state.slideStart = nil
                changed = true
            }
        }
        guard changed else { return false }
        state.reserve = reserve
        state.placement = placementName
        state.fullscreen = fullscreenName
        serial = fields.serial
        sent = state
        display.shell.show(monitorName, fields)
        return true
    }

    private func offset(reveal: Double, height: Int) -> Int {
        BannerLayout.placement(bannerHeight: height, reveal: reveal, reservedHeight: height).contentOffset
    }

    private static func curveName(_ curve: EasingCurve) -> String {
        switch curve {
        case .linear: "linear"
        case .easeOut: "ease-out"
        case .easeIn: "ease-in"
        case .easeInOut: "ease-in-out"
        }
    }

    // MARK: The pointer, as the extension reports it

    func pointer(button: String, pressed: Bool, x: Int, y: Int) {
        switch button {
        case "primary": controller.pointerButton(.primary, pressed: pressed, x: x, y: y)
        case "wheel-up": controller.pointerButton(.wheelUp, pressed: true, x: 0, y: 0)
        default: controller.pointerButton(.other, pressed: pressed, x: x, y: y)
        }
    }
}

// MARK: The surface the controller draws on

extension GnomeShellHost: BannerSurface {
    public var compactGeometry: MonitorGeometry {
        MonitorGeometry(x: monitor.x, y: monitor.y, width: monitor.width, height: monitor.height)
    }
    public var lookResources: any LookResources {
        if resources.pixelsPerPoint != display.pixelsPerPoint * monitor.scale || resources.deviceScale != monitor.scale {
            resources = ScaledResources(display: display, deviceScale: monitor.scale)
        }
        return resources
    }
    public func lookWidth(reservedHeight: Int) -> Int { monitor.width }
    /// A frame at 60 Hz, for cross-fades and progress bars (slides are the shell's).
    public var frameSlot: Double { display.pacer.interval }
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { display.withLoadedIcon(appearance) }
    public func frameNeeded() { requestFrame() }
    public func bannerGone() {
        if sent != nil { display.shell.hide(monitorName) }
        sent = nil
        stopFrames()
    }
    /// The next frame at the next slot while a cross-fade or a progress bar moves; while only
    /// a slide runs, which the shell animates itself, none until the slide ends: the owner sleeps
    /// through it.
    public func scheduleFrame(after now: MonotonicTime) {
        if let slide = controller.runningSlide, !controller.animatesBesidesTheSlide, now < slide.end {
            schedule(at: slide.end)
        } else {
            schedule(at: display.pacer.nextFrame(after: now, origin: controller.frameOrigin))
        }
    }
}
