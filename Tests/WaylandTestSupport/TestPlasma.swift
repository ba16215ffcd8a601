// A private KDE Plasma 6 on Wayland for one test: a newer Debian's KWin (`kwin_wayland
// --virtual`, its software renderer) and plasmashell with its default panel, from a chroot (see
// DebianChroot), as TestSway's unprivileged user on a private session bus. What a user sees is
// read from KWin itself, through its scripting API (the geometry oracle nobody here wrote): a
// script loaded over D-Bus prints the maximize area and the windows' frame geometries, which
// KWin writes to its log. The panel can be moved to the top with Plasma's own scripting
// (`evaluateScript`). Clients run in the same chroot; the banner's owner reaches the socket by
// path. Everything is torn down when released.

import Foundation
import Glibc
import ProcessTestSupport

public final class TestPlasma {
    public let directory: String
    public let runtimeDirectory: String
    public let socketName = "wb-kwin"
    public var socketPath: String { runtimeDirectory + "/" + socketName }
    public let chroot: DebianChroot
    /// The output's mode in pixels, and its scale.
    public let width: Int, height: Int, scale: Double
    private let bus: SessionBus
    private var kwin: Subprocess?
    private var clients: [Subprocess] = []
    private var queries = 0

    /// Starts KWin and plasmashell from `chroot` and waits until the panel holds its edge of the
    /// maximize area: the bottom (Plasma's default) or, with `panelAtTop`, the top. KWin renders
    /// into memory (`--virtual`) or, given `x11Display`, into a window of that X server (its
    /// windowed mode), whose pixels the caller reads: KWin's software renderer offers no
    /// screenshots of its own.
    ///
    /// KWin's one output is `width`×`height` pixels (in the X server, a window of that size); at
    /// a `scale` other than 1 it is set to that scale with kscreen-doctor, as Plasma's display
    /// settings do, before plasmashell starts. (`kwin_wayland --scale` does not last: KWin's
    /// own output configuration gives an output without a physical size the scale 1.)
    public init(
        from chroot: DebianChroot, panelAtTop: Bool = false, x11Display: String? = nil, width: Int = 1280, height: Int = 720, scale: Double = 1
    ) throws {
        self.chroot = chroot
        (self.width, self.height, self.scale) = (width, height, scale)
        (directory, runtimeDirectory) = try TestSway.makeSessionDirectory("plasma", subdirectories: ["home/.config"])
        bus = try SessionBus(in: directory, runtime: runtimeDirectory, chroot: chroot,
                             environment: Self.environment(runtime: runtimeDirectory, socket: socketName, [:]))
        // Standard output joins the log too: KDE's programs write plenty there, and an unread
        // pipe that fills stops them.
        var output = ["--virtual"]
        var kwinEnvironment = Self.kwinEnvironment
        if let x11Display {
            output = ["--x11-display", x11Display]
            kwinEnvironment["DISPLAY"] = x11Display
        }
        kwin = try TestSway.spawn(
            Self.bothToLog + ["kwin_wayland"] + output + ["--width", String(width), "--height", String(height), "--socket", socketName],
            in: directory, runtime: runtimeDirectory, extra: environment(kwinEnvironment), log: directory + "/kwin.log", chroot: chroot)
        let deadline = monotonicSeconds() + 60
        while access(socketPath, F_OK) != 0 || !hasOwner("org.kde.KWin") {
            guard monotonicSeconds() < deadline else { throw TestFailure("KWin did not start within 60 s: \(logs)") }
            poll(nil, 0, 50)
        }
        if scale != 1 { try setScale(scale) }
        try startClient(["plasmashell", "--no-respawn"], log: "plasmashell.log")
        let full = SwayRect(x: 0, y: 0, width: Int((Double(width) / scale).rounded()), height: Int((Double(height) / scale).rounded()))
        // Asked once a second: each question is a script KWin loads, which a starting Plasma
        // on two cores should not have to share its time with ten times a second.
        try awaitMaximizeArea(timeout: 120, every: 1000) { $0 != full && $0.y == 0 }
        if panelAtTop {
            try call("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell.evaluateScript",
                     [#"panels().forEach(function (panel) { panel.location = "top"; })"#])
            try awaitMaximizeArea(timeout: 30) { $0.y > 0 && $0.y + $0.height == full.height }
        }
    }

    /// Sets the output's scale with the chroot's kscreen-doctor (libkscreen in-process, on
    /// KWin's output management protocol) and waits until KWin's maximize area is the output's
    /// size at that scale.
    public func setScale(_ scale: Double) throws {
        func kscreenDoctor(_ arguments: [String]) throws -> Subprocess {
            let process = try TestSway.spawn(["kscreen-doctor"] + arguments, in: directory, runtime: runtimeDirectory,
                                             extra: environment(["KSCREEN_BACKEND_INPROCESS": "1"]), log: nil, chroot: chroot)
            process.closeStandardInput()
            guard process.waitForExit(timeout: 30) == 0 else {
                throw TestFailure("kscreen-doctor \(arguments.joined(separator: " ")) failed: \(process.standardError.suffix(800))")
            }
            return process
        }
        let list = try kscreenDoctor(["--json"])
        guard let json = list.standardOutput.firstIndex(of: "{").map({ String(list.standardOutput[$0...]) }),
              let report = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let name = (report["outputs"] as? [[String: Any]])?.first?["name"] as? String else {
            throw TestFailure("kscreen-doctor --json named no output: \(list.standardOutput.suffix(500)) \(list.standardError.suffix(500))")
        }
        _ = try kscreenDoctor(["output.\(name).scale.\(TestSway.decimal(scale))"])
        let logicalWidth = Int((Double(width) / scale).rounded())
        try awaitMaximizeArea(timeout: 30) { $0.width == logicalWidth }
    }

    deinit {
        for client in clients { client.killGroup() }
        kwin?.killGroup()
        _ = kwin?.waitForExit(timeout: 5)
        // What Plasma started on its own (kioworkers, services the bus activated) is in no
        // group of ours: every process of this session goes, found by its runtime directory.
        SessionProcesses.kill(runtime: runtimeDirectory)
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }

    /// KWin's software renderer (QPainter), and its fake-input global offered to the tests'
    /// pointer (KWinFakePointer), which KWin otherwise keeps for the programs a desktop file
    /// entitles.
    private static let kwinEnvironment = ["KWIN_COMPOSE": "Q", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1"]

    /// A prefix that runs a command with its standard output sent to its standard error.
    private static let bothToLog = ["/bin/sh", "-c", #"exec "$@" 1>&2"#, "sh"]

    /// `extra` with the session's bus and Wayland socket, and Qt on Wayland.
    private func environment(_ extra: [String: String]) -> [String: String] {
        Self.environment(runtime: runtimeDirectory, socket: socketName, extra)
    }

    private static func environment(runtime: String, socket: String, _ extra: [String: String]) -> [String: String] {
        var variables = extra
        variables["DBUS_SESSION_BUS_ADDRESS"] = SessionBus.address(in: runtime)
        variables["WAYLAND_DISPLAY"] = socket
        variables["QT_QPA_PLATFORM"] = "wayland"
        variables["XDG_SESSION_TYPE"] = "wayland"
        variables["XDG_CURRENT_DESKTOP"] = "KDE"
        variables["QT_LOGGING_RULES"] = "kwin_scripting.debug=true"
        return variables
    }

    /// The end of every log in the directory, for a failure's message.
    public var logs: String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".log") }.sorted()
        return names.map { name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("js: wb-query") }
            return "\(name): \(lines.prefix(15).joined(separator: "\n"))\n…\n\(lines.suffix(10).joined(separator: "\n"))"
        }.joined(separator: "\n")
    }

    @discardableResult
    public func startClient(_ command: [String], log: String? = nil) throws -> Subprocess {
        let client = try TestSway.spawn(Self.bothToLog + command, in: directory, runtime: runtimeDirectory, extra: environment([:]),
                                        log: log.map { directory + "/" + $0 }, chroot: chroot)
        clients.append(client)
        return client
    }

    /// Runs `command` in the session (its bus, Wayland socket, HOME) to its end, as its user;
    /// its standard output, or a failure naming its standard error.
    @discardableResult
    public func run(_ command: [String], timeout: Double = 30) throws -> String {
        let process = try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: environment([:]), log: nil, chroot: chroot)
        process.closeStandardInput()
        guard process.waitForExit(timeout: timeout) == 0 else {
            throw TestFailure("\(command.joined(separator: " ")) failed: \(process.standardError)")
        }
        return process.standardOutput
    }

    /// Sends KDE's "global settings changed" signal (`org.kde.KGlobalSettings.notifyChange` on
    /// `/KGlobalSettings`), as Plasma's settings pages do after writing kdeglobals: `type` 1 is
    /// a new font.
    public func notifyGlobalSettingsChange(_ type: Int32, _ argument: Int32 = 0) throws {
        let emit = try gdbus(["emit", "--object-path", "/KGlobalSettings", "--signal", "org.kde.KGlobalSettings.notifyChange",
                              String(type), String(argument)])
        guard emit.status == 0 else { throw TestFailure("notifyChange failed: \(emit.process.standardError)") }
    }

    /// Sends KConfig's change notice for `key` of `group` in `file` (`org.kde.kconfig.notify
    /// ConfigChanged` on `/<file>`, what KConfigWatcher listens for), as Plasma's settings send
    /// it after writing the file.
    public func notifyConfigChanged(file: String, group: String, key: String) throws {
        let emit = try gdbus(["emit", "--object-path", "/" + file, "--signal", "org.kde.kconfig.notify.ConfigChanged",
                              "{'\(group)': [[byte \(key.utf8.map { String($0) }.joined(separator: ", "))]]}"])
        guard emit.status == 0 else { throw TestFailure("ConfigChanged failed: \(emit.process.standardError)") }
    }

    /// What the portal's Settings.ReadAll answers for `namespaces` now (gdbus's text), for a
    /// failure's message.
    public func portalSettings(_ namespaces: [String]) -> String {
        var arguments = ["call", "--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/freedesktop/portal/desktop"]
        arguments += ["--method", "org.freedesktop.portal.Settings.ReadAll", "[" + namespaces.map { "'\($0)'" }.joined(separator: ", ") + "]"]
        guard let read = try? gdbus(arguments) else { return "(gdbus did not start)" }
        return read.process.standardOutput + read.process.standardError
    }

    /// Waits until Plasma's portal backend answers for its settings (the standard appearance
    /// keys, which only it gives): from then on it follows kdeglobals' changes. The bus starts
    /// it when it is first asked, and a change made while it is still starting is lost to it.
    public func awaitPortal() throws {
        let deadline = monotonicSeconds() + 60
        var answer = ""
        repeat {
            answer = portalSettings(["org.freedesktop.appearance"])
            if answer.contains("color-scheme") { return }
            poll(nil, 0, 200)
        } while monotonicSeconds() < deadline
        throw TestFailure("Plasma's portal never answered: \(answer)\n\(logs)")
    }

    /// The session bus's address (portals and Plasma's services answer there).
    public var busAddress: String { bus.address }

    /// A maximized, resize-counting foot (TestSway.startFoot).
    public func startMaximizedFoot(appID: String = "foot") throws -> ResizeCountingTerminal {
        let terminal = try TestSway.startFoot(in: directory, runtime: runtimeDirectory, environment: environment([:]),
                                              appID: appID, footArguments: ["--maximized"], chroot: chroot)
        clients.append(terminal.process)
        return terminal
    }

    // MARK: KWin's own view

    /// Locks the screen the way Plasma's own "Lock" does (org.freedesktop.ScreenSaver.Lock, which
    /// KWin's screen locker serves) and waits until the locker says it is active.
    public func lock() throws {
        try call("org.freedesktop.ScreenSaver", "/ScreenSaver", "org.freedesktop.ScreenSaver.Lock", [])
        let deadline = monotonicSeconds() + 30
        while try !call("org.freedesktop.ScreenSaver", "/ScreenSaver", "org.freedesktop.ScreenSaver.GetActive", []).contains("true") {
            guard monotonicSeconds() < deadline else { throw TestFailure("the screen locker never became active\n\(logs)") }
            poll(nil, 0, 100)
        }
    }

    /// KWin's maximize area on its output (`workspace.clientArea(KWin.MaximizeArea, …)`).
    public func maximizeArea() throws -> SwayRect {
        let answer = try query("const a = workspace.clientArea(KWin.MaximizeArea, workspace.activeScreen, workspace.currentDesktop); " +
                               "return [a.x, a.y, a.width, a.height].join(' ');")
        let numbers = answer.split(separator: " ").compactMap { Double($0).flatMap { $0.isFinite ? Int($0.rounded()) : nil } }
        guard numbers.count == 4 else { throw TestFailure("KWin answered '\(answer)' for the maximize area") }
        return SwayRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// The frame geometry of the window whose app id (KWin's `resourceClass`) is `appID`.
    public func frameGeometry(appID: String) throws -> SwayRect? {
        let answer = try query("const w = workspace.windowList().find(w => w.resourceClass == '\(appID)'); " +
                               "return w ? [w.frameGeometry.x, w.frameGeometry.y, w.frameGeometry.width, w.frameGeometry.height].join(' ') : 'none';")
        let numbers = answer.split(separator: " ").compactMap { Double($0).flatMap { $0.isFinite ? Int($0.rounded()) : nil } }
        return numbers.count == 4 ? SwayRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) : nil
    }

    /// Has KWin maximize the window whose app id is `appID` again (restored, then maximized),
    /// so that it fills the maximize area as it is now.
    public func maximizeAgain(appID: String) throws {
        _ = try query("const w = workspace.windowList().find(w => w.resourceClass == '\(appID)'); " +
                      "if (!w) return 'none'; w.setMaximize(false, false); w.setMaximize(true, true); return 'ok';")
    }

    /// Waits until KWin's maximize area is one `isWanted` accepts; that area, or a failure.
    @discardableResult
    public func awaitMaximizeArea(timeout: Double = 20, every milliseconds: Int32 = 100, _ isWanted: (SwayRect) -> Bool) throws -> SwayRect {
        let deadline = monotonicSeconds() + timeout
        var last: SwayRect?
        repeat {
            last = try? maximizeArea()
            if let last, isWanted(last) { return last }
            poll(nil, 0, milliseconds)
        } while monotonicSeconds() < deadline
        throw TestFailure("KWin's maximize area is \(last.map(String.init(describing:)) ?? "unknown") after \(timeout) s\n\(logs)")
    }

    /// Runs `body` (a function's, which returns the answer) as a KWin script (loaded, run and unloaded over
    /// D-Bus) and returns what it printed, read back from KWin's log.
    private func query(_ body: String) throws -> String {
        queries += 1
        let marker = "wb-query-\(queries)"
        let script = directory + "/\(marker).js"
        try TestSway.write("print('\(marker) ' + (function () { \(body) })());", to: script)
        try call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript", [script, marker])
        try call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.start", [])
        defer { _ = try? call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.unloadScript", [marker]) }
        let deadline = monotonicSeconds() + 10
        repeat {
            let log = (try? String(contentsOfFile: directory + "/kwin.log", encoding: .utf8)) ?? ""
            if let line = log.split(separator: "\n").last(where: { $0.contains(marker + " ") }),
               let range = line.range(of: marker + " ") {
                return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
            poll(nil, 0, 20)
        } while monotonicSeconds() < deadline
        throw TestFailure("KWin's script \(marker) printed nothing within 10 s\n\(logs)")
    }

    /// Calls `method` on the session bus with string arguments (gdbus, this machine's, as the
    /// session's user).
    @discardableResult
    private func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String]) throws -> String {
        var command = ["call", "--dest", destination, "--object-path", path, "--method", method]
        for argument in arguments { command.append("'" + argument.replacingOccurrences(of: "'", with: "\\'") + "'") }
        let called = try gdbus(command)
        guard called.status == 0 else { throw TestFailure("\(method) failed: \(called.process.standardError)") }
        return called.process.standardOutput
    }

    /// Runs `gdbus ARGUMENTS` on the session bus to its end (at most 20 s): this machine's
    /// gdbus, as the session's user, whose bus lets no one else in.
    private func gdbus(_ arguments: [String]) throws -> (status: Int32?, process: Subprocess) {
        // Built in steps: Swift 6.0's type checker gives up on one long expression.
        // On the session bus, not `--address`: with an address, gdbus emits a signal before its
        // connection is registered on the bus (dbus-monitor shows its sender as
        // ":not.active.yet"), and nobody receives it.
        var command = asSessionUser
        command += ["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=" + bus.address, "/usr/bin/gdbus", arguments[0], "--session"]
        command += arguments.dropFirst()
        let process = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()))
        process.closeStandardInput()
        return (process.waitForExit(timeout: 20), process)
    }

    /// The prefix that runs a command as the session's user (setpriv when the tests run as root).
    private var asSessionUser: [String] {
        geteuid() == 0 ? TestSway.running(as: TestSway.unprivilegedUser) : ["/usr/bin/env"]
    }

    private func hasOwner(_ name: String) -> Bool {
        (try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", [name]))?.contains("true") == true
    }
}
