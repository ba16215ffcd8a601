// What the two watchers (the network monitor, the call watcher) need of the owner for their own
// banners, once for both: showing one, taking one away by its id, and hearing that one ended
// without them (the owner writes one frame on the banner's `show --wait` connection).

import BannerRuntime
import BannerCore
import Glibc
import OwnerProtocol
import WindowBannerClient

extension OwnerClient {
    /// `show --wait` for a watcher's own banner, starting an owner if none runs: the open
    /// connection on which the owner will say when the banner ends (see ``BannerEnd``); throws
    /// when no owner could be reached or it refused the banner.
    func showBanner(_ request: ShowRequest, configPath: String?) throws(CommandFailure) -> Exchange {
        guard let exchange = try exchange(OwnerRequest(request), start: true, configPath: configPath) else {
            throw CommandFailure("no owner", code: ExitStatus.unreachable)
        }
        if let error = exchange.response.error {
            exchange.close()
            throw OwnerClient.failure(error)
        }
        return exchange
    }

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
