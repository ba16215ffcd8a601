// `window-banner monitor`: the original's network banners, driven by the kernel's own view of
// the network and, since a default route is not the internet, by a connectivity source
// (`--connectivity`): NetworkManager's `Connectivity` property over the system bus
// (NetworkManagerSource.swift), or the monitor's own HTTP check (HTTPCheckSource.swift). The
// routes (RouteSource.swift: NetworkPath's rtnetlink monitor) say whether there is a route,
// BannerCore's ConnectivityCheck rules turn route + source into offline / portal / online, its
// ConnectivityBannerPolicy decides which banner shows and when the "Back Online" one goes, and
// the display's owner process shows them (WatcherBanners.swift) — the monitor holds no display
// connection, so its banners queue, replace and report like any `show --id
// window-banner-monitor`, and it ends with the display when the owner says the display went
// away (while a banner of ours is up). One poll loop serves the netlink socket, the bus, the
// check's sockets and timer, the timers, signals, and the owner connection that says when
// someone else took our banner away. Nothing is polled; every deadline is read on the loop's
// clock, so tests drive the monitor on an embedded loop with fake routes and fake banners.
// Start reading at `start()`, then `routeChanged()`.

import BannerCore
import BannerProcess
import BannerRuntime
import Glibc
import NetworkManagerBus
import NetworkPath
import OwnerIPC
import OwnerProtocol
import Reactor

/// The running monitor: the network, the policy, and the banner of ours on screen. Every call
/// happens on the thread that runs `run()`.
package final class NetworkBannerMonitor {
    package enum Banner: String, Sendable {
        case offline, restored, portal
    }

    /// Where connectivity comes from, once `auto` has chosen.
    enum Source {
        /// The route alone.
        case routes
        /// NetworkManager's property, watched on the system bus.
        case networkManager(NetworkManagerWatch, served: EventLoop.Token)
        /// The monitor's own HTTP check.
        case http
    }

    /// The HTTP check in flight: libcurl's sockets and timer, armed before each sleep, and the
    /// monitor's own deadline, which gives up should libcurl's timeouts not.
    struct CheckInFlight {
        var check: HTTPCheck
        /// The loop serving it.
        var served: EventLoop.Token
        var deadline: EventLoop.Token
    }

    /// The `--id` of every banner the monitor shows, so that it only ever replaces or dismisses
    /// its own (the NetworkManager dispatcher script in Resources/ uses the same key).
    package static let bannerID = "window-banner-monitor"

    let loop: EventLoop
    /// Called as the monitor stops (a signal, a failure): the call watcher goes with it.
    package var onStop: (() -> Void)?
    /// Where its events go, one line each: stdout, written at once (a test's own in tests).
    package var output: (String) -> Void = { Terminal.output($0) }
    let requests: [Banner: ShowRequest]
    let banners: any WatcherBanners
    let network: any RouteSource
    var policy: ConnectivityBannerPolicy
    let connectivity: ConnectivitySettings
    var source: Source = .routes
    /// The route as last reported; nil before the first report.
    var route: PathStatus?
    /// The source's last report; nil when it has none (or, for the HTTP check, none since the
    /// route last changed).
    var report: ConnectivityReport?
    /// The last report line printed, so a check that says the same again stays quiet.
    var reportLine: String?
    var checkInFlight: CheckInFlight?
    let nextCheck: LoopTimer
    var onScreen: OnScreen?
    let hideTimer: LoopTimer
    /// Set as the monitor stops: what `run()` returns.
    package private(set) var exitStatus: Int32?

    /// Our banner on screen, listening for its end, so a banner someone else dismissed is not
    /// "restored" later.
    struct OnScreen {
        var banner: Banner
        var shown: any ShownBannerHandle
    }

    /// A monitor on `loop` (the loop's clock decides every deadline), learning routes from
    /// `routes` and showing its banners through `banners`.
    package init(
        requests: [Banner: ShowRequest], hideDelay: Double, connectivity: ConnectivitySettings, routes: any RouteSource,
        banners: any WatcherBanners, loop: EventLoop
    ) {
        self.loop = loop
        nextCheck = LoopTimer(on: loop)
        hideTimer = LoopTimer(on: loop)
        self.requests = requests
        self.banners = banners
        self.connectivity = connectivity
        self.network = routes
        policy = ConnectivityBannerPolicy(hideDelay: hideDelay)
    }

    /// The monitor on the kernel's routes (rtnetlink) and the owner's socket.
    package convenience init(
        requests: [Banner: ShowRequest], hideDelay: Double, connectivity: ConnectivitySettings, owner: OwnerClient, configPath: String?,
        loop: EventLoop
    ) throws(CommandFailure) {
        let routes: PathMonitor
        do {
            routes = try PathMonitor(clock: { [unowned loop] in loop.now })
        } catch {
            throw CommandFailure("cannot watch the network: \(error)", code: ExitStatus.networkMonitorFailed)
        }
        self.init(
            requests: requests, hideDelay: hideDelay, connectivity: connectivity, routes: routes,
            banners: OwnerBanners(owner: owner, configPath: configPath, loop: loop), loop: loop)
    }

    /// Chooses the connectivity source, starts watching the routes and decides once; the loop
    /// does the rest. Throws when an explicit source cannot be had.
    package func start() throws(CommandFailure) {
        let initial = try startSource()
        loop.serve(RouteServing(network) { [unowned self] in networkChanged(to: $0) }) { [unowned self] error in networkFailed(error) }
        route = network.currentStatus
        logRoute(network.currentStatus)
        if let initial { reported(initial) }
        routeChanged()
    }

    /// ``start()``, then serves the network, the source, the hide timer and signals until a
    /// signal or a network failure; returns the exit status.
    package func run() throws(CommandFailure) -> Int32 {
        // A banner request writes to a socket whose owner may be gone; that is an error to
        // handle, not a reason to die.
        signal(SIGPIPE, SIG_IGN)
        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) else {
            throw CommandFailure("cannot set up signal handling", code: ExitStatus.internalError)
        }
        try start()
        loop.watch(fd: signals.readEnd) { [unowned self] in
            if let number = signals.drain().first { stop(status: 0, reason: "stopped (\(Self.signalName(number)))") }
        }
        loop.run { exitStatus != nil }
        return exitStatus ?? 0
    }

    // MARK: Decisions

    /// The route changed (or the monitor started): the HTTP check runs again, or stops while
    /// there is no route; the other sources decide at once.
    func routeChanged() {
        guard case .http = source else { return decide() }
        cancelCheck()
        if route?.isSatisfied == true {
            // The banners stay as they are until the check says what this route leads to.
            startCheck()
        } else {
            report = nil
            reportLine = nil
            decide()
        }
    }

    /// Route and report together say offline, portal or online; the policy says what shows.
    func decide() {
        let state = NetworkConnectivity.judge(routeExists: route?.isSatisfied == true, report: report)
        carryOut(policy.connectivityChanged(to: state, at: loop.now))
    }

    // MARK: Banners

    func carryOut(_ actions: [ConnectivityBannerPolicy.Action]) {
        for action in actions {
            switch action {
            case .presentOffline: show(.offline)
            case .presentRestored: show(.restored)
            case .presentPortal(let signIn): show(.portal, onClick: ["xdg-open", signIn])
            case .dismiss: dismissOurBanner()
            }
        }
        scheduleHide()
    }

    /// The policy's hide deadline, if one is pending, as the loop's only other timer.
    func scheduleHide() {
        hideTimer.set(at: exitStatus == nil ? policy.nextDeadline : nil) { [unowned self] in
            carryOut(policy.advance(to: loop.now))
        }
    }

    /// Shows `banner` in place of ours (same id: a cross-fade when one is visible); a click on
    /// it runs `onClick` in the monitor's environment and directory (the session's user runs
    /// the owner, and so the command). A banner that cannot be shown counts as not on screen,
    /// so the next change tries again.
    func show(_ banner: Banner, onClick: [String]? = nil) {
        guard var request = requests[banner] else { return }
        if let onClick {
            request.onClick = onClick
            request.environment = processEnvironment()
            request.directory = currentDirectory()
        }
        let previous = onScreen?.banner
        // Replacing our own banner is no news: stop listening for its end first.
        forgetOnScreen()
        do throws(CommandFailure) {
            let shown = try banners.show(request) { [unowned self] in bannerEnded(banner, $0) }
            onScreen = OnScreen(banner: banner, shown: shown)
            log("\(banner.rawValue) banner shown")
        } catch {
            Terminal.warning("cannot show the \(banner.rawValue) banner: \(error.message); trying again at the next change")
            policy.bannerWasDismissed()
            // Online again: an offline or portal banner still up must not stay.
            if banner == .restored, sendDismiss(), let previous { log("\(previous.rawValue) banner hidden") }
        }
    }

    /// Takes our banner away, if one is up.
    func dismissOurBanner() {
        let banner = onScreen?.banner
        forgetOnScreen()
        if sendDismiss(), let banner { log("\(banner.rawValue) banner hidden") }
    }

    /// `dismiss --id`: only ours, visible or queued, on every monitor. True when the owner
    /// answered (or none runs, so nothing shows).
    func sendDismiss() -> Bool {
        do throws(CommandFailure) {
            _ = try banners.dismiss(id: Self.bannerID)
            return true
        } catch {
            Terminal.warning("cannot dismiss the banner: \(error.message)")
            return false
        }
    }

    /// Our banner ended without us (another client dismissed or replaced it), or the owner went
    /// away and took it along.
    func bannerEnded(_ banner: Banner, _ ended: BannerEndReason?) {
        onScreen = nil
        policy.bannerWasDismissed()
        scheduleHide()
        switch ended {
        case .dismissed?, .timeout?: log("\(banner.rawValue) banner dismissed by another client")
        case .replaced?: log("\(banner.rawValue) banner replaced by another client")
        case .clicked?, .closed?, .swiped?, .action?, .secondaryAction?:
            log("\(banner.rawValue) banner dismissed by the user (\(ended.map(\.rawValue) ?? ""))")
        case nil: log("\(banner.rawValue) banner gone: the owner exited")
        }
    }

    func forgetOnScreen() {
        onScreen?.shown.close()
        onScreen = nil
    }

    // MARK: Output and ending

    /// Dismisses our banner and ends `run()` with `status`.
    func stop(status: Int32, reason: String?) {
        guard exitStatus == nil else { return }
        cancelCheck()
        dismissOurBanner()
        onStop?()
        if let reason { log(reason) }
        exitStatus = status
        loop.stop()
    }

    /// One event on stdout, written at once: a pipe or the journal sees it as it happens.
    func log(_ event: String) {
        output(Self.timestamp() + " " + event)
    }

    /// Now in UTC as ISO 8601 with milliseconds: `2026-11-22T03:10:00.123Z`.
    package static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        gmtime_r(&now.tv_sec, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
        let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(now.tv_nsec / 1_000_000), 3))"
        return date + "T" + time + "Z"
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}