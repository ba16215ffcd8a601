// One banner on one Wayland output: the layer surface that shows what its BannerController (the
// runtime's, shared with X11: presentation, looks at the output's scale, gestures, actions)
// decides. The surface is made once per presentation, as tall as the banner, and the space it
// needs is reserved once (the compositor moves other windows down once, and back once when it
// goes; a banner of another height resizes both in one commit); the banner slides and
// cross-fades inside it, each frame drawn when the compositor asks for one (its frame
// callback), so nothing runs while nothing moves.
//
// Under the status bars (the default) the banner is a top-layer surface without a zone, on
// screen with its first frame, and the space is held by a `ReservedZone` made once that frame
// is shown, which the banner reaches up over: the windows move out from under a banner already
// there, as on X11. At the screen's edge the banner's own surface reserves its height. The
// sibling of BannerX11's X11Host.

import BannerCore
import BannerPixman
import BannerRuntime
import MonotonicClock

/// The banner of one output.
public final class WaylandHost: BannerBackendHost {
    /// The output's name (`HEADLESS-1`, `DP-2`).
    public let monitorName: String
    let output: WaylandOutput
    /// Over full-screen windows (`show`) or under them until they end (`delay`); see `layer`.
    public var fullscreenPolicy: FullscreenPolicy = .show
    /// Under the status bars at the output's top edge (the default) or over them; see `layer`.
    public var placement: EdgePlacement = .belowPanels
    /// The compositor hides layer surfaces under its lock screen and says nothing of it.
    public var hiddenReason: String? { nil }
    /// The presentation, looks, gestures and actions of this output's banner; its `onFrame` is
    /// called after every frame the compositor was given.
    public private(set) lazy var controller = BannerController(surface: self, timing: display.timing, clock: { [unowned display] in display.loop.now })

    private unowned let display: WaylandDisplay
    private var surface: LayerSurface?
    /// The space a banner under the status bars reserves, from its first frame shown on.
    private var zone: ReservedZone?
    private var back: BackBuffer?
    /// The glyphs of the banners drawn here, rendered once each.
    private let glyphs = GlyphCache()
    private var drawnContent: DrawnContent?
    /// The display's fonts, icons and colours at this output's scale.
    private var resources: ScaledResources<WaylandDisplay>
    private var framePending = false
    /// The canvas of the frame the compositor asked for, while it is drawn.
    private var target: PixmanCanvas?

    init(output: WaylandOutput, display: WaylandDisplay) {
        self.output = output
        self.display = display
        monitorName = output.name ?? "wayland-output"
        resources = ScaledResources(display: display, deviceScale: Double(output.scale))
        output.onChange = { [weak self] _ in self?.outputChanged() }
    }

    /// The output's mode or scale changed: the banner is laid out again (the compact rule, the
    /// width, the scale), on a surface of the new height if that changed.
    private func outputChanged() {
        controller.forgetLooks()
        if surface != nil { requestFrame() }
    }

    /// The fonts changed under the banner: it is laid out and drawn again, as on a new scale.
    func fontsChanged() { outputChanged() }

    /// True while the banner moves: a slide, a cross-fade, a progress bar.
    public var isAnimating: Bool { controller.isAnimating || framePending }
    /// True while a banner under the status bars waits for its first frame to be shown, to
    /// reserve its space (`reserveSpace`).
    var awaitsItsZone: Bool {
        surface.map { !$0.reservesItsHeight && zone == nil && controller.phase != .dismissing } ?? false
    }
    /// Logical pixels the banner's exclusive zone reserves now; 0 when none is shown, or before
    /// the first frame of a banner under the status bars is.
    public var reservedHeight: Int {
        guard let surface else { return 0 }
        return surface.reservesItsHeight ? surface.height : zone?.height ?? 0
    }

    /// The output's size in its own pixels, as the compact rule reads a monitor.
    private var geometry: MonitorGeometry {
        MonitorGeometry(x: 0, y: 0, width: max(output.pixelWidth, 1), height: max(output.pixelHeight, 1))
    }

    /// Buffer pixels per logical pixel on this output.
    private var scale: Double { surface?.scale ?? Double(output.scale) }

    /// The height in logical pixels of the banner presented here once settled; nil when none is.
    public var presentedHeight: Int? {
        guard isBannerPresented, let look = controller.presentedLook else { return nil }
        return logical(look.height)
    }

    /// Where the buttons of the banner presented now are, in buffer pixels (tests click them).
    var hitAreas: BannerHitAreas? {
        controller.presentedLook?.hitAreas
    }

    /// Ends the presentation at once (output gone, display closing).
    func close() {
        tearDown()
        controller.end()
    }

    // MARK: Frames

    /// Asks the surface for a frame (making it first when the presentation starts); the frame is
    /// drawn when the compositor is ready for it.
    private func requestFrame() {
        if surface == nil, controller.phase != .hidden {
            guard makeSurface() else { return }
        }
        guard let surface else { return }
        framePending = true
        surface.requestFrame { [weak self] canvas in self?.frameCallback(on: canvas) }
    }

    private func makeSurface() -> Bool {
        guard let look = controller.presentedLook else { return false }
        return makeSurface(height: logical(look.height))
    }

    /// The layer-shell layer the banner's surface goes in. Compositors stack the exclusive
    /// zones of one edge by layer — overlay's nearest the edge, then top's, bottom's (where
    /// status bars are), background's — and place surfaces without a zone after them all. Under
    /// the bars (`belowPanels`) the banner is a top-layer surface without a zone, over the
    /// background-layer `ReservedZone` that holds its space; full-screen windows cover it. At
    /// the edge over the bars (`screenEdge`) it reserves its own height in the overlay layer,
    /// over full-screen windows too unless `--fullscreen delay`, but only where lockers hide
    /// every other surface (ext-session-lock); elsewhere (sway 1.7, whose swaylock locks with
    /// overlay surfaces an older overlay surface stays over) in the top layer, under any locker.
    var layer: LayerSurface.Layer {
        guard placement == .screenEdge else { return .top }
        return fullscreenPolicy == .show && display.connection.offersSessionLock ? .overlay : .top
    }

    /// A surface `height` logical pixels tall: with its exclusive zone of that height at the
    /// screen's edge; under the bars without one, its space reserved once its first frame shows.
    private func makeSurface(height: Int) -> Bool {
        let reserves = placement == .screenEdge
        guard let made = try? LayerSurface(
            connection: display.connection, output: output, layer: layer, height: height, reservesItsHeight: reserves) else {
            return false
        }
        if !reserves { made.onFrameShown = { [weak self] in self?.reserveSpace() } }
        made.onClosed = { [weak self] in self?.close() }
        made.onResize = { [weak self] in
            self?.controller.forgetLooks()
            self?.requestFrame()
        }
        made.onPointer = { [weak self] event in self?.pointer(event) }
        surface = made
        return true
    }

    /// Reserves the space of a banner under the bars, once its first frame is on screen (the
    /// compositor's frame callback): the zone below every other zone of the edge, and the
    /// banner reaching up over it, in one flush, so the banner does not move; the compositor
    /// then moves the windows under it down. A banner the compositor never shows (under a
    /// full-screen window, a lock screen) reserves nothing until it does, and one already on its
    /// way out nothing at all.
    private func reserveSpace() {
        guard awaitsItsZone, let surface else { return }
        guard let made = try? ReservedZone(connection: display.connection, output: output, height: surface.height) else { return }
        made.onClosed = { [weak self] in self?.close() }
        zone = made
        surface.resize(height: surface.height, overlap: made.height)
    }

    /// The compositor is ready for a frame, on `canvas`: the controller's
    /// ``BannerController/renderFrame(at:)`` draws it there.
    private func frameCallback(on canvas: PixmanCanvas) {
        framePending = false
        target = canvas
        defer { target = nil }
        controller.renderFrame(at: display.loop.now)
    }

    /// Draws `frame` on the canvas the compositor gave, as tall as the surface is now.
    public func draw(_ frame: ComposedFrame) -> RenderedFrame? {
        guard let canvas = target, let surface else { return nil }
        let frame = frame.fitted(toSurfaceHeight: canvas.height)
        let height = frame.height
        if frame.content != drawnContent || back?.width != canvas.width || back?.height != height {
            if back?.width != canvas.width || back?.height != height { back = BackBuffer(width: canvas.width, height: height, glyphs: glyphs) }
            guard let back else { return nil }
            back.canvas.fill(RGBA(red: 0, green: 0, blue: 0, alpha: 0))
            frame.content.draw(on: back.canvas, scale: resources.pixelsPerPoint)
            back.canvas.roundBottomCorners(radius: frame.cornerRadius)
            drawnContent = frame.content
        }
        back?.show(on: canvas, y: frame.placement.contentOffset)
        // A banner of another height (an update to a taller one, the compact rule after a mode
        // change) resizes the surface and its zone in one commit — during a cross-fade to the
        // taller of the two — so other windows move once, straight to the new height.
        let wanted = logical(frame.reservedHeight)
        if wanted != surface.height {
            zone?.resize(height: wanted)
            surface.resize(height: wanted, overlap: zone?.height)
            requestFrame()
        }
        return frame.rendered(panelInset: 0)
    }

    /// Destroys the surface: the compositor gives the zone back.
    private func tearDown() {
        surface?.destroy()
        surface = nil
        zone?.destroy()
        zone = nil
        back = nil
        drawnContent = nil
        framePending = false
    }

    // MARK: The pointer

    private func pointer(_ event: PointerEvent) {
        switch event {
        case .button(let code, let pressed, let x, let y):
            // Linux input codes: BTN_LEFT is 0x110.
            controller.pointerButton(code == 0x110 ? .primary : .other, pressed: pressed, x: Int(x), y: Int(y))
        case .scrolled(let vertical, _) where vertical < 0:
            controller.pointerButton(.wheelUp, pressed: true, x: 0, y: 0)
        default:
            return
        }
    }

    // MARK: Looks, in buffer pixels

    /// A height in buffer pixels as the logical pixels the compositor lays out in.
    private func logical(_ pixels: Int) -> Int {
        Int((Double(pixels) / scale).rounded(.up))
    }
}

// MARK: The surface the controller draws on

extension WaylandHost: BannerSurface {
    public var compactGeometry: MonitorGeometry { geometry }
    public var lookResources: any LookResources {
        if resources.pixelsPerPoint != display.pixelsPerPoint * scale || resources.deviceScale != scale {
            resources = ScaledResources(display: display, deviceScale: scale)
        }
        return resources
    }
    public func lookWidth(reservedHeight: Int) -> Int { surface.map(\.pixelWidth).flatMap { $0 > 0 ? $0 : nil } ?? max(output.pixelWidth, 1) }
    /// A frame at 60 Hz, the rate compositors' frame callbacks usually come at.
    public var frameSlot: Double { 1.0 / 60 }
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { display.withLoadedIcon(appearance) }
    public func frameNeeded() { requestFrame() }
    public func bannerGone() { tearDown() }
    public func scheduleFrame(after now: MonotonicTime) {
        if !framePending { requestFrame() }
    }
}
