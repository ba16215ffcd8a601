// A desktop plus a private runtime and config directory, for driving `show`, `dismiss` and
// `status` the way scripts do: each command a separate process, the banner living in the
// display's owner process in between. The owner is stopped (and the display closed) when the
// fixture goes.

import Foundation
import Glibc
import ProcessTestSupport
import X11TestSupport

final class OwnerFixture {
    let fixture: Fixture
    /// `$XDG_RUNTIME_DIR` of every command (the owner's socket lives below it).
    let runtimeDirectory: String
    /// `$XDG_CONFIG_HOME`: `config.toml` goes in `window-banner/` below it.
    let configHome: String
    /// `$XDG_STATE_HOME`: the owner keeps `--once` keys and stats in `window-banner/` below it.
    let stateHome: String

    init(setup: [[String]] = [], windowManager: TestDesktop.WindowManager = .openbox) throws {
        fixture = try Fixture(setup: setup, windowManager: windowManager)
        runtimeDirectory = try Self.makeDirectory("wb-runtime")
        configHome = try Self.makeDirectory("wb-config")
        stateHome = try Self.makeDirectory("wb-state")
        // The system's spools and notices under a directory of the test's own: a machine with
        // /run/reboot-required (after an update) would otherwise put its notice before every
        // monitor's banners (docs/fleet.md).
        fixture.extraEnvironment = [
            "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": configHome, "XDG_STATE_HOME": stateHome,
            "WINDOW_BANNER_ROOT": runtimeDirectory + "/system",
        ]
    }

    deinit {
        // The display itself goes with `fixture`, after its observer has disconnected.
        for pid in ownerProcesses() { kill(pid, SIGKILL) }
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory, configHome, stateHome])
    }

    var observer: XObserver { fixture.observer }

    /// The owner's socket for this display.
    var socketPath: String { runtimeDirectory + "/window-banner/display\(fixture.desktop.displayName).sock" }

    /// The finished command's exit status, stdout and stderr.
    struct Outcome {
        var status: Int32?
        var output: String
        var error: String
    }

    /// Runs `window-banner arguments` to completion.
    @discardableResult
    func run(_ arguments: [String], timeout: Double = 20) throws -> Outcome {
        let process = try fixture.launch(arguments)
        let status = process.waitForExit(timeout: timeout)
        return Outcome(status: status, output: process.standardOutput, error: process.standardError)
    }

    /// `show arguments…` that must succeed silently.
    func show(_ arguments: [String]) throws {
        let outcome = try run(["show"] + arguments)
        guard outcome.status == 0, outcome.error.isEmpty else {
            throw TestFailure("show \(arguments) exited \(outcome.status.map(String.init) ?? "late"): \(outcome.error)")
        }
    }

    /// `status --json`, decoded.
    func status() throws -> StatusJSON {
        let outcome = try run(["status", "--json"])
        guard outcome.status == 0 else { throw TestFailure("status exited \(String(describing: outcome.status)): \(outcome.error)") }
        return try JSONDecoder().decode(StatusJSON.self, from: Data(outcome.output.utf8))
    }

    /// Writes `$XDG_CONFIG_HOME/window-banner/config.toml`; returns its path.
    @discardableResult
    func writeConfig(_ text: String) throws -> String {
        let directory = configHome + "/window-banner"
        mkdir(directory, 0o700)
        let path = directory + "/config.toml"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw TestFailure("cannot write \(path)") }
        return path
    }

    /// Owner processes serving this fixture's display (found through their command lines).
    func ownerProcesses() -> [pid_t] {
        let display = fixture.desktop.displayName
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.count > 3, arguments[0].hasSuffix("/window-banner-full"), arguments[1] == "daemon",
                  let index = arguments.firstIndex(of: "--display"), index + 1 < arguments.count,
                  arguments[index + 1] == display, !isZombie(pid) else { return nil }
            return pid
        }
    }

    /// Waits (bounded) until process `pid` is gone. No event announces the end of a process
    /// that is not our child, so this checks /proc every few milliseconds.
    func waitForExit(of pid: pid_t, timeout: Double = 10) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if kill(pid, 0) != 0 || isZombie(pid) { return true }
            poll(nil, 0, 10)
        }
        return false
    }

    private func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    private static func makeDirectory(_ prefix: String) throws -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        return String(cString: made)
    }
}

/// What `status --json` prints.
struct StatusJSON: Decodable {
    struct Owner: Decodable {
        var pid: Int
        var display: String
    }

    struct Monitor: Decodable {
        var monitor: String
        var primary: Bool
        var presented: Bool
        var title: String?
        var subtitle: String?
        var id: String?
        var height: Int?
        var reserved: Int
        var compact: Bool?
        var mode: String?
        var remaining: Double?
        var queue: Int
        var hidden: String?
    }

    var presented: Bool
    var title: String?
    var subtitle: String?
    var id: String?
    var monitor: String?
    var height: Int?
    var compact: Bool?
    var mode: String?
    var remaining: Double?
    var queue: Int
    var hidden: String?
    var style: String?
    var progress: Double?
    var owner: Owner?
    var monitors: [Monitor]
}
