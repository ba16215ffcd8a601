// How `show`, `dismiss` and `status` reach the owner of a display: connect to its socket, or —
// for `show` — start it first. Clients that find no owner take the display's start lock in
// turn, so when fifty start at once exactly one owner is started and the others connect to it.
// The owner reports readiness on a pipe, so nobody polls for the socket to appear.
// Every wait on the owner is bounded (`replyTimeout`, `--owner-timeout`): an owner that is
// stopped, or stuck on a stopped X server, costs a caller that many seconds and exit 75, never a
// hang (docs/timeouts.md).

import BannerCore
import Glibc
import OwnerProtocol
import Reactor
import Spawning
import StartupTrace

package struct OwnerClient {
    /// Seconds a command waits for the owner's answer unless `--owner-timeout` or
    /// `$WINDOW_BANNER_OWNER_TIMEOUT` says otherwise.
    package static let defaultReplyTimeout = 5.0
    /// The variable that sets `replyTimeout` for every command (the flag wins).
    package static let timeoutVariable = "WINDOW_BANNER_OWNER_TIMEOUT"

    package let paths: OwnerPaths
    /// How long to wait for a new owner to report ready, and for an answer. A command can
    /// afford to wait; the network monitor keeps these short so it never stops listening long.
    package var startTimeout = 10.0
    package var replyTimeout = OwnerClient.defaultReplyTimeout

    package init(paths: OwnerPaths, replyTimeout: Double = OwnerClient.defaultReplyTimeout) {
        self.paths = paths
        self.replyTimeout = replyTimeout
    }

    /// An open connection and the first answer on it.
    package struct Exchange {
        package let fd: Int32
        package var reader: FrameReader
        package let response: OwnerResponse
        /// The owner's process id (from the socket), for messages about it.
        package let ownerPID: Int32?
        package let display: String
        /// Seconds of silence after which `next()` gives up on an owner that promised keepalives.
        package let silence: Double
        /// True when this request started the owner (it was its first).
        package var startedOwner = false

        /// Waits for the next frame other than a keepalive (`show --wait`, `status --follow`);
        /// nil when the owner went away. With `keepalive` (the owner sends them every so often)
        /// an owner silent for longer than `silence` counts as gone too (`nil` as well when
        /// `silentIsGone`, else exit 75 naming it).
        package mutating func next(keepalive: Bool, while doing: String, silentIsGone: Bool = false) throws(CommandFailure) -> OwnerResponse? {
            while true {
                switch UnixSocket.receiveFrame(from: fd, reader: &reader, timeout: keepalive ? silence : nil) {
                case .success(let body):
                    let response = try OwnerClient.decode(body)
                    if response.isKeepalive { continue }
                    return response
                case .failure(.badFrame(let error)):
                    throw CommandFailure("unreadable reply from the owner: \(error)", code: ExitStatus.protocolMismatch)
                case .failure(.timedOut) where !silentIsGone:
                    throw CommandFailure("the owner for \(display)\(OwnerClient.describe(ownerPID)) stopped answering \(doing) (nothing for \(BannerFont.format(silence)) s)", code: ExitStatus.unreachable)
                case .failure:
                    return nil
                }
            }
        }

        package func close() { Glibc.close(fd) }

        /// Closes the exchange and throws the owner's refusal, when it answered with one.
        package func closeIfRefused() throws(CommandFailure) {
            guard let error = response.error else { return }
            close()
            throw OwnerClient.failure(error)
        }
    }

    /// ` (pid N)`, or nothing when the pid is unknown.
    static func describe(_ pid: Int32?) -> String { pid.map { " (pid \($0))" } ?? "" }

    /// What a request is called in messages: the command that sent it.
    static func name(of command: OwnerRequest.Command) -> String {
        switch command {
        case .showArguments: "show"
        case .quit: "dismiss --quit"
        case .subscribe: "status --follow"
        default: command.rawValue
        }
    }

    /// Sends `request`; with `start`, starts an owner when none runs. Nil when no owner runs and
    /// `start` is false. An owner of an older protocol version is replaced first (`replace`),
    /// unless `replacing` is false.
    /// `whileStarting`: when this call starts the owner, run while the owner starts; the request
    /// it makes (nil: none) is sent instead of `request`.
    package func exchange(
        _ request: OwnerRequest, start: Bool, configPath: String?, replacing: Bool = true, whileStarting: (() -> OwnerRequest?)? = nil
    ) throws(CommandFailure) -> Exchange? {
        let body = OwnerProtocol.encode(request)
        guard body.count <= Frame.maximumLength else {
            throw CommandFailure("request too large: \(body.count) bytes encoded (at most \(Frame.maximumLength))", code: ExitStatus.usage)
        }
        // An owner that is exiting because it was idle may close our connection unanswered:
        // the next attempt starts a new one. Replacing an owner of another version is no attempt.
        var attempt = 0
        var replaced = false
        while attempt < 3 {
            attempt += 1
            var started = false
            var instead: OwnerRequest?
            guard let fd = try connect(start: start, configPath: configPath, started: &started, whileStarting: whileStarting, instead: &instead) else { return nil }
            let pid = UnixSocket.peerPID(fd)
            let made = instead.map(OwnerProtocol.encode)
            guard UnixSocket.send(Frame.encode(made.flatMap { $0.count <= Frame.maximumLength ? $0 : nil } ?? body), to: fd) else {
                let failure = errno
                Glibc.close(fd)
                if failure == EAGAIN || failure == EWOULDBLOCK {
                    throw CommandFailure("the owner for \(paths.display)\(Self.describe(pid)) did not take the \(Self.name(of: request.command)) request within \(BannerFont.format(replyTimeout)) s", code: ExitStatus.unreachable)
                }
                continue
            }
            var reader = FrameReader()
            switch UnixSocket.receiveFrame(from: fd, reader: &reader, timeout: replyTimeout) {
            case .success(let body):
                if replacing, !replaced, let version = OwnerProtocol.version(of: body), version != OwnerProtocol.version {
                    Glibc.close(fd)
                    replaced = true
                    attempt -= 1
                    if let answer = try replace(ownerSpeaking: version, pid: pid, for: request.command, start: start, configPath: configPath) { return answer }
                    continue
                }
                var exchange = Exchange(fd: fd, reader: reader, response: try Self.decode(body), ownerPID: pid, display: paths.display, silence: replyTimeout)
                exchange.startedOwner = started
                return exchange
            case .failure(.closed) where attempt < 3:
                Glibc.close(fd)
            case .failure(.closed):
                Glibc.close(fd)
                throw CommandFailure("the owner for \(paths.display) closed the connection without answering", code: ExitStatus.unreachable)
            case .failure(.timedOut):
                Glibc.close(fd)
                throw CommandFailure("the owner for \(paths.display)\(Self.describe(pid)) did not answer the \(Self.name(of: request.command)) request within \(BannerFont.format(replyTimeout)) s", code: ExitStatus.unreachable)
            case .failure(.badFrame(let error)):
                Glibc.close(fd)
                throw CommandFailure("unreadable reply from the owner: \(error)", code: ExitStatus.protocolMismatch)
            }
        }
        throw CommandFailure("cannot reach the owner for \(paths.display)", code: ExitStatus.unreachable)
    }

    package static func decode(_ body: [UInt8]) throws(CommandFailure) -> OwnerResponse {
        if let version = OwnerProtocol.version(of: body), version != OwnerProtocol.version {
            throw CommandFailure("the owner speaks protocol \(version), this window-banner \(OwnerProtocol.version): run the same version, or stop the owner with `window-banner dismiss --all --quit`", code: ExitStatus.protocolMismatch)
        }
        switch OwnerProtocol.decode(OwnerResponse.self, from: body) {
        case .success(let response): return response
        case .failure(let failure): throw CommandFailure("unreadable reply from the owner: \(failure.reason)", code: ExitStatus.protocolMismatch)
        }
    }

    /// Ends the command with the exit code of an owner error.
    package static func failure(_ error: OwnerError) -> CommandFailure {
        let code: Int32 = switch error.kind {
        case .usage: ExitStatus.usage
        case .config: ExitStatus.config
        case .version, .protocol, .redirect: ExitStatus.protocolMismatch
        case .busy: ExitStatus.unreachable
        case .displayLost: ExitStatus.displayUnavailable
        }
        return CommandFailure(error.message, code: code)
    }

    func connect(start: Bool, configPath: String?) throws(CommandFailure) -> Int32? {
        var started = false
        var instead: OwnerRequest?
        return try connect(start: start, configPath: configPath, started: &started, whileStarting: nil, instead: &instead)
    }

    /// The same; `started` tells whether this call started the owner, and when it does,
    /// `whileStarting` runs while the owner starts and `instead` is what it made.
    func connect(
        start: Bool, configPath: String?, started: inout Bool, whileStarting: (() -> OwnerRequest?)?, instead: inout OwnerRequest?
    ) throws(CommandFailure) -> Int32? {
        switch UnixSocket.connect(to: paths.socket, timeout: replyTimeout) {
        case .success(let fd):
            return fd
        case .failure(let error) where error.code == ENOENT || error.code == ECONNREFUSED:
            guard start else { return nil }
            return try startOwner(configPath: configPath, started: &started, whileStarting: whileStarting, instead: &instead)
        case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
            throw CommandFailure("the owner for \(paths.display) did not accept a connection within \(BannerFont.format(replyTimeout)) s (its queue is full)", code: ExitStatus.unreachable)
        case .failure(let error):
            throw CommandFailure("cannot reach the owner at \(paths.socket.printable): \(error.text)", code: ExitStatus.unreachable)
        }
    }

    /// Starts the owner under the start lock, or connects to the one another client started
    /// while we waited for the lock.
    private func startOwner(
        configPath: String?, started: inout Bool, whileStarting: (() -> OwnerRequest?)?, instead: inout OwnerRequest?
    ) throws(CommandFailure) -> Int32 {
        let lock = open(paths.startLock, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw CommandFailure("cannot open \(paths.startLock.printable): \(errorText())", code: ExitStatus.unreachable) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CommandFailure("cannot lock \(paths.startLock.printable): \(errorText())", code: ExitStatus.unreachable) }
        }
        if case .success(let fd) = UnixSocket.connect(to: paths.socket, timeout: replyTimeout) { return fd }

        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CommandFailure("cannot create a pipe: \(errorText())", code: ExitStatus.unreachable) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        // The owner reads [daemon] settings from the caller's file, when there is one.
        let startLine = OwnerStartLine(display: paths.display, configPath: configPath) { access($0, F_OK) == 0 }
        let arguments = [FullProgram.path] + startLine.arguments
        StartupTrace.mark("owner spawned")
        let spawned = spawnDetached(arguments, readyFD: ends[1], log: paths.log)
        close(ends[1])
        guard spawned == 0 else {
            throw CommandFailure("cannot start the owner (\(arguments[0].printable)): \(String(cString: strerror(spawned)))", code: ExitStatus.unreachable)
        }
        // The owner takes milliseconds to load and connect: time this process can use.
        instead = whileStarting?()
        StartupTrace.mark("arguments parsed")
        let line = readLine(from: ends[0], timeout: startTimeout)
        StartupTrace.mark("owner ready")
        if line == "ready", case .success(let fd) = UnixSocket.connect(to: paths.socket, timeout: replyTimeout) {
            started = true
            return fd
        }
        if let line, line.hasPrefix("error ") {
            // The owner that could not start ends now: this command returns once it has (the
            // pipe's other end closes as it exits), so nothing it started outlives it.
            _ = readLine(from: ends[0], timeout: startTimeout)
            let fields = line.dropFirst(6).split(separator: " ", maxSplits: 1)
            if fields.count == 2, let code = Int32(fields[0]) { throw CommandFailure(String(fields[1]), code: code) }
        }
        throw CommandFailure("the owner for \(paths.display) did not start (see \(paths.log.printable))", code: ExitStatus.unreachable)
    }

    /// Waits, at most `timeout` seconds, until the process `pid` has ended: an owner this
    /// command started for a request it refused ends at once, and is gone when the command is.
    package static func waitForEnd(of pid: Int32, timeout: Double) {
        let giveUp = PollWait.deadline(in: timeout)
        while kill(pid, 0) == 0 || errno == EPERM, !PollWait.hasPassed(giveUp) {
            poll(nil, 0, 2)
        }
    }

    /// One line from a pipe, waiting at most `timeout` seconds; nil on timeout or EOF first.
    private func readLine(from fd: Int32, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        let giveUp = PollWait.deadline(in: timeout)
        while bytes.count < 4096 {
            guard case .ready = PollWait.wait(fd: fd, events: Int16(POLLIN), until: giveUp) else { return nil }
            let count = read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Starts `arguments` in its own session with `readyFD` as descriptor 3, stdin/stdout on
/// /dev/null and stderr appended to `log`; returns 0 or the errno. The caller ignores SIGCHLD
/// meanwhile so that an owner that ends before it does is never left a zombie.
private func spawnDetached(_ arguments: [String], readyFD: Int32, log: String) -> Int32 {
    signal(SIGCHLD, SIG_IGN)
    // Nothing else of the caller's: a pipe it inherited (cron's to its mailer, a shell's process
    // substitution) would otherwise stay open for the owner's whole life, and whoever reads it
    // would wait for its end as long.
    let child = ChildSpec(arguments, descriptors: [.null, .null, .appending(log), .descriptor(readyFD)], newSession: true)
    switch child.start() {
    case .success: return 0
    case .failure(let error): return error.code
    }
}
