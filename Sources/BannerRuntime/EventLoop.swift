// One thread, one poll: every X call, timer and file descriptor of a banner process is served
// here, so Xlib is only ever used from one thread. Frames are timers like any other; the loop
// sleeps in poll(2) until the next deadline or a readable descriptor, never spinning.

import Glibc
import BannerCore

/// Reads `CLOCK_MONOTONIC`.
public func monotonicNow() -> MonotonicTime {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return MonotonicTime(seconds: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
}

/// A single-threaded reactor: descriptors to watch, one-shot timers, and per-iteration hooks.
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
    private var prepare: [() -> MonotonicTime?] = []
    private var stopped = false

    public init() {}

    /// Calls `action` whenever `fd` is readable (or hung up), or has any of poll(2)'s `events`.
    @discardableResult
    public func watch(fd: Int32, events: Int16 = Int16(POLLIN), _ action: @escaping () -> Void) -> Token {
        let token = makeToken()
        readers[token] = (fd, events, action)
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
        let token = makeToken()
        timers[token] = Timer(deadline: monotonicNow() + seconds, action: action)
        return token
    }

    /// Cancels a watch or a timer; harmless when already gone.
    public func cancel(_ token: Token) {
        readers[token] = nil
        timers[token] = nil
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
        let giveUp = timeout.map { monotonicNow() + $0 }
        stopped = false
        while true {
            if condition() { return true }
            if stopped { return false }
            let now = monotonicNow()
            if let giveUp, !(now < giveUp) { return false }
            fireTimers(now: now)
            var wake = prepare.compactMap { $0() }.min()
            if condition() { return true }
            if let earliest = timers.values.map(\.deadline).min() { wake = min(wake ?? earliest, earliest) }
            if let giveUp { wake = min(wake ?? giveUp, giveUp) }
            wait(until: wake)
        }
    }

    private func fireTimers(now: MonotonicTime) {
        let due = timers.filter { !(now < $0.value.deadline) }.sorted { $0.value.deadline < $1.value.deadline }
        for (token, timer) in due where timers[token] != nil {
            timers[token] = nil
            timer.action()
        }
    }

    private func wait(until wake: MonotonicTime?) {
        let watched = Array(readers)
        var fds = watched.map { pollfd(fd: $0.value.fd, events: $0.value.events, revents: 0) }
        // poll(2) counts milliseconds: round up so a frame is never drawn before its slot.
        let timeout = wake.map { Int32(min(max(0, ($0 - monotonicNow()) * 1000).rounded(.up), 3_600_000)) } ?? -1
        let result = poll(&fds, nfds_t(fds.count), timeout)
        guard result > 0 else { return }
        for (index, entry) in watched.enumerated() where fds[index].revents != 0 {
            if readers[entry.key] != nil { entry.value.action() }
        }
    }

    private func makeToken() -> Token {
        nextID += 1
        return Token(id: nextID)
    }
}
