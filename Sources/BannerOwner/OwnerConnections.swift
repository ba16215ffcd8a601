// The owner's socket: the connections it accepted, each read a frame at a time on the owner's
// loop, answered, kept open while it waits for its banner (`show --wait`) or follows the status,
// sent keepalives, and closed. Limits hold here — one user only, at most
// `OwnerLimits.maximumClients` connections (the one idle longest makes room), a request within
// `OwnerLimits.requestTimeout` — so the owner above sees requests and client ids, never a
// descriptor. Start reading at `accept()`.

import BannerCore
import BannerRuntime
import Glibc
import OwnerIPC
import OwnerProtocol
import Reactor

final class OwnerConnections {
    private final class Client {
        let fd: Int32
        var reader = FrameReader()
        var watch: EventLoop.Token?
        /// Closes it unless a whole request comes first.
        let requestDeadline: LoopTimer
        /// Waiting for its banner to end (`show --wait`): kept open, no request timeout.
        var waitingFor: Int?
        /// Seconds between the keepalive frames it asked for, once its first answer is out.
        var keepaliveInterval: Double?
        /// The next keepalive frame's.
        let keepalive: LoopTimer

        init(fd: Int32, loop: EventLoop) {
            self.fd = fd
            requestDeadline = LoopTimer(on: loop)
            keepalive = LoopTimer(on: loop)
        }
    }

    /// A whole request frame from the client with this id.
    var onRequest: ((_ body: [UInt8], _ client: Int) -> Void)?
    /// The client with this id is gone (hung up, closed after its answer, dropped), with the
    /// request it was waiting for: whatever waits on it must forget it.
    var onClosed: ((_ client: Int, _ waitingFor: Int?) -> Void)?

    private let loop: EventLoop
    private let listener: Int32
    private let socketPath: String
    private let log: (String) -> Void
    private var listenerWatch: EventLoop.Token?
    private var clients: [Int: Client] = [:]
    private var nextClientID = 0

    /// Serves the connections `listener` (bound at `socketPath`) accepts, on `loop`.
    init(listener: Int32, socketPath: String, loop: EventLoop, log: @escaping (String) -> Void) {
        self.listener = listener
        self.socketPath = socketPath
        self.loop = loop
        self.log = log
        listenerWatch = loop.watch(fd: listener) { [unowned self] in accept() }
    }

    /// No connection is open.
    var isEmpty: Bool { clients.isEmpty }

    /// The ids of every open connection.
    var ids: [Int] { Array(clients.keys) }

    // MARK: Accepting and reading

    /// Accepts every connection waiting on the socket (also called just before an idle owner
    /// decides to exit, so a client that connected at that moment is served).
    func accept() {
        guard listenerWatch != nil else { return }
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            guard UnixSocket.peerUID(fd) == geteuid() else {
                log("refused a connection from another user")
                close(fd)
                continue
            }
            // Full: make room by closing the connection that has waited longest without
            // sending a request, so idle or hostile peers can never lock a real client out.
            // Only when every slot holds a `--wait` client is the newcomer turned away.
            if clients.count >= OwnerLimits.maximumClients {
                guard let idlest = clients.filter({ $0.value.waitingFor == nil && $0.value.requestDeadline.isPending }).keys.min() else {
                    log("all \(OwnerLimits.maximumClients) connections wait for their banners: turned a new one away")
                    let busy = OwnerError(.busy, "owner busy: \(OwnerLimits.maximumClients) clients waiting for their banners")
                    _ = UnixSocket.send(Frame.encode(OwnerProtocol.encode(OwnerResponse(error: busy))), to: fd)
                    close(fd)
                    continue
                }
                log("all \(OwnerLimits.maximumClients) connections in use: closed the one idle longest")
                drop(idlest)
            }
            nextClientID += 1
            let id = nextClientID
            let client = Client(fd: fd, loop: loop)
            clients[id] = client
            client.watch = loop.watch(fd: fd) { [unowned self] in readable(id) }
            client.requestDeadline.set(after: OwnerLimits.requestTimeout) { [unowned self] in
                log("a client sent no request within \(BannerFont.format(OwnerLimits.requestTimeout)) s; closed it")
                drop(id)
            }
        }
    }

    private func readable(_ id: Int) {
        guard let client = clients[id] else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(client.fd, &buffer, buffer.count, 0)
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        guard count > 0 else {
            if client.reader.bufferedCount > 0 {
                log("a client hung up in the middle of a request (\(client.reader.bufferedCount) bytes of it read); dropped it")
            }
            drop(id)
            return
        }
        client.reader.append(buffer[0..<count])
        while clients[id] != nil {
            let body: [UInt8]
            do {
                guard let frame = try client.reader.nextFrame() else { return }
                body = frame
            } catch {
                reply(id, OwnerResponse(error: OwnerError(.protocol, "\(error)")), thenClose: true)
                return
            }
            client.requestDeadline.cancel()
            onRequest?(body, id)
        }
    }

    // MARK: Answering

    /// Sends `response` to client `id`, closing the connection after it (or when it cannot
    /// be sent).
    func reply(_ id: Int, _ response: OwnerResponse, thenClose: Bool = false) {
        // A request that could not be read is a fault worth finding later; a bad value is not.
        if let error = response.error, error.kind == .protocol || error.kind == .version {
            log("refused a request (\(error.kind.rawValue)): \(error.message)")
        }
        guard let client = clients[id] else { return }
        let sent = UnixSocket.send(frame(response), to: client.fd)
        if thenClose || !sent { drop(id) }
    }

    /// ``reply(_:_:thenClose:)``, and when the connection stays open, keepalives from now on
    /// at the interval it asked for.
    func send(_ response: OwnerResponse, to id: Int, closing: Bool) {
        reply(id, response, thenClose: closing)
        if !closing { startKeepalive(id) }
    }

    /// Sends a frame already made (the same status to every subscriber); a client that stopped
    /// reading until its socket's buffer is full is dropped, never waited for. Whether it was sent.
    @discardableResult
    func push(_ frame: [UInt8], to id: Int) -> Bool {
        guard let client = clients[id] else { return false }
        if UnixSocket.send(frame, to: client.fd) { return true }
        drop(id)
        return false
    }

    /// `response` as a frame — or, when it would be longer than any client accepts (a status
    /// of several monitors each showing a title near the limit), a `protocol` error saying so.
    func frame(_ response: OwnerResponse) -> [UInt8] {
        let body = OwnerProtocol.encode(response)
        guard body.count > Frame.maximumLength else { return Frame.encode(body) }
        let message = "the owner's reply would be \(body.count) bytes, more than the \(Frame.maximumLength) a client accepts"
        log(message)
        return Frame.encode(OwnerProtocol.encode(OwnerResponse(error: OwnerError(.protocol, message))))
    }

    /// One last frame to every client waiting for a banner (the display went away).
    func tellWaiting(_ response: OwnerResponse) {
        let last = frame(response)
        for client in clients.values where client.waitingFor != nil {
            _ = UnixSocket.send(last, to: client.fd)
        }
    }

    // MARK: Waiting and keepalives

    /// Client `id` now waits for request `token` to end (nil: no longer), with keepalives
    /// every `keepalive` seconds once its first answer is out.
    func wait(_ id: Int, for token: Int?, keepalive: Double? = nil) {
        clients[id]?.waitingFor = token
        if token != nil { clients[id]?.keepaliveInterval = keepalive }
    }

    /// Client `id` follows the status, with keepalives every `interval` seconds.
    func follow(_ id: Int, keepalive interval: Double?) {
        clients[id]?.keepaliveInterval = interval
    }

    /// Sends `id` a keepalive frame every interval it asked for, from now until it goes.
    private func startKeepalive(_ id: Int) {
        guard let client = clients[id], let interval = client.keepaliveInterval, !client.keepalive.isPending else { return }
        client.keepalive.set(after: interval) { [unowned self] in
            reply(id, .keepalive)
            startKeepalive(id)
        }
    }

    // MARK: Closing

    /// Closes client `id`'s connection.
    func drop(_ id: Int) {
        guard let client = clients.removeValue(forKey: id) else { return }
        if let watch = client.watch { loop.cancel(watch) }
        client.requestDeadline.cancel()
        client.keepalive.cancel()
        close(client.fd)
        onClosed?(id, client.waitingFor)
    }

    /// No new connections from now on: the socket goes, so the next client starts a new owner.
    func stopListening() {
        guard let listenerWatch else { return }
        loop.cancel(listenerWatch)
        self.listenerWatch = nil
        unlink(socketPath)
        close(listener)
    }
}
