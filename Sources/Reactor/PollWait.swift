// The one blocking wait the package's clients share: a command waiting for the owner's answer,
// a connection waiting to be ready, a follower waiting for the next status. Each polls one
// descriptor until a deadline on the monotonic clock, again after a signal interrupts it, so
// none reads the clock or counts milliseconds itself.

import Glibc
import MonotonicClock

/// How one blocking wait ended.
public enum PollWait: Equatable, Sendable {
    /// The descriptor has these events.
    case ready(Int16)
    /// The deadline passed first.
    case timedOut
    /// poll(2) failed with this errno (not EINTR, which is waited through).
    case failed(Int32)

    /// Waits until `fd` has any of `events` (or is hung up) or `deadline` passes (nil: no
    /// deadline).
    public static func wait(fd: Int32, events: Int16, until deadline: MonotonicTime?) -> PollWait {
        while true {
            let timeout: Int32
            if let deadline {
                let now = monotonicNow()
                guard now < deadline else { return .timedOut }
                timeout = deadline.millisecondsAfter(now)
            } else {
                timeout = -1
            }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&entry, 1, timeout)
            if result > 0 { return .ready(entry.revents) }
            if result < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            // poll rounds up to whole milliseconds: the deadline is looked at again.
        }
    }

    /// Waits `seconds` from now at most (nil: forever); see ``wait(fd:events:until:)``.
    public static func wait(fd: Int32, events: Int16, seconds: Double?) -> PollWait {
        wait(fd: fd, events: events, until: seconds.map(deadline(in:)))
    }

    /// The moment `seconds` from now: the deadline of a blocking wait made of several.
    public static func deadline(in seconds: Double) -> MonotonicTime {
        monotonicNow() + seconds
    }

    /// Whether `deadline` has passed (a blocking wait that checks something else by turns:
    /// whether a process is gone, whether every session answered).
    public static func hasPassed(_ deadline: MonotonicTime) -> Bool {
        !(monotonicNow() < deadline)
    }
}
