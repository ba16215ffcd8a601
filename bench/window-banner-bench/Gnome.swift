// Section 11 (issues 31, 40): the banner on GNOME on Wayland, through WindowBanner's shell
// extension, next to what a GNOME user gets instead — `notify-send` → GNOME Shell's own
// notification banner — on the shells users have: this machine's (Debian 12's 43), Debian 13's
// (48) and the newest (Debian unstable's), the last two from the chroots the tests use
// (scripts/debian-chroot.sh SUITE @gnome: the shell, its buses and gsettings run inside, in a
// mount namespace of their own with this machine's /tmp mounted in; window-banner, foot, gdbus
// and notify-send run here, on the same sockets). The real gnome-shell runs headless (`--headless --wayland --virtual-monitor 1280x800`)
// as an unprivileged user with two private buses (the second standing in for the system bus),
// the extension installed and enabled before it starts, a maximized foot whose program counts
// its resizes, and `--unsafe-mode`, so a probe can be put into the shell through its `Eval`:
// on every frame the stage paints it notes the first one showing the banner (the extension's
// image below the clip's top) and the first one showing a notification banner (the message
// tray's banner, part-way down and not transparent), stamped with GLib's monotonic clock —
// the CLOCK_MONOTONIC the supervisor reads just before each exec. Both tools are seen by the
// same probe, in the same frames; every command runs as the session's user (the extension
// serves only that user). PipeWire runs in the session too: the sharing banner is timed from an
// app starting to read Mutter's screen cast.

import Glibc

/// Which GNOME Shell section 11 runs.
struct GnomeShell {
    /// "GNOME Shell 48 (Debian 13)": what the rows say.
    var label: String
    /// The chroot it runs from; nil for this machine's own.
    var chroot: String?
    /// Its major version (43, 48, 51…).
    var major: Int

    /// This machine's shell, and Debian 13's and unstable's from their chroots (built on first
    /// use, about a minute each; cached).
    static func all(supervisor: Supervisor) throws -> [GnomeShell] {
        try [(nil, "Debian 12"), ("trixie", "Debian 13"), ("sid", "Debian unstable")].map { (suite: String?, name: String) in
            let chroot = try suite.flatMap {
                try supervisor.run(["scripts/debian-chroot.sh", $0, "@gnome"], environment: ["PATH": basePath], timeout: 1800).last
            }
            let line = try supervisor.run(inside(chroot) + ["gnome-shell", "--version"], environment: ["PATH": basePath]).first ?? ""
            guard let major = line.split(separator: " ").last?.split(separator: ".").first.flatMap({ Int($0) }) else {
                throw BenchFailure("cannot read the shell's version from '\(line)'")
            }
            return GnomeShell(label: "GNOME Shell \(major) (\(name))", chroot: chroot, major: major)
        }
    }

    /// What runs a command in this shell's system: scripts/in-chroot.sh (as the tests'
    /// DebianChroot does), nothing for this machine's own.
    var inside: [String] { Self.inside(chroot) }

    private static func inside(_ chroot: String?) -> [String] {
        chroot.map { ["scripts/in-chroot.sh", $0] } ?? []
    }
}

/// What section 11 measured on one shell.
struct GnomeResults {
    /// "GNOME Shell 48 (Debian 13)".
    var shell = ""
    /// What went differently from what the rounds assume, for the report's problems.
    var notes: [String] = []
    /// Command → first frame painted with it on screen, ms, by tool.
    var firstFrames: [(tool: String, samples: [Double])] = []
    /// foot's resizes per show + dismiss, by tool.
    var relayouts: [(tool: String, counts: [Double])] = []
    /// The warm owner's wakeups while the shell runs each slide in itself (see `once`).
    var slideWakeups: [Double] = []
    /// A screen cast's reader started → the first frame with the sharing banner, ms.
    var sharing: [Double] = []
}

/// A private headless GNOME Shell with the extension, foot in it and the probe in the shell.
/// Ends everything it started (and the owners `show` started) in `stop()`.
final class GnomeDesktop {
    static let width = 1280
    static let height = 800
    /// The user the shell and every command run as when the benchmark runs as root (nobody).
    static let user: uid_t = 65534
    static let uuid = "window-banner@window-banner"

    let supervisor: Supervisor
    /// The shell that runs.
    let shellRelease: GnomeShell
    /// The shell's directory: runtime directory, HOME, foot's counter, owned by `user`.
    let directory: String
    /// What window-banner, notify-send and gdbus run with: the shell's Wayland socket by its
    /// path, the private session bus, HOME; an owner's runtime directory.
    private(set) var environment: [String: String] = [:]
    private var children: [Child] = []
    private var shell: Child?
    private let counter: String
    private var foot: FootCounter { FootCounter(path: counter, supervisor: supervisor) }
    private var runtimeCount = 0
    /// `window-banner`, copied with the two programs it runs beside it where the user can run
    /// them (the checkout may be private).
    private(set) var banner = ""

    init(supervisor: Supervisor, work: String, banner original: String, shell release: GnomeShell) throws {
        self.supervisor = supervisor
        shellRelease = release
        var template = Array("/tmp/wbb-gnome-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchFailure("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        counter = directory + "/foot-size"
        let runtime = directory + "/run"
        let home = directory + "/home"
        for path in [runtime, home] { try makeDirectory(path) }
        chmod(directory, 0o755)
        // The extension, built from this checkout (`make bench` runs from its top), in the
        // variant this shell loads, in the user's extensions directory.
        let built = directory + "/extension"
        try supervisor.run(["scripts/build-extension.sh", built], environment: ["PATH": basePath])
        let variant = release.major < 45 ? "42" : "45"
        try supervisor.run(["mkdir", "-p", home + "/.local/share/gnome-shell/extensions"], environment: ["PATH": basePath])
        try supervisor.run(["cp", "-r", "\(built)/\(variant)/\(Self.uuid)", home + "/.local/share/gnome-shell/extensions/"], environment: ["PATH": basePath])
        try writeFile(directory + "/count-resizes.py", FootCounter.script)
        let programs = original.split(separator: "/").dropLast().joined(separator: "/")
        try makeDirectory(directory + "/bin")
        for program in ["window-banner", "window-banner-full", "window-banner-config"] {
            try supervisor.run(["cp", "/\(programs)/\(program)", directory + "/bin/"], environment: ["PATH": basePath])
        }
        banner = directory + "/bin/window-banner"
        if geteuid() == 0 { try supervisor.run(["chown", "-R", "\(Self.user):\(Self.user)", directory], environment: ["PATH": basePath]) }

        var user = ["PATH": basePath, "LANG": "C.UTF-8", "HOME": home, "XDG_RUNTIME_DIR": runtime]
        let session = try bus(user, name: "dbus-daemon (gnome session)")
        let system = try bus(user, name: "dbus-daemon (gnome system)")
        user["DBUS_SESSION_BUS_ADDRESS"] = session
        try supervisor.run(inSession + ["gsettings", "set", "org.gnome.shell", "enabled-extensions", "['\(Self.uuid)']"], environment: user)
        // PipeWire and WirePlumber in the session, as a GNOME session runs them: Mutter casts the
        // screen through them (the sharing banner's row).
        let pipewire = try supervisor.spawn(inSession + ["pipewire"], environment: user, name: "pipewire (gnome session)", stderr: .file(work + "/gnome-pipewire.log"))
        children.append(pipewire)
        guard try poll(seconds: 20, until: { access(runtime + "/pipewire-0", F_OK) == 0 || !pipewire.isRunning }), pipewire.isRunning else {
            throw BenchFailure("pipewire did not start in the GNOME session (see \(work)/gnome-pipewire.log)")
        }
        children.append(try supervisor.spawn(inSession + ["wireplumber"], environment: user, name: "wireplumber (gnome session)", stderr: .file(work + "/gnome-pipewire.log")))
        var shellEnvironment = user
        shellEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = system
        shellEnvironment["NO_AT_BRIDGE"] = "1"
        shellEnvironment["XDG_SESSION_TYPE"] = "wayland"
        let log = work + "/gnome-shell.log"
        let shell = try supervisor.spawn(
            inSession + ["gnome-shell", "--headless", "--unsafe-mode", "--wayland", "--virtual-monitor", "\(Self.width)x\(Self.height)", "--wayland-display", "wbb-gnome"],
            environment: shellEnvironment, name: "gnome-shell", stderr: .file(log))
        children.append(shell)
        self.shell = shell
        environment = user
        environment["WAYLAND_DISPLAY"] = runtime + "/wbb-gnome"

        guard try poll(seconds: 60, until: { !shell.isRunning || (try? busNameOwned("org.windowbanner.Shell")) == true }), shell.isRunning else {
            throw BenchFailure("gnome-shell with the extension did not start within 60 s (see \(log))")
        }
        try evaluate(Self.probe)
        var footEnvironment = user
        footEnvironment["WAYLAND_DISPLAY"] = "wbb-gnome"
        let foot = try supervisor.spawn(
            Self.asUser + ["foot", "--maximized", "--app-id", "bench-foot", "python3", directory + "/count-resizes.py", counter],
            environment: footEnvironment, name: "foot")
        children.append(foot)
        guard try poll(seconds: 10, until: { footSize() != nil }) else { throw BenchFailure("foot did not start within 10 s") }
        try settleFoot()
        // Out of the overview the shell starts in (asked again until it has left: the shell may
        // still be opening it when first asked).
        guard try poll(seconds: 20, until: {
            try evaluate("Main.overview.hide(); Main.overview.visible").contains("'false'")
        }) else { throw BenchFailure("the shell stayed in its overview") }
        try clearNotifications()
    }

    /// Removes every notification (the shell's own start-up notice, "Screen Lock disabled",
    /// among them: a notification times out only after the user has been active, which no one
    /// is here) and waits until no notification banner is left on screen.
    func clearNotifications() throws {
        guard try poll(seconds: 10, until: {
            try evaluate("Main.messageTray.getSources().forEach(source => source.destroy()); true")
            return try !notificationShown()
        }) else { throw BenchFailure("a notification banner stayed for 10 s") }
    }

    /// What the commands start with: as `user` when the benchmark runs as root.
    static var asUser: [String] {
        geteuid() == 0 ? ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] : []
    }

    /// What the shell's own programs (its buses, gsettings, the shell) start with: in its
    /// system, as `user`.
    var inSession: [String] { shellRelease.inside + Self.asUser }

    /// A private bus as the user (in the shell's system); its address, a socket in /tmp.
    private func bus(_ environment: [String: String], name: String) throws -> String {
        let bus = try supervisor.spawn(inSession + ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                       environment: environment, name: name, stdout: .pipe)
        children.append(bus)
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), let address = bus.lines.first else {
            throw BenchFailure("\(name) did not print its address")
        }
        return address
    }

    /// The probe: on every painted frame, the first one with each banner on screen.
    private static let probe = """
        const GLib = imports.gi.GLib;
        global._wbBench = {ours: 0, theirs: 0};
        if (!global._wbBenchHook) global._wbBenchHook = global.stage.connect('after-paint', () => {
            const seen = global._wbBench;
            const now = GLib.get_monotonic_time();
            if (!seen.ours) {
                const chrome = Main.layoutManager.uiGroup.get_children().find(actor => actor.name === 'window-banner');
                const clip = chrome ? chrome.get_first_child() : null;
                const image = clip ? clip.get_first_child() : null;
                if (image && clip.visible && image.content && image.height > 0 && image.translation_y > -image.height) seen.ours = now;
            }
            if (!seen.theirs) {
                const bin = Main.messageTray._bannerBin;
                if (Main.messageTray.visible && bin.get_n_children() > 0 && bin.opacity > 0 && bin.y + bin.height > 0) seen.theirs = now;
            }
        });
        true
        """

    /// The first monitor's work area as the shell has it now ("y+height"): what maximized
    /// windows get, Mutter's own decision.
    func workArea() throws -> String {
        let answer = try evaluate("(area => area.y + '+' + area.height)(global.workspace_manager.get_active_workspace().get_work_area_for_monitor(0))")
        return String(answer.filter { $0.isNumber || $0 == "+" })
    }

    /// Forgets what the probe saw.
    func resetProbe() throws {
        try evaluate("global._wbBench = {ours: 0, theirs: 0}; true")
    }

    /// When the probe saw each banner first since its reset, ms on CLOCK_MONOTONIC (0: not yet).
    func probed() throws -> (ours: Double, theirs: Double) {
        let answer = try evaluate("global._wbBench.ours + ' ' + global._wbBench.theirs")
        let numbers = answer.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        guard numbers.count >= 2 else { throw BenchFailure("the probe answered '\(answer)'") }
        return (numbers[numbers.count - 2] / 1000, numbers[numbers.count - 1] / 1000)
    }

    /// Whether a notification banner is on screen now.
    func notificationShown() throws -> Bool {
        try evaluate("Main.messageTray._bannerBin.get_n_children() > 0").contains("'true'")
    }

    @discardableResult
    func evaluate(_ code: String) throws -> String {
        let answer = try call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Eval", [code])
        guard answer.hasPrefix("(true,") else { throw BenchFailure("Eval failed: \(answer)") }
        return answer
    }

    @discardableResult
    func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String]) throws -> String {
        try supervisor.run(Self.asUser + ["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
                           environment: environment).joined(separator: "\n")
    }

    private func busNameOwned(_ name: String) throws -> Bool {
        try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", [name]).contains("true")
    }

    /// Checks `condition` every 20 ms until it holds (true) or `seconds` pass (false).
    func poll(seconds: Double, until condition: () throws -> Bool) throws -> Bool {
        try supervisor.check(seconds: seconds, until: condition)
    }

    // MARK: foot

    /// foot's resizes so far and its pty's height in pixels, or nil before its program started.
    func footSize() -> (resizes: Int, height: Int)? { foot.size() }

    /// Waits until foot has been given no new size for half a second; its resizes so far.
    @discardableResult
    func settleFoot() throws -> (resizes: Int, height: Int) { try foot.settle() }

    // MARK: owners

    /// A new, empty runtime directory for an owner (a cold one), owned by the user.
    func freshRuntimeDirectory() throws -> String {
        runtimeCount += 1
        let path = "\(directory)/owners-\(runtimeCount)"
        try makeDirectory(path)
        if geteuid() == 0 { chown(path, Self.user, Self.user) }
        return path
    }

    /// Owner processes on this shell.
    func owners() -> [pid_t] { ownerProcesses(servingSocket: environment["WAYLAND_DISPLAY"] ?? "") }

    /// Ends the owners, foot, the shell's own children (Xwayland), the shell and its buses, and
    /// removes its directory.
    func stop() {
        for pid in owners() { kill(pid, SIGKILL) }
        if let shell {
            for entry in directoryEntries("/proc") {
                guard let pid = pid_t(entry), let status = readFile("/proc/\(entry)/status"),
                      status.split(separator: "\n").contains(where: { $0 == "PPid:\t\(shell.pid)" }) else { continue }
                kill(pid, SIGKILL)
            }
        }
        for child in children.reversed() { supervisor.stop(child) }
        _ = try? supervisor.run(["rm", "-rf", directory], environment: ["PATH": basePath])
    }
}

/// Section 11's runs: `window-banner show` warm and cold, and `notify-send` → GNOME Shell's
/// notification banner, interleaved.
struct GnomeBench {
    /// Seconds after the command between which the owner's wakeups are counted while the shell
    /// runs the slide (see `once`).
    static let slideWindow = (from: 0.05, to: 0.2)
    let desktop: GnomeDesktop
    let work: String
    var supervisor: Supervisor { desktop.supervisor }
    var banner: String { desktop.banner }
    var errors: String { work + "/gnome-commands.log" }

    static let warm = "window-banner show (warm, GNOME Shell)"
    static let cold = "window-banner show (cold, GNOME Shell)"
    static let notification = "notify-send → GNOME Shell"

    private var show: [String] { GnomeDesktop.asUser + [banner, "show", "--title", Lineup.title, "--compact", "never"] }

    func run(runs: Int, warmup: Int) throws -> GnomeResults {
        var results = GnomeResults(shell: desktop.shellRelease.label)
        let first = try desktop.settleFoot()
        let space = try desktop.workArea()
        // The warm owner, started before the first round and kept to the end. Right after the
        // shell and foot started, foot sometimes keeps its terminal at the banner's size although
        // the shell has given the space back (work area and foot's window as before; a stage
        // redraw does not wake it): the rounds measure from where foot settles after this one.
        _ = try once(Self.warm, environment: desktop.environment, initial: first, space: space, footMustFollow: false)
        let initial = try desktop.settleFoot()
        if initial.height != first.height {
            results.notes.append("\(results.shell): after the warm owner's first banner the shell gave the space back (work area \(space) again) but foot's "
                + "terminal stayed at \(initial.height) px (was \(first.height) px); the rounds measure from there")
        }
        let owners = desktop.owners()
        guard owners.count == 1, let owner = owners.first else { throw BenchFailure("\(owners.count) owners run on GNOME Shell after one show") }
        var firstFrames: [String: [Double]] = [:]
        var relayouts: [String: [Double]] = [:]
        for round in 0..<(warmup + runs) {
            for tool in [Self.warm, Self.cold, Self.notification] {
                var environment = desktop.environment
                if tool == Self.cold { environment["XDG_RUNTIME_DIR"] = try desktop.freshRuntimeDirectory() }
                let run: (firstFrame: Double, relayouts: Double, slideWakeups: Double?)
                do { run = try once(tool, environment: environment, initial: initial, space: space) } catch { throw BenchFailure("\(tool): \(error)") }
                if tool == Self.cold {
                    guard try desktop.poll(seconds: 10, until: { desktop.owners() == [owner] }) else { throw BenchFailure("the cold owner did not quit within 10 s") }
                }
                guard round >= warmup else { continue }
                firstFrames[tool, default: []].append(run.firstFrame)
                relayouts[tool, default: []].append(run.relayouts)
                if let wakeups = run.slideWakeups { results.slideWakeups.append(wakeups) }
            }
        }
        try supervisor.run(GnomeDesktop.asUser + [banner, "dismiss", "--all", "--quit"], environment: desktop.environment)
        for tool in [Self.warm, Self.cold, Self.notification] {
            if let samples = firstFrames[tool] { results.firstFrames.append((tool, samples)) }
            if let counts = relayouts[tool] { results.relayouts.append((tool, counts)) }
        }
        return results
    }

    /// One run of `tool`: command → the first painted frame showing it, and foot's resizes from
    /// the command to the banner gone and foot settled. `space` is the shell's work area with no
    /// banner, which it must have again once the banner is gone; foot's terminal must follow
    /// unless `footMustFollow` is false.
    private func once(
        _ tool: String, environment: [String: String], initial: (resizes: Int, height: Int), space: String, footMustFollow: Bool = true
    ) throws -> (firstFrame: Double, relayouts: Double, slideWakeups: Double?) {
        guard let before = desktop.footSize() else { throw BenchFailure("foot is gone") }
        let isNotification = tool == Self.notification
        if isNotification { try desktop.clearNotifications() }
        try desktop.resetProbe()
        let arguments = isNotification ? GnomeDesktop.asUser + ["notify-send", "--print-id", Lineup.title] : show
        let child = try supervisor.spawn(arguments, environment: environment, name: tool, stdout: .pipe, stderr: .file(errors))
        var seen = 0.0
        guard try desktop.poll(seconds: 10, until: {
            let probed = try desktop.probed()
            seen = isNotification ? probed.theirs : probed.ours
            return seen > 0
        }) else {
            supervisor.stop(child)
            let exit = child.exit.map { "exited \($0.status)" } ?? "still running"
            throw BenchFailure("the probe saw nothing on screen within 10 s (the command \(exit); see \(errors))")
        }
        // The shell runs the slide (0.25 s) from its first frame on; the owner should sleep through
        // it: its wakeups (its scheduler's count, /proc/PID/task/*/schedstat) from 0.05 s after the
        // command (the slide handed over and the shell's replies read) to 0.2 s (the slide, begun
        // after the command, still running): a frame clock would wake it about 9 times.
        var slideWakeups: Double?
        if tool == Self.warm, let owner = desktop.owners().first {
            let from = max(child.startedAt + Self.slideWindow.from * 1000, monotonicMilliseconds())
            let to = child.startedAt + Self.slideWindow.to * 1000
            if to - from >= 100 {
                supervisor.observe(seconds: (from - monotonicMilliseconds()) / 1000)
                if let counted = ProcessCounters.read(owner) {
                    supervisor.observe(seconds: (to - monotonicMilliseconds()) / 1000)
                    if let after = ProcessCounters.read(owner) { slideWakeups = (after - counted).wakeups }
                }
            }
        }
        guard supervisor.waitForExit(child, timeout: 10) == 0 else { throw BenchFailure("the command failed (see \(errors))") }
        try desktop.settleFoot()
        if isNotification {
            guard let id = child.lines.first.map({ String($0.filter(\.isNumber)) }), !id.isEmpty else { throw BenchFailure("notify-send printed no id") }
            try desktop.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications.CloseNotification", [id])
            guard try desktop.poll(seconds: 10, until: { try !desktop.notificationShown() }) else { throw BenchFailure("the notification stayed for 10 s") }
        } else {
            try supervisor.run(GnomeDesktop.asUser + [banner, "dismiss"] + (environment == desktop.environment ? [] : ["--all", "--quit"]), environment: environment)
        }
        // `dismiss` returns as the banner starts to slide away; its space is given back when
        // the slide ends, a while later on a loaded machine (waiting only for foot to have been
        // still for half a second read the height before that, and called the space kept). The
        // space is the shell's to give back: its work area first, then foot's terminal.
        guard try desktop.poll(seconds: 10, until: { try desktop.workArea() == space }) else {
            throw BenchFailure("the shell kept the banner's space for 10 s (work area \(try desktop.workArea()), was \(space))")
        }
        guard footMustFollow else { return (seen - child.startedAt, 0, slideWakeups) }
        guard try desktop.poll(seconds: 10, until: { desktop.footSize()?.height == initial.height }) else {
            throw BenchFailure("foot did not get its height back within 10 s (\(desktop.footSize()?.height ?? 0) px, was \(initial.height) px), "
                + "though the shell gave the space back (work area \(space))")
        }
        let settled = try desktop.settleFoot()
        guard settled.height == initial.height else {
            throw BenchFailure("foot did not keep its height (\(settled.height) px, was \(initial.height) px)")
        }
        return (seen - child.startedAt, Double(settled.resizes - before.resizes), slideWakeups)
    }
}

extension Results {
    /// Section 11's versions (one line per shell).
    func describe(gnome: GnomeDesktop) {
        let query = gnome.shellRelease.inside + ["dpkg-query", "-W", "-f", "${Version}", "gnome-shell"]
        let version = (try? gnome.supervisor.run(query, environment: ["PATH": basePath]))?.first ?? "?"
        machine.append(("\(gnome.shellRelease.label) (section 11)", "headless gnome-shell \(version)\(gnome.shellRelease.chroot.map { " from \($0)" } ?? "") "
            + "(\(GnomeDesktop.width)x\(GnomeDesktop.height) virtual monitor, --unsafe-mode for the "
            + "probe) as uid \(GnomeDesktop.user) with WindowBanner's extension, foot maximized, private buses, private to this run"))
    }

    /// Section 11's commands.
    func describeGnomeCommands() {
        let show = shellLine(["window-banner", "show", "--title", Lineup.title, "--compact", "never"])
        commands += [
            (GnomeBench.warm, show, "WAYLAND_DISPLAY set, owner running (drawing through the extension); `window-banner dismiss` after foot settles"),
            (GnomeBench.cold, show, "no owner: a fresh XDG_RUNTIME_DIR; `dismiss --all --quit` after each run"),
            (GnomeBench.notification, shellLine(["notify-send", Lineup.title]),
             "GNOME Shell's own notification banner (the shell is the notification server); closed with CloseNotification after each run"),
            (GnomeBench.sharing, shellLine(["window-banner", "monitor", "--sharing", "--no-network", "--no-system", "--calls-hide-delay", "0.1"]),
             "an app (Tests/Clients/mutter-screencast.py) casts the screen through org.gnome.Mutter.ScreenCast and reads it with pipewiresrc; "
                + "timed from the reader's start; the app ended after each run"),
        ]
    }
}
