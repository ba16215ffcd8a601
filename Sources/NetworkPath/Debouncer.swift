// When to re-decide after kernel messages: a trailing-edge debounce with a ceiling. Time is
// handed in (seconds on any monotonic clock), so the rule is tested with a manual clock.

/// Collapses a burst of changes into one evaluation.
///
/// The status is re-evaluated `quietPeriod` seconds (default 0.1) after the last change of a
/// burst — a link coming up brings its addresses and routes in a few messages over a few
/// milliseconds, and one decision on the settled state is right where a decision per message
/// would flicker. So that a link flapping without pause cannot hold the status back forever,
/// the evaluation also happens at the latest `maximumDelay` seconds (default 1.0) after the
/// first unevaluated change.
struct Debouncer: Equatable {
    let quietPeriod: Double
    let maximumDelay: Double
    private(set) var firstPendingChange: Double?
    private(set) var lastPendingChange: Double?

    init(quietPeriod: Double, maximumDelay: Double) {
        self.quietPeriod = quietPeriod
        self.maximumDelay = max(maximumDelay, quietPeriod)
    }

    /// Records a change of the model at `now`.
    mutating func noteChange(at now: Double) {
        if firstPendingChange == nil { firstPendingChange = now }
        lastPendingChange = now
    }

    /// When the pending changes are due for evaluation; nil when nothing is pending.
    var deadline: Double? {
        guard let firstPendingChange, let lastPendingChange else { return nil }
        return min(lastPendingChange + quietPeriod, firstPendingChange + maximumDelay)
    }

    /// True (once) when the deadline has come: the caller evaluates now, and the pending
    /// changes count as evaluated.
    mutating func fire(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        firstPendingChange = nil
        lastPendingChange = nil
        return true
    }
}
