// The original's network-monitoring rules as a state machine on a manual clock: connectivity
// reports and time go in, banner actions and the next deadline come out. It does not know
// what the banners look like (the caller maps each action to its configured appearance) nor
// where connectivity comes from (NetworkPath, a dispatcher script, a test).

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
///
/// A report equal to the last one is not a change: it does nothing and keeps any pending hide.
/// Drive time with ``advance(to:)`` at ``nextDeadline``; every input first catches up with the
/// clock, so a change reported after a missed deadline still sees the hide happen first.
public struct ConnectivityBannerPolicy: Sendable, Hashable {
    /// What the caller should do with the banner.
    public enum Action: Sendable, Hashable {
        /// Present (or cross-fade to) the offline banner.
        case presentOffline
        /// Present (or cross-fade to) the restored banner.
        case presentRestored
        /// Dismiss the banner.
        case dismiss
    }

    /// Which banner of ours is on screen.
    public enum Phase: Sendable, Hashable {
        /// None.
        case idle
        /// The offline banner, until connectivity returns.
        case offline
        /// The restored banner, until `hideAt`.
        case restored(hideAt: MonotonicTime)
    }

    /// Default seconds the restored banner stays up (`--hide-delay`).
    public static let defaultHideDelay: Double = 2.0

    /// Seconds the restored banner stays up.
    public let hideDelay: Double
    /// Which banner of ours is on screen now.
    public private(set) var phase: Phase = .idle
    /// The last connectivity reported; nil before the first report.
    public private(set) var isOnline: Bool?

    /// A policy with nothing on screen and no connectivity reported yet. A negative
    /// `hideDelay` counts as 0.
    public init(hideDelay: Double = ConnectivityBannerPolicy.defaultHideDelay) {
        self.hideDelay = max(0, hideDelay)
    }

    /// When ``advance(to:)`` has something to do: the pending hide; nil when none is pending.
    public var nextDeadline: MonotonicTime? {
        if case .restored(let hideAt) = phase { return hideAt }
        return nil
    }

    /// Connectivity is now `online` (reported at `now`); returns what to do, in order.
    public mutating func connectivityChanged(isOnline online: Bool, at now: MonotonicTime) -> [Action] {
        var actions = advance(to: now)
        guard online != isOnline else { return actions }
        isOnline = online
        if online {
            // Only an offline banner of ours on screen has something to confirm.
            if phase == .offline {
                phase = .restored(hideAt: now + hideDelay)
                actions.append(.presentRestored)
            }
        } else {
            // From idle, or replacing the restored banner and cancelling its hide.
            phase = .offline
            actions.append(.presentOffline)
        }
        return actions
    }

    /// Moves the clock to `now`: dismisses the restored banner once its time is up.
    public mutating func advance(to now: MonotonicTime) -> [Action] {
        guard case .restored(let hideAt) = phase, !(now < hideAt) else { return [] }
        phase = .idle
        return [.dismiss]
    }

    /// The banner was taken away by someone else (a click, `window-banner dismiss`): forget it,
    /// so no hide fires later and coming back online does not announce itself.
    public mutating func bannerWasDismissed() {
        phase = .idle
    }
}
