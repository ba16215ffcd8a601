// What the owner's and the monitor's unit tests run on, in the spirit of swift-nio's
// EmbeddedEventLoop: a clock only the test moves, an event loop that never sleeps on it, and a
// display whose monitors are fake surfaces under the runtime's real BannerController (real
// fonts, real layout, real presentation timing, the frames it composes: slides and cross-fades)
// — nothing of a display server. Each fake monitor draws a frame per frame slot while its banner
// moves, as a compositor's frame callbacks would, and records what it drew; its reservation is
// the controller's, as a strut or an exclusive zone would be.

import BannerCore
import BannerRuntime
import Glibc
import MonotonicClock
import Reactor

/// A clock that moves only when the test says so.
public final class TestClock {
    public private(set) var now = MonotonicTime(seconds: 1000)
    public init() {}
    public func move(to time: MonotonicTime) {
        precondition(!(time < now), "a monotonic clock does not go back")
        now = time
    }
    public func advance(by seconds: Double) { move(to: now + seconds) }
}

/// An embedded loop on a test clock, and the ways a test moves it.
public final class EmbeddedLoop {
    public let clock = TestClock()
    public let loop: EventLoop

    public init() {
        loop = EventLoop(embeddedOn: { [clock] in clock.now })
    }

    /// One turn at the current time (timers due, descriptors ready, before-sleep hooks).
    public func turn() { loop.turn() }

    /// Moves the clock by `seconds`: first a turn now (news already on a descriptor is
    /// served before time passes, as a real loop would), then every timer on the way at its own
    /// deadline, in order, with a turn at each; then a turn at the end.
    public func advance(by seconds: Double) {
        let end = clock.now + seconds
        loop.turn()
        while let next = loop.nextDeadline, !(end < next) {
            if clock.now < next { clock.move(to: next) }
            loop.turn()
        }
        clock.move(to: end)
        loop.turn()
    }

    /// Turns — moving the clock to each next deadline, once a turn at the current time armed
    /// nothing sooner — until `condition` holds or `seconds` of the test clock pass; whether it
    /// held.
    @discardableResult
    public func run(for seconds: Double, until condition: () -> Bool) -> Bool {
        let end = clock.now + seconds
        var quietTurns = 0
        while true {
            loop.turn()
            if condition() { return true }
            if let next = loop.nextDeadline, !(end < next), !(clock.now < next) {
                // Due now: the next turn fires it.
                continue
            }
            // Two turns at this time with nothing due: what descriptors had is served.
            quietTurns += 1
            guard quietTurns >= 2 else { continue }
            quietTurns = 0
            guard let next = loop.nextDeadline, !(end < next) else {
                guard clock.now < end else { return condition() }
                clock.move(to: end)
                continue
            }
            clock.move(to: next)
        }
    }
}

/// A display of fake monitors on an embedded loop.
public final class FakeDisplay: BannerBackend {
    public let name: String
    public let loop: EventLoop
    public private(set) var hosts: [FakeMonitor] = []
    public var preferredHost: FakeMonitor? { hosts.first }
    public var onMonitorsChanged: (() -> Void)?
    public var onWarning: (String) -> Void = { _ in }
    public var iconSearchPath = IconSearchPath.processDefault
    public let pixelsPerPoint = 1.0
    public let fonts = FontLibrary(opener: FreeTypeFontOpener())
    public private(set) lazy var icons = IconLibrary(searchPath: iconSearchPath)
    /// Pids whose windows a click raised, in order (``raiseWindow(ofProcesses:)``).
    public private(set) var raised: [[Int32]] = []
    let clock: () -> MonotonicTime
    public let everyMonitorBanner = EveryMonitorBanner()
    private var colours: [String: RGBA] = [:]

    /// `monitors` (names) of `width`×`height` pixels each, drawn on `embedded`'s loop and clock.
    public init(name: String = "fake-0", monitors: [String] = ["FAKE-1"], width: Int = 1280, height: Int = 800, embedded: EmbeddedLoop) {
        self.name = name
        loop = embedded.loop
        clock = { [clock = embedded.clock] in clock.now }
        hosts = monitors.map { FakeMonitor(name: $0, width: width, height: height, display: self) }
    }

    deinit { fonts.closeAll() }

    /// Plugs in a monitor, as RandR or a new output would announce it.
    public func plug(_ monitor: String) {
        hosts.append(FakeMonitor(name: monitor, width: 1280, height: 800, display: self))
        everyMonitorBanner.monitorsAdded([hosts[hosts.count - 1]], among: hosts, model: preferredHost)
        onMonitorsChanged?()
    }

    /// Colours as the Wayland backend names them (X11's names from the runtime's own table).
    public func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA {
        try NamedColours.resolve(colour, remembering: &colours)
    }

    public func runUntilIdle(timeout: Double) -> Bool {
        preconditionFailure("an embedded display is moved by its test")
    }

    public func close() {
        for host in hosts { host.controller.end() }
    }

    public func raiseWindow(ofProcesses pids: [Int32]) -> Bool {
        raised.append(pids)
        return true
    }

    /// What the desktop says of screen sharing (``desktopSays(sharing:)``); nil: nothing, as on
    /// X11 and Wayland.
    public private(set) var desktopSharing: Bool?
    /// How many times the owner asked the desktop to stop every share.
    public private(set) var sharesStopped = 0

    public var onScreenSharingChanged: ((Bool?) -> Void)? {
        didSet { if let desktopSharing { onScreenSharingChanged?(desktopSharing) } }
    }

    /// The desktop itself (as GNOME's extension) says whether the screen is shared; nil: it
    /// cannot tell any more.
    public func desktopSays(sharing: Bool?) {
        desktopSharing = sharing
        onScreenSharingChanged?(sharing)
    }

    public func stopScreenSharing() -> Bool {
        guard desktopSharing != nil else { return false }
        sharesStopped += 1
        return true
    }
}

/// One fake monitor: a BannerController on a surface that records the frames it draws.
public final class FakeMonitor: BannerBackendHost, BannerSurface {
    public let monitorName: String
    public var placement: EdgePlacement = .belowPanels
    public var fullscreenPolicy: FullscreenPolicy = .show
    /// Set by a test: the screen locked (`locked`) or a full-screen window over the banner.
    public var hiddenReason: String?
    public private(set) lazy var controller = BannerController(surface: self, timing: .standard, clock: display.clock)
    /// Every frame drawn, in order.
    public private(set) var frames: [RenderedFrame] = []
    public private(set) var reservedHeight = 0
    let width: Int
    let height: Int
    private unowned let display: FakeDisplay
    private var frameTimer: EventLoop.Token?

    init(name: String, width: Int, height: Int, display: FakeDisplay) {
        monitorName = name
        self.width = width
        self.height = height
        self.display = display
    }

    public var isAnimating: Bool { controller.isAnimating || frameTimer != nil }

    public var presentedHeight: Int? {
        isBannerPresented ? controller.presentedLook?.height : nil
    }

    /// The title of the banner drawn last; nil when none shows.
    public var shownTitle: String? {
        guard controller.phase != .hidden else { return nil }
        return controller.appearance?.title
    }

    // MARK: BannerSurface

    public var compactGeometry: MonitorGeometry { MonitorGeometry(x: 0, y: 0, width: width, height: height) }
    public var lookResources: any LookResources { display }
    public func lookWidth(reservedHeight: Int) -> Int { width }
    public var frameSlot: Double { 1.0 / 60 }
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { appearance }

    public func frameNeeded() {
        guard frameTimer == nil else { return }
        frameTimer = display.loop.at(display.clock() + frameSlot) { [weak self] in
            guard let self else { return }
            frameTimer = nil
            controller.renderFrame(at: display.clock())
        }
    }

    /// Records `frame` as drawn: a surface as tall as the space it reserves (the larger of two
    /// looks during a cross-fade), the banner between the two looks' heights.
    public func draw(_ frame: ComposedFrame) -> RenderedFrame? {
        reservedHeight = frame.reservedHeight
        let drawn = frame.rendered(panelInset: 0)
        frames.append(drawn)
        return drawn
    }

    public func bannerGone() { reservedHeight = 0 }
    public func scheduleFrame(after now: MonotonicTime) { frameNeeded() }
}

/// What a host reported, in the order it did: its frames and its milestones. Every backend's
/// host and the fake are held to the controller's one order (`BannerController.renderFrame`):
/// a frame's `onFrame` before the milestones reached at it.
public final class HostReports {
    public enum Event: Equatable {
        case frame(RenderedFrame)
        case milestone(BannerPresentation.Milestone)
    }

    public private(set) var events: [Event] = []

    /// Listens to `host`'s frames and milestones (replacing its handlers) while it exists; a
    /// host that outlives it hears nothing more through them.
    public init(listeningTo host: some BannerBackendHost) {
        host.onFrame = { [weak self] in self?.events.append(.frame($0)) }
        host.onMilestone = { [weak self] in self?.events.append(.milestone($0)) }
    }

    public var frames: [RenderedFrame] {
        events.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
    }

    public func reached(_ milestone: BannerPresentation.Milestone) -> Bool {
        events.contains(.milestone(milestone))
    }

    /// Where the events break the order, one line each; empty when they keep it: each
    /// `presentationFinished` right after the frame that shows the banner fully down (the frame
    /// first, then the milestone), each `dismissalFinished` after the last frame of the slide
    /// out, with no frame after it until another slide in starts (reveal 0).
    public var orderProblems: [String] {
        var problems: [String] = []
        var gone = false
        for (index, event) in events.enumerated() {
            switch event {
            case .milestone(.presentationFinished):
                guard index > 0, case .frame(let before) = events[index - 1], before.reveal == 1 else {
                    problems.append("event \(index): presentationFinished not right after a frame fully down (before it: \(index > 0 ? "\(events[index - 1])" : "nothing"))")
                    continue
                }
            case .milestone(.dismissalFinished):
                if index == 0 || events[..<index].allSatisfy({ if case .frame = $0 { false } else { true } }) {
                    problems.append("event \(index): dismissalFinished before any frame")
                }
                gone = true
            case .frame(let frame):
                if gone, frame.reveal > 0.5 {
                    problems.append("event \(index): a frame (reveal \(frame.reveal)) after dismissalFinished without a slide in")
                }
                if frame.reveal < 0.5 { gone = false }
            }
        }
        return problems
    }
}

/// The one scenario every backend's host and the fake are held to: a 40-pixel banner slides in,
/// is updated to a 64-pixel one (a cross-fade), and slides out, `serve` running the host's loop
/// until its condition holds (false when it never does). What went against the controller's
/// order and its composition, one line each: the order of ``HostReports/orderProblems``; the
/// fade's frames between the two heights, growing, under a reservation that grows once to the
/// taller height (a Wayland surface reaches it a configure later) and never shrinks.
public func frameOrderProblems(on host: some BannerBackendHost, serve: (() -> Bool) throws -> Bool) throws -> [String] {
    host.compactPolicy = .never
    let reports = HostReports(listeningTo: host)
    try host.presentTopBanner(try TopBannerConfigBuilder().title("Call in progress").height(40).build())
    guard try serve({ reports.reached(.presentationFinished) && !host.isAnimating }), let short = host.presentedHeight else {
        return ["the banner never slid in: \(reports.events)"]
    }
    let fadeStart = reports.events.count
    try host.presentTopBanner(try TopBannerConfigBuilder().title("Call in progress").subtitle("Alex · 02:14").height(64).build())
    guard try serve({ !host.isAnimating && reports.frames.last?.fadeProgress == 1 }), let tall = host.presentedHeight, tall > short else {
        return ["the cross-fade never ended: \(reports.events[fadeStart...])"]
    }
    host.dismissTopBanner()
    guard try serve({ reports.reached(.dismissalFinished) }) else { return ["the banner never slid out"] }

    var problems = reports.orderProblems
    let fade = reports.events[fadeStart...].compactMap { if case .frame(let frame) = $0, frame.reveal == 1 { frame } else { nil } }
    if !fade.contains(where: { $0.fadeProgress > 0 && $0.fadeProgress < 1 }) { problems.append("no frame part-way through the fade") }
    for (index, frame) in fade.enumerated() {
        if !(short...tall).contains(frame.bannerHeight) { problems.append("fade frame \(index): height \(frame.bannerHeight) not between \(short) and \(tall)") }
        if frame.reservedHeight < frame.bannerHeight { problems.append("fade frame \(index): \(frame.bannerHeight) px drawn in \(frame.reservedHeight) reserved") }
        if index > 0 {
            let before = fade[index - 1]
            if frame.bannerHeight < before.bannerHeight { problems.append("fade frame \(index): height shrank from \(before.bannerHeight) to \(frame.bannerHeight)") }
            if frame.reservedHeight < before.reservedHeight { problems.append("fade frame \(index): reservation shrank from \(before.reservedHeight) to \(frame.reservedHeight)") }
        }
    }
    if fade.last?.bannerHeight != tall || fade.last?.reservedHeight != tall {
        problems.append("the fade ended at \(fade.last.map { "\($0.bannerHeight) px in \($0.reservedHeight)" } ?? "no frame"), not \(tall)")
    }
    return problems
}
