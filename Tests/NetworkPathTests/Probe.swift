// `netpath-probe` running inside a test's network namespace (ProcessTestSupport's
// `NetworkNamespace`): its stdout lines are the statuses the tests assert on.

import Glibc
import ProcessTestSupport

/// `netpath-probe` running inside a namespace; its stdout lines are the statuses.
final class Probe {
    private let process: Subprocess
    /// The first line: the status when the monitor started.
    private(set) var initialStatus = ""

    /// Starts the probe in `namespace` and waits for its first line (the initial status), so
    /// the monitor is subscribed before the test changes anything.
    init(in namespace: NetworkNamespace, arguments: [String] = []) throws {
        process = try Subprocess(executable: NetworkNamespace.ip, arguments: ["netns", "exec", namespace.name, Self.executable] + arguments)
        initialStatus = try nextLine()
    }

    /// The next status line, or a failure naming what the probe said on stderr.
    func nextLine(timeout: Double = 5) throws -> String {
        guard let line = process.readLine(timeout: timeout) else {
            throw TestFailure("no line from the probe within \(timeout) s; stderr: \(process.standardError)")
        }
        return line
    }

    /// Lines up to and including the first equal to `expected`.
    func lines(through expected: String, timeout: Double = 10) throws -> [String] {
        var lines: [String] = []
        while lines.last != expected { lines.append(try nextLine(timeout: timeout)) }
        return lines
    }

    /// Freezes the probe (SIGSTOP): the kernel keeps queueing messages it cannot read.
    func suspend() { process.signal(SIGSTOP) }

    /// Lets it run again (SIGCONT).
    func resume() { process.signal(SIGCONT) }

    /// Closes its input, which makes it print its closing line and exit; returns the lines it
    /// printed since the last read, and fails unless it exits 0.
    func stop() throws -> [String] {
        process.closeStandardInput()
        var rest: [String] = []
        while let line = process.readLine(timeout: 5) { rest.append(line) }
        let status = process.waitForExit(timeout: 5)
        guard status == 0 else { throw TestFailure("probe exited \(status.map(String.init) ?? "late"): \(process.standardError)") }
        return rest
    }

    /// Built next to this test bundle by the same `swift build --build-tests`.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return String(path[...(path.lastIndex(of: "/") ?? path.startIndex)]) + "netpath-probe"
    }()
}
