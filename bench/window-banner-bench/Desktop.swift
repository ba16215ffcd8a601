// The private desktop every tool is measured on, in one run: Xvfb (1280x800, a free display
// number from -displayfd), the X RECORD probe watching it from the start, openbox with a private
// HOME, and for dunst a private session bus (dbus-daemon) and dunst itself with a generated
// config (and a second bus that starts dunst only when a notification comes, for its cold start).
// Every tool gets the same clean environment: this desktop, a private HOME, config and
// runtime directory, nothing from the user who runs `make bench`.

import Glibc

final class Desktop {
    let supervisor: Supervisor
    let recorder: Recorder
    let display: String
    let work: String
    /// What every measured command runs with.
    private(set) var environment: [String: String]
    private var dunst: Child?
    private var server: Child?
    private var windowManager: Child?

    /// Starts Xvfb, the probe and openbox, each awaited on what announces it.
    init(supervisor: Supervisor, work: String, probe: String) throws {
        self.supervisor = supervisor
        self.work = work
        let home = "\(work)/home"
        for directory in [home, "\(home)/.config", "\(work)/runtime"] { try makeDirectory(directory) }
        // No screen saver (`-s 0`): nothing here types, so after Xvfb's default 10 minutes the
        // saver would blank the screen, and the owner holds banners back from a blanked screen
        // as from a locked one (section 12 waited 10 s for a banner that was held).
        let xvfb = try supervisor.spawn(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset", "-s", "0"],
            environment: ["PATH": basePath], name: "Xvfb", stdout: .pipe)
        server = xvfb
        guard supervisor.wait(seconds: 15, until: { !xvfb.lines.isEmpty || !xvfb.isRunning }), let number = xvfb.lines.first else {
            throw BenchFailure("Xvfb did not report a display")
        }
        display = ":\(number)"
        environment = [
            "PATH": basePath, "LANG": "C.UTF-8", "DISPLAY": display, "HOME": home,
            "XDG_CONFIG_HOME": "\(home)/.config", "XDG_RUNTIME_DIR": "\(work)/runtime",
            // The system's paths (broadcast spools, /run/reboot-required) under an empty root:
            // a machine waiting for a restart would put its notice in every monitor's way.
            "WINDOW_BANNER_ROOT": "\(work)/system-root",
        ]
        recorder = try Recorder(supervisor: supervisor, executable: probe, environment: environment)
        windowManager = try supervisor.spawn(["openbox"], environment: environment, name: "openbox")
        let workArea = recorder.atoms["_NET_WORKAREA"] ?? 0
        let root = recorder.root
        guard recorder.waitForRecord(timeout: 15, where: { $0.kind == .prop && $0.target == root && $0.arguments.first == "\(workArea)" }) != nil else {
            throw BenchFailure("openbox did not publish _NET_WORKAREA")
        }
    }

    /// A private session bus and dunst on it, ready to take notifications.
    func startDunst() throws {
        let bus = try supervisor.spawn(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path=\(work)/bus"],
            environment: environment, name: "dbus-daemon", stdout: .pipe)
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), let address = bus.lines.first else {
            throw BenchFailure("dbus-daemon did not print its address")
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let config = "\(work)/dunstrc"
        try writeFile(config, Self.dunstConfig)
        dunst = try supervisor.spawn(["dunst", "-config", config], environment: environment, name: "dunst", stderr: .file("\(work)/dunst.log"))
        guard recorder.waitForRecord(timeout: 10, where: { $0.kind == .prop && $0.arguments.first == "67" && $0.arguments.dropFirst().first == "Dunst_Dunst_" }) != nil else {
            throw BenchFailure("dunst did not create its window (see \(work)/dunst.log)")
        }
        // The window comes before dunst owns its bus name: ask it until it answers.
        for _ in 0..<100 {
            let check = try supervisor.spawn(["dunstctl", "is-paused"], environment: environment)
            if supervisor.waitForExit(check, timeout: 5) == 0 { return }
        }
        throw BenchFailure("dunst never answered on the session bus")
    }

    var dunstPID: pid_t? { dunst?.pid }

    /// A second private bus on which dunst is not running but is started by the first
    /// notification (D-Bus activation, as at a login), with the same config.
    private(set) var activatedDunst: ActivatedServer?

    func startActivatableDunst() throws {
        activatedDunst = try ActivatedServer(supervisor: supervisor, work: work, label: "dunst", environment: environment,
                                             server: ["/usr/bin/dunst", "-config", "\(work)/dunstrc"])
    }

    /// Ends everything, Xvfb last and for sure.
    func stop() {
        activatedDunst?.stop()
        recorder.stop()
        supervisor.stopAll()
    }

    /// Ends this desktop alone (one of several): the probe, dunst, openbox, then Xvfb. Clients
    /// still on it (an owner) end with the display.
    func stopOwn() {
        activatedDunst?.stop()
        recorder.stop()
        for child in [dunst, windowManager, server].compactMap({ $0 }) { supervisor.stop(child) }
    }

    /// dunst's look for the benchmark: one notification across the top like the banner (same
    /// font, colours and height), no icon, sticky until closed. Everything else is dunst's default.
    static let dunstConfig = """
        [global]
            width = 1280
            height = 80
            origin = top-left
            offset = 0x0
            font = sans-serif Semibold 17
            alignment = center
            vertical_alignment = center
            frame_width = 0
            icon_position = off
            format = "%s"
        [urgency_low]
            background = "#34C759"
            foreground = "#FFFFFF"
            timeout = 0
        [urgency_normal]
            background = "#34C759"
            foreground = "#FFFFFF"
            timeout = 0
        [urgency_critical]
            background = "#34C759"
            foreground = "#FFFFFF"
            timeout = 0

        """
}

/// PATH for every child: the system's, so each tool is the distribution's.
let basePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/// A new directory from mkdtemp's `pattern` (`/tmp/wbb-XXXXXX`).
func temporaryDirectory(_ pattern: String) throws -> String {
    var template = Array(pattern.utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchFailure("mkdtemp: \(String(cString: strerror(errno)))") }
    return String(cString: made)
}

/// Owner processes on the Wayland compositor at `socket`: clients start them and they outlive
/// those, so they are found by their command line (`window-banner daemon …`), which names it.
func ownerProcesses(servingSocket socket: String) -> [pid_t] {
    directoryEntries("/proc").compactMap { entry in
        guard let pid = pid_t(entry), let command = readFile("/proc/\(entry)/cmdline") else { return nil }
        let arguments = command.split(separator: "\0")
        return arguments.count > 2 && arguments[1] == "daemon" && arguments.contains(where: { $0 == socket }) ? pid : nil
    }
}

func makeDirectory(_ path: String) throws {
    guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
        throw BenchFailure("cannot create \(path): \(String(cString: strerror(errno)))")
    }
}

func writeFile(_ path: String, _ text: String) throws {
    guard let file = fopen(path, "w") else { throw BenchFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    fputs(text, file)
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
