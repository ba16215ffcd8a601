// X errors never kill the process: Xlib's default handler calls exit(), so we install our own
// that counts the error against its connection (`BannerDisplay.protocolErrorCount`).
// A lost connection (I/O error) cannot be survived by Xlib; it ends the process with code 69.

import BannerCore
import CX11
import Glibc
import Synchronization

/// Counts the protocol errors the server reports, per connection.
enum XErrorTrap {
    /// Errors per connection (keyed by the `Display*` address): the handler is process-wide,
    /// and one process may hold several connections.
    private static let countByDisplay = Mutex<[UInt: Int]>([:])

    /// How many protocol errors arrived for requests made on `display`.
    static func errorCount(on display: OpaquePointer) -> Int {
        countByDisplay.withLock { $0[UInt(bitPattern: Int(bitPattern: display))] ?? 0 }
    }

    /// Drops `display`'s count when it closes: a later connection may get the same address.
    static func forget(_ display: OpaquePointer) {
        _ = countByDisplay.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: display))) }
    }

    /// Installs the recording handlers; idempotent.
    static func install() {
        XSetErrorHandler { display, _ in
            if let display {
                XErrorTrap.countByDisplay.withLock { $0[UInt(bitPattern: Int(bitPattern: display)), default: 0] += 1 }
            }
            return 0
        }
        XSetIOErrorHandler { _ in
            let message = "window-banner: lost the connection to the X display\n"
            message.withCString { _ = write(2, $0, strlen($0)) }
            for path in DisplayLoss.pathsToRemove.withLock({ $0 }) { unlink(path) }
            for process in DisplayLoss.processesToStop.withLock({ $0 }) { kill(process, SIGTERM) }
            _exit(ExitStatus.displayUnavailable)
        }
    }
}

/// What a process leaves behind when its display goes away: Xlib cannot survive a lost
/// connection, so the process ends at once (code 69) — first removing the files and stopping the
/// child processes registered here.
public enum DisplayLoss {
    fileprivate static let pathsToRemove = Mutex<[String]>([])
    fileprivate static let processesToStop = Mutex<[pid_t]>([])

    /// Removes `path` (a socket, say) if the process ends because the display went away.
    public static func removeOnExit(_ path: String) {
        pathsToRemove.withLock { $0.append(path) }
    }

    /// Sends SIGTERM to `process` (a child that would otherwise be orphaned) if the process
    /// ends because the display went away.
    public static func stopOnExit(_ process: pid_t) {
        processesToStop.withLock { $0.append(process) }
    }
}
