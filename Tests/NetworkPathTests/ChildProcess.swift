// Starting real programs from the namespace tests: `ip` commands that must succeed, and
// long-running children (the probe) whose standard output is read line by line with a
// deadline. Waiting wakes on the child's output, never on a timer.

import Glibc

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A started program with its standard streams on pipes.
final class ChildProcess {
    let pid: pid_t
    let commandLine: String
    private var input: Int32
    private let output: Int32
    private let errors: Int32
    private var outputBuffer: [UInt8] = []
    private var errorBuffer: [UInt8] = []
    private var outputOpen = true
    private var errorsOpen = true
    private(set) var exitStatus: Int32?

    /// Starts `executable` (an absolute path) with `arguments`.
    init(_ executable: String, _ arguments: [String]) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        func pipeEnds() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw TestFailure("pipe failed") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        let stdinPipe = try pipeEnds()
        let stdoutPipe = try pipeEnds()
        let stderrPipe = try pipeEnds()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe.write, 2)
        // Test threads run with signals blocked, and children inherit the mask: reset it, or
        // the child could not be stopped and continued.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
            argv.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(stdinPipe.read)
        close(stdoutPipe.write)
        close(stderrPipe.write)
        guard status == 0 else {
            [stdinPipe.write, stdoutPipe.read, stderrPipe.read].forEach { close($0) }
            throw TestFailure("cannot start \(commandLine): \(String(cString: strerror(status)))")
        }
        pid = child
        input = stdinPipe.write
        output = stdoutPipe.read
        errors = stderrPipe.read
    }

    /// Runs a command to completion, feeding it `input`; throws with its stderr unless it exits 0.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: String = "") throws -> String {
        let child = try ChildProcess(executable, arguments)
        child.write(input)
        child.closeInput()
        let status = child.waitForExit(timeout: 30)
        guard status == 0 else {
            throw TestFailure("`\(child.commandLine)` exited \(status.map(String.init) ?? "late"): \(child.standardError)")
        }
        return String(decoding: child.outputBuffer, as: UTF8.self)
    }

    var standardError: String { String(decoding: errorBuffer, as: UTF8.self) }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count, input >= 0 {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes the child's standard input: the probe takes that as "stop".
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// The next line of standard output, or nil when none arrives within `timeout` seconds or
    /// the output ends.
    func readLine(timeout: Double) -> String? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let newline = outputBuffer.firstIndex(of: 10) {
                let line = String(decoding: outputBuffer[..<newline], as: UTF8.self)
                outputBuffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0, outputOpen else { return nil }
            pump(timeout: remaining)
        }
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits up to `timeout` seconds for the child to close its output and exit; its exit
    /// status (128 + N when killed by signal N), or nil when it had to be killed.
    @discardableResult
    func waitForExit(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = monotonicSeconds() + timeout
        while outputOpen || errorsOpen {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else {
                kill(pid, SIGKILL)
                reap()
                return nil
            }
            pump(timeout: remaining)
        }
        reap()
        return exitStatus
    }

    /// Waits for output on either pipe and appends it to its buffer.
    private func pump(timeout: Double) {
        var fds = [pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, Int32((timeout * 1000).rounded(.up))) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        if fds[0].revents != 0 {
            let count = read(output, &chunk, chunk.count)
            if count > 0 { outputBuffer += chunk[0..<count] } else { outputOpen = false }
        }
        if fds[1].revents != 0 {
            let count = read(errors, &chunk, chunk.count)
            if count > 0 { errorBuffer += chunk[0..<count] } else { errorsOpen = false }
        }
    }

    private func reap() {
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return }
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    deinit {
        closeInput()
        if exitStatus == nil {
            kill(pid, SIGKILL)
            reap()
        }
        close(output)
        close(errors)
    }
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
