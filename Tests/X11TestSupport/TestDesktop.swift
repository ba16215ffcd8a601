// A private desktop for one test: Xvfb on a display number the server picks itself
// (-displayfd), and a real EWMH window manager with its own HOME. The window managers of the big
// desktops come with their session around them: a private session bus (dbus-run-session: xfconfd,
// dconf and the panels' applets start on it), their usual panel, and one process group for all
// of it, killed whole. Torn down when released.

import Glibc
import ProcessTestSupport

public final class TestDesktop {
    /// The window managers the suites run against.
    public enum WindowManager: String, Sendable, CaseIterable {
        /// Stacking WM; publishes `_NET_WORKAREA` and moves maximized windows.
        case openbox
        /// Tiling WM; publishes no `_NET_WORKAREA`, lays docks out itself.
        case i3
        /// Tiling (with the config below); no `_NET_WORKAREA`; reads a dock's strut when it manages it.
        case awesome
        /// Tiling; no `_NET_WORKAREA`; reads a dock's strut when it manages it and never gives it back.
        case bspwm
        /// Stacking; honours only the legacy `_NET_WM_STRUT`.
        case fluxbox
        /// Tiling; no `_NET_WORKAREA`; follows strut changes live.
        case herbstluftwm
        /// Stacking (taskbar off); publishes `_NET_WORKAREA` once a strut appears.
        case icewm
        /// Stacking; publishes `_NET_WORKAREA`, re-fits no window already maximized.
        case jwm
        /// Stacking; honours only the legacy `_NET_WM_STRUT`, re-fits no window already maximized.
        case pekwm
        /// Xfce's stacking WM (its compositor on), with xfce4-panel's default top panel.
        case xfwm4
        /// MATE's stacking WM, with mate-panel's default top and bottom panels.
        case marco
        /// GNOME's WM and compositing manager (`--x11`), without gnome-shell: tint2 as its top panel.
        case mutter
        /// Cinnamon's WM and compositing manager, without Cinnamon's shell: tint2 as its top panel.
        case muffin
        /// GNOME Shell itself (`--x11`), the WM and compositor of a GNOME on Xorg session: its top
        /// bar is drawn by the compositor, no X11 window carries it, only the work area shows it.
        /// Started with a private session bus and a second private bus standing in for the
        /// system bus (it asks that one for logind and dies without it), and out of its overview.
        case gnomeShell
        /// No window manager at all.
        case none

        /// Whether the WM tiles windows (a tiled client shows where it reserves space).
        public var tiles: Bool { [.i3, .awesome, .bspwm, .herbstluftwm].contains(self) }
        /// Whether the WM publishes `_NET_WORKAREA` (at least once a strut exists).
        public var publishesWorkArea: Bool { [.openbox, .fluxbox, .icewm, .jwm, .pekwm, .xfwm4, .marco, .mutter, .muffin, .gnomeShell].contains(self) }
        /// The WM_CLASS instance of the panel the desktop starts with its WM, whose top panel the
        /// banner must sit next to; nil where the tests bring their own stand-in panel.
        public var panel: String? {
            switch self {
            case .xfwm4: "xfce4-panel"
            case .marco: "mate-panel"
            case .mutter, .muffin: "tint2"
            default: nil
            }
        }
    }

    public let displayName: String
    public let windowManager: WindowManager
    public let home: String
    private let server: Subprocess
    private var wm: Subprocess?

    /// Starts Xvfb at `width`×`height` (the framebuffer never grows past this), runs each of
    /// `setup`'s commands (e.g. `xrandr --setmonitor …`), then starts the WM: some WMs read the
    /// monitor layout only once, at start-up.
    public init(
        windowManager: WindowManager = .openbox, width: Int = 1280, height: Int = 800, setup: [[String]] = []
    ) throws {
        self.windowManager = windowManager
        var template = Array("/tmp/window-banner-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        home = String(cString: made)
        let path = String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))
        let base = ["PATH": path, "HOME": home]
        server = try Subprocess(
            executable: "/bin/sh",
            arguments: ["-c", "exec Xvfb -displayfd 1 -screen 0 \(width)x\(height)x24 -nolisten tcp -noreset 2>/dev/null"],
            environment: base
        )
        guard let number = server.readLine(timeout: 20), !number.isEmpty else {
            throw TestFailure("Xvfb did not report a display number (is the xvfb package installed?)")
        }
        displayName = ":" + number
        var environment = base
        environment["DISPLAY"] = displayName
        for command in setup {
            try TestDesktop.run(command, environment: environment)
        }
        try startWindowManager(windowManager)
    }

    /// The `xrandr --setmonitor` command that defines monitor `name` over `area`, on `output`
    /// (`screen` for the first one, `none` for the others).
    public static func setMonitor(_ name: String, _ area: Rect, output: String) -> [String] {
        // Physical size at 96 DPI, which xrandr wants but nothing here uses.
        let size = "\(area.width)/\(area.width * 254 / 960)x\(area.height)/\(area.height * 254 / 960)"
        return ["xrandr", "--setmonitor", name, "\(size)+\(area.x)+\(area.y)", output]
    }

    /// Starts `windowManager` and waits until it manages windows (for a WM started late, or
    /// again after `killWindowManager()`).
    public func startWindowManager(_ windowManager: WindowManager) throws {
        var environment = self.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        // The sockets and state of a desktop session (the bus, dconf, GTK's accessibility bus,
        // which NO_AT_BRIDGE keeps from starting) stay in the private HOME.
        environment["XDG_RUNTIME_DIR"] = home + "/run"
        environment["NO_AT_BRIDGE"] = "1"
        mkdir(home + "/run", 0o700)
        guard let command = try Self.command(for: windowManager, home: home) else { return }
        // Subprocess starts it in a process group of its own: the WM and whatever it starts are
        // killed whole at the end. (No setsid here: as a group leader, setsid would fork, exit at
        // once and leave the WM in a group nobody kills — a restarted WM then found the old one
        // still running.)
        wm = try Subprocess(executable: "/bin/sh", arguments: ["-c", "exec \(command) >/dev/null 2>&1"], environment: environment)
        let observer = try XObserver(displayName: displayName)
        defer { observer.close() }
        // Every one of them names its check window on the root and on itself once it runs; a
        // work area is published later or never, so it is no sign of readiness.
        guard observer.wait(timeout: 20, until: { observer.windowManagerIsReady }) else {
            throw TestFailure("\(windowManager.rawValue) did not announce itself on \(displayName)")
        }
        try observer.waitUntilWindowManagerManagesWindows()
        if windowManager.publishesWorkArea, windowManager != .icewm {
            guard observer.wait(timeout: 20, until: { !observer.workAreas().isEmpty }) else {
                throw TestFailure("\(windowManager.rawValue) published no _NET_WORKAREA on \(displayName)")
            }
        }
        if windowManager == .gnomeShell { try leaveOverview() }
    }

    /// The private session bus of a desktop started with one of its own (GNOME Shell's).
    public var sessionBusAddress: String? {
        guard let file = fopen(home + "/session-bus", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let bytes = line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// GNOME Shell starts in its overview, which hides every window: waits until it has shown
    /// it, then closes it over the shell's own D-Bus interface and waits until it is closed.
    private func leaveOverview() throws {
        guard let bus = sessionBusAddress else { throw TestFailure("gnome-shell's session bus address was not written") }
        var environment = self.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        let shell = ["--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell"]
        func overviewActive() -> Bool? {
            let get = try? Subprocess(
                executable: "/usr/bin/gdbus",
                arguments: ["call"] + shell + ["--method", "org.freedesktop.DBus.Properties.Get", "org.gnome.Shell", "OverviewActive"],
                environment: environment)
            guard let get, get.waitForExit(timeout: 10) == 0 else { return nil }
            return get.standardOutput.contains("true")
        }
        func until(_ wanted: Bool) -> Bool {
            for _ in 0..<300 {
                if overviewActive() == wanted { return true }
                usleep(100_000)
            }
            return false
        }
        guard until(true) else { throw TestFailure("gnome-shell never showed its overview on \(displayName)") }
        try TestDesktop.run(
            ["gdbus", "call"] + shell + ["--method", "org.freedesktop.DBus.Properties.Set", "org.gnome.Shell", "OverviewActive", "<false>"],
            environment: environment)
        guard until(false) else { throw TestFailure("gnome-shell's overview did not close on \(displayName)") }
    }

    /// The command line that starts `windowManager` with a minimal config of its own under
    /// `home` (no bars, taskbars or trays of its own: the tests bring their own panel).
    private static func command(for windowManager: WindowManager, home: String) throws -> String? {
        let config = home + "/.config"
        for directory in [config, "\(config)/awesome", "\(config)/bspwm", "\(config)/herbstluftwm", "\(config)/tint2", "\(home)/.fluxbox", "\(home)/.icewm"] {
            mkdir(directory, 0o700)
        }
        switch windowManager {
        case .openbox:
            return "openbox --sm-disable"
        case .i3:
            // The header line stops i3 from migrating the config and starting a bar.
            try writeFile("\(config)/i3.config", "# i3 config file (v4)\nfont pango:DejaVu Sans 8\nfocus_follows_mouse no\n")
            return "i3 -c \(config)/i3.config"
        case .awesome:
            try writeFile("\(config)/awesome/rc.lua", """
                local awful = require("awful")
                awful.layout.layouts = { awful.layout.suit.tile }
                awful.screen.connect_for_each_screen(function(s) awful.tag({ "1" }, s, awful.layout.layouts[1]) end)

                """)
            return "awesome -c \(config)/awesome/rc.lua"
        case .bspwm:
            try writeScript("\(config)/bspwm/bspwmrc", "bspc monitor -d 1")
            return "bspwm -c \(config)/bspwm/bspwmrc"
        case .fluxbox:
            try writeFile("\(home)/.fluxbox/init", "session.screen0.toolbar.visible: false\nsession.screen0.workspaces: 1\n")
            return "fluxbox -rc \(home)/.fluxbox/init"
        case .herbstluftwm:
            try writeScript("\(config)/herbstluftwm/autostart", "herbstclient set_layout horizontal")
            return "herbstluftwm --autostart \(config)/herbstluftwm/autostart"
        case .icewm:
            try writeFile("\(home)/.icewm/preferences", "ShowTaskBar=0\n")
            return "icewm"
        case .jwm:
            try writeFile("\(home)/.jwmrc", "<?xml version=\"1.0\"?>\n<JWM><Desktops width=\"1\" height=\"1\"/></JWM>\n")
            return "jwm -f \(home)/.jwmrc"
        case .pekwm:
            return "pekwm"
        case .xfwm4:
            return try session(home: home, ["xfwm4 --sm-client-disable", "xfce4-panel --sm-client-disable"])
        case .marco:
            return try session(home: home, ["marco --sm-disable", "mate-panel"])
        case .mutter:
            try writeTint2Config(config)
            return try session(home: home, ["mutter --x11 --sm-disable", "tint2"])
        case .muffin:
            try writeTint2Config(config)
            return try session(home: home, ["muffin --x11 --sm-disable", "tint2"])
        case .gnomeShell:
            // The system bus stand-in is started inside the session, in the WM's process group.
            try writeScript("\(home)/gnome-session", """
                echo "$DBUS_SESSION_BUS_ADDRESS" > "$HOME/session-bus.new" && mv "$HOME/session-bus.new" "$HOME/session-bus"
                dbus-daemon --session --nofork --print-address=3 3>"$HOME/system-bus" &
                until [ -s "$HOME/system-bus" ]; do sleep 0.05; done
                DBUS_SYSTEM_BUS_ADDRESS="$(head -n 1 "$HOME/system-bus")" exec gnome-shell --x11 --replace
                """)
            return "dbus-run-session -- \(home)/gnome-session"
        case .none:
            return nil
        }
    }

    /// A desktop session's start-up file: `programs` started together on a private session bus,
    /// the script waiting for them (dbus-run-session ends the bus when it returns).
    private static func session(home: String, _ programs: [String]) throws -> String {
        try writeScript("\(home)/session", programs.map { $0 + " &" }.joined(separator: "\n") + "\nwait")
        return "dbus-run-session -- \(home)/session"
    }

    /// A top panel of 30 px across the monitor with a strut, as GNOME's and Cinnamon's shells
    /// have (tint2's default is a bottom taskbar).
    private static func writeTint2Config(_ config: String) throws {
        try writeFile("\(config)/tint2/tint2rc", """
            rounded = 0
            border_width = 0
            background_color = #204A87 100
            border_color = #000000 0
            panel_items = T
            panel_position = top center horizontal
            panel_size = 100% 30
            panel_margin = 0 0
            panel_padding = 0 0 0
            panel_background_id = 1
            panel_layer = top
            panel_dock = 0
            strut_policy = follow_size
            autohide = 0
            taskbar_mode = single_desktop

            """)
    }

    /// Kills the window manager and all it started outright (SIGKILL), as a crash would, and
    /// waits for it to go.
    public func killWindowManager() {
        if let wm { kill(-wm.pid, SIGKILL) }
        wm?.waitForExit(timeout: 5)
        wm = nil
    }

    /// The X server's process id: a test may stop it (SIGSTOP) to see what its clients do.
    public var serverPID: pid_t { server.pid }

    /// The environment a client of this desktop runs with.
    public var environment: [String: String] {
        ["DISPLAY": displayName, "HOME": home, "PATH": String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))]
    }

    /// Runs `command` (argv, looked up in `PATH`) as a client of this desktop and waits for it;
    /// throws with its error output unless it exits 0.
    public func run(_ command: [String]) throws {
        try TestDesktop.run(command, environment: environment)
    }

    /// Starts `command` as a client of this desktop without waiting for it, so the caller can
    /// serve its own X connection while the command works; finish with `finish(_:_:)`.
    public func start(_ command: [String]) throws -> Subprocess {
        try Subprocess(executable: "/usr/bin/env", arguments: command, environment: environment)
    }

    /// Waits for a command from `start(_:)`; throws with its error output unless it exits 0.
    public func finish(_ process: Subprocess, _ command: [String]) throws {
        try TestDesktop.check(process, command)
    }

    private static func run(_ command: [String], environment: [String: String]) throws {
        try check(Subprocess(executable: "/usr/bin/env", arguments: command, environment: environment), command)
    }

    private static func check(_ process: Subprocess, _ command: [String]) throws {
        let status = process.waitForExit(timeout: 20)
        guard status == 0 else {
            let reason = status.map { "exit status \($0)" } ?? "timeout"
            throw TestFailure("\(command.joined(separator: " ")) failed (\(reason)): \(process.standardError)")
        }
    }

    private var stopped = false

    /// Stops the WM and the server; close every client connection first.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if let wm {
            kill(-wm.pid, SIGTERM)
            wm.waitForExit(timeout: 5)
            // What ignored SIGTERM (a bus-activated helper, a panel's applet) goes now.
            kill(-wm.pid, SIGKILL)
        }
        // Xvfb can miss a SIGTERM that lands outside its poll and sleep until its next timer
        // (the 10-minute screen saver): give it a moment, then waitForExit kills it.
        server.signal(SIGTERM)
        server.waitForExit(timeout: 2)
        _ = Subprocess.remove(home)
    }

    deinit { stop() }
}

extension Subprocess {
    static func remove(_ path: String) -> Int32? {
        (try? Subprocess(executable: "/bin/rm", arguments: ["-rf", path], environment: [:]))?.waitForExit()
    }
}

/// An executable shell script running `command` (a WM's start-up file).
func writeScript(_ path: String, _ command: String) throws {
    try writeFile(path, "#!/bin/sh\n\(command)\n")
    chmod(path, 0o755)
}

/// Writes `text` to `path` (a config file for a program a test starts).
public func writeFile(_ path: String, _ text: String) throws {
    guard let file = fopen(path, "w") else { throw TestFailure("cannot write \(path)") }
    fputs(text, file)
    fclose(file)
}

/// `program` (by default `window-banner`) as built next to the test bundle, at a path every
/// user can run it from (see SharedPrograms: tests run it as other users too).
public func windowBannerExecutable(_ program: String = "window-banner") -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    var directory = path
    while let last = directory.last, last != "/" { directory.removeLast() }
    directory.removeLast()
    return SharedPrograms.path(of: program, builtIn: directory)
}
