// The owner's `stats` pages, its handover to a newer owner, and actions (a banner's button
// pressed by a client): what Owner does for the requests that are not a banner's show or dismiss.

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
    // MARK: Stats and handover

    /// One page of `stats`: the keys after `after`, as many as fit in a frame with room to spare.
    func statsPage(after: String?) -> OwnerResponse {
        let budget = Frame.maximumLength - 1024
        let (page, more) = ledger.stats.page(after: after, budget: budget) { key, counts in
            OwnerProtocol.encode([key: counts]).count
        }
        return OwnerResponse(stats: page, more: more)
    }

    /// `handover`: a newer client replaces this owner. It gets every banner (visible ones first,
    /// then each queue in order) as the `show` arguments that bring it back — as many as fit in
    /// a frame, the rest logged — and this owner stops listening at once, so that the client's
    /// next connection starts the new owner, then slides its banners away and exits.
    func handOver(to id: Int) {
        let now = banners.loop.now
        var visible: [(ScheduledBanner, remaining: Double?, monitor: String)] = []
        var queued: [(ScheduledBanner, monitor: String)] = []
        for host in banners.hosts {
            guard let lane = lanes[host.monitorName] else { continue }
            if let current = lane.current { visible.append((current, lane.remaining(at: now), host.monitorName)) }
            queued += lane.queue.map { ($0, host.monitorName) }
        }
        // A banner shown on several monitors (`--monitor all`) is one request, described once.
        var seen: Set<Int> = []
        var handed: [ShowArgumentsRequest] = []
        var size = 0
        var left = 0
        let candidates = visible.map { ($0.0, $0.remaining, $0.monitor, false) } + queued.map { ($0.0, nil as Double?, $0.monitor, true) }
        for (banner, remaining, monitor, enqueue) in candidates where seen.insert(banner.token).inserted {
            guard var request = ledger[banner.token] else { continue }
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
        // The new owner would show them before a watcher told it the screen is shared.
        if !held.isEmpty { log("handover: \(held.count) private banner(s) held while the screen is shared are not handed over") }
        log("handing over \(handed.count) banner(s) to a newer window-banner and exiting")
        connections.stopListening()
        reply(id, OwnerResponse(handover: Handover(banners: handed)), thenClose: true)
        shutDown()
    }

    /// `window-banner action`: clicks the button `request` names on the banner on screen — the
    /// primary monitor's, else the first monitor's that has it — with everything a click brings
    /// (the button's command, `show --wait` told `action` or `secondary-action`, the next queued
    /// banner). An error, changing nothing, when no banner on screen has that button.
    func act(_ request: ActionRequest) -> Result<Void, OwnerError> {
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
            guard let current = lanes[host.monitorName]?.current, request.id == nil || current.id == request.id,
                  let reason = current.appearance.actionButton(labelled: request.label, secondary: request.secondary),
                  host.activate(reason) else { continue }
            return .success(())
        }
        let button = request.label.map { "an action '\($0.printable)'" } ?? (request.secondary ? "a secondary action" : "an action")
        let banner = request.id.map { "no banner with id '\($0.printable)'" } ?? "no banner"
        let place = request.monitor.map { " on \($0.printable)" } ?? ""
        return .failure(OwnerError(.usage, "\(banner) on screen\(place) has \(button)"))
    }
}
