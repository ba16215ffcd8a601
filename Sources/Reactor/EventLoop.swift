// One thread, one poll: every X call, timer, file descriptor and source (LoopSource: a bus, an
// HTTP check, a preference reader) of a banner process is served here, so Xlib is only ever
// used from one thread. Frames are timers like any other; the loop sleeps in poll(2) until the
// next deadline or a readable descriptor, never spinning. A leaf (Reactor) under every module
// that reads something, so all of them can be served by it.

import Glibc
import MonotonicClock

/// A single-threaded reactor: descriptors to watch, sources to serve, one-shot timers, and
/// per-iteration hooks.
public final class EventLoop {
    /// Identifies a watch or a timer for cancelling.
    public struct Token: Hashable, Sendable { let id: Int }

    private struct Timer {
        var deadline: MonotonicTime
        var action: () -> Void
    }

    private var nextID = 0
    private var readers: [Token: (fd: Int32, events: Int16, action: () -> Void)] = [:]
    private var timers: [Token: Timer] = [:]
    private var sources: [Token: (source: any LoopSource, onEnd: (any Error) -> Void)] = [:]
    private var prepare: [() -> MonotonicTime?] = []
    private var stopped = false
    /// The clock deadlines are read on: CLOCK_MONOTONIC, or a test's own.
    private let clock: () -> MonotonicTime
    /// Never sleeps: a test moves the clock and turns the loop by hand (``turn()``).
    private let embedded: Bool

    /// A loop on CLOCK_MONOTONIC that sleeps in poll(2) between events.
    public init() {
        clock = monotonicNow
        embedded = false
    }

    /// A loop in the spirit of swift-nio's `EmbeddedEventLoop`, for tests: its deadlines are
    /// read on `clock`, which only the test moves, and it never sleeps — each ``turn()`` fires
    /// the timers due by `clock`, polls its descriptors without waiting, and runs the
    /// before-sleep hooks. ``run(timeout:until:)`` must not be used on it.
    public init(embeddedOn clock: @escaping () -> MonotonicTime) {
        self.clock = clock
        embedded = true
    }

    /// Now, on this loop's clock.
    public var now: MonotonicTime { clock() }

    /// The earliest timer's or source's deadline; nil when none is armed.
    public var nextDeadline: MonotonicTime? {
        (timers.values.map(\.deadline) + sources.values.compactMap(\.source.deadline)).min()
    }

    /// Calls `action` whenever `fd` is readable (or hung up), or has any of poll(2)'s `events`.
    @discardableResult
    public func watch(fd: Int32, events: Int16 = Int16(POLLIN), _ action: @escaping () -> Void) -> Token {
        let token = makeToken()
        readers[token] = (fd, events, action)
        return token
    }

    /// Serves `source` until it throws from `process` (its connection went), when `onEnd` is
    /// told why, or until the token is cancelled: its descriptors and deadline are asked for
    /// before every sleep.
    @discardableResult
    public func serve(_ source: any LoopSource, onEnd: @escaping (any Error) -> Void) -> Token {
        let token = makeToken()
        sources[token] = (source, onEnd)
        return token
    }

    /// Changes what a watch waits for (a socket with unsent requests also waits for POLLOUT);
    /// harmless when the watch is gone.
    public func change(_ token: Token, events: Int16) {
        readers[token]?.events = events
    }

    /// Runs `action` once, `seconds` from now.
    @discardableResult
    public func after(seconds: Double, _ action: @escaping () -> Void) -> Token {
        at(clock() + seconds, action)
    }

    /// Runs `action` once, at `deadline` on this loop's clock (at once when it has passed).
    @discardableResult
    public func at(_ deadline: MonotonicTime, _ action: @escaping () -> Void) -> Token {
        let token = makeToken()
        timers[token] = Timer(deadline: deadline, action: action)
        return token
    }

    /// Cancels a watch, a source or a timer; harmless when already gone.
    public func cancel(_ token: Token) {
        readers[token] = nil
        timers[token] = nil
        sources[token] = nil
    }

    /// Calls `prepare` before every sleep — a display draws its due frames and flushes them
    /// there — and wakes no later than the earliest time one of them returns.
    public func beforeEverySleep(_ prepare: @escaping () -> MonotonicTime?) {
        self.prepare.append(prepare)
    }

    /// Runs `action` every time the loop is about to sleep, after the displays drew their due
    /// frames and flushed them (so work done there never delays a frame).
    public func beforeSleep(_ action: @escaping () -> Void) {
        beforeEverySleep {
            action()
            return nil
        }
    }

    /// Makes the innermost `run` return after the current iteration.
    public func stop() { stopped = true }

    /// Serves events until `condition` holds, `stop()` is called, or `timeout` seconds pass.
    /// Returns whether `condition` held.
    @discardableResult
    public func run(timeout: Double? = nil, until condition: () -> Bool = { false }) -> Bool {
        precondition(!embedded, "an embedded loop is turned by its test")
        let giveUp = timeout.map { clock() + $0 }
        stopped = false
        while true {
            if condition() { return true }
            if stopped { return false }
            let now = clock()
            if let giveUp, !(now < giveUp) { return false }
            fireTimers(now: now)
            var wake = prepare.compactMap { $0() }.min()
            if condition() { return true }
            if let earliest = nextDeadline { wake = min(wake ?? earliest, earliest) }
            if let giveUp { wake = min(wake ?? giveUp, giveUp) }
            wait(until: wake)
        }
    }

    /// One turn of an embedded loop: the timers due by its clock, what its descriptors have
    /// (polled without waiting), the timers those made due, then the before-sleep hooks.
    public func turn() {
        precondition(embedded, "only an embedded loop is turned by hand")
        fireTimers(now: clock())
        poll(timeout: 0)
        fireTimers(now: clock())
        _ = prepare.map { $0() }
    }

    private func fireTimers(now: MonotonicTime) {
        let due = timers.filter { !(now < $0.value.deadline) }.sorted { $0.value.deadline < $1.value.deadline }
        for (token, timer) in due where timers[token] != nil {
            timers[token] = nil
            timer.action()
        }
    }

    private func wait(until wake: MonotonicTime?) {
        // poll(2) counts milliseconds: round up so a frame is never drawn before its slot.
        poll(timeout: wake.map { $0.millisecondsAfter(clock()) } ?? -1)
    }

    private func poll(timeout: Int32) {
        let watched = Array(readers)
        var fds = watched.map { pollfd(fd: $0.value.fd, events: $0.value.events, revents: 0) }
        // Each source's descriptors follow the watches', as it wants them now.
        let served = sources.map { token, entry in
            let start = fds.count
            fds += entry.source.descriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
            return (token, entry.source, start..<fds.count)
        }
        let result = Glibc.poll(&fds, nfds_t(fds.count), timeout)
        if result > 0 {
            for (index, entry) in watched.enumerated() where fds[index].revents != 0 {
                if readers[entry.key] != nil { entry.value.action() }
            }
        }
        let now = clock()
        for (token, source, range) in served {
            guard let entry = sources[token], entry.source === source else { continue }
            let ready = result > 0 ? range.filter { fds[$0].revents != 0 }.map { PollDescriptor(fd: fds[$0].fd, events: fds[$0].revents) } : []
            guard !ready.isEmpty || source.deadline.map({ !(now < $0) }) == true else { continue }
            do {
                try source.process(ready: ready)
            } catch {
                sources[token] = nil
                entry.onEnd(error)
            }
        }
    }

    private func makeToken() -> Token {
        nextID += 1
        return Token(id: nextID)
    }
}
