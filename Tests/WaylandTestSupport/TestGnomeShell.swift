// A private GNOME on Wayland for one test: Debian's real gnome-shell, headless with a virtual
// monitor, as the unprivileged user TestSway uses (its runtime directory, HOME and buses are its
// own), on a private session bus and a second private bus standing in for the system bus (the
// shell asks that one for logind and dies without it). It starts its Xwayland at once; what the
// shell reserves shows in Mutter's work area on that Xwayland (`_GTK_WORKAREAS_D0`), which is
// read back with xprop. WindowBanner's shell extension can be installed (built from
// Resources/gnome-shell by scripts/build-extension.sh, the 42–44 variant) and enabled before the
// shell starts, which then starts out of its overview. Everything (shell, Xwayland, buses) is
// one process group, killed whole; the clients started here are killed too.

import Foundation
import Glibc
import ProcessTestSupport

public final class TestGnomeShell {
    /// What of WindowBanner's shell extension the session has when the shell starts.
    public enum Extension {
        case none
        /// In the user's extensions directory, not enabled.
        case installed
        /// Installed, and listed in `org.gnome.shell enabled-extensions`.
        case enabled
    }

    /// The extension's UUID (its directory's name).
    public static let extensionUUID = "window-banner@window-banner"

    /// The directory holding the runtime directory, HOME and the start-up script.
    public let directory: String
    /// `XDG_RUNTIME_DIR` of the shell and its clients.
    public let runtimeDirectory: String
    /// `WAYLAND_DISPLAY` of the session (a socket in `runtimeDirectory`).
    public let waylandDisplay = "wb-gnome"
    /// The session's Xwayland (`:N`), and the cookie file its clients need.
    public private(set) var xDisplay = ""
    public private(set) var xAuthority = ""
    private let shell: Subprocess
    private var clients: [Subprocess] = []

    /// Starts the shell with a `width`×`height` virtual monitor and the extension `setup`; waits until its
    /// Wayland socket, its Xwayland and its top bar (in the work area) are there, and an enabled
    /// extension is on the bus. `--unsafe-mode` lets a test take screenshots over D-Bus.
    /// `busForEveryone`: the session bus admits every user (root too), as a session bus never
    /// does, so a test can see that the extension itself turns other users away.
    public init(
        width: Int = 1280, height: Int = 800, more: [(width: Int, height: Int)] = [], withExtension setup: Extension = .none, busForEveryone: Bool = false
    ) throws {
        var template = Array("/tmp/window-banner-gnome-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        runtimeDirectory = directory + "/run"
        mkdir(runtimeDirectory, 0o700)
        mkdir(directory + "/home", 0o700)
        chmod(directory, 0o755)
        if setup != .none { try Self.installExtension(home: directory + "/home", work: directory) }
        var sessionBusConfiguration = "session"
        if busForEveryone {
            try TestSway.write(Self.busForEveryone, to: directory + "/session-bus.conf")
            sessionBusConfiguration = "config-file=" + directory + "/session-bus.conf"
        }
        let monitors = more.map { "--virtual-monitor \($0.width)x\($0.height)" }.joined(separator: " ")
        // gsettings writes through dconf, which the private session bus starts on demand. No
        // notification banners: the shell's own start-up notice ("Screen Lock disabled") would
        // sit over the top of the screen, and with no user activity it never times out.
        let enable = (setup == .enabled ? "gsettings set org.gnome.shell enabled-extensions \"['\(Self.extensionUUID)']\"\n" : "")
            + "gsettings set org.gnome.desktop.notifications show-banners false"
        let script = """
            dbus-daemon --\(sessionBusConfiguration) --nofork --print-address=3 3>"$XDG_RUNTIME_DIR/session-bus" &
            dbus-daemon --session --nofork --print-address=3 3>"$XDG_RUNTIME_DIR/system-bus" &
            until [ -s "$XDG_RUNTIME_DIR/session-bus" ] && [ -s "$XDG_RUNTIME_DIR/system-bus" ]; do sleep 0.05; done
            export DBUS_SESSION_BUS_ADDRESS="$(head -n 1 "$XDG_RUNTIME_DIR/session-bus")"
            export DBUS_SYSTEM_BUS_ADDRESS="$(head -n 1 "$XDG_RUNTIME_DIR/system-bus")"
            \(enable)
            exec gnome-shell --headless --unsafe-mode --wayland --virtual-monitor \(width)x\(height) \(monitors) --wayland-display \(waylandDisplay)
            """
        try TestSway.write(script, to: directory + "/session")
        if geteuid() == 0 {
            for path in [directory, runtimeDirectory, directory + "/home"] {
                chown(path, TestSway.unprivilegedUser, TestSway.unprivilegedUser)
            }
        }
        shell = try TestSway.spawn(
            ["/bin/sh", directory + "/session"], in: directory, runtime: runtimeDirectory,
            extra: ["NO_AT_BRIDGE": "1", "XDG_SESSION_TYPE": "wayland"], log: directory + "/shell.log")
        do {
            try awaitStart(monitors: 1 + more.count)
            if setup == .enabled {
                try awaitBusName("org.windowbanner.Shell")
                try leaveOverview()
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private var stopped = false

    /// Kills the shell, its Xwayland and its buses.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        for client in clients {
            client.killGroup()
            _ = client.waitForExit(timeout: 5)
        }
        shell.killGroup()
        _ = shell.waitForExit(timeout: 5)
        // Xwayland killed with the shell leaves its socket and lock behind.
        if xDisplay.hasPrefix(":") {
            let number = xDisplay.dropFirst()
            unlink("/tmp/.X11-unix/X\(number)")
            unlink("/tmp/.X\(number)-lock")
        }
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }

    /// The environment of a client of this session: Wayland, Xwayland beside it, the session bus.
    public var environment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "XDG_RUNTIME_DIR": runtimeDirectory,
            "WAYLAND_DISPLAY": waylandDisplay, "DISPLAY": xDisplay, "XAUTHORITY": xAuthority, "LANG": "C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS": sessionBus,
        ]
    }

    /// The address of the session's private bus.
    public var sessionBus: String {
        let text = (try? String(contentsOfFile: runtimeDirectory + "/session-bus", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// A session bus that lets every user connect (session.conf's services, no user check).
    private static let busForEveryone = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <standard_session_servicedirs/>
          <policy context="default">
            <allow user="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    // MARK: The extension

    /// Builds the extension (scripts/build-extension.sh) and installs its 42–44 variant, the one
    /// Debian's shell 43 loads, into `home`'s extensions directory.
    private static func installExtension(home: String, work: String) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = work + "/extension"
        try Subprocess.run("/bin/sh", [source.path + "/scripts/build-extension.sh", built])
        let extensions = home + "/.local/share/gnome-shell/extensions"
        try Subprocess.run("/bin/sh", ["-c", "mkdir -p \"$1\" && cp -r \"$2\" \"$1/\"", "sh", extensions, built + "/42/" + extensionUUID])
        if geteuid() == 0 {
            try Subprocess.run("/bin/chown", ["-R", "\(TestSway.unprivilegedUser):\(TestSway.unprivilegedUser)", home])
        }
    }

    /// Runs `gdbus call` on the session bus as the session's user; its output.
    @discardableResult
    public func gdbus(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
        let result = try run(["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments)
        guard result.status == 0 else { throw TestFailure("gdbus \(method) failed: \(result.error)") }
        return result.output
    }

    /// Waits until `name` has an owner on the session bus.
    public func awaitBusName(_ name: String, owned: Bool = true, timeout: Double = 30) throws {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            let answer = try gdbus("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", [name])
            if answer.contains(owned ? "true" : "false") { return }
            poll(nil, 0, 50)
        }
        throw TestFailure("\(name) is \(owned ? "not" : "still") on the session bus after \(timeout) s: \(log)")
    }

    /// Leaves the overview the shell starts in.
    public func leaveOverview() throws {
        try setOverview(false)
    }

    // MARK: What a user sees

    /// A maximized foot counting its re-layouts (see `TestSway.startFoot(appID:)`).
    public func startMaximizedFoot(appID: String = "foot") throws -> ResizeCountingTerminal {
        var variables = environment
        variables["PATH"] = nil
        variables["HOME"] = nil
        variables["XDG_RUNTIME_DIR"] = nil
        let terminal = try TestSway.startFoot(in: directory, runtime: runtimeDirectory, environment: variables, appID: appID, footArguments: ["--maximized"])
        clients.append(terminal.process)
        return terminal
    }

    /// A screenshot of the screen's `width`×`height` top-left area, through the shell's own
    /// Screenshot API (open to tests in `--unsafe-mode`), as 8-bit RGB.
    public func screenshot(width: Int, height: Int) throws -> Screenshot {
        let png = directory + "/shot-\(UInt32.random(in: 0...UInt32.max)).png"
        try gdbus("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot.ScreenshotArea",
                  ["0", "0", "\(width)", "\(height)", "false", png])
        defer { unlink(png) }
        // The PNG as a PPM, through GdkPixbuf (python3-gi): the same reader as TestSway's grim shots.
        let ppm = png + ".ppm"
        defer { unlink(ppm) }
        try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys, gi
            gi.require_version('GdkPixbuf', '2.0')
            from gi.repository import GdkPixbuf
            image = GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])
            width, height, channels = image.get_width(), image.get_height(), image.get_n_channels()
            data, stride = image.get_pixels(), image.get_rowstride()
            with open(sys.argv[2], 'wb') as out:
                out.write(b'P6 %d %d 255\\n' % (width, height))
                for row in range(height):
                    pixels = data[row * stride:row * stride + width * channels]
                    rgb = bytearray(width * 3)
                    for channel in range(3):
                        rgb[channel::3] = pixels[channel::channels]
                    out.write(rgb)
            """, png, ppm])
        return try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm)))
    }

    /// Starts `command` as the session's user in `environment`, without waiting; it is killed
    /// with the session.
    public func start(_ command: [String]) throws -> Subprocess {
        var variables = environment
        for name in ["PATH", "HOME", "XDG_RUNTIME_DIR"] { variables[name] = nil }
        let process = try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: variables, log: nil)
        clients.append(process)
        return process
    }

    /// Evaluates `code` in the shell (its `Eval`, open to tests in `--unsafe-mode`); its result.
    @discardableResult
    public func evaluate(_ code: String) throws -> String {
        let answer = try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Eval", [code])
        guard answer.hasPrefix("(true,") else { throw TestFailure("Eval failed: \(answer)") }
        return answer
    }

    /// A click of the primary button at (`x`, `y`) on the screen, through a virtual pointer of
    /// the shell's own seat: the input path a real mouse takes.
    public func click(x: Int, y: Int) throws {
        try evaluate("""
            const Clutter = imports.gi.Clutter; const GLib = imports.gi.GLib;
            const seat = Clutter.get_default_backend().get_default_seat();
            const pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
            pointer.notify_absolute_motion(GLib.get_monotonic_time(), \(x), \(y));
            pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
            pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
            true
            """)
    }

    /// Presses `keys` together (X keysyms, modifiers first) and lets them go, through a virtual
    /// keyboard of the shell's own seat: the input path a real keyboard takes.
    public func press(_ keys: [UInt32]) throws {
        let down = keys.map { "keyboard.notify_keyval(GLib.get_monotonic_time(), \($0), Clutter.KeyState.PRESSED);" }.joined(separator: " ")
        let up = keys.reversed().map { "keyboard.notify_keyval(GLib.get_monotonic_time(), \($0), Clutter.KeyState.RELEASED);" }.joined(separator: " ")
        try evaluate("""
            const Clutter = imports.gi.Clutter; const GLib = imports.gi.GLib;
            const seat = Clutter.get_default_backend().get_default_seat();
            const keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
            \(down) \(up)
            true
            """)
    }

    /// Enters or leaves the overview (the `OverviewActive` property), and waits until it has.
    public func setOverview(_ active: Bool) throws {
        try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Set", ["org.gnome.Shell", "OverviewActive", "<\(active)>"])
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline {
            if try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Get", ["org.gnome.Shell", "OverviewActive"])
                .contains("\(active)") { return }
            poll(nil, 0, 50)
        }
        throw TestFailure("the overview did not \(active ? "open" : "close")")
    }

    /// Runs `command` as the session's user (the user the shell runs as) in `environment`;
    /// its exit status and output.
    public func run(_ command: [String], environment: [String: String]? = nil, timeout: Double = 30) throws -> (status: Int32?, output: String, error: String) {
        let asUser = geteuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=\(TestSway.unprivilegedUser)", "--regid=\(TestSway.unprivilegedUser)", "--clear-groups", "--"] : []
        var variables = environment ?? self.environment
        if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
            variables[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
        }
        let argv = asUser + ["/usr/bin/env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command
        let process = try Subprocess(executable: argv[0], arguments: Array(argv.dropFirst()), environment: [:])
        process.closeStandardInput()
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// Mutter's per-monitor work areas, as its Xwayland publishes them (empty until it does).
    public func workAreas() -> [SwayRect] {
        guard let result = try? run(["xprop", "-root", "-notype", "_GTK_WORKAREAS_D0"]), result.status == 0,
              let values = result.output.split(separator: "=").last else { return [] }
        let numbers = values.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return stride(from: 0, to: numbers.count - 3, by: 4).map {
            SwayRect(x: numbers[$0], y: numbers[$0 + 1], width: numbers[$0 + 2], height: numbers[$0 + 3])
        }
    }

    /// Waits (bounded, looking every 20 ms: nothing announces Mutter's work area to another
    /// user's process) until `condition` holds for the work areas; the last ones read.
    @discardableResult
    public func awaitWorkAreas(timeout: Double = 20, _ condition: ([SwayRect]) -> Bool) -> [SwayRect] {
        let deadline = monotonicSeconds() + timeout
        var areas = workAreas()
        while !condition(areas), monotonicSeconds() < deadline {
            poll(nil, 0, 20)
            areas = workAreas()
        }
        return areas
    }

    private func awaitStart(monitors: Int) throws {
        let deadline = monotonicSeconds() + 120
        while monotonicSeconds() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if names.contains(waylandDisplay), let cookie = names.first(where: { $0.hasPrefix(".mutter-Xwaylandauth.") }),
               let display = xwaylandDisplay() {
                xAuthority = runtimeDirectory + "/" + cookie
                xDisplay = display
                // Its top bar in the work area of each monitor: the shell is up.
                let areas = workAreas()
                if areas.count == monitors, areas.first.map({ $0.y > 0 }) == true { return }
            }
            poll(nil, 0, 50)
        }
        throw TestFailure("gnome-shell did not start in 120 s: \(log)")
    }

    /// The display of the Xwayland the shell started (`:N` from its command line).
    private func xwaylandDisplay() -> String? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard pid_t(entry) != nil,
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  status.split(separator: "\n").contains(where: { $0 == "PPid:\t\(shell.pid)" }),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.first?.hasSuffix("Xwayland") == true, let display = arguments.first(where: { $0.hasPrefix(":") }) { return display }
        }
        return nil
    }

    public var log: String {
        ((try? String(contentsOfFile: directory + "/shell.log", encoding: .utf8)) ?? "").split(separator: "\n").suffix(8).joined(separator: "\n")
    }
}
