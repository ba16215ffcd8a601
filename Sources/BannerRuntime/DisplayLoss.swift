// The one way a process ends when its display goes away, on every backend: Xlib cannot survive
// a lost X connection (its I/O error handler must not return), and a Wayland client whose
// compositor died has no banner, no reserved space and nothing left to do. So both end the
// process at once with code 69 — first telling whoever waits on it (the owner's clients), then
// removing the files (the owner's socket) and stopping the child processes (`run`'s command)
// registered here, so nothing outlives the display.

import BannerCore
import Glibc
import Synchronization

public enum DisplayLoss {
    private static let pathsToRemove = Mutex<[String]>([])
    private static let processesToStop = Mutex<[pid_t]>([])
    /// Set from the loop's thread while the process starts, read only by `end`, which runs on
    /// that same thread (Xlib's handler, or the Wayland display's loop).
    nonisolated(unsafe) private static var farewells: [(String) -> Void] = []

    /// Removes `path` (a socket, say) if the process ends because the display went away.
    public static func removeOnExit(_ path: String) {
        pathsToRemove.withLock { $0.append(path) }
    }

    /// Sends SIGTERM to `process` (a child that would otherwise be orphaned) if the process
    /// ends because the display went away.
    public static func stopOnExit(_ process: pid_t) {
        processesToStop.withLock { $0.append(process) }
    }

    /// Runs `farewell` with the reason when the process ends because the display went away,
    /// before the registered files go: the owner tells the clients waiting on it why.
    public static func beforeEnding(_ farewell: @escaping (String) -> Void) {
        farewells.append(farewell)
    }

    /// Ends the process because the display went away: one line on stderr
    /// (`window-banner: <reason>`), the registered files removed and processes stopped, exit 69.
    /// It runs from inside Xlib's I/O error handler: no X call may be made from a farewell.
    public static func end(_ reason: String) -> Never {
        let line = "window-banner: \(reason)\n"
        line.withCString { _ = write(2, $0, strlen($0)) }
        for farewell in farewells { farewell(reason) }
        for path in pathsToRemove.withLock({ $0 }) { unlink(path) }
        for process in processesToStop.withLock({ $0 }) { kill(process, SIGTERM) }
        _exit(EX_UNAVAILABLE)
    }
}
