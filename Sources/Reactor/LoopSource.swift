// What the event loop serves besides its timers: a source is a descriptor (sd-bus's socket,
// libcurl's, GIO's), the events it waits for now, a deadline by which it must act even if nothing
// arrives, and `process`. Every reader below the runtime (the session and accessibility buses,
// the HTTP check, the desktop's preference readers) is one, so none of them is wired to the loop
// by hand: `EventLoop.serve` asks each for its descriptors and deadline before every sleep.

import MonotonicClock

/// One descriptor to poll and the poll(2) events it waits for (or, handed to ``LoopSource/process(ready:)``,
/// the events it has).
public struct PollDescriptor: Sendable, Hashable {
    public var fd: Int32
    public var events: Int16

    public init(fd: Int32, events: Int16) {
        self.fd = fd
        self.events = events
    }
}

/// Something the loop serves (``EventLoop/serve(_:onEnd:)``).
///
/// Most sources have one descriptor; libcurl and GIO may want several at once, so a source
/// lists them. ``descriptors`` and ``deadline`` are read before every sleep, so a source
/// whose wants change (sd-bus waits to write, libcurl opens a socket) needs no re-arming.
public protocol LoopSource: AnyObject {
    /// The descriptors to poll now, each with the events it waits for.
    var descriptors: [PollDescriptor] { get }
    /// When ``process(ready:)`` must run even if nothing arrives, on the loop's clock; nil for
    /// never.
    var deadline: MonotonicTime? { get }
    /// Acts on what arrived — `ready` holds the descriptors that have events, with those
    /// events — or, with `ready` empty, on the deadline having passed. Throwing ends the
    /// source: the loop stops serving it and tells the caller why.
    func process(ready: [PollDescriptor]) throws
}
