// `status --follow`: what a status-bar module tails. It subscribes on the owner's socket and
// prints a line for the state now and one per change the owner pushes — no polling, and it never
// starts an owner. Without an owner (none yet, one that exited, one silent past the bound) it
// prints the "nothing shown" line and waits for the next owner's socket to appear (inotify on
// the runtime directory), so a bar module never dies. It ends as soon as whatever reads its
// output is gone, owner or not. Start reading at `StatusFollower.run`.

import BannerCore
import Glibc
import OwnerProtocol
import Reactor
import Spawning

/// `--format`: a line with `{title}`-style placeholders filled from the headline banner.
package struct StatusFormat {
    private enum Piece {
        case text(String)
        case field(String)
    }

    /// The placeholders `--format` knows.
    package static let fields = ["title", "subtitle", "style", "id", "remaining", "queue", "progress", "hidden"]
    /// The default: the title, or an empty line when nothing is shown.
    package static let title = StatusFormat(pieces: [.field("title")])

    private let pieces: [Piece]

    private init(pieces: [Piece]) { self.pieces = pieces }

    /// Parses `template`; an unknown or unclosed placeholder is a usage error naming it.
    package init(_ template: String) throws(CommandFailure) {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw CommandFailure("bad --format '\(template.printable)': '{' without '}'", code: ExitStatus.usage)
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.fields.contains(name) else {
                throw CommandFailure("bad --format '\(template.printable)': unknown field '{\(name.printable)}' (use \(Self.fields.map { "{\($0)}" }.joined(separator: " ")))", code: ExitStatus.usage)
            }
            pieces.append(.field(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self.pieces = pieces
    }

    /// The line for `status` (nil: no owner): empty when no banner is shown. Line breaks and
    /// other control characters in the banner's text become spaces: one state, one line (the
    /// template's own, a tab between fields, stay).
    package func line(for status: OwnerStatus?) -> String {
        let report = StatusReport(status)
        guard let title = report.title else { return "" }
        return pieces.map { piece -> String in
            switch piece {
            case .text(let text): return text
            case .field(let name): return Self.oneLine(Self.value(of: name, in: report, title: title))
            }
        }.joined()
    }

    private static func value(of name: String, in report: StatusReport, title: String) -> String {
        switch name {
        case "title": return title
        case "subtitle": return report.subtitle ?? ""
        case "style": return report.style ?? ""
        case "id": return report.id ?? ""
        case "remaining": return report.remaining.map(BannerFont.format) ?? ""
        case "queue": return String(report.queue)
        case "progress": return report.progress.flatMap(percent).map(String.init) ?? ""
        case "hidden": return report.hidden ?? ""
        default: return ""
        }
    }

    /// A progress bar's fraction in whole percent, clamped to 0…100: a value off 0…1 from an
    /// owner must not trap the conversion to Int. Nil for one that is not a number.
    package static func percent(_ progress: Double) -> Int? {
        progress.isFinite ? Int((min(max(progress, 0), 1) * 100).rounded()) : nil
    }

    /// `text` with its line breaks and other control characters as spaces.
    package static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0) })
    }
}

/// Follows the owner of one display across its restarts and prints each state as one line.
package struct StatusFollower {
    package let paths: OwnerPaths
    /// Seconds the owner may stay silent (it sends keepalives every third of this).
    package let timeout: Double
    /// The line for a state (nil: no owner).
    package let line: (OwnerStatus?) -> String

    package init(paths: OwnerPaths, timeout: Double, line: @escaping (OwnerStatus?) -> String) {
        self.paths = paths
        self.timeout = timeout
        self.line = line
    }

    /// Runs until SIGINT, SIGTERM or a closed standard output (exit 0), or an owner that cannot
    /// follow (another protocol version: the exit code).
    package func run() throws(CommandFailure) -> Int32 {
        for signal in [SIGINT, SIGTERM, SIGPIPE] { Glibc.signal(signal) { _ in _exit(0) } }
        exitWhenOutputCloses()
        let socketName = String(paths.socket.split(separator: "/").last ?? "")
        guard let watch = DirectoryWatch(paths.directory, name: socketName) else {
            throw CommandFailure("cannot watch \(paths.directory.printable) for the owner's socket: \(errorText())", code: ExitStatus.unreachable)
        }
        defer { watch.close() }
        var printer = LinePrinter()
        let client = OwnerClient(paths: paths, replyTimeout: timeout)
        let request = OwnerRequest(SubscribeRequest(keepalive: timeout / 3))
        while true {
            let exchange: OwnerClient.Exchange?
            do {
                exchange = try client.exchange(request, start: false, configPath: nil)
            } catch where error.code == ExitStatus.unreachable {
                // Silent (stopped, or stuck on its X server): like no owner, but its socket
                // will not appear again, so look again after a while too.
                printer.print(line(nil))
                watch.wait(timeout: timeout)
                continue
            }
            guard var exchange else {
                printer.print(line(nil))
                watch.wait(timeout: nil)
                continue
            }
            if let error = exchange.response.error {
                exchange.close()
                if error.kind == .protocol {
                    throw CommandFailure("the owner for \(paths.display)\(OwnerClient.describe(exchange.ownerPID)) cannot be followed (it is older than status --follow): restart it with `window-banner dismiss --all --quit`", code: ExitStatus.protocolMismatch)
                }
                throw OwnerClient.failure(error)
            }
            printer.print(line(exchange.response.status))
            while let response = try exchange.next(keepalive: true, while: "status --follow", silentIsGone: true) {
                if let status = response.status { printer.print(line(status)) }
            }
            exchange.close()
            printer.print(line(nil))
        }
    }
}

/// Ends the process (exit 0) once standard output reports an error or a hang-up: the status
/// bar that read it has gone. A write would notice too, but the follower may never write again
/// (no owner, or an owner with nothing new to say), and a follower nobody reads must not stay
/// behind; so, like `tail -f`, it polls its output for POLLERR/POLLHUP. Both of its waits (the
/// owner's socket, the runtime directory) block, so one thread watches for them all.
private func exitWhenOutputCloses() {
    var thread = pthread_t()
    _ = pthread_create(&thread, nil, { _ in
        // No events asked for: poll reports only the error and hang-up conditions, and never
        // returns for an output that cannot hang up (a file, /dev/null).
        var output = pollfd(fd: 1, events: 0, revents: 0)
        while true {
            let ready = poll(&output, 1, -1)
            if ready > 0, output.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { _exit(0) }
            // Out of memory for the wait: stop watching; a write still notices.
            if ready < 0, errno != EINTR { return nil }
        }
    }, nil)
}

/// Standard output, one line per state: a line equal to the previous one is left out, and each
/// is written at once (the reader is a status bar waiting for it).
private struct LinePrinter {
    private var last: String?

    mutating func print(_ line: String) {
        guard line != last else { return }
        last = line
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            // The reader is gone (the bar closed our output): nothing left to do.
            guard written > 0 else { _exit(0) }
            offset += written
        }
    }
}

/// inotify on one directory, for one file name being created or changed there (a socket is
/// bound, then made 0600 once it listens).
private struct DirectoryWatch {
    private let fd: Int32
    private let name: String

    init?(_ directory: String, name: String) {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0 else {
            Glibc.close(fd)
            return nil
        }
        self.name = name
    }

    /// Waits until the file is created or changed, or `timeout` seconds pass (nil: no limit).
    func wait(timeout: Double?) {
        let giveUp = timeout.map(PollWait.deadline(in:))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard case .ready = PollWait.wait(fd: fd, events: Int16(POLLIN), until: giveUp) else { return }
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            if names(in: buffer[0..<count]).contains(name) { return }
        }
    }

    /// The file names of the events in `bytes` (struct inotify_event: wd, mask, cookie, len,
    /// then `len` bytes of NUL-padded name).
    private func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let length = bytes[offset + 12..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = min(bytes.endIndex, offset + 16 + length)
            names.append(String(decoding: bytes[offset + 16..<end].prefix { $0 != 0 }, as: UTF8.self))
            offset = end
        }
        return names
    }

    func close() { Glibc.close(fd) }
}
