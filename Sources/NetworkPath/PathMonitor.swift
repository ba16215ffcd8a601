// The NWPathMonitor of this port: one rtnetlink socket, the model it keeps current, and the
// debounced, distinct status it publishes. It never polls the network: it sleeps until the
// kernel sends a message or a debounce deadline comes. Start reading at `init`, then
// `handleReadable()`; `PathMonitor+Statuses.swift` drives it on a thread of its own.

import Glibc
import MonotonicClock

/// Watches the kernel's links, addresses and routes and reports when the path status changes.
///
/// Two ways to drive it:
/// - **In a poll-based event loop** (no threads): watch ``fileDescriptor`` for input and call
///   ``handleReadable()``; wake at ``nextDeadline`` (or use ``pollTimeout``) and call
///   ``handleDeadline()``. Each returns the new status when it changed, nil otherwise.
///   ```swift
///   let monitor = try PathMonitor()
///   loop.watch(fd: monitor.fileDescriptor) { if let s = try? monitor.handleReadable() { show(s) } }
///   // …and, whenever monitor.nextDeadline is set, a timer then calling handleDeadline().
///   ```
/// - **As an async sequence**: ``statuses(configuration:)``.
///
/// The status follows ``PathRule``. Bursts of kernel messages are debounced (see
/// ``Configuration/debounceInterval``). If the kernel drops messages because the socket's queue
/// overflowed (`ENOBUFS`), the monitor reads every table again from a full dump.
public final class PathMonitor {
    /// Timing and buffer settings.
    public struct Configuration: Sendable, Hashable {
        /// Quiet time after the last kernel message of a burst before the status is
        /// re-evaluated, in seconds (default 0.1; `netpath-probe --debounce`): a burst ends in one
        /// decision, not a flicker.
        public var debounceInterval: Double
        /// The longest a continuous stream of messages can hold back a re-evaluation, in
        /// seconds (default 1.0).
        public var maximumDelay: Double
        /// Receive queue requested for the socket, in bytes (default 4 MiB;
        /// `netpath-probe --receive-buffer`). The kernel doubles it and, without
        /// `CAP_NET_ADMIN`, clamps it to `net.core.rmem_max`.
        public var receiveBufferSize: Int

        /// The defaults suit a desktop: one decision per burst, no overflow in practice.
        public init(debounceInterval: Double = 0.1, maximumDelay: Double = 1.0, receiveBufferSize: Int = 4 << 20) {
            self.debounceInterval = debounceInterval
            self.maximumDelay = maximumDelay
            self.receiveBufferSize = receiveBufferSize
        }
    }

    /// The settings it was started with.
    public let configuration: Configuration
    /// "Now", on `CLOCK_MONOTONIC`: the caller's loop's clock, so a test's clock drives the
    /// debounce as it drives the loop.
    private let clock: () -> MonotonicTime
    /// The last status published (the initial one until something changes).
    public private(set) var currentStatus: PathStatus
    /// What the kernel has told us so far.
    public private(set) var model = NetworkModel()
    /// How many times the socket's queue overflowed and the monitor resynchronized.
    public private(set) var overflowCount = 0

    private let socket: NetlinkSocket
    private var debouncer: Debouncer
    private var sequence: UInt32 = 0
    private var routesMayBeStale = false
    /// How long to wait for the kernel to answer a dump before giving up.
    private static let dumpTimeoutMilliseconds: Int32 = 5000
    /// Reads per `handleReadable()`, so a flood cannot starve the caller's other work.
    private static let readsPerWakeup = 64
    /// Dumps tried in one synchronization before giving up: only a flood of changes that never
    /// pauses keeps interrupting or overflowing them.
    private static let maximumDumpAttempts = 100
    /// Reads spent emptying the queue before a resync; the dumps correct whatever is left.
    private static let maximumDiscardedReads = 100_000

    /// Opens and subscribes the socket, then reads links, addresses and routes (blocking for
    /// the few milliseconds the kernel takes to answer) so ``currentStatus`` is right at once.
    /// `clock` tells the time (the caller's loop's, which is the system's monotonic clock in a
    /// program).
    public init(configuration: Configuration = Configuration(), clock: @escaping () -> MonotonicTime) throws(PathMonitorError) {
        self.configuration = configuration
        self.clock = clock
        socket = try NetlinkSocket(receiveBufferSize: configuration.receiveBufferSize)
        debouncer = Debouncer(quietPeriod: configuration.debounceInterval, maximumDelay: configuration.maximumDelay)
        currentStatus = .unsatisfied
        // Subscribed before dumping: a change during the dump arrives as a notification after
        // the entry it changes, so nothing falls between the two.
        try synchronize(DumpKind.allCases)
        currentStatus = PathRule.status(of: model)
    }

    /// The socket to watch for input (readable = kernel messages are queued).
    public var fileDescriptor: Int32 { socket.descriptor }

    /// When ``handleDeadline()`` is due, on `CLOCK_MONOTONIC`; nil when nothing is pending.
    public var nextDeadline: MonotonicTime? { debouncer.deadline.map(MonotonicTime.init(seconds:)) }

    /// Milliseconds until ``nextDeadline`` (rounded up, never negative), or -1 when nothing is
    /// pending: the `timeout` argument for poll(2).
    public var pollTimeout: Int32 {
        nextDeadline?.millisecondsAfter(clock()) ?? -1
    }

    /// Reads what the kernel sent and updates the model; returns the new status if it changed
    /// and is due (with no debounce, or when the deadline has already passed), nil otherwise —
    /// then ``nextDeadline`` says when to call ``handleDeadline()``. After an overflow it reads
    /// every table again, blocking for the few milliseconds the kernel takes to answer.
    public func handleReadable() throws(PathMonitorError) -> PathStatus? {
        reading: for _ in 0..<Self.readsPerWakeup {
            switch try socket.receive() {
            case .nothingPending:
                break reading
            case .overflow:
                let before = model
                try resynchronize()
                if model != before { debouncer.noteChange(at: clock().seconds) }
            case .messages(let messages):
                messages.forEach(applyNotification)
            }
        }
        return try handleDeadline()
    }

    /// Evaluates the status if the debounce deadline has come; returns it if it changed. When a
    /// link went down or an IPv4 address went away (the kernel then drops routes without
    /// saying so), it first reads the routes again, blocking for a few milliseconds.
    public func handleDeadline() throws(PathMonitorError) -> PathStatus? {
        guard debouncer.fire(at: clock().seconds) else { return nil }
        if routesMayBeStale { try synchronize([.routes]) }
        let status = PathRule.status(of: model)
        guard status != currentStatus else { return nil }
        currentStatus = status
        return status
    }

    /// Applies a change notification. Messages addressed to our own port are replies to our
    /// requests, never notifications: one not belonging to the dump being read is stale.
    private func applyNotification(_ message: KernelMessage) {
        guard message.port != socket.portID else { return }
        let change = model.apply(message.content)
        if change.routesMayBeStale { routesMayBeStale = true }
        if change.changed || change.routesMayBeStale { debouncer.noteChange(at: clock().seconds) }
    }

    /// Reads every table again after the kernel dropped notifications (`ENOBUFS`). What is
    /// still queued is older than the dumps about to be read, so it is discarded first — which
    /// also makes room for the dump's replies: the kernel only produces them into free space.
    private func resynchronize() throws(PathMonitorError) {
        overflowCount += 1
        try discardQueuedMessages()
        try synchronize(DumpKind.allCases)
    }

    /// Replaces the tables of `kinds` with the kernel's, one dump at a time (a netlink socket
    /// runs one dump at a time). An interrupted dump is read again; an overflow starts over
    /// with every table, since notifications of any kind may have been lost.
    private func synchronize(_ kinds: [DumpKind]) throws(PathMonitorError) {
        var pending = kinds[...]
        var attempts = 0
        while let kind = pending.first {
            attempts += 1
            guard attempts <= Self.maximumDumpAttempts else { throw PathMonitorError(operation: kind.description, code: EAGAIN) }
            switch try dump(kind) {
            case .complete:
                pending.removeFirst()
            case .interrupted:
                continue
            case .overflowed:
                overflowCount += 1
                try discardQueuedMessages()
                pending = DumpKind.allCases[...]
            }
        }
    }

    /// Empties the socket's queue, including the rest of any dump an earlier attempt started.
    private func discardQueuedMessages() throws(PathMonitorError) {
        for _ in 0..<Self.maximumDiscardedReads {
            if case .nothingPending = try socket.receive() { return }
        }
    }

    private enum DumpOutcome { case complete, interrupted, overflowed }

    /// One dump: the table of `kind` is cleared at the first reply, so entries that vanished
    /// while notifications were being lost go with it; notifications in between are applied
    /// in order, as they are newer than the reply before them.
    private func dump(_ kind: DumpKind) throws(PathMonitorError) -> DumpOutcome {
        sequence = sequence == UInt32.max ? 1 : sequence + 1
        let request = sequence
        if kind == .routes { routesMayBeStale = false }
        try socket.requestDump(kind, sequence: request)
        var started = false
        var interrupted = false
        while true {
            guard try socket.waitUntilReadable(timeoutMilliseconds: Self.dumpTimeoutMilliseconds) else {
                throw PathMonitorError(operation: kind.description, code: ETIMEDOUT)
            }
            let messages: [KernelMessage]
            switch try socket.receive() {
            case .nothingPending: continue
            case .overflow: return .overflowed
            case .messages(let received): messages = received
            }
            var finished = false
            for message in messages {
                guard message.port == socket.portID, message.sequence == request, !finished else {
                    applyNotification(message)
                    continue
                }
                if !started {
                    model.clear(kind)
                    started = true
                }
                if message.isDumpInterrupted { interrupted = true }
                switch message.content {
                case .dumpDone: finished = true
                // The kernel could not queue the dump's start (ENOBUFS), or an earlier attempt's
                // dump is still being produced (EBUSY): empty the queue and start over.
                case .error(ENOBUFS), .error(EBUSY): return .overflowed
                case .error(let code): throw PathMonitorError(operation: kind.description, code: code)
                default: _ = model.apply(message.content)
                }
            }
            if finished { return interrupted ? .interrupted : .complete }
        }
    }
}
