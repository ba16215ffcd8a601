// The owner's log: one line per event worth knowing after the fact — its start and end, every
// X protocol error, every fault it recovered from (a client gone mid-request, a bad frame, an
// icon that could not be read) — each stamped with the UTC time. Lines go to stderr: under
// systemd that is the journal; started by `show`, it is the file `show` opened for appending
// ($XDG_RUNTIME_DIR/window-banner/displayN.log), kept under a size cap here by rotation.

import BannerCore
import Glibc

/// Writes the owner's log lines and keeps its file bounded.
package final class OwnerLog {
    /// A file larger than this is rotated before the next line: it becomes `….log.1` (replacing
    /// the one before) and a new file starts, so the two together stay under twice this.
    package static let maximumBytes = 256 * 1024
    /// Longer messages are cut (a line is one event, never a dump).
    package static let maximumLineBytes = 2000

    /// The log file `show` gives the owner as its stderr.
    package let path: String

    package init(path: String) {
        self.path = path
    }

    /// Writes `message` as one line: `2026-11-24T21:03:05.123Z window-banner: message`.
    package func write(_ message: String) {
        // Byte by byte: the standard library's `replacing` pulls in its string-processing code,
        // a millisecond of page faults on the way to a new owner's first banner.
        let flat = String(decoding: message.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        var line = Self.timestamp() + " window-banner: " + flat
        if line.utf8.count > Self.maximumLineBytes {
            line = String(decoding: line.utf8.prefix(Self.maximumLineBytes - 3), as: UTF8.self) + "..."
        }
        let bytes = Array((line + "\n").utf8)
        rotateIfNeeded(adding: bytes.count)
        bytes.withUnsafeBufferPointer { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// Writes `message` as a warning (`window-banner: warning: …`), as the CLI words them.
    package func warning(_ message: String) {
        write("warning: " + message)
    }

    /// When stderr is the log file (not the journal, not a terminal) and `count` more bytes
    /// would take it past the cap: the file moves to `….log.1` and stderr is a new, empty one.
    /// Whatever else writes to stderr (the libraries) lands in the same file and counts too.
    /// An owner whose file another one rotated (two overlap for a moment when one hands over)
    /// follows it to the new file rather than filling `….log.1`.
    private func rotateIfNeeded(adding count: Int) {
        var current = stat()
        guard fstat(2, &current) == 0, current.st_mode & S_IFMT == S_IFREG else { return }
        if Self.isFile(path + ".1", current) { return reopen() }
        guard Self.isFile(path, current), Int(current.st_size) + count > Self.maximumBytes,
              rename(path, path + ".1") == 0 else { return }
        reopen()
    }

    /// stderr becomes the file at `path`, created if need be, for appending.
    private func reopen() {
        let fresh = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fresh >= 0 else { return }
        dup2(fresh, 2)
        close(fresh)
    }

    private static func isFile(_ path: String, _ open: stat) -> Bool {
        var named = stat()
        return stat(path, &named) == 0 && named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(parts.tm_year + 1900)-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }
}
