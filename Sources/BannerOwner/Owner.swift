// The owner process of one display (`window-banner daemon`, started by the first `show`): it
// holds the display connection, so every banner on that display lives in this process, and it
// serves requests from `show`, `dismiss` and `status` on the display's socket, and pushes
// every change of what it shows to `status --follow` subscribers. One `BannerSchedule` per
// monitor decides what shows; this file only turns requests into schedule calls and schedule
// changes into presents, dismissals and replies. The socket's connections are
// OwnerConnections'; a `show` is made ready by ShowPreparation. Generic over the backend, with
// no display of its own: the tests run it on an embedded loop and a fake display.
// Start reading at `handle(_:from:)`.

import Accessibility
import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import CMalloc
import Glibc
import MonotonicClock
import OwnerProtocol
import StartupTrace
import WindowBannerClient

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
    private let paths: OwnerPaths
    /// The socket's connections: requests in, answers and keepalives out.
    private let connections: OwnerConnections
    private let idleExit: Double
    private let log: (String) -> Void
    private var config = ConfigCache()
    private var showParser = ShowParser()
    private var schedules: [String: BannerSchedule] = [:]
    /// The monitors there were at the last look: one not among them is new.
    private var knownMonitors: Set<String>
    private var nextToken = 0
    /// Per `show` token: monitors it is still on (visible or queued), and the clients waiting.
    private var requests: [Int: RequestState] = [:]
    private var pendingReplies: [PendingReply] = []
    /// Set by every request: once nothing moves, save the state and trim the heap.
    private var settleAfterWork = false
    /// `--once` keys shown and per-key stats, kept on disk across restarts.
    private var state: OwnerState
    /// Requests that ended on a monitor whose banner is still sliding away.
    private var hiding: [String: [(token: Int, reason: BannerEndReason)]] = [:]
    private var timeoutTimer: EventLoop.Token?
    private var idleTimer: EventLoop.Token?
    package private(set) var finished = false
    /// `status --follow` clients, and the state they were last sent.
    private var subscribers: Set<Int> = []
    private var lastPushed: SubscriberView?
    private var accessibility: OwnerAccessibility?
    private var releasedStartupPages = false
    /// Started by a `show` (`--ready-fd`), whose arguments are its first request: when that
    /// request is refused (a bad value, a broken config file) and nothing else is going on, the
    /// owner ends at once, so that bad input starts nothing that outlives the command.
    package var endsWhenItsFirstRequestIsRefused = false
    private var requestsHandled = 0
    private var refusedARequest = false

    /// A line on how this owner draws that its first `show` passes on as a warning (GNOME's
    /// Wayland session drawn through Xwayland); nil once told.
    package var notice: String?

    /// The owner of `banners`' display, serving the clients `listener` accepts, on `banners`'
    /// loop (and its clock). `stateDirectory` keeps `--once` keys and stats (nil: none kept);
    /// with `joinsAccessibilityBus` false no screen reader hears of its banners (tests).
    package init(
        banners: Backend, paths: OwnerPaths, listener: Int32, idleExit: Double,
        stateDirectory: String? = OwnerState.defaultDirectory(environment: processEnvironment()), joinsAccessibilityBus: Bool = true,
        log: @escaping (String) -> Void
    ) {
        self.banners = banners
        self.paths = paths
        connections = OwnerConnections(listener: listener, socketPath: paths.socket, loop: banners.loop, log: log)
        self.idleExit = idleExit
        self.log = log
        knownMonitors = Set(banners.hosts.map(\.monitorName))
        state = OwnerState(directory: stateDirectory)
        for problem in state.problems { log(problem) }
        connections.onRequest = { [unowned self] body, id in handle(body, from: id) }
        connections.onClosed = { [unowned self] id, token in clientClosed(id, waitingFor: token) }
        banners.onMonitorsChanged = { [unowned self] in monitorsChanged() }
        // Once nothing moves on screen after a request: the state files are written (a file
        // sync never delays a frame) and the heap's free pages go back to the system, so an
        // owner that sits idle holds only what it uses.
        banners.loop.beforeSleep { [unowned self] in
            guard settleAfterWork || state.hasUnsavedChanges, !banners.hosts.contains(where: \.isAnimating) else { return }
            settleAfterWork = false
            state.saveChanges()
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

    private func reply(_ id: Int, _ response: OwnerResponse, thenClose: Bool = false) {
        noteRefusal(response)
        connections.reply(id, response, thenClose: thenClose)
    }

    /// A bad value or config file refused: an owner started for that request ends.
    private func noteRefusal(_ response: OwnerResponse) {
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
    private func clientClosed(_ id: Int, waitingFor token: Int?) {
        subscribers.remove(id)
        if let token { requests[token]?.waiters.remove(id) }
        pendingReplies.removeAll { $0.client == id }
        updateIdle()
    }

    // MARK: Requests

    private func handle(_ body: [UInt8], from id: Int) {
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

    private func serve(_ request: OwnerRequest, from id: Int) {
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
        }
        requestsHandled += 1
        if endsWhenItsFirstRequestIsRefused, requestsHandled == 1, refusedARequest, requests.isEmpty, connections.isEmpty {
            shutDown()
            return
        }
        updateIdle()
    }

    /// `show` as the client typed it: parsed here exactly as the client would parse it (the
    /// same ShowCommand, so the same errors, word for word), then shown. Help requests and
    /// arguments naming another display go back to the client (`redirect`).
    private func showArguments(_ forwarded: ShowArgumentsRequest, from id: Int) {
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
    private func show(
        _ request: ShowRequest, from id: Int, environment: [String: String]? = nil, loadedIcon: Result<BannerIcon, IconProblem>? = nil
    ) {
        // Once per key, ever: shown before, or on its way (visible or queued) now.
        if let once = request.once, state.wasShown(once: once) || requests.values.contains(where: { $0.once == once }) {
            reply(id, OwnerResponse(shown: ShownReply(state: .skipped, monitors: [], wait: request.wait ? true : nil)), thenClose: true)
            return
        }
        let prepared: PreparedShow<Backend.Host>
        let outcome = ShowPreparation.prepare(request, config: &config, banners: banners, loadedIcon: loadedIcon, log: log) { [unowned self] loaded in
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
        nextToken += 1
        let banner = ScheduledBanner(
            token: nextToken, id: request.id, appearance: prepared.appearance, compactPolicy: prepared.compactPolicy,
            placement: prepared.placement, fullscreen: prepared.fullscreen, mode: prepared.mode)
        requests[banner.token] = RequestState(
            monitors: Set(hosts.map(\.monitorName)), commands: ClickCommands(request),
            key: BannerStats.key(id: request.id, style: request.style), once: request.once, style: request.style, assertive: prepared.assertive,
            everyMonitor: request.monitor == "all", enqueue: request.enqueue,
            show: request, environment: environment ?? request.environment)
        var keepalive: Double?
        if request.wait {
            requests[banner.token]?.waiters.insert(id)
            keepalive = request.keepalive.map { max(OwnerLimits.minimumKeepalive, $0) }
            connections.wait(id, for: banner.token, keepalive: keepalive)
        }
        let now = banners.loop.now
        var placements: [BannerSchedule.Placement] = []
        var drawing: Set<String> = []
        for host in hosts {
            let (change, placement) = schedules[host.monitorName, default: BannerSchedule()].show(banner, enqueue: request.enqueue, at: now)
            placements.append(placement)
            if apply(change, on: host) { drawing.insert(host.monitorName) }
        }
        let names = hosts.map(\.monitorName)
        let shown: ShownReply
        if placements.contains(.presented) {
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
            let timer = banners.loop.after(seconds: OwnerLimits.frameReplyTimeout) { [unowned self] in
                flushPendingReplies(force: true)
            }
            pendingReplies.append(PendingReply(client: id, monitors: drawing, response: response, close: !request.wait, timer: timer))
        }
        rescheduleTimeouts()
    }

    private func dismiss(_ request: DismissRequest) -> Int {
        let names: [String]
        if let monitor = request.monitor {
            guard let hosts = try? banners.hosts(named: monitor) else { return 0 }
            names = hosts.map(\.monitorName)
        } else {
            names = Array(schedules.keys)
        }
        let now = banners.loop.now
        var ended: Set<Int> = []
        for name in names {
            guard var schedule = schedules[name] else { continue }
            let change = schedule.dismiss(id: request.id, all: request.all, at: now)
            schedules[name] = schedule
            ended.formUnion(change.ended.map(\.token))
            if let host = try? banners.host(named: name) { _ = apply(change, on: host) } else { endAll(change, on: name) }
        }
        rescheduleTimeouts()
        return ended.count
    }

    // MARK: Stats and handover

    /// One page of `stats`: the keys after `after`, as many as fit in a frame with room to spare.
    private func statsPage(after: String?) -> OwnerResponse {
        let budget = Frame.maximumLength - 1024
        let (page, more) = state.stats.page(after: after, budget: budget) { key, counts in
            OwnerProtocol.encode([key: counts]).count
        }
        return OwnerResponse(stats: page, more: more)
    }

    /// `handover`: a newer client replaces this owner. It gets every banner (visible ones first,
    /// then each queue in order) as the `show` arguments that bring it back — as many as fit in
    /// a frame, the rest logged — and this owner stops listening at once, so that the client's
    /// next connection starts the new owner, then slides its banners away and exits.
    private func handOver(to id: Int) {
        let now = banners.loop.now
        var visible: [(ScheduledBanner, remaining: Double?, monitor: String)] = []
        var queued: [(ScheduledBanner, monitor: String)] = []
        for host in banners.hosts {
            guard let schedule = schedules[host.monitorName] else { continue }
            if let current = schedule.current { visible.append((current, schedule.remaining(at: now), host.monitorName)) }
            queued += schedule.queue.map { ($0, host.monitorName) }
        }
        // A banner shown on several monitors (`--monitor all`) is one request, described once.
        var seen: Set<Int> = []
        var handed: [ShowArgumentsRequest] = []
        var size = 0
        var left = 0
        let candidates = visible.map { ($0.0, $0.remaining, $0.monitor, false) } + queued.map { ($0.0, nil as Double?, $0.monitor, true) }
        for (banner, remaining, monitor, enqueue) in candidates where seen.insert(banner.token).inserted {
            guard var request = requests[banner.token] else { continue }
            var mode = banner.mode
            // A banner about to time out still comes back, for the shortest time a timeout takes.
            if case .transient = mode, let remaining { mode = .transient(max(remaining, 0.1)) }
            // One that moved off a monitor unplugged since comes back where it is now.
            if (try? banners.hosts(named: request.show.monitor)) == nil { request.show.monitor = monitor }
            let description = Handover.describe(request.show, environment: request.environment, display: paths.display, mode: mode, enqueue: enqueue)
            let cost = OwnerProtocol.encode(description).count
            guard size + cost < Frame.maximumLength - 1024 else {
                left += 1
                continue
            }
            size += cost
            handed.append(description)
        }
        if left > 0 { log("handover: \(left) banner(s) did not fit in the reply and are not handed over") }
        log("handing over \(handed.count) banner(s) to a newer window-banner and exiting")
        connections.stopListening()
        reply(id, OwnerResponse(handover: Handover(banners: handed)), thenClose: true)
        shutDown()
    }

    /// `window-banner action`: clicks the button `request` names on the banner on screen — the
    /// primary monitor's, else the first monitor's that has it — with everything a click brings
    /// (the button's command, `show --wait` told `action` or `secondary-action`, the next queued
    /// banner). An error, changing nothing, when no banner on screen has that button.
    private func act(_ request: ActionRequest) -> Result<Void, OwnerError> {
        let hosts: [Backend.Host]
        if let monitor = request.monitor {
            do {
                hosts = try banners.hosts(named: monitor)
            } catch {
                return .failure(OwnerError(.usage, "\(error)"))
            }
        } else {
            hosts = banners.hosts.filter { $0 === banners.preferredHost } + banners.hosts.filter { $0 !== banners.preferredHost }
        }
        for host in hosts {
            guard let current = schedules[host.monitorName]?.current, request.id == nil || current.id == request.id,
                  let reason = current.appearance.actionButton(labelled: request.label, secondary: request.secondary),
                  host.activate(reason) else { continue }
            return .success(())
        }
        let button = request.label.map { "an action '\($0.printable)'" } ?? (request.secondary ? "a secondary action" : "an action")
        let banner = request.id.map { "no banner with id '\($0.printable)'" } ?? "no banner"
        let place = request.monitor.map { " on \($0.printable)" } ?? ""
        return .failure(OwnerError(.usage, "\(banner) on screen\(place) has \(button)"))
    }

    // MARK: Accessibility

    /// The banners on screen for a screen reader: each request once, from the first monitor
    /// that shows it, one with an `--id` the same banner when replaced; as urgent as its
    /// politeness says.
    private func accessibleBanners() -> [AccessibleBanner] {
        var seen: Set<Int> = []
        return banners.hosts.compactMap { host in
            guard host.isBannerPresented, host.phase != .dismissing, let current = schedules[host.monitorName]?.current,
                  seen.insert(current.token).inserted else { return nil }
            let appearance = current.appearance
            let request = requests[current.token]
            var buttons = [(appearance.actionLabel, BannerDismissReason.action), (appearance.secondaryActionLabel, .secondaryAction)]
                .filter { !$0.0.isEmpty }.map { AccessibleButton(name: $0.0, reason: $0.1) }
            if appearance.closeButton, let accessibility {
                buttons.append(AccessibleButton(name: accessibility.closeButtonName(locale: request?.show.locale), reason: .closed))
            }
            return AccessibleBanner(
                id: current.token, identity: current.id.map { "id \($0)" } ?? "request \(current.token)", title: appearance.title, subtitle: appearance.subtitle,
                assertive: request?.assertive ?? false,
                clickAction: request?.commands.command(for: .clicked) == nil ? nil : .clicked, buttons: buttons)
        }
    }

    /// A screen reader pressed a button (or the banner): the click, on the monitor that shows
    /// request `token` — the primary first — exactly as the pointer would.
    private func activate(_ token: Int, _ reason: BannerDismissReason) -> Bool {
        let hosts = banners.hosts.filter { $0 === banners.preferredHost } + banners.hosts.filter { $0 !== banners.preferredHost }
        return hosts.contains { host in schedules[host.monitorName]?.current?.token == token && host.activate(reason) }
    }

    // MARK: Subscribers

    /// What a subscriber has been told: the status, with each monitor's transient deadline in
    /// place of the remaining time (which changes by itself and is no news).
    private struct SubscriberView: Equatable {
        var status: OwnerStatus
        var deadlines: [String: MonotonicTime]
    }

    private func subscriberView() -> SubscriberView {
        var status = status()
        for index in status.monitors.indices { status.monitors[index].remaining = nil }
        return SubscriberView(status: status, deadlines: schedules.compactMapValues(\.deadline))
    }

    /// `status --follow`: the status now, then (`pushToSubscribers`) at every change, and a
    /// keepalive frame every `keepalive` seconds so the client can tell a stalled owner.
    private func subscribe(_ id: Int, keepalive: Double?) {
        connections.follow(id, keepalive: keepalive.map { max(OwnerLimits.minimumKeepalive, $0) })
        // The first subscriber starts from what it is sent now; later ones may find others
        // still owed a change, which the next push brings to all.
        if subscribers.isEmpty { lastPushed = subscriberView() }
        subscribers.insert(id)
        send(OwnerResponse(status: status()), to: id, closing: false)
    }

    private func pushToSubscribers() {
        guard !subscribers.isEmpty, !finished else { return }
        let view = subscriberView()
        guard view != lastPushed else { return }
        lastPushed = view
        let frame = connections.frame(OwnerResponse(status: status()))
        // The socket's buffer is the subscriber's buffer: one that stops reading until it is
        // full is dropped, never waited for.
        for id in subscribers { connections.push(frame, to: id) }
    }

    private func status() -> OwnerStatus {
        let now = banners.loop.now
        let monitors = banners.hosts.map { host in
            let schedule = schedules[host.monitorName] ?? BannerSchedule()
            let current = schedule.current
            return MonitorStatus(
                monitor: host.monitorName, primary: host === banners.preferredHost, presented: host.isBannerPresented,
                title: current?.appearance.title, subtitle: current.flatMap { $0.appearance.subtitle.isEmpty ? nil : $0.appearance.subtitle },
                id: current?.id, height: host.presentedHeight,
                reserved: host.reservedHeight, compact: current.map { _ in host.isCompact }, mode: current?.mode.name,
                remaining: schedule.remaining(at: now).map { ($0 * 1000).rounded() / 1000 }, queue: schedule.queue.count,
                hidden: host.hiddenReason,
                style: current.flatMap { requests[$0.token]?.style }, progress: current?.appearance.progress,
                actions: current.flatMap { $0.appearance.actionLabels.isEmpty ? nil : $0.appearance.actionLabels })
        }
        return OwnerStatus(pid: Int(getpid()), display: paths.display, monitors: monitors).fitted(within: Frame.maximumLength - 1024)
    }

    // MARK: Schedule changes

    /// Carries out `change` on `host`; true when a frame will be drawn for it.
    private func apply(_ change: ScheduleChange, on host: Backend.Host) -> Bool {
        var drawing = false
        switch change.screen {
        case .unchanged:
            break
        case .present(let banner):
            finishHiding(on: host.monitorName)
            if var request = requests[banner.token], !request.presented {
                request.presented = true
                requests[banner.token] = request
                state.recordImpression(request.key)
                if let once = request.once { state.markShown(once: once) }
            }
            host.compactPolicy = banner.compactPolicy
            host.placement = banner.placement
            host.fullscreenPolicy = banner.fullscreen
            host.onMilestone = { [unowned self] milestone in
                if milestone == .dismissalFinished { finishHiding(on: host.monitorName) }
                updateIdle()
            }
            host.onDismiss = { [unowned self] reason in userDismissed(reason, on: host) }
            do {
                drawing = try host.presentTopBanner(banner.appearance)
            } catch {
                log("cannot show on \(host.monitorName): \(error)")
            }
        case .hide:
            host.dismissTopBanner()
        }
        if drawing {
            host.onFrame = { [unowned self] _ in frameDrawn(on: host) }
        }
        endAll(change, on: host.monitorName)
        return drawing
    }

    /// The user dismissed the banner on `host` (it is already sliding out): its command runs,
    /// and the request ends with that reason on every monitor where it is the visible banner,
    /// the next queued banner taking its place.
    private func userDismissed(_ reason: BannerDismissReason, on host: Backend.Host) {
        guard let token = schedules[host.monitorName]?.current?.token else { return }
        if let command = requests[token]?.commands.command(for: reason), case .failure(let failure) = command.launch() {
            log("the \(reason == .clicked ? "--on-click" : "--action") command did not run: \(failure)")
        }
        if reason == .clicked, let pids = requests[token]?.show.raise, !pids.isEmpty {
            let candidates = ProcessAncestry.nearestFirst(pids)
            let raised = banners.raiseWindow(ofProcesses: candidates)
            log(raised ? "raising the window of one of pids \(candidates)" : "no window to raise for pids \(candidates)")
        }
        let now = banners.loop.now
        for name in Array(schedules.keys) where schedules[name]?.current?.token == token {
            guard var schedule = schedules[name] else { continue }
            let change = schedule.userDismissed(reason, at: now)
            schedules[name] = schedule
            if let other = try? banners.host(named: name) { _ = apply(change, on: other) } else { endAll(change, on: name) }
        }
        rescheduleTimeouts()
        updateIdle()
    }

    private func endAll(_ change: ScheduleChange, on monitor: String) {
        for (token, reason) in change.ended { end(token, reason: reason, on: monitor) }
    }

    /// One monitor is done with a request. A banner sliding away is done once it is off screen
    /// (and its space given back), so `show --wait` returns when the desktop is whole again.
    private func end(_ token: Int, reason: BannerEndReason, on monitor: String) {
        if let host = banners.hosts.first(where: { $0.monitorName == monitor }), host.phase == .dismissing {
            hiding[monitor, default: []].append((token, reason))
        } else {
            finish(token, reason: reason, on: monitor)
        }
    }

    /// The banners that were sliding away on `monitor` are gone (or replaced by a new one).
    private func finishHiding(on monitor: String) {
        for (token, reason) in hiding.removeValue(forKey: monitor) ?? [] { finish(token, reason: reason, on: monitor) }
    }

    /// When every monitor is done with a request, its waiting clients learn why.
    private func finish(_ token: Int, reason: BannerEndReason, on monitor: String) {
        guard var request = requests[token] else { return }
        request.monitors.remove(monitor)
        guard request.monitors.isEmpty else {
            requests[token] = request
            return
        }
        if request.presented { state.recordEnd(request.key, reason: reason) }
        requests[token] = nil
        for waiter in request.waiters {
            connections.wait(waiter, for: nil)
            // A waiter still owed its first reply gets it before the ending.
            if let index = pendingReplies.firstIndex(where: { $0.client == waiter }) {
                let pending = pendingReplies.remove(at: index)
                banners.loop.cancel(pending.timer)
                send(pending.response, to: waiter, closing: false)
            }
            reply(waiter, OwnerResponse(ended: reason), thenClose: true)
        }
    }

    private func frameDrawn(on host: Backend.Host) {
        for index in pendingReplies.indices { pendingReplies[index].monitors.remove(host.monitorName) }
        flushPendingReplies(force: false)
        if !pendingReplies.contains(where: { $0.monitors.contains(host.monitorName) }) { host.onFrame = nil }
    }

    private func flushPendingReplies(force: Bool) {
        let ready = pendingReplies.filter { force || $0.monitors.isEmpty }
        pendingReplies.removeAll { force || $0.monitors.isEmpty }
        for pending in ready {
            banners.loop.cancel(pending.timer)
            send(pending.response, to: pending.client, closing: pending.close)
        }
        if force { for host in banners.hosts { host.onFrame = nil } }
    }

    private func send(_ response: OwnerResponse, to id: Int, closing: Bool) {
        noteRefusal(response)
        connections.send(response, to: id, closing: closing)
    }

    /// One timer for the earliest transient deadline of any monitor.
    private func rescheduleTimeouts() {
        if let timeoutTimer { banners.loop.cancel(timeoutTimer) }
        timeoutTimer = nil
        let deadlines = schedules.values.compactMap(\.deadline)
        guard let earliest = deadlines.min() else { return }
        timeoutTimer = banners.loop.after(seconds: max(0, earliest - banners.loop.now)) { [unowned self] in
            timeoutTimer = nil
            let now = banners.loop.now
            for name in Array(schedules.keys) {
                guard var schedule = schedules[name] else { continue }
                let change = schedule.advance(to: now)
                schedules[name] = schedule
                if let host = try? banners.host(named: name) { _ = apply(change, on: host) } else { endAll(change, on: name) }
            }
            rescheduleTimeouts()
            updateIdle()
        }
    }

    /// Monitors that went away take their banners and queues with them, except a banner asked
    /// for on that monitor alone (`--monitor NAME`), which moves to the primary monitor rather
    /// than vanish unseen; a monitor that came gets every `--monitor all` banner.
    private func monitorsChanged() {
        let present = Set(banners.hosts.map(\.monitorName))
        let now = banners.loop.now
        var moving: [(banner: ScheduledBanner, from: String)] = []
        for name in Array(schedules.keys) where !present.contains(name) {
            guard var schedule = schedules.removeValue(forKey: name) else { continue }
            let onIt = [schedule.currentKeepingTimeLeft(at: now)].compactMap { $0 } + schedule.queue
            var change = schedule.clear()
            // With no monitor left to move to (a compositor's last output unplugged), they end.
            let homeless = banners.preferredHost == nil ? []
                : onIt.filter { requests[$0.token].map { !$0.everyMonitor && $0.monitors == [name] } ?? false }
            change.ended.removeAll { ended in homeless.contains { $0.token == ended.token } }
            for banner in homeless { requests[banner.token]?.monitors.remove(name) }
            moving += homeless.map { ($0, name) }
            endAll(change, on: name)
            finishHiding(on: name)
        }
        for (banner, name) in moving {
            guard let primary = banners.preferredHost else { continue }
            log("monitor \(name) is gone: \(banner.id.map { "banner \($0)" } ?? "the banner \"\(banner.appearance.title)\"") moves to the primary monitor \(primary.monitorName)")
            carry(banner, to: primary, at: now)
        }
        for host in banners.hosts where !knownMonitors.contains(host.monitorName) {
            for banner in everyMonitorBanners(at: now) { carry(banner, to: host, at: now) }
        }
        knownMonitors = present
        for index in pendingReplies.indices { pendingReplies[index].monitors.formIntersection(present) }
        flushPendingReplies(force: false)
        rescheduleTimeouts()
        updateIdle()
    }

    /// Every `--monitor all` banner showing or queued on some monitor, in the order a monitor
    /// added now shows them: the ones on screen first (a transient one for the time it has
    /// left there), then the queued ones, oldest first.
    private func everyMonitorBanners(at now: MonotonicTime) -> [ScheduledBanner] {
        var shown: [Int: ScheduledBanner] = [:]
        var queued: [Int: ScheduledBanner] = [:]
        for schedule in schedules.values {
            if let current = schedule.currentKeepingTimeLeft(at: now), requests[current.token]?.everyMonitor == true {
                shown[current.token] = current
            }
            for banner in schedule.queue where requests[banner.token]?.everyMonitor == true { queued[banner.token] = banner }
        }
        let later = queued.filter { shown[$0.key] == nil }
        return shown.sorted { $0.key < $1.key }.map(\.value) + later.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Adds `banner`, already shown elsewhere, to `host`'s schedule as its request asked
    /// (replacing, or queued with `--enqueue`).
    private func carry(_ banner: ScheduledBanner, to host: Backend.Host, at now: MonotonicTime) {
        guard let request = requests[banner.token] else { return }
        requests[banner.token]?.monitors.insert(host.monitorName)
        let (change, _) = schedules[host.monitorName, default: BannerSchedule()].show(banner, enqueue: request.enqueue, at: now)
        _ = apply(change, on: host)
    }

    // MARK: Idle exit and shutdown

    /// No banner showing or moving, none queued, and nobody waiting.
    private var isIdle: Bool {
        schedules.values.allSatisfy(\.isIdle) && banners.hosts.allSatisfy { $0.phase == .hidden }
            && pendingReplies.isEmpty && requests.values.allSatisfy(\.waiters.isEmpty)
    }

    private func updateIdle() {
        guard idleExit > 0, !finished else { return }
        if isIdle {
            guard idleTimer == nil else { return }
            idleTimer = banners.loop.after(seconds: idleExit) { [unowned self] in
                idleTimer = nil
                // A client may have connected just now: serve it before deciding.
                connections.accept()
                if isIdle {
                    log("idle for \(BannerFont.format(idleExit)) s: exiting")
                    shutDown()
                }
            }
        } else if let idleTimer {
            banners.loop.cancel(idleTimer)
            self.idleTimer = nil
        }
    }

    /// Stops listening, ends every banner (waiting clients hear `dismissed`), slides them away
    /// and lets `run` return.
    package func shutDown() {
        guard !finished else { return }
        finished = true
        connections.stopListening()
        for name in Array(schedules.keys) {
            guard var schedule = schedules[name] else { continue }
            let change = schedule.clear()
            schedules[name] = schedule
            endAll(change, on: name)
        }
        for name in Array(hiding.keys) { finishHiding(on: name) }
        for id in connections.ids { connections.drop(id) }
        for host in banners.hosts where host.phase != .hidden { host.dismissTopBanner() }
        state.saveChanges()
        banners.loop.stop()
    }

    private struct RequestState {
        var monitors: Set<String>
        var commands: ClickCommands
        /// What the stats count it under.
        var key: String
        var once: String?
        /// The `--style` it was shown with, for `status`.
        var style: String?
        /// Spoken by a screen reader at once (`--politeness`, the style's, the built-in default).
        var assertive: Bool
        /// Asked for on every monitor (`--monitor all`): a monitor added while it shows gets it.
        var everyMonitor: Bool
        /// Asked for with `--enqueue`: wherever it goes later, it waits behind what shows there.
        var enqueue: Bool
        /// On screen at least once (counted as an impression).
        var presented = false
        var waiters: Set<Int> = []
        /// The request as received, and the client's environment: what a `handover` describes.
        var show: ShowRequest
        var environment: [String: String]?
    }

    private struct PendingReply {
        var client: Int
        var monitors: Set<String>
        var response: OwnerResponse
        var close: Bool
        var timer: EventLoop.Token
    }
}

extension OwnerError: Error {}

