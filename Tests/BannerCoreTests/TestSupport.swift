// Small helpers shared by the core's tests. Time in these tests is a manual clock:
// `MonotonicTime(seconds:)` values built by hand, never a real clock and never a sleep.

import BannerCore
import MonotonicClock

/// True when `a` and `b` differ by at most `tolerance`.
func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// A point on the manual clock.
func at(_ seconds: Double) -> MonotonicTime {
    MonotonicTime(seconds: seconds)
}
