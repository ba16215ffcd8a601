// Which banner a monitor shows, which wait their turn, and when each one ends — the rules behind
// `window-banner show/dismiss`, decided here with injected time so they are tested without an X
// server or a clock. The owner process keeps one `BannerSchedule` per monitor, does what the
// returned `ScheduleChange` says (present, cross-fade or slide away) and tells waiting clients
// why their banner ended — also when the user dismissed it on screen (`userDismissed`).

import MonotonicClock

/// How long a banner stays.
public enum BannerMode: Sendable, Hashable {
    /// Until dismissed (the original's default for `show`).
    case sticky
    /// Until dismissed or this many seconds after it appeared.
    case transient(Double)

    /// The timeout `--transient` uses when none is given.
    public static let defaultTransientTimeout = 2.5

    /// `sticky` or `transient`, as `status` prints it.
    public var name: String {
        switch self {
        case .sticky: "sticky"
        case .transient: "transient"
        }
    }
}

/// Why a banner is gone, as `show --wait` reports it.
public enum BannerEndReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A transient banner's time ran out.
    case timeout
    /// `dismiss` (or the owner shutting down) took it away.
    case dismissed
    /// A later `show` (or one with the same `--id`) took its place.
    case replaced
    /// The user clicked the banner.
    case clicked
    /// The user clicked its close button ✕.
    case closed
    /// The user scrolled up over it or dragged it upwards.
    case swiped
    /// The user clicked its (primary) action button, or `window-banner action` did.
    case action
    /// The user clicked its secondary action button, or `window-banner action --secondary` did.
    case secondaryAction = "secondary-action"

    /// The end reason of a dismissal by the user.
    public init(_ reason: BannerDismissReason) {
        switch reason {
        case .clicked: self = .clicked
        case .closed: self = .closed
        case .swiped: self = .swiped
        case .action: self = .action
        case .secondaryAction: self = .secondaryAction
        }
    }
}

/// One banner asked for by a `show`.
public struct ScheduledBanner: Sendable, Hashable {
    /// Identifies the request (one request may put a banner on several monitors).
    public var token: Int
    /// `--id KEY`: a later banner with the same key replaces this one wherever it is.
    public var id: String?
    public var appearance: TopBannerAppearance
    public var compactPolicy: CompactPolicy
    /// Under the panels at the monitor's top edge, or over them.
    public var placement: EdgePlacement
    /// Shown over a focused full-screen window, or held back until it ends.
    public var fullscreen: FullscreenPolicy
    public var mode: BannerMode

    public init(
        token: Int, id: String? = nil, appearance: TopBannerAppearance, compactPolicy: CompactPolicy = .auto,
        placement: EdgePlacement = .belowPanels, fullscreen: FullscreenPolicy = .show, mode: BannerMode = .sticky
    ) {
        self.token = token
        self.id = id
        self.appearance = appearance
        self.compactPolicy = compactPolicy
        self.placement = placement
        self.fullscreen = fullscreen
        self.mode = mode
    }
}

/// What the owner must do after a schedule change.
public struct ScheduleChange: Sendable, Equatable {
    public enum Screen: Sendable, Equatable {
        /// Nothing to do on screen.
        case unchanged
        /// Show this banner: slide in if none is visible, else cross-fade to it.
        case present(ScheduledBanner)
        /// Slide the visible banner away.
        case hide
    }

    public var screen: Screen = .unchanged
    /// Banners that are gone, with why.
    public var ended: [(token: Int, reason: BannerEndReason)] = []

    public init() {}

    public static func == (lhs: ScheduleChange, rhs: ScheduleChange) -> Bool {
        lhs.screen == rhs.screen && lhs.ended.map(\.token) == rhs.ended.map(\.token)
            && lhs.ended.map(\.reason) == rhs.ended.map(\.reason)
    }
}

/// One monitor's visible banner and queue.
public struct BannerSchedule: Sendable {
    /// The banner on screen (or sliding in).
    public private(set) var current: ScheduledBanner?
    /// Banners waiting their turn, first = next.
    public private(set) var queue: [ScheduledBanner] = []
    /// When the current transient banner times out.
    public private(set) var deadline: MonotonicTime?

    public init() {}

    /// True when there is nothing to show now or later.
    public var isIdle: Bool { current == nil && queue.isEmpty }

    /// Seconds until the current banner times out, `nil` for sticky or none.
    public func remaining(at now: MonotonicTime) -> Double? {
        deadline.map { max(0, $0.seconds - now.seconds) }
    }

    /// The visible banner as another monitor would take it over now: a transient one with
    /// the time it has left here (a monitor added, or this one gone).
    public func currentKeepingTimeLeft(at now: MonotonicTime) -> ScheduledBanner? {
        guard var banner = current else { return nil }
        if case .transient = banner.mode, let remaining = remaining(at: now) { banner.mode = .transient(max(remaining, 0.001)) }
        return banner
    }

    /// Where a shown banner went.
    public enum Placement: Sendable, Equatable {
        case presented
        case updated
        case queued(position: Int)
    }

    /// `show`: replaces the visible banner in place, or with `enqueue` waits behind it (FIFO). A
    /// banner with the `id` of a visible or queued one replaces that one where it is.
    public mutating func show(_ banner: ScheduledBanner, enqueue: Bool, at now: MonotonicTime) -> (ScheduleChange, Placement) {
        var change = ScheduleChange()
        if let id = banner.id, let index = queue.firstIndex(where: { $0.id == id }) {
            change.ended.append((queue[index].token, .replaced))
            if enqueue, current != nil, current?.id != id {
                queue[index] = banner
                return (change, .queued(position: index + 1))
            }
            queue.remove(at: index)
        }
        if enqueue, let current, current.id == nil || current.id != banner.id {
            queue.append(banner)
            return (change, .queued(position: queue.count))
        }
        let placement: Placement = current == nil ? .presented : .updated
        if let current { change.ended.append((current.token, .replaced)) }
        makeCurrent(banner, at: now, change: &change)
        return (change, placement)
    }

    /// `dismiss`: the visible banner (the next queued one takes its place), only those with `id`,
    /// or with `all` the queue too.
    public mutating func dismiss(id: String? = nil, all: Bool = false, at now: MonotonicTime) -> ScheduleChange {
        var change = ScheduleChange()
        if all || id != nil {
            let gone = queue.filter { all || $0.id == id }
            queue.removeAll { all || $0.id == id }
            change.ended += gone.map { ($0.token, .dismissed) }
        }
        if let current, all || id == nil || current.id == id {
            change.ended.append((current.token, .dismissed))
            advanceQueue(at: now, change: &change)
        }
        return change
    }

    /// The user dismissed the visible banner on screen: it ends with `reason` and the next
    /// queued one takes its place. Nothing happens when no banner is visible.
    public mutating func userDismissed(_ reason: BannerDismissReason, at now: MonotonicTime) -> ScheduleChange {
        var change = ScheduleChange()
        if let current {
            change.ended.append((current.token, BannerEndReason(reason)))
            advanceQueue(at: now, change: &change)
        }
        return change
    }

    /// Times out the current transient banner when its deadline has passed.
    public mutating func advance(to now: MonotonicTime) -> ScheduleChange {
        var change = ScheduleChange()
        if let current, let deadline, now.seconds >= deadline.seconds {
            change.ended.append((current.token, .timeout))
            advanceQueue(at: now, change: &change)
        }
        return change
    }

    /// Takes the banners `picked` chooses out of the schedule, visible or queued, without ending
    /// them (a private banner held back while the screen is shared): the visible one with the
    /// time it has left, the queued ones in order; the next queued banner takes the screen.
    public mutating func withdraw(at now: MonotonicTime, where picked: (ScheduledBanner) -> Bool) -> (ScheduleChange, [ScheduledBanner]) {
        var change = ScheduleChange()
        var taken: [ScheduledBanner] = []
        let visible = currentKeepingTimeLeft(at: now)
        if let visible, picked(visible) { taken.append(visible) }
        taken += queue.filter(picked)
        queue.removeAll(where: picked)
        if let visible, picked(visible) { advanceQueue(at: now, change: &change) }
        return (change, taken)
    }

    /// The monitor went away: everything on it ends as dismissed, nothing to draw.
    public mutating func clear() -> ScheduleChange {
        var change = ScheduleChange()
        change.ended = ([current].compactMap { $0 } + queue).map { ($0.token, .dismissed) }
        current = nil
        queue = []
        deadline = nil
        return change
    }

    private mutating func advanceQueue(at now: MonotonicTime, change: inout ScheduleChange) {
        if queue.isEmpty {
            current = nil
            deadline = nil
            change.screen = .hide
        } else {
            makeCurrent(queue.removeFirst(), at: now, change: &change)
        }
    }

    private mutating func makeCurrent(_ banner: ScheduledBanner, at now: MonotonicTime, change: inout ScheduleChange) {
        current = banner
        if case .transient(let seconds) = banner.mode {
            deadline = MonotonicTime(seconds: now.seconds + seconds)
        } else {
            deadline = nil
        }
        change.screen = .present(banner)
    }
}
