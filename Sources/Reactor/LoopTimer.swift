// One timer that a loop's client sets again and again, each time for its next deadline (a
// policy's, a debounce's): setting it replaces the one pending, and it knows when it fired.

import MonotonicClock

/// A timer on `loop` with at most one deadline pending.
public final class LoopTimer {
    private let loop: EventLoop
    private var token: EventLoop.Token?

    public init(on loop: EventLoop) {
        self.loop = loop
    }

    deinit { cancel() }

    /// Runs `action` once at `deadline` on the loop's clock, in place of what was pending; nil
    /// leaves nothing pending.
    public func set(at deadline: MonotonicTime?, _ action: @escaping () -> Void) {
        cancel()
        guard let deadline else { return }
        token = loop.at(deadline) { [unowned self] in
            token = nil
            action()
        }
    }

    /// Runs `action` once, `seconds` from now, in place of what was pending.
    public func set(after seconds: Double, _ action: @escaping () -> Void) {
        set(at: loop.now + seconds, action)
    }

    /// Cancels what is pending.
    public func cancel() {
        if let token { loop.cancel(token) }
        token = nil
    }

    /// Whether a deadline is pending.
    public var isPending: Bool { token != nil }
}
