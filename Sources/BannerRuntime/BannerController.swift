// One banner's life on one monitor, whichever display server draws it: the presentation state
// machine (BannerPresentation), the looks laid out for the monitor (cached per scale and width),
// the user's gesture on the banner, the builder's action handlers, and the callbacks the owner
// hears. Each backend's host holds one and gives it a narrow surface (BannerSurface): the
// monitor as the compact rule reads it, the width and resources looks are laid out with, the
// frame slot, and "a frame is needed"; the host draws what `frame(at:)` says and feeds the
// pointer in. The shared logic once, each backend only what differs (dunst's `output.h` is the
// model). Start reading at `present(_:actions:)`.

import BannerCore
import MonotonicClock

/// What a backend's host gives the ``BannerController`` of its monitor.
public protocol BannerSurface: AnyObject {
    /// The monitor as the compact rule reads it (its size in the pixels banners are drawn in).
    var compactGeometry: MonitorGeometry { get }
    /// The fonts, icons and colours looks are laid out with, at the scale banners are drawn at now.
    var lookResources: any LookResources { get }
    /// The width, in drawn pixels, a banner's text is fitted and centred to, for a banner that
    /// keeps `reservedHeight` px (where side panels stop short of the top, a taller banner may
    /// reach theirs: X11). Asked before a frame is composed, so it is composed once.
    func lookWidth(reservedHeight: Int) -> Int
    /// The length of one frame slot: a presentation starts at the next one.
    var frameSlot: Double { get }
    /// `appearance` with its icon found and read, or without it (reported as a warning).
    func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance
    /// The presentation changed: draw a frame (at the next slot while something moves).
    func frameNeeded()
    /// Draws `frame` and submits it to the display server; the frame as the server was asked to
    /// show it, or nil when nothing is drawn (or nobody listens: ``BannerController/onFrame``
    /// is nil).
    func draw(_ frame: ComposedFrame) -> RenderedFrame?
    /// The banner is gone: release the surface and give its space back.
    func bannerGone()
    /// Something still moves after the frame drawn at `now`: draw the next one at the next slot.
    func scheduleFrame(after now: MonotonicTime)
}

/// The banner of one monitor as the core decides it, for a backend's host to draw.
public final class BannerController {
    /// Regular or compact: re-evaluated for every frame, so changing it re-lays out a visible banner.
    public var compactPolicy: CompactPolicy = .auto {
        didSet { surface.frameNeeded() }
    }
    /// Called after every frame the host drew, before the milestones reached at that frame
    /// (``renderFrame(at:)``).
    public var onFrame: ((RenderedFrame) -> Void)?
    /// Called when a slide in or out finishes: `presentationFinished` once the banner is fully
    /// down, `dismissalFinished` once it is gone and its space given back.
    public var onMilestone: ((BannerPresentation.Milestone) -> Void)?
    /// Called when the user dismisses the banner — a click on it (`clicked`), on its ✕
    /// (`closed`), its action buttons (`action`, `secondaryAction`), the wheel turned up or a
    /// drag upwards over it (`swiped`), or ``activate(_:)`` standing in for one of those — just
    /// after its slide out started, and after the builder's action handler. Calls of
    /// ``dismiss()`` are not reported: the caller knows about those.
    public var onDismiss: ((BannerDismissReason) -> Void)?
    /// Where the animation running now started: frames are paced from here.
    public private(set) var frameOrigin = MonotonicTime(seconds: 0)

    private unowned let surface: any BannerSurface
    /// The clock presentations start and end on (CLOCK_MONOTONIC; a test's own in tests).
    private let clock: () -> MonotonicTime
    private var presentation: BannerPresentation
    private var looks: [TopBannerAppearance: Look] = [:]
    private var looksScale = 0.0
    private var looksWidth = 0
    private var gesture: BannerGesture?
    /// The builder's handlers of the banner presented last: `action` and `secondaryAction`.
    private var actionHandlers: [BannerDismissReason: () -> Void] = [:]

    /// A controller drawing on `surface`, which holds it (and outlives it), on `clock`.
    public init(surface: any BannerSurface, timing: BannerTiming, clock: @escaping () -> MonotonicTime) {
        self.surface = surface
        self.clock = clock
        presentation = BannerPresentation(timing: timing)
    }

    // MARK: The presentation

    /// True from ``present(_:actions:)`` until ``dismiss()`` (also while sliding in).
    public var isBannerPresented: Bool { presentation.isPresented }
    /// Where the presentation stands.
    public var phase: BannerPresentation.Phase { presentation.phase }
    /// True while the banner moves: a slide, a cross-fade, a progress bar.
    public var isAnimating: Bool { presentation.isAnimating }
    /// The slide running now (see ``BannerPresentation/runningSlide``); nil while none runs.
    public var runningSlide: Animation? { presentation.runningSlide }
    /// True while a cross-fade or a progress bar moves (see ``BannerPresentation/animatesBesidesTheSlide``).
    public var animatesBesidesTheSlide: Bool { presentation.animatesBesidesTheSlide }
    /// The banner presented now (or sliding out), as given.
    public var appearance: TopBannerAppearance? { presentation.appearance }

    /// Presents (or updates in place) `appearance`; `actions` are the handlers the builder gave
    /// its buttons. Presenting the look already shown (or on its way in) changes nothing and
    /// returns false. Throws, leaving what is shown and the handlers untouched, when a value
    /// cannot be used. An icon that cannot be found or read is a warning: the banner shows
    /// without it.
    @discardableResult
    public func present(_ appearance: TopBannerAppearance, actions: [BannerDismissReason: () -> Void] = [:]) throws(BannerValueError) -> Bool {
        let appearance = surface.withLoadedIcon(appearance)
        // Resolve everything up front: a bad colour or font must not disturb the current banner.
        // The variant this monitor shows now is laid out (its text shaped); the other one, which
        // a change of monitor may switch to under `--compact auto`, only has its colours and
        // fonts checked (with `always` or `never` it is never shown: nothing to open for it).
        let shown = effective(appearance)
        _ = try look(for: shown)
        if compactPolicy == .auto { try surface.lookResources.check(shown == appearance ? appearance.compact : appearance) }
        actionHandlers = actions
        let start = presentation.animationStart(at: clock(), frameSlot: surface.frameSlot)
        guard presentation.present(appearance, at: start) else { return false }
        frameOrigin = start
        surface.frameNeeded()
        return true
    }

    /// Slides the banner out; the host gives its space back once it is gone.
    public func dismiss() {
        gesture = nil
        let now = clock()
        presentation.dismiss(at: now)
        frameOrigin = now
        surface.frameNeeded()
    }

    /// Does what the user's click would, without a pointer (a keyboard shortcut, an assistive
    /// tool, `window-banner action`): `action` or `secondaryAction` on that button, `closed` on
    /// the ✕, `clicked` on the banner, `swiped`. The banner slides out, the action's handler
    /// runs and ``onDismiss`` hears `reason`. Returns false, changing nothing, when no banner is
    /// presented (or it is already going) or it has no such button.
    @discardableResult
    public func activate(_ reason: BannerDismissReason) -> Bool {
        guard presentation.phase == .presenting || presentation.phase == .presented,
              let look = presentedLook, look.hitAreas.has(reason) else { return false }
        userDismissed(reason)
        return true
    }

    /// Ends the presentation at once (the monitor gone, the display closing): no slide, no
    /// milestone.
    public func end() {
        gesture = nil
        presentation = BannerPresentation(timing: presentation.timing)
    }

    /// The frame at `now`, every backend's way, in this order: the presentation moves on to
    /// `now`; the surface draws the frame composed for it (``compose(_:at:)``), or releases
    /// itself once the banner is gone; while something still moves, it schedules the next
    /// frame; then ``onFrame`` hears the frame drawn, and last ``onMilestone`` hears each
    /// milestone reached on the way (so a handler that presents or dismisses sees the final
    /// frame already drawn, and its own frame request is not overwritten).
    public func renderFrame(at now: MonotonicTime) {
        let milestones = presentation.advance(to: now)
        var drawn: RenderedFrame?
        if let frame = presentation.frame(at: now) {
            // Values were validated when presented (the compact variant's too), so a look fails
            // only if its font went away since: the frame is skipped, the next one tried.
            if let composed = try? compose(frame, at: now) { drawn = surface.draw(composed) }
            if presentation.isAnimating { surface.scheduleFrame(after: now) }
        } else {
            surface.bannerGone()
        }
        if let drawn { onFrame?(drawn) }
        for milestone in milestones { onMilestone?(milestone) }
    }

    /// `frame` composed at `now`: its looks laid out for this monitor at the surface's scale and
    /// at the width the surface gives the frame's reservation (``BannerSurface/lookWidth(reservedHeight:)``:
    /// heights do not depend on the width, so it is known first), with the height, radius,
    /// reservation and placement between them.
    public func compose(_ frame: BannerFrame, at now: MonotonicTime) throws(BannerValueError) -> ComposedFrame {
        let appearance = effective(frame.appearance)
        let fading = frame.fadingFrom.map(effective)
        let reserved = BannerLayout.reservedHeight(settled: height(of: appearance), fadingFrom: fading.map(height(of:)))
        let width = surface.lookWidth(reservedHeight: reserved)
        let new = try look(for: appearance, width: width)
        let old = try fading.map { (look: TopBannerAppearance) throws(BannerValueError) in try self.look(for: look, width: width) }
        return ComposedFrame(time: now, frame: frame, new: new, old: old, width: width)
    }

    /// The height `appearance` is laid out at on this surface now (as its ``Look`` has it).
    private func height(of appearance: TopBannerAppearance) -> Int {
        let resources = surface.lookResources
        return BannerLayout.bannerHeight(appearance, scale: resources.pixelsPerPoint, step: resources.heightStep)
    }

    // MARK: The user's pointer

    /// A button went down or up over the banner at (`x`, `y`), in its own drawn pixels; a
    /// press, drag and release the core's gesture rules call a dismissal slides the banner out.
    public func pointerButton(_ button: PointerButton, pressed: Bool, x: Int, y: Int) {
        guard isBannerPresented, let look = presentedLook else {
            gesture = nil
            return
        }
        let reason: BannerDismissReason?
        if pressed {
            guard button != .other else { return }
            var started = BannerGesture(scale: surface.lookResources.pixelsPerPoint, bannerHeight: look.height)
            reason = started.press(button, x: x, y: y, on: look.hitAreas)
            gesture = started
        } else {
            reason = gesture?.release(button, x: x, y: y)
        }
        guard let reason else { return }
        userDismissed(reason)
    }

    private func userDismissed(_ reason: BannerDismissReason) {
        let handler = actionHandlers[reason]
        dismiss()
        handler?()
        onDismiss?(reason)
    }

    // MARK: Looks

    /// The look presented now (or sliding out) as this monitor shows it, laid out; nil when
    /// none is presented. Its height is what the banner settles at.
    public var presentedLook: Look? {
        presentation.appearance.flatMap { try? look(for: effective($0)) }
    }

    /// `appearance` as this monitor shows it: compact or regular (``compactPolicy``).
    public func effective(_ appearance: TopBannerAppearance) -> TopBannerAppearance {
        CompactRule.effectiveAppearance(appearance, on: surface.compactGeometry, policy: compactPolicy)
    }

    /// Whether a banner presented now is drawn in the compact style on this monitor.
    public var isCompact: Bool { CompactRule.isCompact(surface.compactGeometry, policy: compactPolicy) }

    /// `appearance` laid out at the surface's scale and the width it gives a banner of that
    /// look alone.
    public func look(for appearance: TopBannerAppearance) throws(BannerValueError) -> Look {
        try look(for: appearance, width: surface.lookWidth(reservedHeight: height(of: appearance)))
    }

    /// `appearance` laid out at the surface's scale and `width`: one layout per look (a progress
    /// bar's position is drawn frame by frame, so every progress value shares one), made again
    /// when the scale or the width changes.
    private func look(for appearance: TopBannerAppearance, width: Int) throws(BannerValueError) -> Look {
        let resources = surface.lookResources
        if resources.pixelsPerPoint != looksScale || width != looksWidth {
            forgetLooks()
            looksScale = resources.pixelsPerPoint
            looksWidth = width
        }
        var key = appearance
        if key.progress != nil { key.progress = 0 }
        if let cached = looks[key] { return cached }
        let look = try Look(appearance, bannerWidth: width, resources: resources)
        if looks.count > 16 { looks.removeAll() }
        looks[key] = look
        return look
    }

    /// The looks are laid out again at their next use: the fonts, the monitor or the desktop's
    /// text settings changed under them.
    public func forgetLooks() {
        looks.removeAll()
    }
}

/// The iOS surface of the original (`presentTopBanner`, `dismissTopBanner`,
/// `isBannerPresented`), once for every backend: each host's controller runs it.
extension BannerBackendHost {
    /// Regular or compact: re-evaluated for every frame, so changing it re-lays out a visible banner.
    public var compactPolicy: CompactPolicy {
        get { controller.compactPolicy }
        set { controller.compactPolicy = newValue }
    }
    /// Called after every frame drawn.
    public var onFrame: ((RenderedFrame) -> Void)? {
        get { controller.onFrame }
        set { controller.onFrame = newValue }
    }
    /// Called when a slide in or out finishes (`dismissalFinished` once the space is given back).
    public var onMilestone: ((BannerPresentation.Milestone) -> Void)? {
        get { controller.onMilestone }
        set { controller.onMilestone = newValue }
    }
    /// Called when the user dismisses the banner (see ``BannerController/onDismiss``).
    public var onDismiss: ((BannerDismissReason) -> Void)? {
        get { controller.onDismiss }
        set { controller.onDismiss = newValue }
    }
    /// True from `presentTopBanner` until `dismissTopBanner` (also while sliding in).
    public var isBannerPresented: Bool { controller.isBannerPresented }
    /// Where the presentation stands.
    public var phase: BannerPresentation.Phase { controller.phase }
    /// Whether a banner presented now is drawn in the compact style on this monitor.
    public var isCompact: Bool { controller.isCompact }

    /// Presents (or updates in place) a banner built from the defaults and `config`'s overrides;
    /// the handlers given to its `action(_:handler:)` and `secondaryAction(_:handler:)` are
    /// called when the user clicks those buttons. Throws, leaving whatever is on screen (and
    /// the handlers) untouched, when a value cannot be used.
    public func presentTopBanner(config: ((inout TopBannerConfigBuilder) -> Void)? = nil) throws(BannerValueError) {
        var builder = TopBannerConfigBuilder()
        config?(&builder)
        try controller.present(builder.build(), actions: builder.actionHandlers)
    }

    /// Presents (or updates in place) exactly `appearance`, with no action handlers (`onDismiss`
    /// still hears every dismissal). Presenting the look already shown (or on its way in)
    /// changes nothing, draws no frame and returns false. An icon that cannot be found or read
    /// is reported as a warning, and the banner shows without it.
    @discardableResult
    public func presentTopBanner(_ appearance: TopBannerAppearance) throws(BannerValueError) -> Bool {
        try controller.present(appearance)
    }

    /// Slides the banner out; the reserved space is given back when it is gone.
    public func dismissTopBanner() {
        controller.dismiss()
    }

    /// Does what the user's click would (see ``BannerController/activate(_:)``).
    @discardableResult
    public func activate(_ reason: BannerDismissReason) -> Bool {
        controller.activate(reason)
    }
}
