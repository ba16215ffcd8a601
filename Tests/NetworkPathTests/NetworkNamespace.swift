// A private network namespace per test (`ip netns add`), the `ip` commands that change its
// network, and the probe running inside it. Every namespace is removed when its test ends,
// failed or not; ones left by a test process that crashed are swept by the next run.

import Glibc
import ProcessTestSupport

/// A named network namespace owned by this test process.
final class NetworkNamespace {
    private static let prefix = "netpath-test-"
    let name: String
    private var removed = false

    init() throws {
        Self.removeLeftovers()
        name = "\(Self.prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Subprocess.run(Self.ip, ["netns", "add", name])
    }

    deinit { remove() }

    /// `ip -n NAME arguments…`; throws with ip's message when it fails.
    func ip(_ arguments: String) throws {
        try Subprocess.run(Self.ip, ["-n", name] + arguments.split(separator: " ").map(String.init))
    }

    /// Runs each command in one `ip -batch` process: changes as fast as the kernel takes them.
    func ipBatch(_ commands: [String]) throws {
        try Subprocess.run(Self.ip, ["-n", name, "-batch", "-"], input: commands.joined(separator: "\n") + "\n")
    }

    /// A veth pair, both ends up (veth has carrier only when its peer is up too).
    func addVeth(_ interface: String = "veth0", peer: String = "peer0") throws {
        try ip("link add \(interface) type veth peer name \(peer)")
        try ip("link set \(peer) up")
        try ip("link set \(interface) up")
    }

    /// `ip netns del NAME`; harmless twice. Processes still inside keep the namespace alive
    /// until they exit, so kill the probe first.
    func remove() {
        guard !removed else { return }
        removed = true
        _ = try? Subprocess.run(Self.ip, ["netns", "del", name])
    }

    /// Deletes the namespaces of test processes that no longer exist.
    private static func removeLeftovers() {
        guard let list = try? Subprocess.run(ip, ["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            guard let name = line.split(separator: " ").first, name.hasPrefix(prefix) else { continue }
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(owner), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? Subprocess.run(ip, ["netns", "del", String(name)])
        }
    }

    /// iproute2's `ip`, wherever this distribution keeps it.
    static let ip: String = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { access($0, X_OK) == 0 } ?? "ip"
}

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
