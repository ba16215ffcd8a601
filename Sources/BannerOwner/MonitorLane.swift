// One monitor's part of the owner: the schedule of what shows there (BannerSchedule), the
// requests that ended there while their banner still slides away, and the host that draws it.
// Every schedule change is carried out here — a banner presented with its policies, or slid
// out — and the lane reports what the owner routes: a banner on screen, a request done with
// this monitor (once its banner is off the screen and its space given back), the user's
// dismissal, a frame drawn, a slide finished. The host's callbacks are bound once for each host
// the lane sees (a monitor unplugged and plugged in again is a new host); frames are reported
// only while someone waits for one (`reportsFrames`: X11 syncs with the server to report one).

import BannerCore
import BannerRuntime
import MonotonicClock

package final class MonitorLane<Host: BannerBackendHost> {
    /// What the lane tells the owner.
    package struct Events {
        /// The banner of request `token` came on screen here.
        package var presented: (_ token: Int) -> Void
        /// This monitor is done with request `token`, which ended for `reason`.
        package var ended: (_ token: Int, _ reason: BannerEndReason) -> Void
        /// The user dismissed the banner here (it already slides away).
        package var userDismissed: (_ reason: BannerDismissReason) -> Void
        /// A frame was drawn while `reportsFrames` was on.
        package var frameDrawn: () -> Void
        /// A slide finished: the owner may be idle now.
        package var settled: () -> Void
        /// A line for the owner's log.
        package var log: (String) -> Void

        package init(
            presented: @escaping (Int) -> Void, ended: @escaping (Int, BannerEndReason) -> Void,
            userDismissed: @escaping (BannerDismissReason) -> Void, frameDrawn: @escaping () -> Void,
            settled: @escaping () -> Void, log: @escaping (String) -> Void
        ) {
            self.presented = presented
            self.ended = ended
            self.userDismissed = userDismissed
            self.frameDrawn = frameDrawn
            self.settled = settled
            self.log = log
        }
    }

    /// The monitor's name: the lane's key.
    package let name: String
    package private(set) var schedule = BannerSchedule()
    /// Requests that ended here while their banner slides away: they end once it is gone.
    private var hiding: [(token: Int, reason: BannerEndReason)] = []
    private let findHost: () -> Host?
    private let events: Events
    private weak var boundHost: Host?

    /// The lane of monitor `name`, whose host `findHost` finds while the monitor is there.
    package init(name: String, host findHost: @escaping () -> Host?, events: Events) {
        self.name = name
        self.findHost = findHost
        self.events = events
    }

    /// The monitor's host now, its callbacks bound; nil once the monitor is gone.
    package var host: Host? {
        guard let host = findHost() else { return nil }
        if boundHost !== host {
            boundHost = host
            host.onMilestone = { [weak self] milestone in
                guard let self else { return }
                if milestone == .dismissalFinished { finishHiding() }
                events.settled()
            }
            host.onDismiss = { [weak self] reason in self?.events.userDismissed(reason) }
            if reportsFrames { reportFrames(on: host) }
        }
        return host
    }

    /// Whether frames drawn here are reported (`Events.frameDrawn`).
    package var reportsFrames = false {
        didSet {
            guard reportsFrames != oldValue, let host = boundHost else { return }
            if reportsFrames { reportFrames(on: host) } else { host.onFrame = nil }
        }
    }

    private func reportFrames(on host: Host) {
        host.onFrame = { [weak self] _ in self?.events.frameDrawn() }
    }

    // MARK: The schedule

    /// The banner on screen (or sliding in); nil when none.
    package var current: ScheduledBanner? { schedule.current }
    /// The banners waiting, in order.
    package var queue: [ScheduledBanner] { schedule.queue }
    /// When the banner on screen times out; nil when it does not.
    package var deadline: MonotonicTime? { schedule.deadline }
    /// Nothing shows, moves or waits here.
    package var isIdle: Bool { schedule.isIdle }

    /// `banner` shown here (replacing what shows, or queued with `enqueue`); whether a frame is
    /// drawn for it, and where it went.
    package func show(_ banner: ScheduledBanner, enqueue: Bool, at now: MonotonicTime) -> (drawing: Bool, placement: BannerSchedule.Placement) {
        let (change, placement) = schedule.show(banner, enqueue: enqueue, at: now)
        return (carryOut(change), placement)
    }

    /// Dismisses the banner with `id` (nil: the one on screen), or all of them; the tokens ended.
    package func dismiss(id: String?, all: Bool, at now: MonotonicTime) -> [Int] {
        let change = schedule.dismiss(id: id, all: all, at: now)
        _ = carryOut(change)
        return change.ended.map(\.token)
    }

    /// The user dismissed the banner on screen: the next one comes.
    package func userDismissed(_ reason: BannerDismissReason, at now: MonotonicTime) {
        _ = carryOut(schedule.userDismissed(reason, at: now))
    }

    /// Times out what is due at `now`.
    package func advance(to now: MonotonicTime) {
        _ = carryOut(schedule.advance(to: now))
    }

    /// The banner on screen with the time it has left (a transient one), for a copy elsewhere.
    package func currentKeepingTimeLeft(at now: MonotonicTime) -> ScheduledBanner? { schedule.currentKeepingTimeLeft(at: now) }
    /// Seconds the banner on screen has left; nil when it does not time out.
    package func remaining(at now: MonotonicTime) -> Double? { schedule.remaining(at: now) }

    /// Takes the banners `picked` chooses out of this monitor's schedule without ending them
    /// (held back while the screen is shared): the one on screen slides away at once, with the
    /// time it has left, and the next queued one comes.
    package func withdraw(at now: MonotonicTime, where picked: (ScheduledBanner) -> Bool) -> [ScheduledBanner] {
        let (change, taken) = schedule.withdraw(at: now, where: picked)
        _ = carryOut(change)
        return taken
    }

    /// Everything here ends now, whether it still slides or not (the owner shuts down).
    package func endEverything() {
        let change = schedule.clear()
        for (token, reason) in hiding + change.ended { events.ended(token, reason) }
        hiding = []
    }

    /// The monitor went away: the banners on it and queued for it, with those `moves` says go
    /// elsewhere taken out; the rest end here now.
    package func close(moving moves: (ScheduledBanner) -> Bool, at now: MonotonicTime) -> [ScheduledBanner] {
        let onIt = [schedule.currentKeepingTimeLeft(at: now)].compactMap { $0 } + schedule.queue
        let moving = onIt.filter(moves)
        var change = schedule.clear()
        change.ended.removeAll { ended in moving.contains { $0.token == ended.token } }
        for (token, reason) in hiding + change.ended { events.ended(token, reason) }
        hiding = []
        return moving
    }

    // MARK: Carrying out

    /// Carries out `change` on the host; true when a frame will be drawn for it.
    private func carryOut(_ change: ScheduleChange) -> Bool {
        guard let host else {
            // The monitor is gone (its lane closes at the next look): what ended ends now.
            for (token, reason) in change.ended { events.ended(token, reason) }
            return false
        }
        var drawing = false
        switch change.screen {
        case .unchanged:
            break
        case .present(let banner):
            finishHiding()
            events.presented(banner.token)
            host.compactPolicy = banner.compactPolicy
            host.placement = banner.placement
            host.fullscreenPolicy = banner.fullscreen
            do {
                drawing = try host.presentTopBanner(banner.appearance)
            } catch {
                events.log("cannot show on \(name): \(error)")
            }
        case .hide:
            host.dismissTopBanner()
        }
        if drawing { reportsFrames = true }
        // A banner sliding away is done once it is off screen (and its space given back), so
        // `show --wait` returns when the desktop is whole again.
        for (token, reason) in change.ended {
            if host.phase == .dismissing { hiding.append((token, reason)) } else { events.ended(token, reason) }
        }
        return drawing
    }

    /// The banners that were sliding away here are gone (or replaced by a new one).
    private func finishHiding() {
        let done = hiding
        hiding = []
        for (token, reason) in done { events.ended(token, reason) }
    }
}
