// Every process the benchmark starts goes through the Supervisor: posix_spawn with the monotonic
// time taken just before the exec, output to a pipe, a file or /dev/null, and an end for all of
// them when the run ends — SIGTERM, then SIGKILL after a short grace (Xvfb can ignore SIGTERM
// for a long time) — also when the benchmark itself is interrupted.
// `wait(seconds:until:)` is the one place the benchmark waits: poll(2) on the probe's stream,
// the children's output pipes and SIGCHLD, until a condition holds or a deadline passes.

import Glibc
import MonotonicClock
import Spawning

/// CLOCK_MONOTONIC in milliseconds (the package's one reading of it, MonotonicClock): the clock
/// the X server stamps RECORD data with.
func monotonicMilliseconds() -> Double {
    monotonicNow().seconds * 1000
}

/// A step of the benchmark that could not be carried out; the report says why.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A process the benchmark started.
final class Child {
    let name: String
    let pid: pid_t
    /// CLOCK_MONOTONIC (ms) just before posix_spawn: "the command" in every latency.
    let startedAt: Double
    /// The write end of its stdin, when it was started with `.pipe` input.
    let input: Int32?
    /// Its exit status (128 + N for signal N) and when the reaper saw it.
    fileprivate(set) var exit: (status: Int32, at: Double)?
    /// Lines written to stdout, when it was started with `.pipe` output and no `onLine`.
    fileprivate(set) var lines: [String] = []
    /// Takes each stdout line instead of `lines` (the probe's stream is parsed as it comes).
    var onLine: ((String) -> Void)?
    fileprivate var partial: [UInt8] = []

    fileprivate init(name: String, pid: pid_t, startedAt: Double, input: Int32?) {
        self.name = name
        self.pid = pid
        self.startedAt = startedAt
        self.input = input
    }

    var isRunning: Bool { exit == nil }
}

/// Where a child's stdout or stderr goes.
enum Output {
    case discard
    /// The benchmark's own stream (the probe's complaints belong on the terminal).
    case inherit
    case pipe
    case file(String)
}

/// Where a child's stdin comes from.
enum Input {
    case null
    case file(String)
    case pipe
}

// The SIGCHLD self-pipe and the pids a signal handler must kill: C-level state, touched only
// from the main thread and from signal handlers.
nonisolated(unsafe) private var childSignalPipe: (read: Int32, write: Int32) = (-1, -1)
nonisolated(unsafe) private let killList = UnsafeMutablePointer<pid_t>.allocate(capacity: 4096)
nonisolated(unsafe) private var killListCount = 0

/// Starts, watches and ends the benchmark's processes; the poll loop everything waits in.
final class Supervisor {
    private var children: [pid_t: Child] = [:]
    private var readers: [Int32: () -> Bool] = [:]
    private var pipeOwners: [Int32: Child] = [:]

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchFailure("pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        childSignalPipe = (ends[0], ends[1])
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 0
            _ = write(childSignalPipe.write, &byte, 1)
        }
        action.sa_flags = SA_RESTART | SA_NOCLDSTOP
        sigaction(SIGCHLD, &action, nil)
        // Interrupted (Ctrl-C in `make bench`): kill everything started so far, at once. Xvfb's
        // death takes every X client with it; the next run sweeps leftover namespaces.
        var interrupt = sigaction()
        interrupt.__sigaction_handler.sa_handler = { signal in
            for index in 0..<killListCount where killList[index] > 0 { kill(killList[index], SIGKILL) }
            _exit(128 + signal)
        }
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaction(signal, &interrupt, nil) }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts `arguments` (looked up on PATH) with exactly `environment`.
    func spawn(
        _ arguments: [String], environment: [String: String], name: String? = nil,
        stdin: Input = .null, stdout: Output = .discard, stderr: Output = .discard
    ) throws -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var closeAfter: [Int32] = []
        var inputEnd: Int32?
        var outputEnd: Int32?
        switch stdin {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .pipe:
            let ends = try makePipe()
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
            closeAfter.append(ends.read)
            inputEnd = ends.write
        }
        for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .pipe:
                let ends = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, ends.write, fd)
                closeAfter.append(ends.write)
                outputEnd = ends.read
            }
        }
        // The clean signal state every process the product starts gets.
        let attributes = SpawnAttributes(newSession: false)
        let argv = CStringArray(arguments)
        let envp = CStringArray(environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        let startedAt = monotonicMilliseconds()
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes.attributes, &argv.pointers, &envp.pointers)
        for fd in closeAfter { close(fd) }
        guard result == 0 else {
            if let inputEnd { close(inputEnd) }
            if let outputEnd { close(outputEnd) }
            throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        let child = Child(name: name ?? arguments[0], pid: pid, startedAt: startedAt, input: inputEnd)
        children[pid] = child
        if killListCount < 4096 {
            killList[killListCount] = pid
            killListCount += 1
        }
        if let outputEnd {
            pipeOwners[outputEnd] = child
            watch(outputEnd) { [unowned self] in readLines(outputEnd) }
        }
        return child
    }

    /// Runs `arguments` to completion (at most `timeout` seconds) and returns its stdout lines;
    /// throws unless it exits 0.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String], timeout: Double = 10) throws -> [String] {
        let child = try spawn(arguments, environment: environment, stdout: .pipe)
        guard let status = waitForExit(child, timeout: timeout) else {
            stop(child)
            throw BenchFailure("\(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        guard status == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) exited \(status)") }
        return child.lines
    }

    /// Calls `onReadable` whenever `fd` can be read, until it returns false.
    func watch(_ fd: Int32, onReadable: @escaping () -> Bool) {
        readers[fd] = onReadable
    }

    /// Serves readable descriptors and exits until `condition` holds (true) or `seconds` pass (false).
    @discardableResult
    func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = monotonicMilliseconds() + seconds * 1000
        while true {
            if condition() { return true }
            let left = deadline - monotonicMilliseconds()
            if left <= 0 { return false }
            var fds = [pollfd(fd: childSignalPipe.read, events: Int16(POLLIN), revents: 0)]
            fds += readers.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(left.rounded(.up)))
            guard ready > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == childSignalPipe.read {
                    reap()
                } else if let reader = readers[entry.fd], !reader() {
                    readers[entry.fd] = nil
                    pipeOwners[entry.fd] = nil
                    close(entry.fd)
                }
            }
        }
    }

    /// Serves everything for `seconds` seconds: an observation window, not a synchronisation.
    func observe(seconds: Double) {
        wait(seconds: seconds) { false }
    }

    /// The exit status, or nil if it is still running after `timeout` seconds.
    func waitForExit(_ child: Child, timeout: Double) -> Int32? {
        wait(seconds: timeout) { !child.isRunning }
        return child.exit?.status
    }

    /// SIGTERM (or `signal`), then SIGKILL after `grace` seconds; waits for the exit.
    func stop(_ child: Child, signal: Int32 = SIGTERM, grace: Double = 2) {
        guard child.isRunning else { return }
        kill(child.pid, signal)
        if waitForExit(child, timeout: grace) == nil {
            kill(child.pid, SIGKILL)
            _ = waitForExit(child, timeout: 5)
        }
    }

    /// Ends every child still running, the newest first (clients before their X server).
    func stopAll() {
        let running = children.values.filter(\.isRunning).sorted { $0.startedAt > $1.startedAt }
        for child in running { kill(child.pid, SIGTERM) }
        wait(seconds: 1) { running.allSatisfy { !$0.isRunning } }
        for child in running where child.isRunning { kill(child.pid, SIGKILL) }
        wait(seconds: 5) { running.allSatisfy { !$0.isRunning } }
    }

    private func reap() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(childSignalPipe.read, &buffer, buffer.count) > 0 {}
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return }
            guard let child = children[pid] else { continue }
            let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            child.exit = (code, monotonicMilliseconds())
            if let input = child.input { close(input) }
            for index in 0..<killListCount where killList[index] == pid { killList[index] = 0 }
        }
    }

    private func readLines(_ fd: Int32) -> Bool {
        guard let child = pipeOwners[fd] else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EINTR || errno == EAGAIN { return true }
        guard count > 0 else {
            if !child.partial.isEmpty { deliver(String(decoding: child.partial, as: UTF8.self), from: child) }
            child.partial = []
            return false
        }
        var start = 0
        for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
            child.partial.append(contentsOf: buffer[start..<index])
            deliver(String(decoding: child.partial, as: UTF8.self), from: child)
            child.partial.removeAll(keepingCapacity: true)
            start = index + 1
        }
        child.partial.append(contentsOf: buffer[start..<count])
        return true
    }

    private func deliver(_ line: String, from child: Child) {
        if let onLine = child.onLine { onLine(line) } else { child.lines.append(line) }
    }

    private func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchFailure("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

extension Supervisor {
    /// Checks `condition` every 20 ms (it watches files or asks a server, which nothing
    /// announces) until it holds (true) or `seconds` pass (false), serving the children meanwhile.
    func check(seconds: Double, until condition: () throws -> Bool) throws -> Bool {
        let deadline = monotonicMilliseconds() + seconds * 1000
        while monotonicMilliseconds() < deadline {
            if try condition() { return true }
            observe(seconds: 0.02)
        }
        return try condition()
    }
}
