// window-banner-bench — `make bench`: WindowBanner next to the tools a user would pick instead
// (notify-send → dunst, osd_cat, and a minimal C Xlib+Xft client as the floor), in one run, on
// one private Xvfb + openbox, timed on the X server's own clock through X RECORD
// (bench/xrecord-probe.c). It measures, each after a warm-up:
//   1. command → MapNotify and → first frame       (ScreenLatency, Lineup)
//   2. update in place → first frame               (ScreenLatency.update)
//   3. frame pacing of the slide-in and cross-fade (FramePacing)
//   4. idle cost, 5. memory through a soak         (ResourceUse)
//   6. route removed → offline banner              (NetworkPath)
//   9. on sway: command → first frame next to notify-send → mako, foot's relayouts, idle CPU
//      and memory, seen through wlr-screencopy (bench/screencopy-probe.c)  (Sway)
//  10. the owner's accessibility connection: warm and cold show → first frame and RSS, without
//      and with an accessibility bus and a listening AT-SPI client  (AccessibilityCost)
//  11. on GNOME Shell (headless, with WindowBanner's extension): command → first painted frame
//      next to notify-send → GNOME's own notification banner, foot's relayouts; an app starting
//      to read Mutter's screen cast → the sharing banner's first frame  (Gnome); the same through
//      xdg-desktop-portal-wlr on Debian unstable's sway  (SwaySharing)
//  12. calls: a capture starting in PipeWire → the call banner's first frame, the idle monitor
//      with calls on, its memory with and without  (CallPath)
//  13. broadcasts: `broadcast set` → the banner on ten sessions next to a loop of `show`, and
//      `broadcast list` of 10,000 next to `cat` of the spool  (Broadcasts)
//   and where a warm `show` spends its time        (StartupCost)
// and writes one table as Markdown and JSON, plus a chart of frame intervals (Report).
// Every process it starts is ended when it ends. Start reading here.

import Glibc

struct Options {
    var banner = ""
    var bin = "bench/out/bin"
    var results = "bench/results"
    var work = "bench/out/run"
    var runs = 20
    var warmup = 3
    var cycles = 1000
    var idleSeconds = 10.0
    /// The refresh rate of sway's headless output in section 9 (`--sway-refresh 1000`: its frame
    /// clock nearly out of the latencies).
    var swayRefresh = 60
    /// The numbered sections to run (`--only 5`); empty: all of them.
    var only: Set<String> = []

    static let usage = """
        usage: window-banner-bench --window-banner PATH [--bin DIR] [--results DIR] [--work DIR]
                                   [--runs N] [--warmup N] [--cycles N] [--idle-seconds S] [--quick]
                                   [--only SECTION]…   (a numbered section alone, e.g. --only 5: memory)
                                   [--sway-refresh HZ] (section 9's output, 60 unless given)
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchFailure("\(flag) needs a value\n\(Self.usage)") }
            return next
        }
        func number(_ flag: String) throws -> Int {
            guard let number = Int(try value(flag)), number > 0 else { throw BenchFailure("\(flag) takes a positive whole number") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--window-banner": banner = try value(flag)
            case "--bin": bin = try value(flag)
            case "--results": results = try value(flag)
            case "--work": work = try value(flag)
            case "--runs": runs = try number(flag)
            case "--warmup": warmup = try number(flag)
            case "--cycles": cycles = try number(flag)
            case "--idle-seconds": idleSeconds = Double(try number(flag))
            case "--sway-refresh": swayRefresh = try number(flag)
            case "--quick": (runs, warmup, cycles, idleSeconds) = (3, 1, 20, 2)
            case "--only": only.insert(String(try number(flag)))
            default: throw BenchFailure("unknown argument \(flag)\n\(Self.usage)")
            }
        }
        guard !banner.isEmpty else { throw BenchFailure(Self.usage) }
    }
}

func absolutePath(_ path: String) throws -> String {
    guard let resolved = realpath(path, nil) else { throw BenchFailure("\(path): \(String(cString: strerror(errno)))") }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// Writes a progress line to stderr (stdout gets the table).
func progress(_ text: String) {
    printError("bench: \(text)")
}

/// One line on stderr.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Runs `body`, recording a failure instead of ending the benchmark.
func section(_ name: String, _ results: Results, _ body: () throws -> Void) {
    guard results.options.only.isEmpty || results.options.only.contains(String(name.prefix(while: \.isNumber))) else { return }
    progress(name)
    do { try body() } catch { results.problems.append("\(name): \(error)") }
}

func main() throws {
    var options = try Options(Array(CommandLine.arguments.dropFirst()))
    let supervisor = try Supervisor()
    defer { supervisor.stopAll() }
    try supervisor.run(["rm", "-rf", options.work], environment: ["PATH": basePath])
    try supervisor.run(["mkdir", "-p", options.work, options.results], environment: ["PATH": basePath])
    // Absolute: XDG_RUNTIME_DIR must be, and every child gets these paths.
    options.work = try absolutePath(options.work)
    options.bin = try absolutePath(options.bin)
    let results = Results(options: options)

    let desktop = try Desktop(supervisor: supervisor, work: options.work, probe: "\(options.bin)/xrecord-probe")
    defer { desktop.stop() }
    try desktop.startDunst()
    try desktop.startActivatableDunst()
    let screen = ScreenLatency(desktop: desktop)
    let lineup = try Lineup(screen: screen, banner: options.banner, floor: "\(options.bin)/floor")
    results.describe(desktop: desktop, lineup: lineup)
    let rounds = options.warmup + options.runs

    section("1. command → on screen: \(rounds) rounds of \(lineup.appearanceTools.count) tools", results) {
        var failed: Set<String> = []
        for round in 0..<rounds {
            for tool in lineup.appearanceTools where !failed.contains(tool.name) {
                do {
                    var appearance = try screen.appearance(of: tool)
                    guard round >= options.warmup else { continue }
                    if tool.name == lineup.warmShow.name {
                        if let slide = FramePacing.slideIn(appearance, recorder: desktop.recorder) { results.slides.append(slide) }
                    }
                    appearance.records = []
                    results.appearances[tool.name, default: []].append(appearance)
                } catch {
                    failed.insert(tool.name)
                    results.problems.append("\(tool.name): \(error)")
                }
            }
        }
    }
    section("2. update in place: \(rounds) rounds", results) {
        for round in 0..<rounds {
            for tool in [lineup.bannerUpdate, lineup.dunstifyReplace] {
                var update = try screen.update(with: tool)
                guard round >= options.warmup else { continue }
                if tool.name == lineup.bannerUpdate.name, let fade = FramePacing.crossFade(update, recorder: desktop.recorder) {
                    results.fades.append(fade)
                }
                update.records = []
                results.updates[tool.name, default: []].append(update)
            }
        }
    }
    section("3. where a show's time goes, warm and cold", results) {
        results.startup = try lineup.startupLadder(bin: options.bin, runs: options.runs, warmup: options.warmup)
        results.coldSteps = try lineup.coldShowSteps(runs: options.runs, warmup: options.warmup)
        results.loader = try lineup.loaderStatistics()
    }
    section("4. idle cost: \(fixed(options.idleSeconds, 0)) s per process", results) {
        results.idle = try lineup.idleCosts(seconds: options.idleSeconds)
    }
    section("5. memory: \(options.cycles) cycles each", results) {
        results.memory.append(try lineup.ownerMemory(cycles: options.cycles))
        results.memory.append(try lineup.dunstMemory(cycles: options.cycles))
    }
    section("6. network path: \(rounds) route removals", results) {
        results.network = try lineup.networkPath(runs: options.runs, warmup: options.warmup)
    }
    section("7. relayouts of a maximized application: \(rounds) shows + dismissals", results) {
        results.relayouts = try lineup.relayouts(client: "\(options.bin)/maximized-client", runs: options.runs, warmup: options.warmup)
    }
    section("8. a locked screen: 3 s under a self-raising locker, \(rounds) unlocks", results) {
        results.lockedScreen = try lineup.lockedScreen(locker: "\(options.bin)/self-raising-locker", seconds: 3, runs: options.runs, warmup: options.warmup)
    }
    section("9. sway: \(rounds) rounds of 4 tools, idle \(fixed(options.idleSeconds, 0)) s per process", results) {
        let sway = try SwayDesktop(supervisor: supervisor, work: options.work, probe: "\(options.bin)/screencopy-probe", refresh: options.swayRefresh)
        defer { sway.stop() }
        try sway.startMako(work: options.work)
        try sway.startActivatableMako(work: options.work)
        results.describe(sway: sway, banner: options.banner)
        results.sway = try SwayBench(desktop: sway, banner: options.banner, work: options.work)
            .run(runs: options.runs, warmup: options.warmup, idleSeconds: options.idleSeconds)
    }
    section("10. accessibility: \(rounds) rounds without and with an accessibility bus, warm then cold", results) {
        results.accessibility = try lineup.accessibilityCost(runs: options.runs, warmup: options.warmup)
    }
    section("11. GNOME Shell 43, 48 and the newest: \(rounds) rounds of 3 tools each, then of the sharing banner there and on sway", results) {
        results.describeGnomeCommands()
        for shell in try GnomeShell.all(supervisor: supervisor) {
            let gnome = try GnomeDesktop(supervisor: supervisor, work: options.work, banner: try absolutePath(options.banner), shell: shell)
            defer { gnome.stop() }
            results.describe(gnome: gnome)
            let bench = GnomeBench(desktop: gnome, work: options.work)
            var measured = try bench.run(runs: options.runs, warmup: options.warmup)
            measured.sharing = try bench.sharing(runs: options.runs, warmup: options.warmup)
            results.gnome.append(measured)
            results.problems += measured.notes
        }
        let sway = try SwaySharingDesktop(supervisor: supervisor, work: options.work, banner: try absolutePath(options.banner),
                                          probe: "\(options.bin)/screencopy-probe")
        defer { sway.stop() }
        results.describe(swaySharing: sway)
        results.swaySharing = ("sway \(sway.version) (Debian unstable)", try sway.sharing(runs: options.runs, warmup: options.warmup, work: options.work))
    }
    section("12. calls: \(rounds) captures started, idle \(fixed(options.idleSeconds, 0)) s", results) {
        results.calls = try lineup.callPath(runs: options.runs, warmup: options.warmup, idleSeconds: options.idleSeconds, work: options.work)
    }
    section("13. broadcasts: \(rounds) notices to \(BroadcastResults.sessions) sessions, \(rounds) listings of \(BroadcastResults.listed)", results) {
        results.broadcasts = try lineup.broadcasts(probe: "\(options.bin)/xrecord-probe", work: options.work, runs: options.runs, warmup: options.warmup)
    }
    results.clock = (desktop.recorder.consistentMarkers, desktop.recorder.markers)
    if results.clock.consistent < results.clock.markers {
        results.problems.append("the X server's clock left CLOCK_MONOTONIC at \(results.clock.markers - results.clock.consistent) markers: latencies are off by that much")
    }
    results.loadAfter = loadAverage()

    let report = Report(results)
    print(report.markdown)
    try writeFile("\(options.results)/results.md", report.markdown)
    try writeFile("\(options.results)/results.json", report.json.rendered() + "\n")
    // Some sections alone have no frames to chart.
    guard options.only.isEmpty else { return progress("wrote \(options.results)/results.md and results.json") }
    try report.chart(work: options.work, png: "\(options.results)/frame-intervals.png", supervisor: supervisor)
    progress("wrote \(options.results)/results.md, results.json and frame-intervals.png")
}

do {
    try main()
} catch {
    printError("window-banner-bench: \(error)")
    exit(1)
}
