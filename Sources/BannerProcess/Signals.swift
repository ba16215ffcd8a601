// SIGINT, SIGTERM, SIGHUP and SIGCHLD as readable bytes on a pipe (the self-pipe trick), so
// the single event loop sees them like any other input and nothing runs in signal context
// beyond one write(2).

import Glibc
import OwnerIPC
import Spawning
import Synchronization

/// The write end of the signal pipe, read by the handler (which cannot capture anything).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// A pipe that receives one byte, the signal number, per delivered signal.
package final class SignalPipe {
    package let readEnd: Int32

    package init?(signals: [Int32]) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        signalPipeWriteEnd.store(ends[1], ordering: .relaxed)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// The signals delivered since the last call.
    package func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [Int32] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count].map { Int32($0) }
        }
        return received
    }
}

/// A command run with the banner (`run -- COMMAND ARGS…`), started without a shell.
package struct ChildProcess {
    package let pid: pid_t

    package enum SpawnError: Error {
        case notFound(String)
        case notExecutable(String)
    }

    package static func spawn(_ arguments: [String]) throws(SpawnError) -> ChildProcess {
        let program = arguments[0]
        // The command starts with nothing blocked and default dispositions, whatever this
        // process inherited, and every descriptor this process was given (a terminal, a file
        // the user redirected to it), as a command run by `env` or `nice` would.
        let child = ChildSpec(arguments, descriptors: [.inherited, .inherited, .inherited], searchesPath: true, closesOthers: false)
        switch child.start() {
        case .success(let pid): return ChildProcess(pid: pid)
        case .failure(let error) where error.code == ENOENT: throw .notFound(program)
        case .failure: throw .notExecutable(program)
        }
    }

    /// The exit status if the child has ended (shell convention: 128 + signal when killed).
    package func reap() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    package func send(_ signal: Int32) { kill(pid, signal) }
}
