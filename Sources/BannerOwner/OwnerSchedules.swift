// The owner's routing between its parts: a lane per monitor (MonitorLane: its schedule, its
// banners sliding away, its host), the ledger of requests (RequestLedger) and the replies owed
// until a banner is drawn (ReplyQueue). What a lane reports — a banner on screen, a request done
// with a monitor, the user's dismissal, a frame — goes to the ledger and the clients here;
// timeouts are re-armed, and banners carried to monitors that come.

import BannerCore
import BannerProcess
import BannerRuntime
import MonotonicClock
import OwnerProtocol

extension Owner {
    // MARK: Lanes

    /// The lane of `host`'s monitor, made the first time a banner goes there.
    func lane(for host: Backend.Host) -> MonitorLane<Backend.Host> {
        let name = host.monitorName
        if let lane = lanes[name] { return lane }
        let events = MonitorLane<Backend.Host>.Events(
            presented: { [unowned self] token in ledger.presented(token) },
            ended: { [unowned self] token, reason in finish(token, reason: reason, on: name) },
            userDismissed: { [unowned self] reason in userDismissed(reason, on: name) },
            frameDrawn: { [unowned self] in frameDrawn(on: name) },
            settled: { [unowned self] in updateIdle() },
            log: log)
        let lane = MonitorLane<Backend.Host>(name: name, host: { [unowned self] in banners.hosts.first { $0.monitorName == name } }, events: events)
        lanes[name] = lane
        return lane
    }

    /// The user dismissed the banner on monitor `name` (it is already sliding out): its command
    /// runs, and the request ends with that reason on every monitor where it is the visible
    /// banner, the next queued banner taking its place.
    func userDismissed(_ reason: BannerDismissReason, on name: String) {
        guard let token = lanes[name]?.current?.token else { return }
        if let command = ledger[token]?.commands.command(for: reason), case .failure(let failure) = command.launch() {
            log("the \(reason == .clicked ? "--on-click" : "--action") command did not run: \(failure)")
        }
        if reason == .action, ledger[token]?.show.stopsSharing == true, desktopStopsSharing {
            log(banners.stopScreenSharing() ? "stopping the screen sharing, as the sharing banner's action asked" : "the desktop cannot stop the screen sharing")
        }
        if reason == .clicked, let pids = ledger[token]?.show.raise, !pids.isEmpty {
            let candidates = ProcessAncestry.nearestFirst(pids)
            let raised = banners.raiseWindow(ofProcesses: candidates)
            log(raised ? "raising the window of one of pids \(candidates)" : "no window to raise for pids \(candidates)")
        }
        let now = banners.loop.now
        for lane in Array(lanes.values) where lane.current?.token == token { lane.userDismissed(reason, at: now) }
        rescheduleTimeouts()
        updateIdle()
    }

    /// When every monitor is done with a request, its waiting clients learn why.
    func finish(_ token: Int, reason: BannerEndReason, on monitor: String) {
        guard let request = ledger.finish(token, reason: reason, on: monitor) else { return }
        for waiter in request.waiters {
            connections.wait(waiter, for: nil)
            // A waiter still owed its first reply gets it before the ending.
            replies.sendNow(to: waiter)
            reply(waiter, OwnerResponse(ended: reason), thenClose: true)
        }
    }

    func frameDrawn(on monitor: String) {
        replies.frameDrawn(on: monitor)
        if !replies.waits(for: monitor) { lanes[monitor]?.reportsFrames = false }
    }

    func send(_ response: OwnerResponse, to id: Int, closing: Bool) {
        noteRefusal(response)
        connections.send(response, to: id, closing: closing)
    }

    /// One timer for the earliest transient deadline of any monitor.
    func rescheduleTimeouts() {
        timeoutTimer.set(at: (lanes.values.compactMap(\.deadline) + held.compactMap(\.expiry)).min()) { [unowned self] in
            let now = banners.loop.now
            for lane in Array(lanes.values) { lane.advance(to: now) }
            expireHeld(at: now)
            rescheduleTimeouts()
            updateIdle()
        }
    }

    // MARK: Monitors that come and go

    /// Monitors that went away take their banners and queues with them, except a banner asked
    /// for on that monitor alone (`--monitor NAME`), which moves to the primary monitor rather
    /// than vanish unseen; a monitor that came gets every `--monitor all` banner.
    func monitorsChanged() {
        let present = Set(banners.hosts.map(\.monitorName))
        let now = banners.loop.now
        var moving: [(banner: ScheduledBanner, from: String)] = []
        for (name, lane) in lanes where !present.contains(name) {
            lanes[name] = nil
            // With no monitor left to move to (a compositor's last output unplugged), they end.
            let homeless = lane.close(moving: { [unowned self] banner in
                banners.preferredHost != nil && (ledger[banner.token].map { !$0.everyMonitor && $0.monitors == [name] } ?? false)
            }, at: now)
            for banner in homeless { ledger.remove(monitor: name, from: banner.token) }
            moving += homeless.map { ($0, name) }
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
        replies.keep(monitors: present)
        rescheduleTimeouts()
        updateIdle()
    }

    /// Every `--monitor all` banner showing or queued on some monitor, in the order a monitor
    /// added now shows them: the ones on screen first (a transient one for the time it has
    /// left there), then the queued ones, oldest first.
    func everyMonitorBanners(at now: MonotonicTime) -> [ScheduledBanner] {
        var shown: [Int: ScheduledBanner] = [:]
        var queued: [Int: ScheduledBanner] = [:]
        for lane in lanes.values {
            if let current = lane.currentKeepingTimeLeft(at: now), ledger[current.token]?.everyMonitor == true {
                shown[current.token] = current
            }
            for banner in lane.queue where ledger[banner.token]?.everyMonitor == true { queued[banner.token] = banner }
        }
        let later = queued.filter { shown[$0.key] == nil }
        return shown.sorted { $0.key < $1.key }.map(\.value) + later.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Adds `banner`, already shown elsewhere, to `host`'s schedule as its request asked
    /// (replacing, or queued with `--enqueue`).
    func carry(_ banner: ScheduledBanner, to host: Backend.Host, at now: MonotonicTime) {
        guard let request = ledger[banner.token] else { return }
        ledger.add(monitor: host.monitorName, to: banner.token)
        _ = lane(for: host).show(banner, enqueue: request.enqueue, at: now)
    }
}
