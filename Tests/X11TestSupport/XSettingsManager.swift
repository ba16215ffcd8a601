// Debian's xsettingsd as a test desktop's XSETTINGS manager: a test writes its config file's
// lines and sends it SIGHUP to publish a change, as a desktop's settings daemon publishes one
// the user made.

import Glibc
import ProcessTestSupport

/// xsettingsd on a test desktop, serving its config file's lines; stopped when released.
public final class XSettingsManager {
    public let process: Subprocess
    private let path: String

    /// Starts xsettingsd on `desktop` with `lines` as its config file (`file` in the desktop's
    /// home) and waits until it serves them.
    public init(_ desktop: TestDesktop, _ lines: String, file: String = "xsettingsd.conf") throws {
        path = desktop.home + "/" + file
        try writeFile(path, lines)
        process = try desktop.start(["xsettingsd", "-c", path])
        try waitUntilServing()
    }

    /// Publishes new values: xsettingsd re-reads its file on SIGHUP.
    public func change(to lines: String) throws {
        try writeFile(path, lines)
        try waitUntilServing()
        process.signal(SIGHUP)
    }

    /// Waits until xsettingsd owns the selection and listens for SIGHUP. It installs its handler
    /// only after it took the selection (until then SIGHUP ends it), and a signal caught before
    /// it sleeps in poll(2) is only seen at its next wake-up: this waits until the kernel lists
    /// the signal as caught and the daemon as sleeping in poll.
    public func waitUntilServing() throws {
        let deadline = monotonicSeconds() + 10
        while !catchesHangUp() || !(read("wchan")?.contains("poll") ?? false) {
            guard monotonicSeconds() < deadline, process.exitStatus == nil else {
                throw TestFailure("xsettingsd never served its settings (is the xsettingsd package installed?): \(process.standardError)")
            }
            usleep(5000)
        }
    }

    public func stop() {
        process.signal(SIGTERM)
        process.waitForExit(timeout: 5)
    }

    deinit { stop() }

    /// Whether the `SigCgt` mask of /proc/PID/status has SIGHUP's bit.
    private func catchesHangUp() -> Bool {
        guard let status = read("status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst(7).trimmingPrefix(while: \.isWhitespace), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGHUP) - 1)) != 0
    }

    /// /proc/PID/`name` of the daemon.
    private func read(_ name: String) -> String? {
        guard let file = fopen("/proc/\(process.pid)/\(name)", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
