// The banner of `presentTopBannerOnEveryMonitor` (`--monitor all`), once for every backend: on
// every monitor now, and on each monitor plugged in while it shows, which slides it in with its
// own reservation and the others' policies. A monitor unplugged takes its banner with it, as
// any host does.

import BannerCore

/// What a display remembers of the banner it shows on every monitor.
public final class EveryMonitorBanner {
    /// The banner shown on every monitor; nil when there is none.
    public private(set) var appearance: TopBannerAppearance?

    public init() {}

    /// Presents (or updates in place) `appearance` on each of `hosts`, and remembers it for the
    /// monitors added later. `check` throws, before any monitor changes, for a value that
    /// cannot be used.
    public func present<Host: BannerBackendHost>(
        _ appearance: TopBannerAppearance, on hosts: [Host], check: (TopBannerAppearance) throws(BannerValueError) -> Void
    ) throws(BannerValueError) {
        try check(appearance)
        for host in hosts { try host.presentTopBanner(appearance) }
        self.appearance = appearance
    }

    /// Slides it out on each of `hosts`; a monitor added later does not get it.
    public func dismiss<Host: BannerBackendHost>(on hosts: [Host]) {
        appearance = nil
        for host in hosts { host.dismissTopBanner() }
    }

    /// Monitors were added (`added`, among `hosts`): while the banner still shows on one of the
    /// others, each new one gets it, with the policies of `model` (the primary or first of the
    /// others). Once it shows nowhere, it is forgotten.
    public func monitorsAdded<Host: BannerBackendHost>(_ added: [Host], among hosts: [Host], model: Host?) {
        guard let appearance,
              hosts.contains(where: { host in !added.contains { $0 === host } && host.isBannerPresented && host.phase != .dismissing }) else {
            self.appearance = nil
            return
        }
        for host in added {
            if let model {
                host.compactPolicy = model.compactPolicy
                host.placement = model.placement
                host.fullscreenPolicy = model.fullscreenPolicy
            }
            // Its values were checked when it was first presented.
            _ = try? host.presentTopBanner(appearance)
        }
    }
}

/// A display's hosts matched to its monitors as they are now: a host whose monitor (by name) is
/// still there hears its new geometry, a new monitor gets a host, a host whose monitor is gone is
/// closed. The display then takes `hosts`, and hands `added` to
/// ``EveryMonitorBanner/monitorsAdded(_:among:model:)`` with a model from `previous`.
public struct MonitorMatch<Host: BannerBackendHost> {
    /// The hosts now, in the monitors' order.
    public let hosts: [Host]
    /// The hosts made for new monitors.
    public let added: [Host]
    /// Whether monitors came or went.
    public let changed: Bool

    /// Matches `hosts` to `monitors`; `update` tells a kept host its monitor, `make` makes one for a
    /// new monitor, `close` closes one whose monitor is gone.
    public init<Monitor>(
        _ hosts: [Host], to monitors: [Monitor], name: (Monitor) -> String,
        update: (Host, Monitor) -> Void, make: (Monitor) -> Host, close: (Host) -> Void
    ) {
        var now: [Host] = []
        var added: [Host] = []
        for monitor in monitors {
            if let host = hosts.first(where: { $0.monitorName == name(monitor) }) {
                update(host, monitor)
                now.append(host)
            } else {
                let host = make(monitor)
                now.append(host)
                added.append(host)
            }
        }
        for host in hosts where !now.contains(where: { $0 === host }) { close(host) }
        self.hosts = now
        self.added = added
        changed = hosts.count != now.count || !added.isEmpty
    }

    /// The hosts that were there before.
    public var previous: [Host] {
        hosts.filter { host in !added.contains { $0 === host } }
    }
}
