// A private GNOME on Wayland for one test: a real gnome-shell, headless with a virtual monitor,
// as the unprivileged user TestSway uses (its runtime directory, HOME and buses are its own), on
// a private session bus and a second private bus standing in for the system bus (the shell asks
// that one for logind and dies without it). The shell is this machine's own (Debian 12's 43) or
// a newer Debian's, run from a chroot of that suite (`Release.debian`, see DebianChroot): then
// the shell, its buses and what a test runs "in the session" (gsettings, gnome-extensions) run
// inside, while the project's binaries and the test's clients (foot) run here, on the same
// sockets. What the shell reserves is read from the shell itself (Mutter's work area per
// monitor, through `Eval`, open to tests in `--unsafe-mode`). WindowBanner's shell extension can
// be installed (built from Resources/gnome-shell by scripts/build-extension.sh, the variant the
// shell loads) and enabled before the shell starts, which then starts out of its overview, with
// other extensions of the shell's Debian enabled beside it. Everything (shell, Xwayland, buses)
// is one process group, killed whole; the clients started here are killed too.

import Foundation
import Glibc
import ProcessTestSupport

public final class TestGnomeShell {
    /// What of WindowBanner's shell extension the session has when the shell starts.
    public enum Extension: Equatable {
        case none
        /// In the user's extensions directory, not enabled.
        case installed
        /// Installed, and listed in `org.gnome.shell enabled-extensions`.
        case enabled
        /// Installed from this zip by the shell's own `gnome-extensions install`, and enabled.
        case enabledFromZip(String)
    }

    /// Which GNOME Shell runs.
    public enum Release: Sendable, Equatable, CustomStringConvertible {
        /// This machine's (Debian 12's GNOME Shell 43, scripts/install-deps.sh installs it).
        case installed
        /// The one of Debian `suite` (`trixie`: 48, `sid`: the newest), from a cached chroot.
        case debian(String)

        /// GNOME Shell 48, as Debian 13 has it.
        public static let debian13 = Release.debian("trixie")
        /// The newest GNOME Shell Debian has (unstable's).
        public static let newest = Release.debian("sid")

        public var description: String {
            switch self {
            case .installed: "Debian 12"
            case .debian("trixie"): "Debian 13"
            case .debian("sid"): "Debian unstable"
            case .debian(let suite): "Debian \(suite)"
            }
        }
    }

    /// The extension's UUID (its directory's name).
    public static let extensionUUID = "window-banner@window-banner"

    /// Dash to Panel's and Dash to Dock's UUIDs, as Debian installs them.
    public static let dashToPanel = "dash-to-panel@jderose9.github.com"
    public static let dashToDock = "dash-to-dock@micxgx.gmail.com"
    /// Hide Top Bar's (gnome-shell-extension-autohidetopbar), whose settings schema is in its own
    /// directory (`schemaDirectory(of:)`).
    public static let hideTopBar = "hidetopbar@mathieu.bidon.ca"

    /// The directory of the settings schema of a Debian-packaged extension that keeps its own.
    public static func schemaDirectory(of uuid: String) -> String {
        "/usr/share/gnome-shell/extensions/\(uuid)/schemas"
    }

    /// The directory holding the runtime directory, HOME and the start-up script.
    public let directory: String
    /// `XDG_RUNTIME_DIR` of the shell and its clients.
    public let runtimeDirectory: String
    /// `WAYLAND_DISPLAY` of the session (a socket in `runtimeDirectory`).
    public let waylandDisplay = "wb-gnome"
    /// The session's Xwayland (`:N`), and the cookie file its clients need.
    public private(set) var xDisplay = ""
    public private(set) var xAuthority = ""
    /// The shell that runs.
    public let release: Release
    /// Its chroot, for a newer Debian's shell.
    public let chroot: DebianChroot?
    /// `gnome-shell --version`'s major (43, 48, 51…).
    public private(set) var major = 0
    private var shell: Subprocess?
    var clients: [Subprocess] = []

    /// Starts `release`'s shell with a `width`×`height` virtual monitor (and `more`), the extension
    /// `setup`, the shell's own extensions `alsoEnabled` enabled beside it, and `settings`
    /// (`gsettings` argument lists: `set SCHEMA KEY VALUE`) applied first; waits until its Wayland socket is there,
    /// the shell has started up, and an enabled extension is on the bus. `--unsafe-mode` lets a
    /// test take screenshots and read the shell's state over D-Bus.
    /// `busForEveryone`: the session bus admits every user (root too), as a session bus never
    /// does, so a test can see that the extension itself turns other users away. `change` edits
    /// the installed extension (its directory) before the shell starts; the extension is then
    /// not awaited on the bus, nor when `settings` change the shell's own.
    public init(
        release: Release = .installed, width: Int = 1280, height: Int = 800, more: [(width: Int, height: Int)] = [],
        withExtension setup: Extension = .none, alsoEnabled: [String] = [], settings: [[String]] = [], busForEveryone: Bool = false,
        withPortal portal: Bool = true, withPipeWire pipewire: Bool = false, changingTheExtension change: ((_ directory: String) throws -> Void)? = nil
    ) throws {
        self.release = release
        switch release {
        case .installed: chroot = nil
        // The shell, Xwayland, the buses, notify-send and the layout extensions Debian packages
        // (scripts/debian-chroot.sh's @gnome, which the benchmark runs too).
        case .debian(let suite): chroot = try DebianChroot.prepared(suite: suite, packages: ["@gnome"])
        }
        var template = Array("/tmp/window-banner-gnome-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        runtimeDirectory = directory + "/run"
        mkdir(runtimeDirectory, 0o700)
        mkdir(directory + "/home", 0o700)
        chmod(directory, 0o755)
        if geteuid() == 0 {
            for path in [directory, runtimeDirectory, directory + "/home"] {
                chown(path, TestSway.unprivilegedUser, TestSway.unprivilegedUser)
            }
        }
        // Mutter makes its Xwayland's socket there and gives up when it cannot; a machine's
        // start-up makes it (systemd-tmpfiles), a fresh test machine may not have.
        // (root: shared by every user, sticky, as systemd-tmpfiles makes it).
        if geteuid() == 0 {
            mkdir("/tmp/.X11-unix", 0o1777)
            chown("/tmp/.X11-unix", 0, 0)
            chmod("/tmp/.X11-unix", 0o1777)
        }
        do {
            major = try shellMajor()
            let enabling = setup != .none && setup != .installed
            if case .enabledFromZip(let zip) = setup {
                let installed = try runInSession(["gnome-extensions", "install", "--force", zip], environment: [
                    "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "XDG_RUNTIME_DIR": runtimeDirectory, "LANG": "C.UTF-8"])
                guard installed.status == 0 else { throw TestFailure("gnome-extensions install \(zip): \(installed.output) \(installed.error)") }
            } else if setup != .none {
                try installExtension(home: directory + "/home", work: directory, change: change)
            }
            var sessionBusConfiguration = "--session"
            if busForEveryone {
                try TestSway.write(Self.busForEveryone, to: directory + "/session-bus.conf")
                sessionBusConfiguration = "--config-file=" + directory + "/session-bus.conf"
            }
            let monitors = more.map { "--virtual-monitor \($0.width)x\($0.height)" }.joined(separator: " ")
            // gsettings writes through dconf, which the private session bus starts on demand. No
            // notification banners: the shell's own start-up notice ("Screen Lock disabled") would
            // sit over the top of the screen, and with no user activity it never times out. No
            // hot corner: a virtual pointer starts at (0, 0), and on 51 its first event is there,
            // which opened the overview under the banner a test was about to click.
            let enabled = (enabling ? [Self.extensionUUID] : []) + alsoEnabled
            let enabledList: String = "[" + enabled.map { "'\($0)'" }.joined(separator: ", ") + "]"
            let allSettings: [[String]] = [["set", "org.gnome.shell", "enabled-extensions", enabledList],
                                           ["set", "org.gnome.desktop.notifications", "show-banners", "false"],
                                           ["set", "org.gnome.desktop.interface", "enable-hot-corners", "false"]] + settings
            let configure = allSettings.map { words in "gsettings " + words.map(Self.shellQuoted).joined(separator: " ") }.joined(separator: "\n")
            // The buses listen on sockets in the runtime directory, which both sides of a chroot see.
            // What the session bus starts on demand (xdg-desktop-portal and its backend) learns
            // the shell's display and desktop from it, as a desktop session's bus tells them.
            // The shell's screencast service (a gjs program the bus starts when the shell asks
            // for it) is masked in the user's service directory, which the bus reads first: no
            // test records the screen, and under load it once hung in start-up for the bus's
            // whole 120 s, and the shell did not finish starting meanwhile. Without `portal`,
            // xdg-desktop-portal is masked the same way: the bus fails to start it, as where none
            // is installed. The bus is told where that directory is: it finds the user's data
            // directory from the password database's home (nobody's: /nonexistent), not $HOME.
            let masked = ["org.gnome.Shell.Screencast"] + (portal ? [] : ["org.freedesktop.portal.Desktop"])
            let masks = masked.map { name in
                "printf '[D-BUS Service]\\nName=\(name)\\nExec=/bin/false\\n' >\"$HOME/.local/share/dbus-1/services/\(name).service\""
            }.joined(separator: "\n")
            let script = """
                exec >>"$HOME/../shell.log" 2>&1
                mkdir -p "$HOME/.local/share/dbus-1/services"
                \(masks)
                WAYLAND_DISPLAY=\(waylandDisplay) XDG_CURRENT_DESKTOP=GNOME XDG_DATA_HOME="$HOME/.local/share" dbus-daemon \(sessionBusConfiguration) --nofork --address="unix:path=$XDG_RUNTIME_DIR/bus" --print-address=3 3>"$XDG_RUNTIME_DIR/session-bus" &
                dbus-daemon --session --nofork --address="unix:path=$XDG_RUNTIME_DIR/system-bus-socket" --print-address=3 3>"$XDG_RUNTIME_DIR/system-bus" &
                until [ -s "$XDG_RUNTIME_DIR/session-bus" ] && [ -s "$XDG_RUNTIME_DIR/system-bus" ]; do sleep 0.05; done
                export DBUS_SESSION_BUS_ADDRESS="$(head -n 1 "$XDG_RUNTIME_DIR/session-bus")"
                export DBUS_SYSTEM_BUS_ADDRESS="$(head -n 1 "$XDG_RUNTIME_DIR/system-bus")"
                \(configure)
                \(pipewire ? Self.startPipeWire : "")
                exec gnome-shell --headless --unsafe-mode --wayland --virtual-monitor \(width)x\(height) \(monitors) --wayland-display \(waylandDisplay)
                """
            try TestSway.write(script, to: directory + "/session")
            shell = try spawnInSession(["/bin/sh", directory + "/session"], extra: ["NO_AT_BRIDGE": "1", "XDG_SESSION_TYPE": "wayland"])
            try awaitStart(monitors: 1 + more.count)
            if enabling, change == nil, !settings.contains(where: { $0.dropFirst().first == "org.gnome.shell" }) {
                try awaitBusName("org.windowbanner.Shell")
            }
            if enabling { try leaveOverview() }
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
        shell?.killGroup()
        _ = shell?.waitForExit(timeout: 5)
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

    /// PipeWire and WirePlumber in the session, before the shell (Mutter's screen casts are
    /// PipeWire streams), on the session's runtime directory: `pipewire-0` there.
    private static let startPipeWire = """
        pipewire >>"$HOME/../pipewire.log" 2>&1 &
        until [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]; do sleep 0.05; done
        wireplumber >>"$HOME/../pipewire.log" 2>&1 &
        """

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

    /// Builds the extension (scripts/build-extension.sh) and installs the variant this shell
    /// loads (42–44's legacy script on 43, the ES module on 45 and later), as it is built: the
    /// shell versions its metadata declares are what the shell checks.
    private func installExtension(home: String, work: String, change: ((String) throws -> Void)?) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = work + "/extension"
        try Subprocess.run("/bin/sh", [source.path + "/scripts/build-extension.sh", built])
        let extensions = home + "/.local/share/gnome-shell/extensions"
        let variant = major < 45 ? "42" : "45"
        try Subprocess.run("/bin/sh", ["-c", "mkdir -p \"$1\" && cp -r \"$2\" \"$1/\"", "sh", extensions, built + "/\(variant)/" + Self.extensionUUID])
        try change?(extensions + "/" + Self.extensionUUID)
        if geteuid() == 0 {
            try Subprocess.run("/bin/chown", ["-R", "\(TestSway.unprivilegedUser):\(TestSway.unprivilegedUser)", home])
        }
    }

    /// `word` quoted for /bin/sh.
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The shell's major version, from `gnome-shell --version` where it runs.
    private func shellMajor() throws -> Int {
        let version = try runInSession(["gnome-shell", "--version"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/"], asUser: false)
        guard version.status == 0, let number = version.output.split(separator: " ").last.flatMap({ Int($0.split(separator: ".").first ?? "") }) else {
            throw TestFailure("gnome-shell --version said \(version.output) \(version.error)")
        }
        return number
    }

    /// Starts `command` in the session's system (inside the chroot for a newer shell) as the
    /// session's user, with HOME and XDG_RUNTIME_DIR in the test's directory.
    private func spawnInSession(_ command: [String], extra: [String: String]) throws -> Subprocess {
        guard let chroot else {
            return try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: extra, log: nil)
        }
        let variables = TestSway.sessionEnvironment(in: directory, runtime: runtimeDirectory, extra: extra)
        let argv = chroot.command(command, user: geteuid() == 0 ? TestSway.unprivilegedUser : nil, environment: variables)
        return try Subprocess(executable: argv[0], arguments: Array(argv.dropFirst()), environment: [:])
    }

    /// Runs `command` in the session's system (inside the chroot for a newer shell: its
    /// gsettings, with the schemas of its extensions, its gnome-extensions), as the session's
    /// user in `environment`; its exit status and output.
    public func runInSession(
        _ command: [String], environment: [String: String]? = nil, asUser: Bool = true, timeout: Double = 30
    ) throws -> (status: Int32?, output: String, error: String) {
        guard let chroot else { return try run(command, environment: environment, timeout: timeout) }
        let argv = chroot.command(command, user: asUser && geteuid() == 0 ? TestSway.unprivilegedUser : nil, environment: environment ?? self.environment)
        let process = try Subprocess(executable: argv[0], arguments: Array(argv.dropFirst()), environment: [:])
        process.closeStandardInput()
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// The state the shell gives extension `uuid` (its `org.gnome.Shell.Extensions`
    /// `GetExtensionInfo`, what `gnome-extensions info` prints): `ACTIVE` (43 calls it ENABLED),
    /// `INACTIVE`, `ERROR`, `OUT OF DATE`, `INITIALIZED`, `UNINSTALLED`, or the answer itself.
    public func extensionState(_ uuid: String = extensionUUID) throws -> String {
        let info = try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo", [uuid])
        guard let range = info.range(of: "'state': <") else { return "UNINSTALLED" }
        let number = info[range.upperBound...].prefix { $0 != ">" }
        switch Double(number) {
        case 1: return "ACTIVE"
        case 2: return "INACTIVE"
        case 3: return "ERROR"
        case 4: return "OUT OF DATE"
        case 6: return "INITIALIZED"
        default: return info
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

    /// Waits for the shell's Wayland socket, then for the shell to have started up with its
    /// monitors; then for its Xwayland where it starts one at once (43), else its display is the
    /// one Mutter set up for Xwayland on demand.
    private func awaitStart(monitors: Int) throws {
        // A bound, not a pace: under CI's load Debian 12's shell once took more than 120 s.
        let bound = 300.0
        let deadline = monotonicSeconds() + bound
        var started = false
        var stage = "its Wayland socket"
        while monotonicSeconds() < deadline, shell?.exitStatus == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if !started, names.contains(waylandDisplay), !sessionBus.isEmpty { stage = "the end of its start-up with \(monitors) monitor(s)" }
            if !started, names.contains(waylandDisplay), !sessionBus.isEmpty,
               let answer = try? evaluate("Main.layoutManager._startingUp === false && global.display.get_n_monitors()") {
                started = Self.evaluated(answer) == "\(monitors)"
            }
            if started { stage = "its Xwayland's authority file" }
            if started, let cookie = names.first(where: { $0.hasPrefix(".mutter-Xwaylandauth.") }) {
                stage = "its Xwayland's display"
                xAuthority = runtimeDirectory + "/" + cookie
                if let display = xwaylandDisplay() {
                    xDisplay = display
                    return
                }
                if major >= 45, let answer = try? evaluate("imports.gi.GLib.getenv('DISPLAY')") {
                    xDisplay = Self.evaluated(answer)
                    if xDisplay.hasPrefix(":") { return }
                }
            }
            poll(nil, 0, 50)
        }
        let exited = shell?.exitStatus.map { " (it exited with \($0))" } ?? ""
        throw TestFailure("gnome-shell (\(release)) did not start in \(Int(bound)) s\(exited): waited for \(stage); \(log)")
    }

    /// The display of the Xwayland the shell started (`:N` from its command line).
    private func xwaylandDisplay() -> String? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard pid_t(entry) != nil,
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  let shell, status.split(separator: "\n").contains(where: { $0 == "PPid:\t\(shell.pid)" }),
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
