// Time as the core sees it: points in time (MonotonicClock's MonotonicTime) handed in by
// whoever drives the frames (the event loop with CLOCK_MONOTONIC, tests with a manual clock).
// Nothing here reads a clock.

import MonotonicClock

/// Timing curves: map linear progress 0...1 to eased progress 0...1.
public enum EasingCurve: Sendable, Hashable {
    case linear
    /// Fast start, gentle landing: slide in.
    case easeOut
    /// Gentle start, fast exit: slide out.
    case easeIn
    case easeInOut

    /// Cubic curves, the shape of Core Animation's named curves without their control points.
    public func value(at progress: Double) -> Double {
        let t = min(max(progress, 0), 1)
        switch self {
        case .linear: return t
        case .easeOut: return 1 - (1 - t) * (1 - t) * (1 - t)
        case .easeIn: return t * t * t
        case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow3(-2 * t + 2) / 2
        }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}

/// One value moving from `from` to `to` over `duration` seconds starting at `start`.
public struct Animation: Sendable, Hashable {
    public var from: Double
    public var to: Double
    public var start: MonotonicTime
    public var duration: Double
    public var curve: EasingCurve

    public init(from: Double, to: Double, start: MonotonicTime, duration: Double, curve: EasingCurve) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration
        self.curve = curve
    }

    public var end: MonotonicTime { start + duration }

    /// The value at `time`; exactly `to` from the end on.
    public func value(at time: MonotonicTime) -> Double {
        guard duration > 0, time < end else { return to }
        let progress = max(0, (time - start) / duration)
        return from + (to - from) * curve.value(at: progress)
    }

    public func isFinished(at time: MonotonicTime) -> Bool { !(time < end) }
}

/// Frame slots: frames land on `origin + k / rate`, never more often, so a late frame does not
/// bunch up the next ones.
public struct FramePacer: Sendable, Hashable {
    public var rate: Double

    public init(rate: Double = 60) { self.rate = rate }

    public var interval: Double { 1 / rate }

    /// The first frame slot strictly after `time`, counted from `origin`.
    public func nextFrame(after time: MonotonicTime, origin: MonotonicTime) -> MonotonicTime {
        let elapsed = max(0, time - origin)
        var slot = (elapsed / interval).rounded(.down) + 1
        // Division can round a time that sits exactly on a slot down to the slot before it.
        if !(origin + slot * interval > time) { slot += 1 }
        return origin + slot * interval
    }
}
