// When the call banner and the sharing banner show, change and go, from the states the watcher
// reports, on an injected clock: a call (or a share) shows after a short start delay (a stream
// that runs for a moment — an app probing its microphone, a portal's screenshot — shows
// nothing), a change of apps updates it at once, and the end hides it only after the hide
// delay, so an app that stops its stream while muted does not make it flicker. The user's ✕
// hides it until this call (or share) ends. Pure: tested without PipeWire.

import BannerCore
import MonotonicClock

/// Something a watcher's banner is up for while it lasts: a call, a screen share.
public protocol BannerActivity: Sendable, Hashable {
    /// Nothing going on.
    static var none: Self { get }
    /// Whether it is going on (the banner is wanted).
    var isActive: Bool { get }
}

extension CallState: BannerActivity {
    public var isActive: Bool { isCall }
}

extension SharingState: BannerActivity {
    public var isActive: Bool { isSharing }
}

/// The call banner's timing.
public typealias CallBannerPolicy = ActivityBannerPolicy<CallState>
/// The sharing banner's timing: the call banner's.
public typealias SharingBannerPolicy = ActivityBannerPolicy<SharingState>

/// A watcher banner's timing (the call's, the sharing's).
public struct ActivityBannerPolicy<State: BannerActivity>: Sendable {
    /// What to do with the banner.
    public enum Action: Sendable, Hashable {
        /// Show it (or update it in place) for this state.
        case show(State)
        case hide
    }

    /// Seconds a call or share must last before the banner shows (`docs/calls.md`).
    public static var defaultStartDelay: Double { 0.15 }
    /// Seconds after the last capture stops before the banner goes (`--calls-hide-delay`).
    public static var defaultHideDelay: Double { 1.0 }

    public let startDelay: Double
    public let hideDelay: Double
    /// The state as last reported.
    public private(set) var state = State.none
    /// What the banner shows now; nil when it is not up.
    public private(set) var shown: State?
    private var startAt: MonotonicTime?
    private var hideAt: MonotonicTime?
    /// The user closed the banner of this call: nothing shows until it ends.
    private var closedByUser = false

    public init(startDelay: Double = defaultStartDelay, hideDelay: Double = defaultHideDelay) {
        self.startDelay = startDelay
        self.hideDelay = hideDelay
    }

    /// When ``advance(to:)`` has something to do; nil for never.
    public var nextDeadline: MonotonicTime? { startAt ?? hideAt }

    /// The state is now `new`.
    public mutating func observe(_ new: State, at now: MonotonicTime) -> [Action] {
        state = new
        if !new.isActive {
            startAt = nil
            closedByUser = false
            if shown != nil, hideAt == nil { hideAt = now + hideDelay }
            return advance(to: now)
        }
        hideAt = nil
        if closedByUser { return [] }
        if let shown {
            return shown == new ? [] : show(new)
        }
        if startAt == nil { startAt = now + startDelay }
        return advance(to: now)
    }

    /// What is due at `now`.
    public mutating func advance(to now: MonotonicTime) -> [Action] {
        if let due = startAt, !(now < due) {
            startAt = nil
            if state.isActive, !closedByUser { return show(state) }
        }
        if let due = hideAt, !(now < due) {
            hideAt = nil
            shown = nil
            return [.hide]
        }
        return []
    }

    /// The user dismissed the banner (✕, a click, a swipe): it stays away until this call ends.
    public mutating func userDismissed() {
        shown = nil
        startAt = nil
        hideAt = nil
        closedByUser = state.isActive
    }

    /// Another banner takes this one's place (the call banner, which then says the screen is
    /// shared): it goes at once, without the hide delay, and does not come back for this state.
    public mutating func handOver(at now: MonotonicTime) -> [Action] {
        _ = observe(.none, at: now)
        hideAt = nil
        guard shown != nil else { return [] }
        shown = nil
        return [.hide]
    }

    /// The banner is gone without the user (another client, the owner ending): shown again at
    /// the next change.
    public mutating func bannerWasDismissed() {
        shown = nil
    }

    private mutating func show(_ new: State) -> [Action] {
        shown = new
        return [.show(new)]
    }
}
