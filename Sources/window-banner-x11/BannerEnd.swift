// How a watcher (the network monitor, the call watcher) hears that its banner ended without it:
// the owner writes one frame on the banner's `show --wait` connection. Read here once for both.

import BannerRuntime
import BannerCore
import Glibc
import OwnerProtocol
import WindowBannerClient

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
