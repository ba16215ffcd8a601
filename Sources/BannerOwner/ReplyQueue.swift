// The replies a `show` owes until its banner is on screen. "Returns once the banner is on
// screen": the answer goes once every monitor the banner went to has drawn a frame of it, or
// when that reply's own timer (OwnerLimits.frameReplyTimeout on the loop's clock) runs out,
// whichever comes first. A monitor that goes away is no longer waited for; a client that goes
// away is owed nothing; a client whose banner ends first gets its reply before the ending.
// The queue only holds and times the replies: the owner sends them (`send`).

import OwnerProtocol
import Reactor

package final class ReplyQueue {
    private struct Pending {
        let client: Int
        var monitors: Set<String>
        let response: OwnerResponse
        let close: Bool
        let timer: LoopTimer
    }

    private let loop: EventLoop
    private let timeout: Double
    private let send: (_ response: OwnerResponse, _ client: Int, _ close: Bool) -> Void
    private var pending: [Pending] = []

    /// Replies timed on `loop`, each waiting `timeout` seconds at most, handed to `send` when due.
    package init(loop: EventLoop, timeout: Double = OwnerLimits.frameReplyTimeout, send: @escaping (OwnerResponse, Int, Bool) -> Void) {
        self.loop = loop
        self.timeout = timeout
        self.send = send
    }

    /// No reply is owed.
    package var isEmpty: Bool { pending.isEmpty }

    /// Whether a reply still waits for a frame on `monitor`.
    package func waits(for monitor: String) -> Bool { pending.contains { $0.monitors.contains(monitor) } }

    /// `response` goes to `client` once each of `monitors` has drawn a frame, or after the
    /// timeout; with `close`, the connection closes after it.
    package func add(_ response: OwnerResponse, to client: Int, closing close: Bool, after monitors: Set<String>) {
        let timer = LoopTimer(on: loop)
        pending.append(Pending(client: client, monitors: monitors, response: response, close: close, timer: timer))
        timer.set(after: timeout) { [unowned self] in sendNow(to: client) }
    }

    /// `monitor` drew a frame: every reply waiting for nothing else goes.
    package func frameDrawn(on monitor: String) {
        for index in pending.indices { pending[index].monitors.remove(monitor) }
        flushReady()
    }

    /// Only `monitors` are left: replies waiting for others wait for them no more.
    package func keep(monitors: Set<String>) {
        for index in pending.indices { pending[index].monitors.formIntersection(monitors) }
        flushReady()
    }

    /// `client` went away: its reply is dropped.
    package func drop(client: Int) {
        for reply in pending where reply.client == client { reply.timer.cancel() }
        pending.removeAll { $0.client == client }
    }

    /// `client`'s reply, if one is owed, goes now (its banner ended before it was drawn).
    package func sendNow(to client: Int) {
        guard let index = pending.firstIndex(where: { $0.client == client }) else { return }
        let reply = pending.remove(at: index)
        reply.timer.cancel()
        send(reply.response, reply.client, reply.close)
    }

    private func flushReady() {
        let ready = pending.filter(\.monitors.isEmpty)
        pending.removeAll(where: \.monitors.isEmpty)
        for reply in ready {
            reply.timer.cancel()
            send(reply.response, reply.client, reply.close)
        }
    }
}
