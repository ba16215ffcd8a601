// Runs a real program the way a script would: raw argument bytes (invalid UTF-8 included),
// a chosen or inherited environment, stdin/stdout/stderr on pipes, and bounded waits for its
// output and its exit that wake on the pipes rather than on a timer. Each program starts a
// process group of its own, and whatever is left of that group is killed when the test lets go
// of it, so nothing a test starts outlives it (scripts/check-leftovers.sh checks that).

import CSpawn
import Glibc
import Synchronization

/// Held while a Subprocess makes its pipes and spawns its child.
private let spawning = Mutex(())

/// A started child process with piped standard streams, leading a process group of its own.
/// Releasing it closes its standard input and kills what is left of its process group.
public final class Subprocess {
    /// The variable `make test` marks every process of a test run with (scripts/check-leftovers.sh).
    public static let runMarkerName = "WINDOW_BANNER_TEST_RUN"
    /// Where the system's broadcast spools and notices are looked for (docs/fleet.md).
    public static let systemRootName = "WINDOW_BANNER_ROOT"

    /// `runMarkerName=value` when this process runs under scripts/check-leftovers.sh: an
    /// environment built from scratch (here, or by `env -i` in a command) must keep it, or the
    /// processes started with it escape the check.
    public static var runMarker: String? {
        getenv(runMarkerName).map { "\(runMarkerName)=\(String(cString: $0))" }
    }

    public let pid: pid_t
    /// The executable and its arguments, for messages.
    public let commandLine: String
    private var stdinWrite: Int32
    private let stdoutRead: Int32
    private let stderrRead: Int32
    private var stdoutBytes: [UInt8] = []
    private var stderrBytes: [UInt8] = []
    private var openPipes: Set<Int32>
    public private(set) var exitStatus: Int32?

    /// Starts `executable` (a path) with `arguments` (argv[1...]) given as raw bytes, in
    /// `environment`, or in this process's own environment when it is nil.
    public init(executable: String, rawArguments: [[UInt8]], environment: [String: String]? = nil) throws {
        let commandLine = ([executable] + rawArguments.map { String(decoding: $0, as: UTF8.self) }).joined(separator: " ")
        self.commandLine = commandLine
        // Tests run in parallel: a pipe end another thread's child inherited in the moment
        // between pipe() and fcntl() would stay open in that child (an X server, an owner) and
        // hold every wait for this process's output to its deadline. So pipes are made and
        // children spawned one Subprocess at a time (Swift's Glibc has no pipe2).
        let started = try spawning.withLock { _ in
            try Self.spawn(executable, rawArguments: rawArguments, environment: environment, commandLine: commandLine)
        }
        pid = started.pid
        stdinWrite = started.input
        stdoutRead = started.output
        stderrRead = started.errors
        openPipes = [started.output, started.errors]
    }

    /// Starts the child; its pid and this side's ends of its stdin, stdout and stderr pipes.
    private static func spawn(
        _ executable: String, rawArguments: [[UInt8]], environment: [String: String]?, commandLine: String
    ) throws -> (pid: pid_t, input: Int32, output: Int32, errors: Int32) {
        func pipePair() throws -> (Int32, Int32) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestFailure("pipe failed") }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            return (ends[0], ends[1])
        }
        let input = try pipePair()
        let output = try pipePair()
        let errors = try pipePair()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, input.0, 0)
        posix_spawn_file_actions_adddup2(&actions, output.1, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.1, 2)
        // At the root: the test's own directory (a checkout in a private, 0700, home) is not
        // another user's to enter, and programs started as one (sway, setpriv) would fail there.
        posix_spawn_file_actions_addchdir_np(&actions, "/")
        // Test threads (libdispatch workers) block signals, and a spawned process inherits the
        // mask: reset it, or the child could never be stopped with SIGTERM (or SIGSTOP/SIGCONT).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // A group of its own (pgid = its pid): the children it starts can be killed with it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([Array(executable.utf8)] + rawArguments).map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { chosen in
            var entries = chosen.map { "\($0.key)=\($0.value)" }
            if chosen[runMarkerName] == nil, let marker = runMarker { entries.append(marker) }
            // `make test`'s system root (docs/tests.md): a built environment keeps it too, so no
            // monitor a test starts shows the machine's own notices (/run/reboot-required).
            if chosen[systemRootName] == nil, let root = getenv(systemRootName) { entries.append("\(systemRootName)=\(String(cString: root))") }
            return entries.map { strdup($0) } + [nil]
        }
        defer {
            for pointer in argv { pointer?.deallocate() }
            for pointer in envp ?? [] { free(pointer) }
        }
        var child: pid_t = 0
        let status = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(input.0)
        close(output.1)
        close(errors.1)
        guard status == 0 else {
            [input.1, output.0, errors.0].forEach { close($0) }
            throw TestFailure("cannot start \(commandLine): \(String(cString: strerror(status)))")
        }
        return (child, input.1, output.0, errors.0)
    }

    /// Convenience for UTF-8 arguments.
    public convenience init(executable: String, arguments: [String], environment: [String: String]? = nil) throws {
        try self.init(executable: executable, rawArguments: arguments.map { Array($0.utf8) }, environment: environment)
    }

    /// Runs a command to completion in this process's environment, feeding it `input`; returns
    /// its standard output, and throws with its standard error unless it exits 0.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], input: String = "") throws -> String {
        let process = try Subprocess(executable: executable, arguments: arguments)
        process.writeToStandardInput(input)
        process.closeStandardInput()
        let status = process.waitForExit(timeout: 30)
        guard status == 0 else {
            throw TestFailure("`\(process.commandLine)` exited \(status.map(String.init) ?? "late"): \(process.standardError)")
        }
        return process.standardOutput
    }

    public var standardOutput: String { String(decoding: stdoutBytes, as: UTF8.self) }
    public var standardError: String { String(decoding: stderrBytes, as: UTF8.self) }

    /// Reads standard output until a full line arrives; nil on EOF or timeout. Standard error
    /// is collected meanwhile, so a child writing much there cannot block.
    public func readLine(timeout: Double) -> String? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let newline = stdoutBytes.firstIndex(of: 10) {
                let line = String(decoding: stdoutBytes[..<newline], as: UTF8.self)
                stdoutBytes.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0, openPipes.contains(stdoutRead) else { return nil }
            pump(timeout: remaining)
        }
    }

    /// Writes all of `text` to the child's standard input (nothing once it is closed).
    public func writeToStandardInput(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count, stdinWrite >= 0 {
            let written = bytes[offset...].withUnsafeBytes { write(stdinWrite, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    public func closeStandardInput() {
        if stdinWrite >= 0 { close(stdinWrite) }
        stdinWrite = -1
    }

    /// Closes the reading end of the child's standard output, as a reader that goes away does:
    /// what the child writes after that meets a closed pipe.
    public func closeStandardOutput() {
        if openPipes.remove(stdoutRead) != nil { close(stdoutRead) }
    }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// Waits up to `timeout` seconds for the process to close its output and exit; returns the
    /// exit status (128 + N when killed by signal N), or nil on timeout (the process is then killed).
    @discardableResult
    public func waitForExit(timeout: Double = 10) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = monotonicSeconds() + timeout
        while !openPipes.isEmpty {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else {
                killGroup()
                _ = reap(blocking: true)
                return nil
            }
            pump(timeout: remaining)
        }
        closeStandardInput()
        // A program may close its output long before it exits (Xvfb closes its -displayfd pipe
        // at once), so the exit itself needs the deadline too. Nothing signals a child's exit on
        // a descriptor here, so this one wait checks every 10 ms.
        while monotonicSeconds() < deadline {
            if let status = reap(blocking: false) { return status }
            var none = pollfd()
            _ = poll(&none, 0, 10)
        }
        if let status = reap(blocking: false) { return status }
        killGroup()
        _ = reap(blocking: true)
        return nil
    }

    /// Whether the process has ended, read from /proc (a zombie not yet reaped has: its status
    /// waits for `waitForExit`), so nothing is killed or reaped when it has not.
    public var hasEnded: Bool {
        if exitStatus != nil { return true }
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.first { $0 != " " }
        return state == nil || state == "Z"
    }

    /// Whether the process ends within `seconds` (`hasEnded`, checked every 20 ms).
    public func hasEnded(within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !hasEnded {
            guard monotonicSeconds() < deadline else { return false }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        return true
    }

    /// SIGKILL to the process and everything left in its process group (children that did not
    /// move to a group or session of their own).
    public func killGroup() {
        kill(-pid, SIGKILL)
    }

    /// Waits up to `timeout` seconds for output on the open pipes and appends it to its buffer;
    /// a pipe that reports end of file is closed.
    private func pump(timeout: Double) {
        let order = Array(openPipes)
        var fds = order.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), Int32(timeout * 1000) + 1) > 0 else { return }
        for (index, fd) in order.enumerated() where fds[index].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                if fd == stdoutRead { stdoutBytes += buffer[0..<count] } else { stderrBytes += buffer[0..<count] }
            } else {
                close(fd)
                openPipes.remove(fd)
            }
        }
    }

    private func reap(blocking: Bool) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, blocking ? 0 : WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus
    }

    deinit {
        closeStandardInput()
        // Also after the process itself has exited: what it started in its group goes with it.
        killGroup()
        if exitStatus == nil { _ = reap(blocking: true) }
        for fd in openPipes { close(fd) }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock: for deadlines, immune to changes of the wall clock.
public func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
