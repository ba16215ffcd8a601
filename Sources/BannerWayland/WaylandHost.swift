// One banner on one Wayland output: the presentation state machine, the looks laid out for the
// output's scale, and the layer surface that shows them. The surface is made once per
// presentation, as tall as the banner, with its exclusive zone set then and kept (the
// compositor moves other windows down once, and back once when it goes; a banner of another
// height resizes both in one commit); the banner slides and cross-fades inside it, each frame
// drawn when the compositor asks for one (its frame callback), so nothing runs while nothing
// moves. The sibling of BannerX11's BannerHost.

import BannerCore
import BannerRuntime

/// The banner of one output.
public final class WaylandHost: BannerBackendHost {
    /// The output's name (`HEADLESS-1`, `DP-2`).
    public let monitorName: String
    let output: WaylandOutput
    /// Over full-screen windows (`show`) or under them until they end (`delay`); see `layer`.
    public var fullscreenPolicy: FullscreenPolicy = .show
    /// Regular or compact; compact follows the output's aspect like a monitor's on X11.
    public var compactPolicy: CompactPolicy = .auto
    /// Under the status bars at the output's top edge (the default) or over them; see `layer`.
    public var placement: EdgePlacement = .belowPanels
    /// The compositor hides layer surfaces under its lock screen and says nothing of it.
    public var hiddenReason: String? { nil }
    /// Called after every frame the compositor was given.
    public var onFrame: ((RenderedFrame) -> Void)?
    /// Called when a slide in or out finishes (`dismissalFinished` once the zone is given back).
    public var onMilestone: ((BannerPresentation.Milestone) -> Void)?
    /// Called when the user dismisses the banner (a click, its ✕, an action, a swipe).
    public var onDismiss: ((BannerDismissReason) -> Void)?

    private unowned let display: WaylandDisplay
    private var presentation: BannerPresentation
    private var surface: LayerSurface?
    private var back: BackBuffer?
    /// The glyphs of the banners drawn here, rendered once each.
    private let glyphs = GlyphCache()
    private var drawnContent: DrawnContent?
    private var looks: [TopBannerAppearance: Look] = [:]
    private var looksScale = 0.0
    private var gesture: BannerGesture?
    private var framePending = false
    /// The builder's handlers of the banner presented last: `action` and `secondaryAction`.
    private var actionHandlers: [BannerDismissReason: () -> Void] = [:]

    /// A frame at 60 Hz, the rate compositors' frame callbacks usually come at.
    private static let frameSlot = 1.0 / 60

    init(output: WaylandOutput, display: WaylandDisplay) {
        self.output = output
        self.display = display
        monitorName = output.name ?? "wayland-output"
        presentation = BannerPresentation(timing: display.timing)
        output.onChange = { [weak self] _ in self?.outputChanged() }
    }

    /// The output's mode or scale changed: the banner is laid out again (the compact rule, the
    /// width, the scale), on a surface of the new height if that changed.
    private func outputChanged() {
        looks.removeAll()
        if surface != nil { requestFrame() }
    }

    /// The fonts changed under the banner: it is laid out and drawn again, as on a new scale.
    func fontsChanged() { outputChanged() }

    /// True from `presentTopBanner` until `dismissTopBanner` (also while sliding in).
    public var isBannerPresented: Bool { presentation.isPresented }
    public var phase: BannerPresentation.Phase { presentation.phase }
    /// True while the banner moves: a slide, a cross-fade, a progress bar.
    public var isAnimating: Bool { presentation.isAnimating || framePending }
    /// Whether a banner presented now is drawn in the compact style on this output.
    public var isCompact: Bool { CompactRule.isCompact(geometry, policy: compactPolicy) }
    /// Logical pixels the banner's exclusive zone reserves now; 0 when none is shown.
    public var reservedHeight: Int { surface?.height ?? 0 }

    /// The output's size in its own pixels, as the compact rule reads a monitor.
    private var geometry: MonitorGeometry {
        MonitorGeometry(x: 0, y: 0, width: max(output.pixelWidth, 1), height: max(output.pixelHeight, 1))
    }

    /// Buffer pixels per logical pixel on this output.
    private var scale: Double { surface?.scale ?? Double(output.scale) }

    /// The height in logical pixels of the banner presented here once settled; nil when none is.
    public var presentedHeight: Int? {
        guard isBannerPresented, let appearance = presentation.appearance, let look = try? look(for: effective(appearance)) else { return nil }
        return logical(look.height)
    }

    /// Where the buttons of the banner presented now are, in buffer pixels (tests click them).
    var hitAreas: BannerHitAreas? {
        guard let appearance = presentation.appearance else { return nil }
        return try? look(for: effective(appearance)).hitAreas
    }

    /// Presents (or updates in place) a banner built from the defaults and `config`'s overrides;
    /// the handlers given to its `action(_:handler:)` and `secondaryAction(_:handler:)` are
    /// called when the user clicks those buttons. Throws, leaving what is shown untouched, when
    /// a value cannot be used.
    public func presentTopBanner(config: ((inout TopBannerConfigBuilder) -> Void)? = nil) throws(BannerValueError) {
        var builder = TopBannerConfigBuilder()
        config?(&builder)
        try present(builder.build())
        actionHandlers = builder.actionHandlers
    }

    /// Presents (or updates in place) `appearance`, with no action handlers; presenting the look
    /// already shown changes nothing and returns false. Throws, leaving what is shown untouched,
    /// for a colour or font that cannot be used.
    @discardableResult
    public func presentTopBanner(_ appearance: TopBannerAppearance) throws(BannerValueError) -> Bool {
        let presented = try present(appearance)
        actionHandlers = [:]
        return presented
    }

    @discardableResult
    private func present(_ appearance: TopBannerAppearance) throws(BannerValueError) -> Bool {
        let appearance = display.withLoadedIcon(appearance)
        // Resolve everything up front: a bad colour or font must not disturb the current banner.
        // The variant this monitor shows now is laid out (its text shaped); the other one, which
        // a change of output may switch to under `--compact auto`, only has its colours and
        // fonts checked (with `always` or `never` it is never shown: nothing to open for it).
        let shown = effective(appearance)
        _ = try look(for: shown)
        if compactPolicy == .auto { try display.check(shown == appearance ? appearance.compact : appearance) }
        let start = presentation.animationStart(at: monotonicNow(), frameSlot: Self.frameSlot)
        guard presentation.present(appearance, at: start) else { return false }
        requestFrame()
        return true
    }

    /// Slides the banner out; its zone is given back when it is gone.
    public func dismissTopBanner() {
        gesture = nil
        presentation.dismiss(at: monotonicNow())
        requestFrame()
    }

    /// Does what the user's click would: `action`, `secondaryAction`, `closed`, `clicked`.
    /// False, changing nothing, when no banner is up or it has no such button.
    @discardableResult
    public func activate(_ reason: BannerDismissReason) -> Bool {
        guard presentation.phase == .presenting || presentation.phase == .presented,
              let appearance = presentation.appearance,
              let look = try? look(for: effective(appearance)), look.hitAreas.has(reason) else { return false }
        userDismissed(reason)
        return true
    }

    private func userDismissed(_ reason: BannerDismissReason) {
        let handler = actionHandlers[reason]
        dismissTopBanner()
        handler?()
        onDismiss?(reason)
    }

    /// Ends the presentation at once (output gone, display closing).
    func close() {
        tearDown()
        presentation = BannerPresentation(timing: presentation.timing)
    }

    // MARK: Frames

    /// Asks the surface for a frame (making it first when the presentation starts); the frame is
    /// drawn when the compositor is ready for it.
    private func requestFrame() {
        if surface == nil, presentation.phase != .hidden {
            guard makeSurface() else { return }
        }
        guard let surface else { return }
        framePending = true
        surface.requestFrame { [weak self] canvas in self?.draw(on: canvas) }
    }

    private func makeSurface() -> Bool {
        guard let appearance = presentation.appearance, let look = try? look(for: effective(appearance)) else { return false }
        return makeSurface(height: logical(look.height))
    }

    /// The layer-shell layer the banner's surface goes in. Compositors stack the exclusive
    /// zones of one edge by layer — overlay's nearest the edge, then top's (where status bars
    /// are), then bottom's — so under the bars (`belowPanels`) is the bottom layer, which
    /// full-screen windows cover. At the edge over the bars (`screenEdge`) is the overlay layer,
    /// over full-screen windows too unless `--fullscreen delay`, but only where lockers hide
    /// every other surface (ext-session-lock); elsewhere (sway 1.7, whose swaylock locks with
    /// overlay surfaces an older overlay surface stays over) the top layer, under any locker.
    var layer: LayerSurface.Layer {
        guard placement == .screenEdge else { return .bottom }
        return fullscreenPolicy == .show && display.connection.offersSessionLock ? .overlay : .top
    }

    /// A surface `height` logical pixels tall, with its exclusive zone of that height.
    private func makeSurface(height: Int) -> Bool {
        guard let made = try? LayerSurface(connection: display.connection, output: output, layer: layer, height: height) else {
            return false
        }
        made.onClosed = { [weak self] in self?.close() }
        made.onResize = { [weak self] in
            self?.looks.removeAll()
            self?.requestFrame()
        }
        made.onPointer = { [weak self] event in self?.pointer(event) }
        surface = made
        return true
    }

    private func draw(on canvas: PixmanCanvas) {
        framePending = false
        let now = monotonicNow()
        let milestones = presentation.advance(to: now)
        guard let frame = presentation.frame(at: now), let surface else {
            tearDown()
            for milestone in milestones { onMilestone?(milestone) }
            return
        }
        guard let new = try? look(for: effective(frame.appearance)) else { return }
        let old = frame.fadingFrom.flatMap { try? look(for: effective($0)) }
        let fadeHeight = old.map { Int((Double($0.height) + Double(new.height - $0.height) * frame.fadeProgress).rounded()) } ?? new.height
        let height = min(fadeHeight, canvas.height)
        let content = DrawnContent(
            new: new, old: old, progress: old == nil ? 1 : frame.fadeProgress, width: canvas.width, height: height,
            newBar: frame.progress, oldBar: frame.fadingFrom?.progress)
        if content != drawnContent || back?.width != canvas.width || back?.height != height {
            if back?.width != canvas.width || back?.height != height { back = BackBuffer(width: canvas.width, height: height, glyphs: glyphs) }
            guard let back else { return }
            let radius = old.map { Int((Double($0.cornerRadius) + Double(new.cornerRadius - $0.cornerRadius) * frame.fadeProgress).rounded()) }
                ?? new.cornerRadius
            back.canvas.fill(RGBA(red: 0, green: 0, blue: 0, alpha: 0))
            content.draw(on: back.canvas, scale: looksScale)
            back.canvas.roundBottomCorners(radius: radius)
            drawnContent = content
        }
        let placement = BannerLayout.placement(bannerHeight: height, reveal: frame.reveal, reservedHeight: canvas.height)
        back?.show(on: canvas, y: placement.contentOffset)
        // A banner of another height (an update to a taller one, the compact rule after a mode
        // change) resizes the surface and its zone in one commit — during a cross-fade to the
        // taller of the two — so other windows move once, straight to the new height.
        let wanted = logical(BannerLayout.reservedHeight(settled: new.height, fadingFrom: old?.height))
        if wanted != surface.height {
            surface.resize(height: wanted)
            framePending = true
            surface.requestFrame { [weak self] canvas in self?.draw(on: canvas) }
        } else if presentation.isAnimating {
            framePending = true
            surface.requestFrame { [weak self] canvas in self?.draw(on: canvas) }
        }
        for milestone in milestones { onMilestone?(milestone) }
        onFrame?(RenderedFrame(
            time: now, visibleHeight: placement.visibleHeight, contentOffset: placement.contentOffset,
            bannerHeight: height, reservedHeight: canvas.height, panelInset: 0,
            reveal: frame.reveal, fadeProgress: frame.fadeProgress, progress: frame.progress))
    }

    /// Destroys the surface: the compositor gives the zone back.
    private func tearDown() {
        surface?.destroy()
        surface = nil
        back = nil
        drawnContent = nil
        framePending = false
        gesture = nil
    }

    // MARK: The pointer

    private func pointer(_ event: PointerEvent) {
        guard isBannerPresented, let appearance = presentation.appearance, let look = try? look(for: effective(appearance)) else {
            gesture = nil
            return
        }
        let reason: BannerDismissReason?
        switch event {
        case .button(let code, let pressed, let x, let y):
            // Linux input codes: BTN_LEFT is 0x110.
            let button: PointerButton = code == 0x110 ? .primary : .other
            if pressed {
                guard button != .other else { return }
                var started = BannerGesture(scale: looksScale, bannerHeight: look.height)
                reason = started.press(button, x: Int(x), y: Int(y), on: look.hitAreas)
                gesture = started
            } else {
                reason = gesture?.release(button, x: Int(x), y: Int(y))
            }
        case .scrolled(let vertical, _) where vertical < 0:
            var started = BannerGesture(scale: looksScale, bannerHeight: look.height)
            reason = started.press(.wheelUp, x: 0, y: 0, on: look.hitAreas)
        default:
            return
        }
        guard let reason else { return }
        userDismissed(reason)
    }

    // MARK: Looks, in buffer pixels

    private func effective(_ appearance: TopBannerAppearance) -> TopBannerAppearance {
        CompactRule.effectiveAppearance(appearance, on: geometry, policy: compactPolicy)
    }

    /// A height in buffer pixels as the logical pixels the compositor lays out in.
    private func logical(_ pixels: Int) -> Int {
        Int((Double(pixels) / scale).rounded(.up))
    }

    private func look(for appearance: TopBannerAppearance) throws(BannerValueError) -> Look {
        let pixelsPerPoint = display.pixelsPerPoint * scale
        if pixelsPerPoint != looksScale {
            looks.removeAll()
            looksScale = pixelsPerPoint
        }
        var key = appearance
        if key.progress != nil { key.progress = 0 }
        if let cached = looks[key] { return cached }
        let width = surface.map(\.pixelWidth).flatMap { $0 > 0 ? $0 : nil } ?? max(output.pixelWidth, 1)
        let look = try Look(appearance, bannerWidth: width, resources: ScaledResources(display: display, pixelsPerPoint: pixelsPerPoint))
        if looks.count > 16 { looks.removeAll() }
        looks[key] = look
        return look
    }
}

/// The display's fonts, icons and colours at one output's scale.
private final class ScaledResources: LookResources {
    let display: WaylandDisplay
    let pixelsPerPoint: Double
    var fonts: FontLibrary { display.fonts }
    var icons: IconLibrary { display.icons }

    init(display: WaylandDisplay, pixelsPerPoint: Double) {
        self.display = display
        self.pixelsPerPoint = pixelsPerPoint
    }

    func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA { try display.resolve(colour) }
}
