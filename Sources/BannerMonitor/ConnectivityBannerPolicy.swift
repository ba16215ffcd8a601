// The original's network-monitoring rules as a state machine on a manual clock: connectivity
// reports and time go in, banner actions and the next deadline come out. It does not know
// what the banners look like (the caller maps each action to its configured appearance) nor
// where connectivity comes from (NetworkPath, NetworkManager, an HTTP check, a dispatcher
// script, a test). ConnectivityCheck.swift turns those sources into a `NetworkConnectivity`.

import MonotonicClock

/// What the banners tell the user about the network.
package enum NetworkConnectivity: Sendable, Hashable {
    /// No internet: no route, or a route that leads nowhere (NetworkManager's `none` or
    /// `limited`, a check that got no answer).
    case offline
    /// A captive portal wants a sign-in first; `signIn` is the page that opens on a click.
    case portal(signIn: String)
    /// The internet answers (or, from routes alone, a default route exists).
    case online
}

/// When to show the offline banner, the restored banner, and when to take them away.
///
/// - Offline: the offline banner, persistent (no deadline).
/// - Online again while the offline banner is on screen: the restored banner, dismissed
///   `hideDelay` seconds later (default 2.0, the original's).
/// - The restored banner only follows an offline banner that was on screen: online at start-up
///   shows nothing, and neither does coming back after the user dismissed the offline banner.
/// - Any change cancels a pending hide.
/// - Offline again while the restored banner is up: the offline banner again, persistent. (The
///   original dismissed here and left the user offline with no banner; not copied.)
/// - Behind a captive portal: the portal banner ("Sign in to Network"), persistent, shown
///   again when the sign-in page changes. Online after it counts like online after offline:
///   the restored banner confirms the sign-in worked.
///
/// A report equal to the last one is not a change: it does nothing and keeps any pending hide.
/// Drive time with ``advance(to:)`` at ``nextDeadline``; every input first catches up with the
/// clock, so a change reported after a missed deadline still sees the hide happen first.
package struct ConnectivityBannerPolicy: Sendable, Hashable {
    /// What the caller should do with the banner.
    package enum Action: Sendable, Hashable {
        /// Present (or cross-fade to) the offline banner.
        case presentOffline
        /// Present (or cross-fade to) the restored banner.
        case presentRestored
        /// Present (or cross-fade to) the portal banner, whose click opens `signIn`.
        case presentPortal(signIn: String)
        /// Dismiss the banner.
        case dismiss
    }

    /// Which banner of ours is on screen.
    package enum Phase: Sendable, Hashable {
        /// None.
        case idle
        /// The offline banner, until connectivity returns.
        case offline
        /// The portal banner, until the portal lets the machine through (or it goes offline).
        case portal
        /// The restored banner, until `hideAt`.
        case restored(hideAt: MonotonicTime)
    }

    /// Default seconds the restored banner stays up (`--hide-delay`).
    package static let defaultHideDelay: Double = 2.0

    /// Seconds the restored banner stays up.
    package let hideDelay: Double
    /// Which banner of ours is on screen now.
    package private(set) var phase: Phase = .idle
    /// The last connectivity reported; nil before the first report.
    package private(set) var connectivity: NetworkConnectivity?

    /// Whether the last report was `online`; nil before the first report.
    package var isOnline: Bool? { connectivity.map { $0 == .online } }

    /// A policy with nothing on screen and no connectivity reported yet. A negative
    /// `hideDelay` counts as 0.
    package init(hideDelay: Double = ConnectivityBannerPolicy.defaultHideDelay) {
        self.hideDelay = max(0, hideDelay)
    }

    /// When ``advance(to:)`` has something to do: the pending hide; nil when none is pending.
    package var nextDeadline: MonotonicTime? {
        if case .restored(let hideAt) = phase { return hideAt }
        return nil
    }

    /// Connectivity is now `online` or offline (reported at `now`); returns what to do, in order.
    package mutating func connectivityChanged(isOnline online: Bool, at now: MonotonicTime) -> [Action] {
        connectivityChanged(to: online ? .online : .offline, at: now)
    }

    /// Connectivity is now `new` (reported at `now`); returns what to do, in order.
    package mutating func connectivityChanged(to new: NetworkConnectivity, at now: MonotonicTime) -> [Action] {
        var actions = advance(to: now)
        guard new != connectivity else { return actions }
        connectivity = new
        switch new {
        case .online:
            // Only an offline or portal banner of ours on screen has something to confirm.
            if phase == .offline || phase == .portal {
                phase = .restored(hideAt: now + hideDelay)
                actions.append(.presentRestored)
            }
        case .offline:
            // From idle, or replacing the restored banner and cancelling its hide.
            phase = .offline
            actions.append(.presentOffline)
        case .portal(let signIn):
            phase = .portal
            actions.append(.presentPortal(signIn: signIn))
        }
        return actions
    }

    /// Moves the clock to `now`: dismisses the restored banner once its time is up.
    package mutating func advance(to now: MonotonicTime) -> [Action] {
        guard case .restored(let hideAt) = phase, !(now < hideAt) else { return [] }
        phase = .idle
        return [.dismiss]
    }

    /// The banner was taken away by someone else (a click, `window-banner dismiss`): forget it,
    /// so no hide fires later and coming back online does not announce itself.
    package mutating func bannerWasDismissed() {
        phase = .idle
    }
}
