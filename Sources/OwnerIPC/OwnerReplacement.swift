// What a client does when the owner of its display speaks another protocol version — an
// upgrade while an owner runs (the systemd unit keeps one for the whole session). An older
// owner is asked to `handover`: it answers with its banners as `show` arguments and exits, and
// the client shows them again through a new owner of its own version before it goes on with
// its request. An owner too old to know `handover` (protocol 1) is asked to `quit` when the
// command may start an owner (`show`, the network monitor) — its banners are lost, and the
// client says so — and otherwise named in one line with the command that stops it (exit 76).
// A newer owner is never replaced: that is how two versions installed side by side would take
// the display from each other in turn. `quit` reaches an owner of any version.
// Both requests, and the `version` error that starts all this, are frozen (docs/owner.md).

import BannerConfig
import BannerCore
import Glibc
import OwnerProtocol

extension OwnerClient {
    /// The owner that answered `command` speaks protocol `version`: replace it (see above), or
    /// end the command. For `quit`, the answer of the owner asked in its own version; nil when
    /// the request should now be sent again.
    func replace(ownerSpeaking version: Int, pid: Int32?, for command: OwnerRequest.Command, start: Bool, configPath: String?) throws(CommandFailure) -> Exchange? {
        let owner = "the owner for \(paths.display)\(Self.describe(pid))"
        if command == .quit { return try ask(.frozen(.quit, version: version)) }
        guard version < OwnerProtocol.version else {
            throw CommandFailure(
                "\(owner) is from a newer window-banner (protocol \(version); this one speaks \(OwnerProtocol.version)): run the newer window-banner, or stop the owner with `window-banner dismiss --all --quit`",
                code: ExitStatus.protocolMismatch)
        }
        // Gone already: another client replaced it first, and the request goes to the new owner.
        guard let answer = try ask(.frozen(.handover, version: version)) else { return nil }
        answer.close()
        guard let handover = answer.response.handover else {
            guard start else {
                throw CommandFailure(
                    "\(owner) is from an older window-banner (protocol \(version)) that cannot hand its banners over: stop it with `window-banner dismiss --all --quit` (its banners go), then try again",
                    code: ExitStatus.protocolMismatch)
            }
            if let quit = try ask(.frozen(.quit, version: version)) { quit.close() }
            Terminal.warning("replaced \(owner), from an older window-banner (protocol \(version)) that cannot hand its banners over: they are gone")
            return nil
        }
        // The new owner reads its [daemon] settings from the user's file, whichever command
        // happened to meet the old one.
        reshow(handover.banners, configPath: configPath ?? BannerConfig.defaultPath(environment: processEnvironment()))
        return nil
    }

    /// Shows the banners an old owner handed over through a new owner (started now), in order;
    /// one that fails is a warning, the others still come back.
    private func reshow(_ banners: [ShowArgumentsRequest], configPath: String?) {
        let environment = processEnvironment()
        for var banner in banners {
            // What the old owner did not know about the client (a `show` from before the owner
            // ran carried only its locale), this client, of the same user and session, has.
            banner.environment = environment.merging(banner.environment) { $1 }
            do {
                let exchange = try exchange(OwnerRequest(banner), start: true, configPath: configPath, replacing: false)
                exchange?.close()
                if let error = exchange?.response.error { Terminal.warning("a banner of the replaced owner did not come back: \(error.message)") }
            } catch {
                Terminal.warning("a banner of the replaced owner did not come back: \(error.message)")
            }
        }
    }

    /// Sends `request` (already in the owner's version) and reads the answer without checking
    /// its version; nil when no owner runs any more, or it went without answering (replaced
    /// by another client at this very moment).
    private func ask(_ request: OwnerRequest) throws(CommandFailure) -> Exchange? {
        guard let fd = try connect(start: false, configPath: nil) else { return nil }
        let pid = UnixSocket.peerPID(fd)
        guard UnixSocket.send(Frame.encode(OwnerProtocol.encode(request)), to: fd) else {
            Glibc.close(fd)
            throw CommandFailure("the owner for \(paths.display)\(Self.describe(pid)) did not take the \(request.command.rawValue) request", code: ExitStatus.unreachable)
        }
        var reader = FrameReader()
        switch UnixSocket.receiveFrame(from: fd, reader: &reader, timeout: replyTimeout) {
        case .success(let body):
            let response = (try? OwnerProtocol.decode(OwnerResponse.self, from: body).get())
                ?? OwnerResponse(error: OwnerError(.protocol, "unreadable reply"))
            return Exchange(fd: fd, reader: reader, response: response, ownerPID: pid, display: paths.display, silence: replyTimeout)
        case .failure(.timedOut):
            Glibc.close(fd)
            throw CommandFailure("the owner for \(paths.display)\(Self.describe(pid)) did not answer the \(request.command.rawValue) request within \(BannerFont.format(replyTimeout)) s", code: ExitStatus.unreachable)
        case .failure(.closed):
            Glibc.close(fd)
            return nil
        case .failure(.badFrame(let error)):
            Glibc.close(fd)
            throw CommandFailure("unreadable reply from the owner: \(error)", code: ExitStatus.protocolMismatch)
        }
    }
}
