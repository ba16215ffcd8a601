// The one time type of every deadline in the package: a point on CLOCK_MONOTONIC. Durations
// stay seconds in a `Double` (`time + 0.25`, `later - earlier`); points in time never do. A
// leaf module (Glibc only), so the pure core, the event loop, the network and bus readers and
// the watchers all speak it; C libraries' own units (sd-bus's microseconds, libcurl's and
// poll(2)'s milliseconds) are converted where they are read.

import Glibc

/// A point in time on CLOCK_MONOTONIC (or on a test's clock), in seconds.
public struct MonotonicTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    /// A time sd-bus gives in microseconds of CLOCK_MONOTONIC (`sd_bus_get_timeout`).
    public init(microseconds: UInt64) { seconds = Double(microseconds) / 1e6 }

    public static func < (a: Self, b: Self) -> Bool { a.seconds < b.seconds }
    public static func + (a: Self, seconds: Double) -> Self { Self(seconds: a.seconds + seconds) }
    public static func - (a: Self, b: Self) -> Double { a.seconds - b.seconds }
    public var description: String { "t=\(seconds)" }

    /// Milliseconds from `now` until this time, rounded up (so a wait never ends before it),
    /// never negative, at most an hour: poll(2)'s timeout.
    public func millisecondsAfter(_ now: MonotonicTime) -> Int32 {
        Int32(min(max(0, (self - now) * 1000).rounded(.up), 3_600_000))
    }
}

/// Reads `CLOCK_MONOTONIC`.
public func monotonicNow() -> MonotonicTime {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return MonotonicTime(seconds: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
}
