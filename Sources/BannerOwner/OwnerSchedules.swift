// Schedule changes turned into what the display shows, and the replies they owe: presents,
// dismissals, the ends of banners, timeouts re-armed, banners carried to monitors that come.

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
import StartupTrace

extension Owner {
    // MARK: Schedule changes

    /// Carries out `change` on `host`; true when a frame will be drawn for it.
    func apply(_ change: ScheduleChange, on host: Backend.Host) -> Bool {
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
    func userDismissed(_ reason: BannerDismissReason, on host: Backend.Host) {
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

    func endAll(_ change: ScheduleChange, on monitor: String) {
        for (token, reason) in change.ended { end(token, reason: reason, on: monitor) }
    }

    /// One monitor is done with a request. A banner sliding away is done once it is off screen
    /// (and its space given back), so `show --wait` returns when the desktop is whole again.
    func end(_ token: Int, reason: BannerEndReason, on monitor: String) {
        if let host = banners.hosts.first(where: { $0.monitorName == monitor }), host.phase == .dismissing {
            hiding[monitor, default: []].append((token, reason))
        } else {
            finish(token, reason: reason, on: monitor)
        }
    }

    /// The banners that were sliding away on `monitor` are gone (or replaced by a new one).
    func finishHiding(on monitor: String) {
        for (token, reason) in hiding.removeValue(forKey: monitor) ?? [] { finish(token, reason: reason, on: monitor) }
    }

    /// When every monitor is done with a request, its waiting clients learn why.
    func finish(_ token: Int, reason: BannerEndReason, on monitor: String) {
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

    func frameDrawn(on host: Backend.Host) {
        for index in pendingReplies.indices { pendingReplies[index].monitors.remove(host.monitorName) }
        flushPendingReplies(force: false)
        if !pendingReplies.contains(where: { $0.monitors.contains(host.monitorName) }) { host.onFrame = nil }
    }

    func flushPendingReplies(force: Bool) {
        let ready = pendingReplies.filter { force || $0.monitors.isEmpty }
        pendingReplies.removeAll { force || $0.monitors.isEmpty }
        for pending in ready {
            banners.loop.cancel(pending.timer)
            send(pending.response, to: pending.client, closing: pending.close)
        }
        if force { for host in banners.hosts { host.onFrame = nil } }
    }

    func send(_ response: OwnerResponse, to id: Int, closing: Bool) {
        noteRefusal(response)
        connections.send(response, to: id, closing: closing)
    }

    /// One timer for the earliest transient deadline of any monitor.
    func rescheduleTimeouts() {
        timeoutTimer.set(at: schedules.values.compactMap(\.deadline).min()) { [unowned self] in
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
    func monitorsChanged() {
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
    func everyMonitorBanners(at now: MonotonicTime) -> [ScheduledBanner] {
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
    func carry(_ banner: ScheduledBanner, to host: Backend.Host, at now: MonotonicTime) {
        guard let request = requests[banner.token] else { return }
        requests[banner.token]?.monitors.insert(host.monitorName)
        let (change, _) = schedules[host.monitorName, default: BannerSchedule()].show(banner, enqueue: request.enqueue, at: now)
        _ = apply(change, on: host)
    }
}
