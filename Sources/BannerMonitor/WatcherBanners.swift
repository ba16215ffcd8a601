// What the two watchers (the network monitor, the call watcher) need of the owner for their own
// banners, once for both: showing one and hearing that it ended without them (the owner writes
// one frame on the banner's `show --wait` connection), and taking one away by its id. The
// watchers see it as `WatcherBanners`, so their tests give them banners of their own. A watcher
// that knows whether the screen is shared tells the owner on a connection it keeps open
// (SharingConnection), so that private banners are held back meanwhile.

import BannerCore
import BannerRuntime
import Glibc
import OwnerIPC
import OwnerProtocol
import Reactor

/// What a watcher needs of the display's owner for its own banners.
package protocol WatcherBanners: AnyObject {
    /// Shows `request`; `onEnd` runs once, with why it ended (nil: the owner went away), when
    /// the banner ends without the handle's `close()`. Throws when it could not be shown.
    func show(_ request: ShowRequest, onEnd: @escaping (BannerEndReason?) -> Void) throws(CommandFailure) -> any ShownBannerHandle
    /// Takes the banner with `id` away, visible or queued, on every monitor: true when the owner
    /// took it away or none runs (so nothing shows); throws when the owner refused.
    func dismiss(id: String) throws(CommandFailure) -> Bool
    /// Whether a locker hides the banners now; nil when the owner cannot tell (or none runs).
    func screenIsLocked() -> Bool?
    /// Tells the owner whether the screen is shared now: while it is, the owner holds private
    /// banners (`show --private`) back, and takes those on screen away. Call it when watching
    /// starts, with what is true then, and at every change. The report goes on a connection
    /// kept open for as long as this watcher lives (its close tells the owner nobody watches);
    /// an owner is started when none runs, and one that went away is started again, so that
    /// the owner a `show --private` reaches always knows (it stays up while a watcher is
    /// connected). Throws when the owner could not be reached, or refused the report.
    func reportSharing(_ sharing: Bool) throws(CommandFailure)
}

extension WatcherBanners {
    package func screenIsLocked() -> Bool? { nil }
    package func reportSharing(_ sharing: Bool) throws(CommandFailure) {}
}

/// A watcher's banner while it is up and listened to.
package protocol ShownBannerHandle: AnyObject {
    /// Stops listening; the banner stays (dismiss it by its id).
    func close()
}

/// The display's owner, reached on its socket (started when none runs).
package final class OwnerBanners: WatcherBanners {
    private let owner: OwnerClient
    private let configPath: String?
    private let loop: EventLoop
    /// The connection sharing reports go on, while open.
    private var sharingConnection: SharingConnection?
    /// What the last report said.
    private var sharing = false

    package init(owner: OwnerClient, configPath: String?, loop: EventLoop) {
        self.owner = owner
        self.configPath = configPath
        self.loop = loop
    }

    deinit { sharingConnection?.close() }

    package func show(_ request: ShowRequest, onEnd: @escaping (BannerEndReason?) -> Void) throws(CommandFailure) -> any ShownBannerHandle {
        try ShownBanner(request, owner: owner, configPath: configPath, loop: loop, onEnd: onEnd)
    }

    package func dismiss(id: String) throws(CommandFailure) -> Bool {
        try owner.dismissBanner(id: id)
    }

    /// The owner's `status`: a presented banner hidden because the screen is locked.
    package func screenIsLocked() -> Bool? {
        guard let exchange = try? owner.exchange(.status, start: false, configPath: nil) else { return nil }
        exchange.close()
        guard let monitors = exchange.response.status?.monitors else { return nil }
        return monitors.contains { $0.hidden == "locked" }
    }

    package func reportSharing(_ sharing: Bool) throws(CommandFailure) {
        self.sharing = sharing
        if let connection = sharingConnection {
            if connection.report(sharing) { return }
            connection.close()
            sharingConnection = nil
        }
        try openSharingConnection()
    }

    /// Reaches the owner (started when none runs) with the report now true.
    private func openSharingConnection() throws(CommandFailure) {
        sharingConnection = try SharingConnection.open(
            reporting: sharing, owner: owner, configPath: configPath, start: true, loop: loop
        ) { [weak self] in self?.sharingConnectionLost() }
    }

    /// The owner closed the connection (it exited, or a newer one replaced it): the report
    /// goes to the owner there is now, or to a new one. When that fails, the next report tries
    /// again.
    private func sharingConnectionLost() {
        sharingConnection = nil
        try? openSharingConnection()
    }
}

/// A watcher's connection for its sharing reports (`sharing`), open for as long as it watches:
/// each report is answered with how many private banners the owner holds, and the owner
/// writes nothing else on it, so anything readable there is the owner gone.
final class SharingConnection {
    private let connection: ListenedExchange
    private let replyTimeout: Double
    private let onLost: () -> Void

    /// Reports `sharing` on a new connection to the owner, started when `start` (nil when none
    /// runs and `start` is false); `onLost` runs once when the owner closes the connection.
    static func open(
        reporting sharing: Bool, owner: OwnerClient, configPath: String?, start: Bool, loop: EventLoop, onLost: @escaping () -> Void
    ) throws(CommandFailure) -> SharingConnection? {
        guard let exchange = try owner.exchange(OwnerRequest(SharingReport(sharing: sharing)), start: start, configPath: configPath) else { return nil }
        try exchange.closeIfRefused()
        guard exchange.response.held != nil else {
            exchange.close()
            throw CommandFailure("the owner answered a sharing report with something else", code: ExitStatus.protocolMismatch)
        }
        return SharingConnection(exchange, replyTimeout: owner.replyTimeout, loop: loop, onLost: onLost)
    }

    private init(_ exchange: OwnerClient.Exchange, replyTimeout: Double, loop: EventLoop, onLost: @escaping () -> Void) {
        self.replyTimeout = replyTimeout
        self.onLost = onLost
        connection = ListenedExchange(exchange, loop: loop)
        connection.listen { [weak self] in self?.ownerSpoke() }
    }

    /// Reports `sharing` on this connection: false when the owner did not answer it (gone).
    func report(_ sharing: Bool) -> Bool {
        guard connection.isOpen,
              UnixSocket.send(Frame.encode(OwnerProtocol.encode(OwnerRequest(SharingReport(sharing: sharing)))), to: connection.exchange.fd),
              case .success(let body) = UnixSocket.receiveFrame(from: connection.exchange.fd, reader: &connection.exchange.reader, timeout: replyTimeout)
        else { return false }
        return (try? OwnerClient.decode(body))?.held != nil
    }

    /// Closes the connection: the owner hears that this watcher watches no more.
    func close() { connection.close() }

    private func ownerSpoke() {
        var byte: UInt8 = 0
        let count = recv(connection.exchange.fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        close()
        onLost()
    }
}

/// An exchange with the owner kept open and watched on the loop (a watcher's banner, its
/// sharing reports): what ``listen(_:)`` is given runs when the owner writes on it or closes
/// it; `close()` stops watching and lets it go.
final class ListenedExchange {
    var exchange: OwnerClient.Exchange
    private var watch: EventLoop.Token?
    private var closed = false
    private let loop: EventLoop

    init(_ exchange: OwnerClient.Exchange, loop: EventLoop) {
        self.exchange = exchange
        self.loop = loop
    }

    /// Runs `onReadable` each time the owner writes on the connection or closes it.
    func listen(_ onReadable: @escaping () -> Void) {
        guard !closed, watch == nil else { return }
        watch = loop.watch(fd: exchange.fd, onReadable)
    }

    /// Until ``close()``.
    var isOpen: Bool { !closed }

    func close() {
        guard !closed else { return }
        closed = true
        if let watch { loop.cancel(watch) }
        watch = nil
        exchange.close()
    }
}

/// A watcher's own banner while it is up: shown with `show --wait`, whose connection stays
/// open and watched on the loop, so the watcher hears when the banner ended without it.
final class ShownBanner: ShownBannerHandle {
    private let connection: ListenedExchange
    private let onEnd: (BannerEndReason?) -> Void

    /// Shows `request`, starting an owner if none runs; `onEnd` runs once, with why it ended
    /// (nil: the owner went away), when the banner ends without ``close()``. Throws when no owner
    /// could be reached or it refused the banner.
    init(
        _ request: ShowRequest, owner: OwnerClient, configPath: String?, loop: EventLoop, onEnd: @escaping (BannerEndReason?) -> Void
    ) throws(CommandFailure) {
        guard let exchange = try owner.exchange(OwnerRequest(request), start: true, configPath: configPath) else {
            throw CommandFailure("no owner", code: ExitStatus.unreachable)
        }
        try exchange.closeIfRefused()
        self.onEnd = onEnd
        connection = ListenedExchange(exchange, loop: loop)
        connection.listen { [weak self] in self?.ownerSpoke() }
    }

    /// Stops listening and lets the connection go; the banner stays (dismiss it by its id).
    func close() { connection.close() }

    private func ownerSpoke() {
        guard case .ended(let reason) = BannerEnd.read(&connection.exchange) else { return }
        close()
        onEnd(reason)
    }
}

extension OwnerClient {
    /// `dismiss --id id` for a watcher's own banner, visible or queued, on every monitor: true
    /// when the owner took it away, false when no owner runs (so nothing shows); throws when the
    /// owner could not be asked or refused.
    func dismissBanner(id: String) throws(CommandFailure) -> Bool {
        guard let exchange = try exchange(OwnerRequest(DismissRequest(id: id)), start: false, configPath: nil) else { return false }
        exchange.close()
        if let error = exchange.response.error { throw OwnerClient.failure(error) }
        return true
    }
}

/// What the owner said on a banner's `show --wait` connection.
enum BannerEnd {
    /// Nothing yet, or only part of a frame: keep listening.
    case notYet
    /// The banner ended, and why; nil when the owner went away (or wrote nothing readable).
    case ended(BannerEndReason?)

    /// Reads what is there on `exchange` without waiting. The owner's display gone ends this
    /// process, as it ends the owner (DisplayLoss: exit 69).
    static func read(_ exchange: inout OwnerClient.Exchange) -> BannerEnd {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(exchange.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0, errno == EAGAIN || errno == EINTR { return .notYet }
        guard count > 0 else { return .ended(nil) }
        exchange.reader.append(buffer[0..<count])
        do throws(FrameError) {
            // The rest of the frame is on its way.
            guard let body = try exchange.reader.nextFrame() else { return .notYet }
            let response = try? OwnerClient.decode(body)
            if let error = response?.error, error.kind == .displayLost { DisplayLoss.end(error.message) }
            return .ended(response?.ended)
        } catch {
            // An unreadable stream says nothing more about the banner: count it as gone.
            return .ended(nil)
        }
    }
}
