// Section 9 (issue 24): the banner on a Wayland desktop, next to what a user there would pick
// instead — `notify-send` → mako. A private headless sway (Debian's, pixman renderer, one
// 1280x720 output at 60 Hz unless `--sway-refresh` says otherwise) runs as an unprivileged user
// (when the benchmark runs as root: sway refuses root) with a maximized foot terminal whose
// program counts its resizes. Every figure is read off the compositor, not off the tools:
// bench/screencopy-probe.c asks sway for each frame that changes the top of the output
// (wlr-screencopy's copy_with_damage) and prints sway's own timestamp of that frame with how
// many rows from the top are the banner's colour. A tool's first frame is the first frame sway
// composed with its colour in the top row, stamped on the same CLOCK_MONOTONIC the supervisor
// reads just before the exec. Per run, each tool is shown, left until foot has stopped being
// resized, and taken away; foot's resizes over that are the relayouts a user's terminal pays.
// Then the owner's and mako's CPU over idle seconds with a banner up and nothing moving at the
// top of the screen for a second before (/proc/PID/stat and schedstat), and their memory
// (/proc/PID/smaps_rollup).

import Glibc

/// What section 9 measured.
struct SwayResults {
    /// Command → first frame with it on screen, ms, by tool.
    var firstFrames: [(tool: String, samples: [Double])] = []
    /// Command → the command returned, ms, by tool.
    var returned: [(tool: String, samples: [Double])] = []
    /// foot's resizes per show + dismiss, by tool.
    var relayouts: [(tool: String, counts: [Double])] = []
    /// The owner and mako sitting with their banner up.
    var idle: [IdleCost] = []
    /// RSS (smaps_rollup) with the banner up, and with nothing shown, KiB.
    var memory: [(tool: String, shown: Double, nothingShown: Double)] = []
}

/// A private headless sway with foot in it, the screencopy probe watching it, and mako on a
/// private session bus. Ends everything it started (and the owners `show` started) in `stop()`.
final class SwayDesktop {
    static let width = 1280
    static let height = 720
    /// The colour of both the banner (window-banner's default background, systemGreen) and mako's
    /// notification, which the probe looks for.
    static let colour = "34C759"
    /// The user sway and foot run as when the benchmark runs as root (nobody): sway refuses root.
    static let user: uid_t = 65534

    let supervisor: Supervisor
    /// The output's refresh rate, Hz: sway composes at most one frame per period.
    let refresh: Int
    /// Sway's directory: config, runtime directory, HOME, foot's counter; owned by `user`.
    let directory: String
    /// Where the owners' runtime directories go: short, as the owner's socket path names the
    /// Wayland socket's path inside it and a Unix socket's path has 107 bytes at most.
    let runtimes: String
    /// The Wayland socket's full path: what every client but foot connects to (root may).
    private(set) var socketPath = ""
    /// What window-banner, notify-send and mako run with: this sway by its socket's path, a
    /// private HOME and runtime directory, the private session bus; no DISPLAY.
    private(set) var environment: [String: String] = [:]
    private var probe: ScreencopyProbe?
    /// What the probe has seen so far.
    var frames: [ScreenFrame] { probe?.frames ?? [] }
    private(set) var mako: Child?
    private let counter: String
    private var foot: FootCounter { FootCounter(path: counter, supervisor: supervisor) }
    private var children: [Child] = []

    init(supervisor: Supervisor, work: String, probe: String, refresh: Int) throws {
        self.supervisor = supervisor
        self.refresh = refresh
        directory = try temporaryDirectory("/tmp/wbb-sway-XXXXXX")
        runtimes = try temporaryDirectory("/tmp/wbb-XXXXXX")
        counter = directory + "/foot-size"
        let runtime = directory + "/run"
        for path in [runtime, directory + "/home"] { try makeDirectory(path) }
        try writeFile(directory + "/config", """
            xwayland disable
            default_border none
            default_floating_border none
            focus_follows_mouse no
            output HEADLESS-1 resolution \(Self.width)x\(Self.height)@\(refresh)Hz scale 1 bg #336699 solid_color

            """)
        try writeFile(directory + "/count-resizes.py", FootCounter.script)
        if geteuid() == 0 {
            for path in [directory, runtime, directory + "/home", directory + "/config", directory + "/count-resizes.py"] {
                chown(path, Self.user, Self.user)
            }
        }
        let sway = try supervisor.spawn(
            Self.asUser + ["sway", "-c", directory + "/config"],
            environment: Self.userEnvironment(directory, ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]),
            name: "sway", stderr: .file(work + "/sway.log"))
        children.append(sway)
        let sockets = try awaitSockets(runtime, sway: sway, log: work + "/sway.log")
        socketPath = runtime + "/" + sockets.wayland
        let home = "\(work)/sway-home"
        try makeDirectory(home)
        environment = [
            "PATH": basePath, "LANG": "C.UTF-8", "WAYLAND_DISPLAY": socketPath, "HOME": home,
            "XDG_CONFIG_HOME": "\(home)/.config", "XDG_RUNTIME_DIR": try freshRuntimeDirectory(),
        ]

        let watcher = try ScreencopyProbe(supervisor: supervisor, probe: probe, colour: Self.colour, environment: environment, name: "screencopy-probe")
        children.append(watcher.child)
        self.probe = watcher
        let foot = try supervisor.spawn(
            Self.asUser + ["foot", "--app-id", "bench-foot", "python3", directory + "/count-resizes.py", counter],
            environment: Self.userEnvironment(directory, ["WAYLAND_DISPLAY": sockets.wayland]), name: "foot")
        children.append(foot)
        guard try poll(seconds: 10, until: { footSize() != nil }) else { throw BenchFailure("foot did not start within 10 s") }
        try settleFoot()
    }

    /// What sway's and foot's command lines start with: as `user` when the benchmark runs as root.
    static var asUser: [String] {
        geteuid() == 0 ? ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] : []
    }

    private static func userEnvironment(_ directory: String, _ extra: [String: String]) -> [String: String] {
        var environment = extra
        environment["PATH"] = basePath
        environment["LANG"] = "C.UTF-8"
        environment["HOME"] = directory + "/home"
        environment["XDG_CONFIG_HOME"] = directory + "/home/.config"
        environment["XDG_RUNTIME_DIR"] = directory + "/run"
        return environment
    }

    /// Waits for sway's Wayland and IPC sockets and for its output to answer over IPC.
    private func awaitSockets(_ runtime: String, sway: Child, log: String) throws -> (wayland: String, ipc: String) {
        var found: (wayland: String, ipc: String)?
        let started = try poll(seconds: 20) {
            guard sway.isRunning else { return true }
            let names = directoryEntries(runtime)
            guard let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                  let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }) else { return false }
            let outputs = try? supervisor.run(["swaymsg", "-s", runtime + "/" + ipc, "-t", "get_outputs"], environment: ["PATH": basePath])
            guard outputs?.contains(where: { $0.contains("HEADLESS-1") }) == true else { return false }
            found = (wayland, ipc)
            return true
        }
        guard started, sway.isRunning, let found else { throw BenchFailure("sway did not start within 20 s (see \(log))") }
        return found
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

    // MARK: frames

    /// Waits until sway has composed nothing new at the top of its output for a second: whatever
    /// moved there (a slide, a fade) has finished.
    func settleScreen() throws {
        var seen = frames.count
        for _ in 0..<10 {
            supervisor.observe(seconds: 1)
            if frames.count == seen { return }
            seen = frames.count
        }
        throw BenchFailure("the top of the screen kept changing for 10 s")
    }

    /// The first frame from index `start` on, presented at `notBefore` ms or later, whose top
    /// rows satisfy `test`; nil after `timeout` seconds.
    func frame(from start: Int, notBefore: Double, timeout: Double = 10, where test: (Int) -> Bool) -> ScreenFrame? {
        var found: ScreenFrame?
        supervisor.wait(seconds: timeout) {
            found = frames[start...].first { $0.presented >= notBefore && test($0.rows) }
            return found != nil
        }
        return found
    }

    // MARK: mako

    /// A private session bus and mako on it, configured as a top banner like the owner's (full
    /// width, 80 px, the same font and colours, no timeout), answering on the bus.
    func startMako(work: String) throws {
        let bus = try supervisor.spawn(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path=\(work)/sway-bus"],
            environment: environment, name: "dbus-daemon (sway)", stdout: .pipe)
        children.append(bus)
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), let address = bus.lines.first else {
            throw BenchFailure("dbus-daemon did not print its address")
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        try writeFile("\(work)/mako.conf", Self.makoConfig)
        let mako = try supervisor.spawn(["mako", "-c", "\(work)/mako.conf"], environment: environment, name: "mako", stderr: .file("\(work)/mako.log"))
        children.append(mako)
        self.mako = mako
        // mako takes its bus name after it has connected to sway: ask it until it answers.
        guard try poll(seconds: 10, until: {
            guard mako.isRunning else { return true }
            let check = try supervisor.spawn(["makoctl", "list"], environment: environment)
            return supervisor.waitForExit(check, timeout: 5) == 0
        }), mako.isRunning else { throw BenchFailure("mako never answered on the session bus (see \(work)/mako.log)") }
    }

    /// A second private bus on which mako is not running but is started by the first
    /// notification (D-Bus activation, as at a login), with the same config.
    private(set) var activatedMako: ActivatedServer?

    func startActivatableMako(work: String) throws {
        activatedMako = try ActivatedServer(supervisor: supervisor, work: work, label: "mako", environment: environment,
                                            server: ["/usr/bin/mako", "-c", "\(work)/mako.conf"])
    }

    /// mako's look: one notification across the top like the banner (80 px: 27 px above and
    /// below the line), no icon, sticky until dismissed. Everything else is mako's default.
    static let makoConfig = """
        font=sans-serif Semibold 17
        background-color=#\(colour)
        text-color=#FFFFFF
        width=\(width)
        height=80
        margin=0
        padding=27,0
        border-size=0
        border-radius=0
        anchor=top-center
        default-timeout=0
        text-alignment=center
        icons=0
        format=%s

        """

    // MARK: owners

    /// Owner processes on this sway.
    func owners() -> [pid_t] { ownerProcesses(servingSocket: socketPath) }

    /// Ends the owners, the probe, mako, foot and sway, and removes sway's directory.
    func stop() {
        activatedMako?.stop()
        for pid in owners() { kill(pid, SIGKILL) }
        for child in children.reversed() { supervisor.stop(child) }
        _ = try? supervisor.run(["rm", "-rf", directory, runtimes], environment: ["PATH": basePath])
    }

    private var runtimeCount = 0

    /// A new, empty runtime directory for an owner (a cold one: no owner there yet).
    func freshRuntimeDirectory() throws -> String {
        runtimeCount += 1
        let path = "\(runtimes)/\(runtimeCount)"
        try makeDirectory(path)
        return path
    }
}

func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        names.append(withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        })
    }
    return names
}

/// Resident memory in KiB as /proc/PID/smaps_rollup sums it over every mapping.
func rollupResidentKiB(_ pid: pid_t) -> Double? {
    readFile("/proc/\(pid)/smaps_rollup").flatMap { statusValue($0, "Rss") }
}

/// Section 9's runs: `window-banner show` warm and cold, `notify-send` → mako, and a warm `show`
/// at the screen edge, interleaved.
struct SwayBench {
    let desktop: SwayDesktop
    let banner: String
    let work: String
    var supervisor: Supervisor { desktop.supervisor }
    /// Where the commands' complaints go.
    var errors: String { work + "/sway-commands.log" }

    static let warm = "window-banner show (warm, sway)"
    static let cold = "window-banner show (cold, sway)"
    static let coldWithoutBus = "window-banner show (cold, sway, no session bus)"
    static let screenEdge = "window-banner show --placement screen-edge (warm, sway)"
    static let mako = "notify-send → mako"
    static let makoCold = "notify-send → mako (cold: started by D-Bus activation)"

    /// One tool's run: its command, and what takes its banner away again.
    private struct Tool {
        let name: String
        let command: () throws -> (arguments: [String], environment: [String: String])
        let clear: ([String: String]) throws -> Void
    }

    /// `window-banner show` as on X11: the tall banner (`--compact never`), like mako's.
    private var show: [String] { [banner, "show", "--title", Lineup.title, "--compact", "never"] }

    func run(runs: Int, warmup: Int, idleSeconds: Double) throws -> SwayResults {
        var results = SwayResults()
        let initial = try desktop.settleFoot()
        let dismiss: ([String: String]) throws -> Void = { environment in
            try supervisor.run([banner, "dismiss"], environment: environment)
        }
        let warm = Tool(name: Self.warm, command: { (show, desktop.environment) }, clear: dismiss)
        // The warm owner, started before the first round and kept to the end.
        _ = try once(warm, initial: initial)
        let owners = desktop.owners()
        guard owners.count == 1, let owner = owners.first else { throw BenchFailure("\(owners.count) owners run on sway after one show") }
        let tools = [
            warm,
            Tool(name: Self.cold, command: {
                var environment = desktop.environment
                environment["XDG_RUNTIME_DIR"] = try desktop.freshRuntimeDirectory()
                return (show, environment)
            }, clear: { environment in
                try supervisor.run([banner, "dismiss", "--all", "--quit"], environment: environment)
                // Gone before the next run, so no cold owner idles beside the next one.
                guard try desktop.poll(seconds: 10, until: { desktop.owners() == [owner] }) else {
                    throw BenchFailure("the cold owner did not quit within 10 s")
                }
            }),
            // The same without a session bus: no portal asked for the desktop's preferences (GIO
            // reads GSettings instead) — what following the desktop costs a cold start.
            Tool(name: Self.coldWithoutBus, command: {
                var environment = desktop.environment
                environment["XDG_RUNTIME_DIR"] = try desktop.freshRuntimeDirectory()
                environment["DBUS_SESSION_BUS_ADDRESS"] = nil
                return (show, environment)
            }, clear: { environment in
                try supervisor.run([banner, "dismiss", "--all", "--quit"], environment: environment)
                guard try desktop.poll(seconds: 10, until: { desktop.owners() == [owner] }) else {
                    throw BenchFailure("the cold owner did not quit within 10 s")
                }
            }),
            Tool(name: Self.mako, command: { (["notify-send", Lineup.title], desktop.environment) }, clear: { environment in
                try supervisor.run(["makoctl", "dismiss", "--all"], environment: environment)
            }),
            // mako not running: the notification makes the bus start it, as at a login.
            Tool(name: Self.makoCold, command: {
                guard let activated = desktop.activatedMako else { throw BenchFailure("no activation bus for mako") }
                var environment = desktop.environment
                environment["DBUS_SESSION_BUS_ADDRESS"] = activated.address
                return (["notify-send", Lineup.title], environment)
            }, clear: { _ in
                try desktop.activatedMako?.endServer()
            }),
            // The banner at the screen's edge, its own surface reserving its height, instead of
            // under the status bars (a zone-less top-layer surface over a background-layer zone,
            // the zone made once its first frame is shown): the two ways the owner places it.
            Tool(name: Self.screenEdge, command: { (show + ["--placement", "screen-edge"], desktop.environment) }, clear: dismiss),
        ]

        var firstFrames: [String: [Double]] = [:]
        var returned: [String: [Double]] = [:]
        var relayouts: [String: [Double]] = [:]
        for round in 0..<(warmup + runs) {
            for (index, tool) in tools.enumerated() {
                let run: (firstFrame: Double, returned: Double?, relayouts: Double)
                // Each run starts at its own point of sway's frame period, spread evenly over it
                // (the golden-ratio sequence): the bench's waits end just after a frame sway
                // composed, and commands started in step with sway's frames would measure only
                // which frame a tool makes, never how early in it the tool is ready.
                let phase = (Double(round * tools.count + index) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
                do { run = try once(tool, initial: initial, delay: phase * 1000 / Double(desktop.refresh)) } catch {
                    throw BenchFailure("\(tool.name): \(error)")
                }
                guard round >= warmup else { continue }
                firstFrames[tool.name, default: []].append(run.firstFrame)
                if let exit = run.returned { returned[tool.name, default: []].append(exit) }
                relayouts[tool.name, default: []].append(run.relayouts)
            }
        }
        for tool in tools.map(\.name) {
            if let samples = firstFrames[tool] { results.firstFrames.append((tool, samples)) }
            if let samples = returned[tool] { results.returned.append((tool, samples)) }
            if let counts = relayouts[tool] { results.relayouts.append((tool, counts)) }
        }

        // Idle with a banner up and still, then memory with it up and with nothing shown.
        guard let mako = desktop.mako else { throw BenchFailure("mako is not running") }
        guard let makoTool = tools.first(where: { $0.name == Self.mako }) else { throw BenchFailure("no mako tool") }
        for (name, pid, tool) in [("window-banner owner (show, sway)", owner, warm), ("mako", mako.pid, makoTool)] {
            let since = desktop.frames.count
            let invocation = try tool.command()
            let child = try supervisor.spawn(invocation.arguments, environment: invocation.environment)
            guard desktop.frame(from: since, notBefore: child.startedAt, where: { $0 > 0 }) != nil else {
                throw BenchFailure("\(name): nothing on screen within 10 s")
            }
            _ = supervisor.waitForExit(child, timeout: 5)
            try desktop.settleFoot()
            try desktop.settleScreen()
            guard let before = ProcessCounters.read(pid) else { throw BenchFailure("\(name): process \(pid) is gone") }
            supervisor.observe(seconds: idleSeconds)
            guard let after = ProcessCounters.read(pid), let shown = rollupResidentKiB(pid) else { throw BenchFailure("\(name): process \(pid) ended while idle") }
            results.idle.append(IdleCost(tool: name, seconds: idleSeconds, counters: after - before))
            try clear(tool, environment: invocation.environment, initial: initial)
            supervisor.observe(seconds: 0.5)
            guard let nothingShown = rollupResidentKiB(pid) else { throw BenchFailure("\(name): process \(pid) is gone") }
            results.memory.append((name, shown, nothingShown))
        }
        try supervisor.run([banner, "dismiss", "--all", "--quit"], environment: desktop.environment)
        return results
    }

    /// One run of `tool`, started `delay` ms after the screen settled: command → first frame with
    /// its colour at the top, whether and when the command returned, and foot's resizes from the
    /// command to the banner gone and foot settled.
    private func once(_ tool: Tool, initial: (resizes: Int, height: Int), delay: Double = 0) throws
        -> (firstFrame: Double, returned: Double?, relayouts: Double) {
        guard let before = desktop.footSize() else { throw BenchFailure("foot is gone") }
        if delay > 0 { supervisor.observe(seconds: delay / 1000) }
        let since = desktop.frames.count
        let invocation = try tool.command()
        let child = try supervisor.spawn(invocation.arguments, environment: invocation.environment, name: tool.name, stderr: .file(errors))
        guard let first = desktop.frame(from: since, notBefore: child.startedAt, where: { $0 > 0 }) else {
            supervisor.stop(child)
            throw BenchFailure("nothing of its colour at the top of the screen within 10 s (\(desktop.frames.count - since) frames changed it; see \(errors))")
        }
        guard let status = supervisor.waitForExit(child, timeout: 10) else {
            supervisor.stop(child)
            throw BenchFailure("the command did not return within 10 s")
        }
        guard status == 0 else { throw BenchFailure("the command exited \(status)") }
        let returned = child.exit.map { $0.at - child.startedAt }
        // Left on screen until foot has settled under it, as a banner is read before it goes.
        try desktop.settleFoot()
        try clear(tool, environment: invocation.environment, initial: initial)
        guard let after = desktop.footSize() else { throw BenchFailure("foot is gone") }
        return (first.presented - child.startedAt, returned, Double(after.resizes - before.resizes))
    }

    /// Takes `tool`'s banner away and waits until the top of the screen no longer shows it and
    /// foot has its whole height back.
    private func clear(_ tool: Tool, environment: [String: String], initial: (resizes: Int, height: Int)) throws {
        let since = desktop.frames.count
        let cleared = monotonicMilliseconds()
        try tool.clear(environment)
        if (desktop.frames.last?.rows ?? 0) > 0, desktop.frame(from: since, notBefore: cleared, where: { $0 == 0 }) == nil {
            throw BenchFailure("its colour stayed at the top of the screen for 10 s after it was taken away")
        }
        let settled = try desktop.settleFoot()
        guard settled.height == initial.height else {
            throw BenchFailure("foot did not get its height back (\(settled.height) px, was \(initial.height) px)")
        }
    }
}
