// A display server's connection (a WatchedConnection: Wayland's, GNOME's compositor's) as a
// source the loop serves: before every sleep it handles what was already read and sends what is
// queued (`prepareToSleep`), and is polled for what that asks — reading, and writing while the
// socket could not take every request, so they go out once it can and not when something else
// wakes the loop; when the socket is ready, `dispatch`.

import Glibc
import MonotonicClock
import Reactor

/// `connection` served by a loop (`EventLoop.serve`): its loss ends the source.
public final class ConnectionSource: LoopSource {
    public let connection: any WatchedConnection
    /// The loss `prepareToSleep` found, thrown at the next `process`.
    private var loss: (any Error)?

    public init(_ connection: any WatchedConnection) {
        self.connection = connection
    }

    public var descriptors: [PollDescriptor] {
        do {
            return [PollDescriptor(fd: connection.fileDescriptor, events: try connection.prepareToSleep())]
        } catch {
            // Still polled: a lost socket is readable (or hung up) at once, and says so then.
            loss = error
            return [PollDescriptor(fd: connection.fileDescriptor, events: Int16(POLLIN))]
        }
    }

    /// Due at once while a loss waits to be said.
    public var deadline: MonotonicTime? { loss == nil ? nil : MonotonicTime(seconds: 0) }

    public func process(ready: [PollDescriptor]) throws {
        if let loss { throw loss }
        guard !ready.isEmpty else { return }
        try connection.dispatch()
    }
}
