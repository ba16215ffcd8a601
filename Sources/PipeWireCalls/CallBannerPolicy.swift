// When the call banner shows, changes and goes, from the call states the watcher reports, on an
// injected clock: a call shows after a short start delay (a stream that runs for a moment — an
// app probing its microphone — shows nothing), a change of apps updates it at once, and the
// end hides it only after the hide delay, so an app that stops its stream while muted does not
// make it flicker. The user's ✕ hides it until this call ends. Pure: tested without PipeWire.

import BannerCore
import MonotonicClock

/// The call banner's timing.
public struct CallBannerPolicy: Sendable {
    /// What to do with the banner.
    public enum Action: Sendable, Hashable {
        /// Show it (or update it in place) for this call.
        case show(CallState)
        case hide
    }

    /// Seconds a call must last before the banner shows (`docs/calls.md`).
    public static let defaultStartDelay = 0.15
    /// Seconds after the last capture stops before the banner goes (`--calls-hide-delay`).
    public static let defaultHideDelay = 1.0

    public let startDelay: Double
    public let hideDelay: Double
    /// The call as last reported.
    public private(set) var state = CallState.none
    /// What the banner shows now; nil when it is not up.
    public private(set) var shown: CallState?
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

    /// The call is now `new`.
    public mutating func observe(_ new: CallState, at now: MonotonicTime) -> [Action] {
        state = new
        if !new.isCall {
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
            if state.isCall, !closedByUser { return show(state) }
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
        closedByUser = state.isCall
    }

    /// The banner is gone without the user (another client, the owner ending): shown again at
    /// the next change.
    public mutating func bannerWasDismissed() {
        shown = nil
    }

    private mutating func show(_ call: CallState) -> [Action] {
        shown = call
        return [.show(call)]
    }
}
