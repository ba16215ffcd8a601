// What the owner's and the monitor's unit tests run on, in the spirit of swift-nio's
// EmbeddedEventLoop: a clock only the test moves, an event loop that never sleeps on it, and a
// display whose monitors are fake surfaces under the runtime's real BannerController (real
// fonts, real layout, real presentation timing) — nothing of a display server. Each fake
// monitor draws a frame per frame slot while its banner moves, as a compositor's frame
// callbacks would, and records what it drew; its reservation is the banner's height, as a
// strut or an exclusive zone would be.

import BannerCore
import BannerRuntime
import Glibc
import MonotonicClock

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
    private var everyMonitorBanner = EveryMonitorBanner()
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

    public func presentTopBannerOnEveryMonitor(_ appearance: TopBannerAppearance) throws(BannerValueError) {
        try everyMonitorBanner.present(appearance, on: hosts, check: check)
    }

    public func dismissTopBannerOnEveryMonitor() {
        everyMonitorBanner.dismiss(on: hosts)
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
}

/// One fake monitor: a BannerController on a surface that records the frames it draws.
public final class FakeMonitor: ControlledBannerHost, BannerSurface {
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
        guard isBannerPresented, let appearance = controller.appearance else { return nil }
        return try? controller.look(for: controller.effective(appearance)).height
    }

    /// The title of the banner drawn last; nil when none shows.
    public var shownTitle: String? {
        guard controller.phase != .hidden else { return nil }
        return controller.appearance?.title
    }

    // MARK: BannerSurface

    public var compactGeometry: MonitorGeometry { MonitorGeometry(x: 0, y: 0, width: width, height: height) }
    public var lookResources: any LookResources { display }
    public var lookWidth: Int { width }
    public var frameSlot: Double { 1.0 / 60 }
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { appearance }

    public func frameNeeded() {
        guard frameTimer == nil else { return }
        frameTimer = display.loop.at(display.clock() + frameSlot) { [weak self] in self?.draw() }
    }

    private func draw() {
        frameTimer = nil
        let now = display.clock()
        let milestones = controller.advance(to: now)
        guard let frame = controller.frame(at: now), let look = try? controller.look(for: controller.effective(frame.appearance)) else {
            reservedHeight = 0
            for milestone in milestones { controller.onMilestone?(milestone) }
            return
        }
        reservedHeight = look.height
        let placement = BannerLayout.placement(bannerHeight: look.height, reveal: frame.reveal, reservedHeight: look.height)
        if controller.isAnimating { frameNeeded() }
        let drawn = RenderedFrame(
            time: now, visibleHeight: placement.visibleHeight, contentOffset: placement.contentOffset, bannerHeight: look.height,
            reservedHeight: look.height, panelInset: 0, reveal: frame.reveal, fadeProgress: frame.fadeProgress, progress: frame.progress)
        frames.append(drawn)
        for milestone in milestones { controller.onMilestone?(milestone) }
        controller.onFrame?(drawn)
    }
}
