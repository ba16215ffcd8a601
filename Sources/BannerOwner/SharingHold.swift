// Private banners held back while the screen is shared (issue 55). A watcher — `window-banner
// monitor`, or GNOME's extension — reports on a connection it keeps open whether the screen is
// shared (`sharing`). While one says so, a private banner (`show --private`, a style's
// `private = true`) is held here instead of going to a monitor's schedule, and those already on
// screen or queued are taken out of theirs (one on screen slides away at once, not ended). When
// no watcher says the screen is shared any more — each said sharing ended, or its connection
// closed — the held banners come back, oldest first, each behind what shows then (as with
// `--enqueue`). A transient banner's timeout counts from when it first came on screen and keeps
// running while it is held: one that times out meanwhile ends then (`timeout`), never shown
// again; one never shown gets its whole timeout once it shows. With no watcher at all a private
// banner shows, with a warning. Start reading at `reportSharing(_:from:)`.

import BannerCore
import MonotonicClock
import OwnerProtocol

/// A private banner held back while the screen is shared.
struct HeldBanner {
    /// The banner as it comes back (a transient one taken off the screen: with the time it had left).
    var banner: ScheduledBanner
    /// When it times out, held or not: for a transient banner that was on screen (its timeout
    /// runs from its first showing); nil for a sticky one, or one not shown yet.
    var expiry: MonotonicTime?

    var token: Int { banner.token }
}

extension Owner {
    /// The warning of a private `show` when no watcher reports screen sharing.
    static var nothingWatchesWarning: String {
        "nothing watches for screen sharing (run window-banner monitor --sharing); showing the private banner"
    }

    /// Some watcher says the screen is shared now.
    var screenIsShared: Bool { sharingWatchers.values.contains(true) }

    /// A watcher's report on connection `id`, which stays open (its close is the watcher
    /// gone): the first to say the screen is shared takes every private banner off the
    /// screens, the last to say it ended brings them back. Answered with how many are held.
    func reportSharing(_ report: SharingReport, from id: Int) {
        let wasShared = screenIsShared
        sharingWatchers[id] = report.sharing
        sharingChanged(from: wasShared)
        reply(id, OwnerResponse(held: held.count))
    }

    /// The watcher id of the desktop itself (GNOME's extension), which is no client connection.
    static var desktopWatcher: Int { -1 }

    /// Whether the desktop can stop a share (it says whether the screen is shared): the
    /// sharing banner's "Stop sharing" is offered there.
    var desktopStopsSharing: Bool { sharingWatchers[Self.desktopWatcher] != nil }

    /// What the desktop itself says of sharing (GNOME's extension); nil: it cannot tell any more.
    func desktopSaysSharing(_ sharing: Bool?) {
        guard let sharing else {
            watcherLeft(Self.desktopWatcher)
            return
        }
        let wasShared = screenIsShared
        sharingWatchers[Self.desktopWatcher] = sharing
        sharingChanged(from: wasShared)
    }

    /// Connection `id` closed: if it was a watcher's, what it said goes with it.
    func watcherLeft(_ id: Int) {
        let wasShared = screenIsShared
        guard sharingWatchers.removeValue(forKey: id) != nil else { return }
        if wasShared, !screenIsShared, !finished {
            log("the watcher that said the screen is shared went away: the \(held.count) private banner(s) held come back")
        }
        sharingChanged(from: wasShared)
    }

    private func sharingChanged(from wasShared: Bool) {
        guard !finished else { return }
        let now = banners.loop.now
        if !wasShared, screenIsShared {
            withholdPrivateBanners(at: now)
        } else if wasShared, !screenIsShared {
            releaseHeld(at: now)
        }
        rescheduleTimeouts()
        updateIdle()
    }

    /// Holds `banner`, a private one shown while the screen is shared, behind those held before.
    func hold(_ banner: ScheduledBanner, at now: MonotonicTime) {
        held.append(HeldBanner(banner: banner, expiry: nil))
    }

    /// Sharing started: every private banner leaves the schedules, the ones on screen sliding
    /// away at once with their deadlines kept.
    private func withholdPrivateBanners(at now: MonotonicTime) {
        var taken: [Int: HeldBanner] = [:]
        for name in lanes.keys.sorted() {
            guard let lane = lanes[name] else { continue }
            let visible = lane.current?.token
            for banner in lane.withdraw(at: now, where: { ledger[$0.token]?.isPrivate == true }) {
                var expiry: MonotonicTime?
                if banner.token == visible, case .transient(let left) = banner.mode { expiry = now + left }
                var entry = taken[banner.token] ?? HeldBanner(banner: banner, expiry: expiry)
                if let expiry, entry.expiry.map({ expiry.seconds < $0.seconds }) ?? true {
                    entry = HeldBanner(banner: banner, expiry: expiry)
                }
                taken[banner.token] = entry
            }
        }
        held += taken.values.sorted { $0.token < $1.token }
        if !taken.isEmpty { log("the screen is shared: \(taken.count) private banner(s) held back") }
    }

    /// Sharing ended: the held banners come back, oldest first, each behind what shows then; one
    /// whose timeout ran out meanwhile ends as timed out.
    private func releaseHeld(at now: MonotonicTime) {
        let releasing = held
        held = []
        for entry in releasing {
            var banner = entry.banner
            if let expiry = entry.expiry {
                guard expiry.seconds > now.seconds else {
                    finishEverywhere(entry.token, reason: .timeout)
                    continue
                }
                banner.mode = .transient(expiry - now)
            }
            guard let request = ledger[entry.token] else { continue }
            // Where it was going, if those monitors are still there; else the primary one.
            var hosts = banners.hosts.filter { request.everyMonitor || request.monitors.contains($0.monitorName) }
            if hosts.isEmpty, let primary = banners.preferredHost { hosts = [primary] }
            guard !hosts.isEmpty else {
                finishEverywhere(entry.token, reason: .dismissed)
                continue
            }
            let names = Set(hosts.map(\.monitorName))
            for name in request.monitors.subtracting(names) { ledger.remove(monitor: name, from: entry.token) }
            for host in hosts {
                ledger.add(monitor: host.monitorName, to: entry.token)
                _ = lane(for: host).show(banner, enqueue: true, at: now)
            }
        }
        if !releasing.isEmpty { log("screen sharing ended: \(releasing.count) private banner(s) come back") }
    }

    /// Ends the held banners `picked` chooses, for `reason` (their waiters hear it); their tokens.
    @discardableResult
    func endHeld(reason: BannerEndReason, where picked: (HeldBanner) -> Bool) -> [Int] {
        let ending = held.filter(picked)
        guard !ending.isEmpty else { return [] }
        held.removeAll(where: picked)
        for entry in ending { finishEverywhere(entry.token, reason: reason) }
        return ending.map(\.token)
    }

    /// The held banners whose timeout has run out by `now` end.
    func expireHeld(at now: MonotonicTime) {
        endHeld(reason: .timeout) { $0.expiry.map { $0.seconds <= now.seconds } ?? false }
    }

    /// `dismiss --id KEY` or `--all` (on `monitors`, nil: any): the held banners it names end as
    /// dismissed; their tokens. A plain `dismiss` takes only what is on screen.
    func dismissHeld(_ request: DismissRequest, on monitors: Set<String>?) -> [Int] {
        guard request.all || request.id != nil else { return [] }
        return endHeld(reason: .dismissed) { entry in
            (request.all || entry.banner.id == request.id)
                && (monitors.map { !$0.isDisjoint(with: ledger[entry.token]?.monitors ?? []) } ?? true)
        }
    }

    /// The held banners as `status` lists them, oldest first; nil when none is held.
    func heldStatus() -> [HeldBannerStatus]? {
        guard !held.isEmpty else { return nil }
        return held.map { entry in
            let appearance = entry.banner.appearance
            return HeldBannerStatus(
                held: "sharing", title: appearance.title, subtitle: appearance.subtitle.isEmpty ? nil : appearance.subtitle,
                id: entry.banner.id, style: ledger[entry.token]?.style, monitors: (ledger[entry.token]?.monitors ?? []).sorted())
        }
    }

    /// Request `token` ends for `reason` on every monitor it was going to.
    private func finishEverywhere(_ token: Int, reason: BannerEndReason) {
        let monitors = ledger[token]?.monitors ?? []
        if monitors.isEmpty { finish(token, reason: reason, on: "") }
        for monitor in monitors { finish(token, reason: reason, on: monitor) }
    }
}
