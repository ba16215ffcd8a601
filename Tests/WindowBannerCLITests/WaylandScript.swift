// What a script in a Wayland session has: a private runtime directory (HOME, XDG_RUNTIME_DIR,
// config and state in it) and an environment that names the compositor's socket, for the
// window-banner built here. The Wayland suites' sessions hold one each.

import Glibc
import ProcessTestSupport
import X11TestSupport

final class WaylandScript {
    let runtimeDirectory: String
    let environment: [String: String]

    /// A script's environment on the compositor at `socketPath`, with `extra` on top.
    init(socketPath: String, extra: [String: String] = [:]) throws {
        var template = Array("/tmp/wb-script-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        runtimeDirectory = String(cString: made)
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
        let process = try Subprocess(executable: windowBannerExecutable(), arguments: arguments, environment: environment)
        process.closeStandardInput()
        return process
    }
}
