// What the owner tells those who watch it: the accessibility view of its banners, the
// subscribers of `status --follow`, and `status` itself.

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
    // MARK: Accessibility

    /// The banners on screen for a screen reader: each request once, from the first monitor
    /// that shows it, one with an `--id` the same banner when replaced; as urgent as its
    /// politeness says.
    func accessibleBanners() -> [AccessibleBanner] {
        var seen: Set<Int> = []
        return banners.hosts.compactMap { host in
            guard host.isBannerPresented, host.phase != .dismissing, let current = lanes[host.monitorName]?.current,
                  seen.insert(current.token).inserted else { return nil }
            let appearance = current.appearance
            let request = ledger[current.token]
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
    func activate(_ token: Int, _ reason: BannerDismissReason) -> Bool {
        let hosts = banners.hosts.filter { $0 === banners.preferredHost } + banners.hosts.filter { $0 !== banners.preferredHost }
        return hosts.contains { host in lanes[host.monitorName]?.current?.token == token && host.activate(reason) }
    }

    // MARK: Subscribers

    /// What a subscriber has been told: the status, with each monitor's transient deadline in
    /// place of the remaining time (which changes by itself and is no news).
    struct SubscriberView: Equatable {
        var status: OwnerStatus
        var deadlines: [String: MonotonicTime]
    }

    func subscriberView() -> SubscriberView {
        var status = status()
        for index in status.monitors.indices { status.monitors[index].remaining = nil }
        return SubscriberView(status: status, deadlines: lanes.compactMapValues(\.deadline))
    }

    /// `status --follow`: the status now, then (`pushToSubscribers`) at every change, and a
    /// keepalive frame every `keepalive` seconds so the client can tell a stalled owner.
    func subscribe(_ id: Int, keepalive: Double?) {
        connections.follow(id, keepalive: keepalive.map { max(OwnerLimits.minimumKeepalive, $0) })
        // The first subscriber starts from what it is sent now; later ones may find others
        // still owed a change, which the next push brings to all.
        if subscribers.isEmpty { lastPushed = subscriberView() }
        subscribers.insert(id)
        send(OwnerResponse(status: status()), to: id, closing: false)
    }

    func pushToSubscribers() {
        guard !subscribers.isEmpty, !finished else { return }
        let view = subscriberView()
        guard view != lastPushed else { return }
        lastPushed = view
        let frame = connections.frame(OwnerResponse(status: status()))
        // The socket's buffer is the subscriber's buffer: one that stops reading until it is
        // full is dropped, never waited for.
        for id in subscribers { connections.push(frame, to: id) }
    }

    func status() -> OwnerStatus {
        let now = banners.loop.now
        let monitors = banners.hosts.map { host in
            let schedule = lanes[host.monitorName]?.schedule ?? BannerSchedule()
            let current = schedule.current
            return MonitorStatus(
                monitor: host.monitorName, primary: host === banners.preferredHost, presented: host.isBannerPresented,
                title: current?.appearance.title, subtitle: current.flatMap { $0.appearance.subtitle.isEmpty ? nil : $0.appearance.subtitle },
                id: current?.id, height: host.presentedHeight,
                reserved: host.reservedHeight, compact: current.map { _ in host.isCompact }, mode: current?.mode.name,
                remaining: schedule.remaining(at: now).map { ($0 * 1000).rounded() / 1000 }, queue: schedule.queue.count,
                hidden: host.hiddenReason,
                style: current.flatMap { ledger[$0.token]?.style }, progress: current?.appearance.progress,
                actions: current.flatMap { $0.appearance.actionLabels.isEmpty ? nil : $0.appearance.actionLabels })
        }
        return OwnerStatus(pid: Int(getpid()), display: paths.display, monitors: monitors, waiting: heldStatus()).fitted(within: Frame.maximumLength - 1024)
    }
}
