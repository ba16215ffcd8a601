// The owner process of one display (`window-banner daemon`, started by the first `show`): it
// holds the display connection, so every banner on that display lives in this process, and it
// serves requests from `show`, `dismiss` and `status` on the display's socket, and pushes
// every change of what it shows to `status --follow` subscribers. Its state is split by what
// it is about: a lane per monitor (MonitorLane: the schedule of what shows there, its banners
// sliding away, its host with callbacks bound once), the ledger of requests (RequestLedger:
// tokens, waiters, `--once` keys, stats) and the replies owed until a banner is drawn
// (ReplyQueue, each with its timer); the owner routes requests to them and their reports back
// (OwnerSchedules). The socket's connections are OwnerConnections'; a `show` is made ready by
// ShowPreparation. Generic over the backend, with no display of its own: the tests run it on an
// embedded loop and a fake display. Beside this file: OwnerSubscribers (status, `status
// --follow`, the accessibility view), OwnerStatsAndHandover (stats pages, handover, actions)
// and OwnerLifecycle (idle exit, shutdown), SharingHold (private banners held back while a
// watcher says the screen is shared). Start reading at `handle(_:from:)`.

import Accessibility
import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import CMalloc
import Glibc
import MonotonicClock
import OwnerIPC
import OwnerProtocol
import Reactor
import StartupTrace

/// The owner's limits, the same for every backend.
package enum OwnerLimits {
    /// Connections served at once; more are answered `busy` and closed.
    package static let maximumClients = 256
    /// A connection that sends no complete request within this time is closed.
    package static let requestTimeout = 10.0
    /// A `show` reply waits at most this long for the first frame.
    package static let frameReplyTimeout = 2.0
    /// The shortest keepalive interval a client may ask for.
    package static let minimumKeepalive = 0.05
}

/// The owner of one display, on whichever backend draws there.
package final class Owner<Backend: BannerBackend> {
    package let banners: Backend
    let paths: OwnerPaths
    /// The socket's connections: requests in, answers and keepalives out.
    let connections: OwnerConnections
    let idleExit: Double
    let log: (String) -> Void
    var config = ConfigCache()
    /// Reads forwarded `show` command lines (`show-arguments`): the client's own parser, given.
    var showParser: any ShowArgumentsReader
    /// One lane per monitor a banner went to: its schedule, its banners sliding away, its host.
    var lanes: [String: MonitorLane<Backend.Host>] = [:]
    /// The monitors there were at the last look: one not among them is new.
    var knownMonitors: Set<String>
    /// Every `show` taken and not finished, and what outlives the process (`--once`, stats).
    let ledger: RequestLedger
    /// The replies owed until a banner is drawn.
    lazy var replies = ReplyQueue(loop: banners.loop) { [unowned self] response, client, close in send(response, to: client, closing: close) }
    /// Set by every request: once nothing moves, save the state and trim the heap.
    var settleAfterWork = false
    /// The earliest transient deadline of any monitor.
    lazy var timeoutTimer = LoopTimer(on: banners.loop)
    /// Exiting once idle for `idleExit` seconds.
    lazy var idleTimer = LoopTimer(on: banners.loop)
    package internal(set) var finished = false
    /// `status --follow` clients, and the state they were last sent.
    var subscribers: Set<Int> = []
    var lastPushed: SubscriberView?
    var accessibility: OwnerAccessibility?
    var releasedStartupPages = false
    /// Started by a `show` (`--ready-fd`), whose arguments are its first request: when that
    /// request is refused (a bad value, a broken config file) and nothing else is going on, the
    /// owner ends at once, so that bad input starts nothing that outlives the command.
    package var endsWhenItsFirstRequestIsRefused = false
    var requestsHandled = 0
    var refusedARequest = false
    /// The watchers' connections (`sharing` reports), each with whether it says the screen is
    /// shared now: SharingHold.
    var sharingWatchers: [Int: Bool] = [:]
    /// The private banners held back while the screen is shared, oldest first.
    var held: [HeldBanner] = []

    /// A line on how this owner draws that its first `show` passes on as a warning (GNOME's
    /// Wayland session drawn through Xwayland); nil once told.
    package var notice: String?

    /// The owner of `banners`' display, serving the clients `listener` accepts, on `banners`'
    /// loop (and its clock), reading forwarded `show` command lines with `showArguments`. `stateDirectory` keeps `--once` keys and stats (nil: none kept);
    /// with `joinsAccessibilityBus` false no screen reader hears of its banners (tests).
    package init(
        banners: Backend, paths: OwnerPaths, listener: Int32, idleExit: Double, showArguments: any ShowArgumentsReader,
        stateDirectory: String? = OwnerStateFiles.defaultDirectory(environment: processEnvironment()), joinsAccessibilityBus: Bool = true,
        log: @escaping (String) -> Void
    ) {
        self.banners = banners
        self.paths = paths
        showParser = showArguments
        connections = OwnerConnections(listener: listener, socketPath: paths.socket, loop: banners.loop, log: log)
        self.idleExit = idleExit
        self.log = log
        knownMonitors = Set(banners.hosts.map(\.monitorName))
        ledger = RequestLedger(stateDirectory: stateDirectory)
        for problem in ledger.problems { log(problem) }
        connections.onRequest = { [unowned self] body, id in handle(body, from: id) }
        connections.onClosed = { [unowned self] id, token in clientClosed(id, waitingFor: token) }
        banners.onMonitorsChanged = { [unowned self] in monitorsChanged() }
        // Where the desktop itself says whether the screen is shared (GNOME's extension), it is
        // a watcher too: private banners are held with no monitor running.
        banners.onScreenSharingChanged = { [unowned self] sharing in desktopSaysSharing(sharing) }
        // Once nothing moves on screen after a request: the state files are written (a file
        // sync never delays a frame) and the heap's free pages go back to the system, so an
        // owner that sits idle holds only what it uses.
        banners.loop.beforeSleep { [unowned self] in
            guard settleAfterWork || ledger.hasUnsavedChanges, !banners.hosts.contains(where: \.isAnimating) else { return }
            settleAfterWork = false
            ledger.saveChanges()
            showParser.learn()
            _ = malloc_trim(0)
            // Once, after the first banner: the code and tables only start-up needed (the
            // loader's, the argument parser's, fontconfig's configuration) leave the resident
            // set; what later banners use is mapped again from the page cache as they use it.
            if !releasedStartupPages {
                releasedStartupPages = true
                _ = wb_release_file_pages()
            }
        }
        // Whatever changed in this turn of the loop (a request, a frame milestone, a timeout, a
        // click, the screen locking), subscribers hear it now, once.
        banners.loop.beforeSleep { [unowned self] in pushToSubscribers() }
        // Screen readers hear the same turn's changes, each banner once however many monitors show it.
        if joinsAccessibilityBus {
            accessibility = OwnerAccessibility(loop: banners.loop) { [unowned self] token, reason in activate(token, reason) }
            banners.loop.beforeSleep { [unowned self] in accessibility?.update(accessibleBanners) }
        }
        updateIdle()
    }

    /// The config file the daemon read at start-up: the first `show` naming it needs no second read.
    package func remember(_ startup: OwnerStartupConfig) {
        config.remember(startup.config, at: startup.path, stamp: startup.stamp)
    }

    // MARK: Connections

    func reply(_ id: Int, _ response: OwnerResponse, thenClose: Bool = false) {
        noteRefusal(response)
        connections.reply(id, response, thenClose: thenClose)
    }

    /// A bad value or config file refused: an owner started for that request ends.
    func noteRefusal(_ response: OwnerResponse) {
        if let kind = response.error?.kind, kind == .usage || kind == .config { refusedARequest = true }
    }

    /// The display went away and the process is ending: every client waiting on a banner hears
    /// why in one last frame, so `show --wait` and the network monitor end with 69 as the owner
    /// does (DisplayLoss calls this). `status --follow` hears the owner go, as at any exit, and
    /// waits for the next one.
    package func displayLost(_ reason: String) {
        connections.tellWaiting(OwnerResponse(error: OwnerError(.displayLost, reason)))
    }

    /// A connection closed: nothing waits on it any more.
    func clientClosed(_ id: Int, waitingFor token: Int?) {
        subscribers.remove(id)
        watcherLeft(id)
        if let token { ledger.removeWaiter(id, from: token) }
        replies.drop(client: id)
        updateIdle()
    }

    // MARK: Requests

    func handle(_ body: [UInt8], from id: Int) {
        StartupTrace.mark("request in")
        settleAfterWork = true
        // A request of this version decodes in one pass (reading `v` alone parses the whole
        // body as well); anything else takes the checks below, which say what is wrong with it.
        if case .success(let request) = OwnerProtocol.decode(OwnerRequest.self, from: body), request.v == OwnerProtocol.version {
            return serve(request, from: id)
        }
        guard let version = OwnerProtocol.version(of: body) else {
            reply(id, OwnerResponse(error: OwnerError(.protocol, "not a window-banner request")), thenClose: true)
            return
        }
        guard version == OwnerProtocol.version else {
            let message = "the owner for \(paths.display) (pid \(getpid())) speaks protocol \(OwnerProtocol.version), this client \(version): "
                + "run the same window-banner version, or stop the owner with `window-banner dismiss --all --quit`"
            reply(id, OwnerResponse(error: OwnerError(.version, message)), thenClose: true)
            return
        }
        let request: OwnerRequest
        switch OwnerProtocol.decode(OwnerRequest.self, from: body) {
        case .success(let decoded): request = decoded
        case .failure(let failure):
            reply(id, OwnerResponse(error: OwnerError(.protocol, "bad request: \(failure.reason)")), thenClose: true)
            return
        }
        serve(request, from: id)
    }

    func serve(_ request: OwnerRequest, from id: Int) {
        switch request.message {
        case .show(let show):
            self.show(show, from: id)
        case .showArguments(let forwarded):
            showArguments(forwarded, from: id)
        case .dismiss(let fields):
            reply(id, OwnerResponse(dismissed: dismiss(fields)), thenClose: true)
        case .status:
            reply(id, OwnerResponse(status: status()), thenClose: true)
        case .stats(let page):
            reply(id, statsPage(after: page?.after), thenClose: true)
        case .subscribe(let fields):
            subscribe(id, keepalive: fields.keepalive)
        case .action(let fields):
            switch act(fields) {
            case .success: reply(id, OwnerResponse(dismissed: 1), thenClose: true)
            case .failure(let error): reply(id, OwnerResponse(error: error), thenClose: true)
            }
        case .quit:
            reply(id, OwnerResponse(dismissed: dismiss(DismissRequest(all: true))), thenClose: true)
            shutDown()
        case .handover:
            handOver(to: id)
        case .sharing(let report):
            reportSharing(report, from: id)
        }
        requestsHandled += 1
        if endsWhenItsFirstRequestIsRefused, requestsHandled == 1, refusedARequest, ledger.isEmpty, connections.isEmpty {
            shutDown()
            return
        }
        updateIdle()
    }

    /// `show` as the client typed it: parsed here exactly as the client would parse it (the
    /// same ShowCommand, so the same errors, word for word), then shown. Help requests and
    /// arguments naming another display go back to the client (`redirect`).
    func showArguments(_ forwarded: ShowArgumentsRequest, from id: Int) {
        switch showParser.parse(forwarded.arguments, environment: forwarded.environment, directory: forwarded.directory, display: paths.display) {
        case .request(let show):
            StartupTrace.mark("request parsed")
            self.show(show, from: id, environment: forwarded.environment)
        case .elsewhere:
            reply(id, OwnerResponse(error: OwnerError(.redirect, "parse these arguments yourself")), thenClose: true)
        case .refused(let message):
            reply(id, OwnerResponse(error: OwnerError(.usage, message)), thenClose: true)
        }
    }

    /// `environment`: the client's whole environment when it sent its arguments as typed, kept
    /// for a `handover`. `loadedIcon`: its icon, when decoded in the background.
    func show(
        _ request: ShowRequest, from id: Int, environment: [String: String]? = nil, loadedIcon: Result<BannerIcon, IconProblem>? = nil
    ) {
        // Once per key, ever: shown before, or on its way (visible or queued) now.
        if let once = request.once, ledger.isTaken(once: once) {
            reply(id, OwnerResponse(shown: ShownReply(state: .skipped, monitors: [], wait: request.wait ? true : nil)), thenClose: true)
            return
        }
        let prepared: PreparedShow<Backend.Host>
        let outcome = ShowPreparation.prepare(
            request, config: &config, banners: banners, loadedIcon: loadedIcon, desktopStopsSharing: desktopStopsSharing, log: log
        ) { [unowned self] loaded in
            show(request, from: id, environment: environment, loadedIcon: loaded)
            updateIdle()
        }
        switch outcome {
        case .ready(let ready): prepared = ready
        case .refused(let error): return reply(id, OwnerResponse(error: error), thenClose: true)
        case .loadingIcon: return
        }
        let hosts = prepared.hosts
        var warnings = prepared.warnings
        // A held banner with the same `--id` is replaced, as a visible or queued one is.
        if let key = request.id { endHeld(reason: .replaced) { $0.banner.id == key } }
        var state = RequestState(
            monitors: Set(hosts.map(\.monitorName)), commands: ClickCommands(request),
            key: BannerStats.key(id: request.id, style: request.style), once: request.once, style: request.style, assertive: prepared.assertive,
            everyMonitor: request.monitor == "all", enqueue: request.enqueue,
            show: request, environment: environment ?? request.environment)
        state.isPrivate = prepared.isPrivate
        let token = ledger.open(state)
        let banner = ScheduledBanner(
            token: token, id: request.id, appearance: prepared.appearance, compactPolicy: prepared.compactPolicy,
            placement: prepared.placement, fullscreen: prepared.fullscreen, mode: prepared.mode)
        var keepalive: Double?
        if request.wait {
            ledger.addWaiter(id, to: banner.token)
            keepalive = request.keepalive.map { max(OwnerLimits.minimumKeepalive, $0) }
            connections.wait(id, for: banner.token, keepalive: keepalive)
        }
        let now = banners.loop.now
        var placements: [BannerSchedule.Placement] = []
        var drawing: Set<String> = []
        let holding = prepared.isPrivate && screenIsShared
        if prepared.isPrivate, sharingWatchers.isEmpty { warnings.append(Self.nothingWatchesWarning) }
        if holding { hold(banner, at: now) }
        for host in hosts where !holding {
            let (drawn, placement) = lane(for: host).show(banner, enqueue: request.enqueue, at: now)
            placements.append(placement)
            if drawn { drawing.insert(host.monitorName) }
        }
        let names = hosts.map(\.monitorName)
        let shown: ShownReply
        if holding {
            shown = ShownReply(state: .held, monitors: names, wait: request.wait ? true : nil, keepalive: keepalive)
        } else if placements.contains(.presented) {
            shown = ShownReply(state: .presented, monitors: names, wait: request.wait ? true : nil, keepalive: keepalive)
        } else if placements.contains(.updated) {
            shown = ShownReply(state: .updated, monitors: names, wait: request.wait ? true : nil, keepalive: keepalive)
        } else {
            let position = placements.compactMap { if case .queued(let position) = $0 { position } else { nil } }.max()
            shown = ShownReply(state: .queued, position: position, monitors: names, wait: request.wait ? true : nil, keepalive: keepalive)
        }
        if let notice {
            warnings.insert(notice, at: 0)
            self.notice = nil
        }
        let response = OwnerResponse(shown: shown, warnings: warnings.isEmpty ? nil : warnings)
        if drawing.isEmpty {
            send(response, to: id, closing: !request.wait)
        } else {
            // "Returns once the banner is on screen": answer after each monitor drew a frame.
            replies.add(response, to: id, closing: !request.wait, after: drawing)
        }
        rescheduleTimeouts()
    }

    func dismiss(_ request: DismissRequest) -> Int {
        let names: [String]
        if let monitor = request.monitor {
            guard let hosts = try? banners.hosts(named: monitor) else { return 0 }
            names = hosts.map(\.monitorName)
        } else {
            names = Array(lanes.keys)
        }
        let now = banners.loop.now
        var ended: Set<Int> = []
        for name in names {
            guard let lane = lanes[name] else { continue }
            ended.formUnion(lane.dismiss(id: request.id, all: request.all, at: now))
        }
        ended.formUnion(dismissHeld(request, on: request.monitor == nil ? nil : Set(names)))
        rescheduleTimeouts()
        return ended.count
    }

}


extension OwnerError: Error {}

