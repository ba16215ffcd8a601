// The monitor as an async sequence: a thread of its own sleeps in poll(2) on the netlink socket
// and a stop pipe, and yields each distinct status. The thread owns the monitor outright, so
// nothing is shared but the stream and the pipe.

import MonotonicClock

extension PathMonitor {
    /// Every distinct path status: the current one first, then each change, until the consumer
    /// stops iterating (which ends the monitor's thread and closes its socket) or the socket
    /// fails (the sequence then throws a ``PathMonitorError``).
    ///
    /// ```swift
    /// for try await status in try PathMonitor.statuses() {
    ///     print(status.isSatisfied ? "online via \(status.interfaceName!)" : "offline")
    /// }
    /// ```
    public static func statuses(
        configuration: Configuration = Configuration()
    ) throws(PathMonitorError) -> AsyncThrowingStream<PathStatus, any Error> {
        let monitor = try PathMonitor(configuration: configuration, clock: monotonicNow)
        let stop = try StopSignal()
        // Unbounded: statuses are rare, and dropping one could make two neighbours equal.
        let (statuses, continuation) = AsyncThrowingStream.makeStream(of: PathStatus.self)
        continuation.onTermination = { _ in stop.raise() }
        try Syscalls.startDetachedThread {
            monitor.serve(until: stop, yieldingTo: continuation)
        }
        return statuses
    }

    /// The thread's loop: sleep until the kernel or the stop pipe speaks or a deadline comes.
    private func serve(until stop: StopSignal, yieldingTo continuation: AsyncThrowingStream<PathStatus, any Error>.Continuation) {
        continuation.yield(currentStatus)
        do {
            while true {
                let ready = try Syscalls.waitForInput([fileDescriptor, stop.readEnd], timeoutMilliseconds: pollTimeout)
                if ready[1] { break }
                if ready[0], let status = try handleReadable() { continuation.yield(status) }
                if let status = try handleDeadline() { continuation.yield(status) }
            }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
}

/// A pipe that wakes the monitor's thread when the stream's consumer goes away. Closed when the
/// last of its two holders (the thread and the stream's termination handler) lets go, so the
/// handler can never write into a descriptor number already reused.
private final class StopSignal: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(PathMonitorError) {
        (readEnd, writeEnd) = try Syscalls.makePipe()
    }

    func raise() { Syscalls.writeWakeByte(writeEnd) }

    deinit {
        Syscalls.closeDescriptor(readEnd)
        Syscalls.closeDescriptor(writeEnd)
    }
}
