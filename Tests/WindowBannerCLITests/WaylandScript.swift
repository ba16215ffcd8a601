// What a script in a Wayland session has: a private runtime directory (HOME, XDG_RUNTIME_DIR,
// config and state in it) and an environment that names the compositor's socket, for the
// window-banner built here. The Wayland suites' sessions hold one each.

import Glibc
import ProcessTestSupport
import WaylandTestSupport
import X11TestSupport

final class WaylandScript {
    let runtimeDirectory: String
    let environment: [String: String]
    /// The user the script runs as; nil for the tests' own.
    let user: uid_t?

    /// A script's environment on the compositor at `socketPath`, with `extra` on top, run as
    /// `user` when given (the session's user, whose bus lets its portal answer only its own).
    init(socketPath: String, extra: [String: String] = [:], user: uid_t? = nil) throws {
        var template = Array("/tmp/wb-script-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        runtimeDirectory = String(cString: made)
        self.user = user
        if let user { chown(runtimeDirectory, user, user) }
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": runtimeDirectory, "XDG_RUNTIME_DIR": runtimeDirectory,
            "XDG_CONFIG_HOME": runtimeDirectory + "/config", "XDG_STATE_HOME": runtimeDirectory + "/state",
            "WAYLAND_DISPLAY": socketPath,
        ].merging(extra) { _, chosen in chosen }
    }

    deinit {
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory])
    }

    /// Runs window-banner with `arguments` to its end (or `timeout` seconds).
    func run(_ arguments: [String], timeout: Double = 20) throws -> (status: Int32?, output: String, error: String) {
        let process = try start(arguments)
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// Starts window-banner with `arguments`, its standard input closed.
    func start(_ arguments: [String]) throws -> Subprocess {
        var command = [windowBannerExecutable()] + arguments
        if let user {
            command = TestSway.running(as: user) + command
        }
        let process = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: environment)
        process.closeStandardInput()
        return process
    }
}
