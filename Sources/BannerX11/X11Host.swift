// One banner on one monitor: the "UIWindow" of this port. Its BannerController (the runtime's,
// shared with Wayland) runs the presentation, the looks, the gestures and the actions; the host
// is the X11 surface: it owns the two windows (visible banner + reservation dock) and the back
// buffer, creates them when a presentation starts and releases them, in `tearDown`, when it
// ends. The banner sits under the panels other clients reserve at the monitor's top and between
// those they reserve at its sides (X11Display.panels), and its dock reserves the whole banner before the
// first frame and until after the last. It feeds the pointer on its banner to the controller.
// Start reading at `renderFrame`, which turns the core's frame into X requests.

import BannerCore
import BannerRuntime
import CX11
import MonotonicClock

/// The banner of one monitor.
///
/// ```swift
/// let display = try X11Display()
/// let host = display.primaryHost
/// try host.presentTopBanner { config in
///     config.title("Network Connection Lost").backgroundColor(.systemRed).textColor(.white)
/// }
/// display.loop.run(timeout: 3)
/// host.dismissTopBanner()
/// display.runUntilIdle()
/// ```
public final class X11Host: BannerBackendHost {
    /// The RandR monitor name (`screen`, `HDMI-1`, a `--setmonitor` name, or `default`).
    public let monitorName: String
    /// The monitor's rectangle in root coordinates; follows RandR changes.
    public private(set) var monitor: MonitorGeometry
    /// The banner's width in pixels: the monitor's, less the columns side panels take at the
    /// banner's rows (see ``StrutLayout/sideInsets(of:panels:placement:panelInset:bannerHeight:)``).
    /// Its text is fitted and centred to it; followed by a visible banner at its next frame.
    public private(set) var bannerWidth: Int
    public private(set) var isPrimary: Bool
    /// Under the panels at the monitor's top edge (the default) or over them; followed by a
    /// visible banner at its next frame.
    public var placement: EdgePlacement = .belowPanels {
        didSet { if placement != oldValue { requestFrame() } }
    }
    /// Over a focused full-screen window on this monitor (`show`, the default), or held off the
    /// screen until it ends (`delay`).
    public var fullscreenPolicy: FullscreenPolicy = .show {
        didSet { if fullscreenPolicy != oldValue { visibilityRulesChanged() } }
    }

    /// True while a banner presented here is kept off the screen because a full-screen window
    /// has the focus on this monitor and the policy is `delay`.
    public var isWaitingForFullscreen: Bool {
        fullscreenPolicy == .delay && context.fullscreenMonitors.contains(monitorName)
    }

    /// Whether the banner must stay unmapped now: the screen is locked, or it waits for a
    /// full-screen window.
    private var mustHide: Bool { context.screenLock.isLocked || isWaitingForFullscreen }
    /// The presentation, looks, gestures and actions of this monitor's banner. Its `onFrame`
    /// is called after every frame, once the X server has carried it out (a round trip), so
    /// what another client sees on screen at that moment is this frame.
    public private(set) lazy var controller = BannerController(surface: self, timing: timing, clock: { [unowned context] in context.loop.now })

    private unowned let context: X11Display
    private let timing: BannerTiming
    private var bannerWindow: BannerWindow?
    private var reservation: ReservationWindow?
    private var canvas: Canvas?
    /// What this presentation's windows are made of: chosen when it starts (ARGB while a
    /// compositor runs), kept until its windows go.
    private var surface: Surface?
    private var drawnContent: DrawnContent?
    private var nextFrameDue: MonotonicTime?

    init(monitor: Monitor, context: X11Display, timing: BannerTiming) {
        monitorName = monitor.name
        self.monitor = monitor.geometry
        bannerWidth = monitor.geometry.width
        isPrimary = monitor.isPrimary
        self.context = context
        self.timing = timing
    }

    /// Pixels reserved for the banner at the top of this monitor right now (under the panels'
    /// rows, which it reserves again: see ``panelInset``); 0 when none is shown.
    public var reservedHeight: Int { reservation?.reservedHeight ?? 0 }

    /// Rows between the monitor's top edge and the banner shown now: the panels' (or, on a WM
    /// that lays docks out itself, wherever it put the banner's dock); 0 when none is shown, or
    /// it covers them (`screenEdge`).
    public var panelInset: Int { reservation?.bannerInset ?? 0 }

    /// The height in pixels of the banner presented on this monitor once it has settled (what
    /// it slides to, or cross-fades to); nil when none is presented.
    public var presentedHeight: Int? {
        isBannerPresented ? controller.presentedLook?.height : nil
    }

    public var hiddenReason: String? {
        guard isBannerPresented else { return nil }
        return context.screenLock.isLocked ? "locked" : isWaitingForFullscreen ? "fullscreen" : nil
    }

    /// The X window id of the visible banner while it exists (0 otherwise).
    public var bannerWindowID: UInt { bannerWindow?.window ?? 0 }

    /// The title as last drawn (ellipsized to the banner's width, shaped), with the font stack it was
    /// drawn with and its left edge; nil while no banner is drawn.
    var drawnTitle: (text: String, font: FontStack, line: ShapedLine, x: Int)? {
        drawnContent.map { ($0.new.title.text, $0.new.font, $0.new.title, $0.new.titleX) }
    }

    /// Whether the banner shown now is drawn on an ARGB surface (a compositor ran when it was
    /// presented): anti-aliased corners, translucent backgrounds.
    public var drawsWithAlpha: Bool { surface?.hasAlpha ?? false }

    /// The title's baseline as last drawn, in the banner's own pixels.
    var drawnBaseline: Int? { drawnContent?.new.baseline }


    /// Where the icon of the banner as last drawn is, in its own pixels; nil without one.
    var drawnIconFrame: PixelRect? { drawnContent?.new.icon?.frame }

    /// Where the buttons of the banner as last drawn are, in its own pixels (= root pixels on a
    /// monitor at the origin without a left panel, once fully down).
    var drawnHitAreas: BannerHitAreas? { drawnContent?.new.hitAreas }

    // MARK: The user's pointer

    /// True for the window that takes this banner's pointer events.
    func receivesPointer(_ window: Window) -> Bool {
        bannerWindow?.content == window
    }

    /// A button went down or up over the banner at (`x`, `y`), in its own pixels.
    func pointerButton(_ button: PointerButton, pressed: Bool, x: Int, y: Int) {
        controller.pointerButton(button, pressed: pressed, x: x, y: y)
    }

    // MARK: Frames (driven by X11Display's loop)

    /// When this host wants its next frame; nil when nothing moves.
    var frameDeadline: MonotonicTime? { nextFrameDue }

    /// True while anything on this monitor moves: a slide, a cross-fade, a progress bar.
    public var isAnimating: Bool { nextFrameDue != nil }

    func requestFrame() {
        nextFrameDue = context.loop.now
    }

    /// Draws the frame for `now` if one is due (the controller's ``BannerController/renderFrame(at:)``).
    func renderIfDue(at now: MonotonicTime) {
        guard let due = nextFrameDue, !(now < due) else { return }
        nextFrameDue = nil
        controller.renderFrame(at: now)
    }

    /// Draws `frame`: the dock reserving its space first, then the banner's window over it,
    /// fitted between the side panels and under the top ones.
    public func draw(_ frame: ComposedFrame) -> RenderedFrame? {
        // Composed at the width `lookWidth(reservedHeight:)` gave it, between the panels now.
        let (panelInset, sides) = insets(reservedHeight: frame.reservedHeight)
        bannerWidth = frame.content.width
        let height = frame.height

        let surface = self.surface ?? context.connection.surfaceForNewBanner()
        self.surface = surface

        // The space first, whole: the dock is mapped (or replaced) before the banner moves.
        let dock = ReservationWindow.Geometry(monitor: monitor, panelInset: panelInset, height: frame.reservedHeight, sides: sides)
        reserve(dock, surface: surface, background: frame.new.background, cornerRadius: frame.new.cornerRadius)

        // Over the dock: under the panels, unless the WM laid the dock out elsewhere itself.
        let inset = reservation?.bannerInset ?? panelInset
        let area = StrutLayout.bannerArea(on: monitor, panelInset: inset, sides: sides)
        let placement = frame.placement
        let clipsAtEdge = StrutLayout.clipsAtTopEdge(of: area, on: monitor, bannerHeight: height, among: context.hosts.map(\.monitor))
        let radius = frame.cornerRadius

        let banner = ensureBannerWindow(surface: surface, area: area, height: height, placement: placement, clipsAtEdge: clipsAtEdge)
        if frame.content != drawnContent, let canvas {
            canvas.resize(width: bannerWidth, height: height)
            frame.content.draw(on: canvas, scale: context.pixelsPerPoint)
            canvas.roundBottomCorners(radius: radius)
            // Before the windows move: a resized content window is repainted from this buffer.
            canvas.present(to: banner.content)
            drawnContent = frame.content
        }
        // The corners of what the top-level window shows: the visible rows of a clip, else the
        // whole banner (the same shape all through a slide).
        let outline = radius > 0
            ? BannerLayout.roundedBottomShape(
                width: bannerWidth, bannerHeight: height,
                visibleHeight: clipsAtEdge ? placement.visibleHeight : height, radius: radius)
            : nil
        banner.place(on: area, bannerHeight: height, placement: placement, clipsAtEdge: clipsAtEdge, outline: outline)
        guard controller.onFrame != nil else { return nil }
        context.connection.sync()
        return frame.rendered(panelInset: inset)
    }

    /// Makes the dock reserve `geometry`: the first one of a presentation, mapped with its
    /// whole strut; when the reservation changes, a new dock mapped before the old one goes
    /// (WMs that read a strut only when they manage a dock see the new one too).
    private func reserve(_ geometry: ReservationWindow.Geometry, surface: Surface, background: RGBA, cornerRadius: Int) {
        if let reservation, reservation.geometry == geometry {
            reservation.paint(background: background, cornerRadius: cornerRadius)
            return
        }
        let next = ReservationWindow(connection: context.connection, surface: surface, geometry: geometry, background: background, cornerRadius: cornerRadius)
        context.reserved(downTo: next.strut.top)
        next.map()
        reservation?.destroy()
        reservation = next
    }

    /// Creates the banner's window and the back buffer on the first frame of a presentation.
    private func ensureBannerWindow(surface: Surface, area: MonitorGeometry, height: Int, placement: BannerPlacement, clipsAtEdge: Bool) -> BannerWindow {
        if let bannerWindow { return bannerWindow }
        let connection = context.connection
        let banner = BannerWindow(connection: connection, surface: surface, monitor: area, bannerHeight: height, placement: placement, clipsAtEdge: clipsAtEdge)
        banner.isSuppressed = mustHide
        canvas = Canvas(connection: connection, surface: surface, width: bannerWidth, height: height)
        drawnContent = nil
        bannerWindow = banner
        return banner
    }

    /// Releases both windows and the back buffer, zeroing the strut first.
    func tearDown() {
        guard bannerWindow != nil || reservation != nil else { return }
        reservation?.destroy()
        reservation = nil
        bannerWindow?.destroy()
        bannerWindow = nil
        canvas?.release()
        canvas = nil
        surface = nil
        drawnContent = nil
        // Once the host reports the banner hidden, no other client may still find its windows.
        context.connection.sync()
    }

    /// Ends the presentation at once (display closing, monitor gone).
    func close() {
        tearDown()
        controller.end()
        nextFrameDue = nil
    }

    // MARK: Reacting to the desktop

    func monitorChanged(to new: Monitor) {
        guard new.geometry != monitor || new.isPrimary != isPrimary else { return }
        monitor = new.geometry
        isPrimary = new.isPrimary
        controller.forgetLooks()
        requestFrame()
    }

    func scaleChanged() {
        controller.forgetLooks()
        requestFrame()
    }

    /// A window was mapped or restacked above ours: put the banner back on top.
    func raiseAboveOthers() { bannerWindow?.raise() }

    /// The WM mapped, moved or reparented `window`: if it is the dock, see where it is (the
    /// banner follows a dock the WM keeps elsewhere) and return true: the banner may need
    /// raising over it.
    func reservationMoved(_ window: Window) -> Bool {
        guard let reservation, reservation.window == window else { return false }
        if reservation.windowManagerPlacedIt() { drawAtNextSlot() }
        return true
    }

    /// The screen was locked or unlocked, or a full-screen window came or went: the banner is
    /// unmapped while it must hide (its space stays reserved and its presentation goes on) and
    /// comes back at the next frame.
    func visibilityRulesChanged() {
        guard let bannerWindow else { return }
        let hide = mustHide
        guard hide != bannerWindow.isSuppressed else { return }
        bannerWindow.isSuppressed = hide
        if !hide {
            bannerWindow.raise()
            drawAtNextSlot()
        }
    }

    /// The panels at the monitor's top edge or sides changed: a shown banner moves under and
    /// between them.
    func panelsChanged() {
        if bannerWindow != nil { drawAtNextSlot() }
    }

    /// A frame now when nothing moves; while something does, the next paced frame shows the
    /// change (an extra frame would break the 60 fps pacing).
    private func drawAtNextSlot() {
        if nextFrameDue == nil { requestFrame() }
    }

    func owns(_ window: Window) -> Bool {
        window == bannerWindow?.window || window == reservation?.window
    }
}

// MARK: The surface the controller draws on

extension X11Host: BannerSurface {
    public var compactGeometry: MonitorGeometry { monitor }
    public var lookResources: any LookResources { context }
    /// The banner's width between the side panels, for a banner keeping `reservedHeight` px
    /// under the top ones: what its frame is composed at.
    public func lookWidth(reservedHeight: Int) -> Int {
        let (panelInset, sides) = insets(reservedHeight: reservedHeight)
        return StrutLayout.bannerArea(on: monitor, panelInset: panelInset, sides: sides).width
    }

    /// How far under the top panels a banner keeping `reservedHeight` px goes, and how far in
    /// from the side panels it reaches.
    private func insets(reservedHeight: Int) -> (panelInset: Int, sides: SideInsets) {
        let panelInset = StrutLayout.panelInset(of: monitor, panels: context.topPanels, placement: placement, bannerHeight: reservedHeight)
        let sides = StrutLayout.sideInsets(
            of: monitor, panels: context.panels.sidePanels, placement: placement, panelInset: panelInset, bannerHeight: reservedHeight)
        return (panelInset, sides)
    }
    public var frameSlot: Double { context.pacer.interval }
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { context.withLoadedIcon(appearance) }
    public func frameNeeded() { requestFrame() }
    public func bannerGone() { tearDown() }
    public func scheduleFrame(after now: MonotonicTime) {
        nextFrameDue = context.pacer.nextFrame(after: now, origin: controller.frameOrigin)
    }
}
