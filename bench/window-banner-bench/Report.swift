// The benchmark's output: one table of every figure (metric × tool: n, min, median, max, and the
// ratio to WindowBanner's own row), the targets of issue 6 with met / not met, and where a warm
// `show` spends its time — as Markdown (printed and written) and JSON; plus a gnuplot chart of
// the frame intervals of every slide-in and cross-fade.

import Glibc

/// One run's table, targets and chart, from what it measured.
struct Report {
    let results: Results
    let rows: [Row]

    init(_ results: Results) {
        self.results = results
        rows = Self.rows(results)
    }

    private static let warm = "window-banner show (warm)"
    /// Mappings listed by name in the idle RSS breakdown.
    private static let mappingRows = 12
    private static let newLatin = "window-banner show (warm, new Latin title)"
    private static let newArabic = "window-banner show (warm, new Arabic title)"
    private static let dunstArabic = "notify-send → dunst (Arabic)"

    private static func rows(_ results: Results) -> [Row] {
        var rows: [Row] = []
        let tools = ["window-banner show (warm)", Self.newLatin, Self.newArabic, "window-banner show (cold)", "window-banner run",
                     "notify-send → dunst", Self.dunstArabic, Lineup.dunstCold, "osd_cat -p top", "C Xlib+Xft floor", Lineup.shapedFloorName]
        let present = tools.filter { results.appearances[$0] != nil }
        for tool in present { rows.append(Row(metric: "command → MapNotify", tool: tool, unit: "ms", samples: results.appearances[tool]!.map(\.map), reference: warm)) }
        for tool in present { rows.append(Row(metric: "command → first frame", tool: tool, unit: "ms", samples: results.appearances[tool]!.map(\.frame), reference: warm)) }
        for tool in present {
            let connects = results.appearances[tool]!.compactMap(\.connect)
            if connects.count == results.appearances[tool]!.count {
                rows.append(Row(metric: "command → its X connection", tool: tool, unit: "ms", samples: connects))
            }
        }
        if let warmRuns = results.appearances[warm] {
            rows.append(Row(metric: "command → the owner's first X request", tool: warm, unit: "ms", samples: warmRuns.compactMap(\.firstRequest),
                            note: "the client has started, connected and sent its request"))
        }
        for tool in present {
            let exits = results.appearances[tool]!.compactMap(\.exit)
            if tool.contains("show") || tool.hasPrefix("notify-send") {
                rows.append(Row(metric: "command returned", tool: tool, unit: "ms", samples: exits, reference: warm))
            }
        }
        let ours = "window-banner show (update)"
        for (tool, runs) in results.updates.sorted(by: { $0.key > $1.key }) {
            rows.append(Row(metric: "update → first frame", tool: tool, unit: "ms", samples: runs.map(\.frame), reference: ours,
                            note: tool == ours ? "the cross-fade's first frame, already partly the new look" : ""))
        }
        if let runs = results.updates[ours] {
            rows.append(Row(metric: "update → second frame", tool: ours, unit: "ms", samples: runs.compactMap(\.secondFrame),
                            note: "the cross-fade's second frame"))
        }
        for (name, traces) in [("slide-in", results.slides), ("cross-fade", results.fades)] where !traces.isEmpty {
            let intervals = traces.flatMap(\.intervals)
            let paced = traces.flatMap(\.pacedIntervals)
            let summary = Summary(intervals)
            let missed = traces.map(\.missed).reduce(0, +)
            let expected = traces.map(\.expected).reduce(0, +)
            rows.append(Row(metric: "\(name) frame interval", tool: "window-banner", unit: "ms", samples: intervals,
                            note: "mean \(fixed(summary?.mean ?? 0)), p99 \(fixed(summary?.p99 ?? 0)); missed \(missed) of \(expected) frames due in \(traces.count) runs"))
            rows.append(Row(metric: "\(name) interval, consecutive slots", tool: "window-banner", unit: "ms", samples: paced,
                            note: "p99 \(fixed(Summary(paced)?.p99 ?? 0)); \(intervals.count - paced.count) intervals span a slot with no new pixel row due"))
            rows.append(Row(metric: "\(name): X requests per frame", tool: "window-banner", unit: "", samples: traces.flatMap(\.requests).map(Double.init)))
        }
        let owner = "window-banner owner (show)"
        let seconds = results.idle.first.map { fixed($0.seconds, 0) } ?? ""
        for cost in results.idle { rows.append(Row(metric: "idle \(seconds) s: CPU time", tool: cost.tool, unit: "ms", samples: [cost.counters.runMilliseconds], reference: owner)) }
        for cost in results.idle { rows.append(Row(metric: "idle \(seconds) s: CPU ticks", tool: cost.tool, unit: "", samples: [cost.counters.ticks])) }
        for cost in results.idle { rows.append(Row(metric: "idle \(seconds) s: wakeups", tool: cost.tool, unit: "", samples: [cost.counters.wakeups])) }
        for cost in results.idle { rows.append(Row(metric: "idle \(seconds) s: voluntary switches", tool: cost.tool, unit: "", samples: [cost.counters.voluntarySwitches])) }
        let memoryReference = "window-banner owner"
        for use in results.memory { rows.append(Row(metric: "RSS idle", tool: use.tool, unit: "KiB", samples: [use.idle], reference: memoryReference)) }
        for use in results.memory { rows.append(Row(metric: "RSS with one banner", tool: use.tool, unit: "KiB", samples: [use.oneBanner], reference: memoryReference)) }
        for use in results.memory {
            rows.append(Row(metric: "RSS idle after \(use.cycles) cycles", tool: use.tool, unit: "KiB", samples: [use.afterCycles], reference: memoryReference,
                            note: "anonymous memory (RssAnon) \(fixed(use.anonymousIdle, 0)) → \(fixed(use.anonymousAfterCycles, 0)) KiB: growth \(fixed(use.growth * 100, 2)) %"))
        }
        for use in results.memory {
            guard let withIcon = use.withHugeIcon else { continue }
            rows.append(Row(metric: "RSS with a 4096×4096 PNG icon", tool: use.tool, unit: "KiB", samples: [withIcon],
                            note: "\(withIcon >= use.oneBanner ? "+" : "")\(fixed(withIcon - use.oneBanner, 0)) KiB over one banner; peak (VmHWM) rose \(fixed(use.hugeIconPeakRise ?? 0, 0)) KiB"))
        }
        if !results.network.isEmpty {
            rows.append(Row(metric: "route removed → the owner's first X request", tool: "window-banner monitor", unit: "ms",
                            samples: results.network.compactMap(\.firstRequest), note: "includes the monitor's 0.1 s debounce"))
            rows.append(Row(metric: "route removed → MapNotify", tool: "window-banner monitor", unit: "ms", samples: results.network.map(\.map)))
            rows.append(Row(metric: "route removed → first frame", tool: "window-banner monitor", unit: "ms", samples: results.network.map(\.frame)))
        }
        for (tool, counts) in results.relayouts {
            rows.append(Row(metric: "relayouts of a maximized app per show + dismiss", tool: tool, unit: "", samples: counts,
                            note: tool.hasPrefix("window-banner") ? "one when the space is reserved, one when it is given back (25 before the reservation was made once per slide)" : "dunst reserves no space: it covers the application"))
        }
        if let locked = results.lockedScreen {
            let owner = "window-banner owner (show)"
            for (cost, raises) in locked.costs {
                rows.append(Row(metric: "locked 3 s (self-raising locker over the banner): CPU ticks", tool: cost.tool, unit: "", samples: [cost.counters.ticks],
                                note: "the locker raised itself \(raises) times; \(fixed(cost.counters.wakeups, 0)) wakeups, \(fixed(cost.counters.runMilliseconds, 1)) ms CPU"))
            }
            rows.append(Row(metric: "unlock → the banner's first frame", tool: owner, unit: "ms", samples: locked.unlock,
                            note: "from the locker's kill to the banner's MapNotify (its back buffer, drawn before, is the window's background)"))
        }
        if let sway = results.sway { rows += swayRows(sway) }
        for gnome in results.gnome { rows += gnomeRows(gnome) }
        if let sway = results.swaySharing, !sway.samples.isEmpty {
            rows.append(Row(metric: "\(sway.sway): a screen cast's reader started → first frame with the sharing banner", tool: SwaySharingDesktop.tool,
                            unit: "ms", samples: sway.samples,
                            note: "xdg-desktop-portal-wlr's cast read by pipewiresrc, sway's frame stamp; includes the \(fixed(0.15 * 1000, 0)) ms start delay"))
        }
        if let calls = results.calls { rows += callRows(calls) }
        if let broadcasts = results.broadcasts { rows += broadcasts.rows }
        if let accessibility = results.accessibility { rows += accessibility.rows }
        for step in results.startup { rows.append(Row(metric: "exec → exit", tool: step.name, unit: "ms", samples: step.samples, reference: "window-banner status (owner running)")) }
        for step in results.coldSteps where !step.samples.isEmpty {
            rows.append(Row(metric: "cold show, where the time goes", tool: step.name, unit: "ms", samples: step.samples))
        }
        return rows
    }

    /// Section 11's rows: the warm owner is the reference; each of ours says how it compares with
    /// GNOME's own notification banner.
    private static func gnomeRows(_ gnome: GnomeResults) -> [Row] {
        var rows: [Row] = []
        let theirs = Summary(gnome.firstFrames.first { $0.tool == GnomeBench.notification }?.samples ?? [])?.median
        for (tool, samples) in gnome.firstFrames {
            var note = ""
            if tool != GnomeBench.notification, let theirs, theirs > 0, let ours = Summary(samples)?.median {
                note = "\(fixed(ours / theirs, 2)) × notify-send → GNOME Shell"
            }
            if tool == GnomeBench.warm { note += "; the shell's own clock, the first frame its stage painted with the banner part-way down (a probe through Eval)" }
            rows.append(Row(metric: "\(gnome.shell): command → first frame showing it", tool: tool, unit: "ms", samples: samples, reference: GnomeBench.warm, note: note))
        }
        for (tool, counts) in gnome.relayouts {
            rows.append(Row(metric: "\(gnome.shell): foot re-laid out per show + dismiss", tool: tool, unit: "", samples: counts,
                            note: tool == GnomeBench.notification ? "a notification reserves no space: it covers the terminal" : "once when the extension's strut is set, once when it goes"))
        }
        if !gnome.sharing.isEmpty {
            rows.append(Row(metric: "\(gnome.shell): a screen cast's reader started → first frame with the sharing banner", tool: GnomeBench.sharing, unit: "ms",
                            samples: gnome.sharing, note: "Mutter's cast read by pipewiresrc; includes the \(fixed(0.15 * 1000, 0)) ms start delay"))
        }
        if !gnome.slideWakeups.isEmpty {
            rows.append(Row(metric: "\(gnome.shell): owner wakeups while the shell runs the slide (0.05–0.2 s after the command)", tool: GnomeBench.warm, unit: "",
                            samples: gnome.slideWakeups, note: "target 0: the owner sleeps until the slide's end"))
        }
        return rows
    }

    /// Section 9's rows: the owner's figures are the reference, as on X11, and the owner's rows
    /// say how they compare with what a user would pick instead (mako).
    private static func swayRows(_ sway: SwayResults) -> [Row] {
        var rows: [Row] = []
        let versusMako = { (samples: [(tool: String, samples: [Double])], tool: String) -> String in
            guard tool != SwayBench.mako, let ours = Summary(samples.first { $0.tool == tool }?.samples ?? [])?.median,
                  let theirs = Summary(samples.first { $0.tool == SwayBench.mako }?.samples ?? [])?.median, theirs > 0 else { return "" }
            return "\(fixed(ours / theirs, 2)) × notify-send → mako"
        }
        for (tool, samples) in sway.firstFrames {
            var how = tool == SwayBench.warm ? "; sway's timestamp of the first frame with the colour in the top row (wlr-screencopy)" : ""
            if tool == SwayBench.cold, let cold = Summary(samples)?.median,
               let bare = Summary(sway.firstFrames.first { $0.tool == SwayBench.coldWithoutBus }?.samples ?? [])?.median, bare > 0 {
                how += "; \(fixed(cold / bare, 2)) × without a session bus (the portal's cost)"
            }
            rows.append(Row(metric: "sway: command → first frame showing it", tool: tool, unit: "ms", samples: samples, reference: SwayBench.warm,
                            note: versusMako(sway.firstFrames, tool) + how))
        }
        for (tool, samples) in sway.returned {
            rows.append(Row(metric: "sway: command returned", tool: tool, unit: "ms", samples: samples, reference: SwayBench.warm,
                            note: versusMako(sway.returned, tool)))
        }
        for (tool, counts) in sway.relayouts {
            rows.append(Row(metric: "sway: foot re-laid out per show + dismiss", tool: tool, unit: "", samples: counts,
                            note: tool.hasPrefix(SwayBench.mako) ? "mako reserves no space: it covers the terminal" : "SIGWINCH in foot's program: once when the exclusive zone is set, once when it goes"))
        }
        let owner = "window-banner owner (show, sway)"
        let seconds = sway.idle.first.map { fixed($0.seconds, 0) } ?? ""
        for cost in sway.idle {
            rows.append(Row(metric: "sway: idle \(seconds) s with it on screen: CPU ticks (utime+stime)", tool: cost.tool, unit: "", samples: [cost.counters.ticks]))
        }
        for cost in sway.idle {
            rows.append(Row(metric: "sway: idle \(seconds) s with it on screen: CPU time", tool: cost.tool, unit: "ms", samples: [cost.counters.runMilliseconds], reference: owner))
        }
        for cost in sway.idle {
            rows.append(Row(metric: "sway: idle \(seconds) s with it on screen: wakeups", tool: cost.tool, unit: "", samples: [cost.counters.wakeups]))
        }
        for use in sway.memory {
            rows.append(Row(metric: "sway: RSS with it on screen (smaps_rollup)", tool: use.tool, unit: "KiB", samples: [use.shown], reference: owner))
        }
        for use in sway.memory {
            rows.append(Row(metric: "sway: RSS with nothing shown (smaps_rollup)", tool: use.tool, unit: "KiB", samples: [use.nothingShown], reference: owner))
        }
        return rows
    }

    private func median(_ metric: String, _ tool: String) -> Double? {
        rows.first { $0.metric == metric && $0.tool == tool }.flatMap { Summary($0.samples)?.median }
    }

    var targets: [Target] {
        var targets: [Target] = []
        let frame = "command → first frame"
        // Issue 25's targets, which tightened issue 6's 0.5 ×.
        if let warm = median(frame, Self.warm), let dunst = median(frame, "notify-send → dunst") {
            targets.append(Target(text: "warm show → first frame ≤ 0.35 × notify-send → dunst",
                                  measured: "\(fixed(warm)) ms vs \(fixed(dunst)) ms = \(fixed(warm / dunst, 2)) ×", met: warm <= 0.35 * dunst))
        }
        for (ours, theirs, name) in [(Self.newLatin, "notify-send → dunst", "Latin"), (Self.newArabic, Self.dunstArabic, "Arabic")] {
            if let warm = median(frame, ours), let dunst = median(frame, theirs) {
                targets.append(Target(text: "warm show of a new \(name) title (shaped) → first frame ≤ 0.45 × \(theirs)",
                                      measured: "\(fixed(warm)) ms vs \(fixed(dunst)) ms = \(fixed(warm / dunst, 2)) ×", met: warm <= 0.45 * dunst))
            }
        }
        // Issue 53: the floor that does what a banner must (shape, draw, stay); the Xft-only floor
        // is kept as a row for information.
        if let cold = median(frame, "window-banner show (cold)"), let floor = median(frame, Lineup.shapedFloorName) {
            targets.append(Target(text: "cold show → first frame ≤ 1.25 × the shaped C floor",
                                  measured: "\(fixed(cold)) ms vs \(fixed(floor)) ms = \(fixed(cold / floor, 2)) ×", met: cold <= 1.25 * floor))
        }
        // Issue 53: the cold start against what a user would pick instead, started the same way.
        if let cold = median(frame, "window-banner show (cold)"), let dunst = median(frame, Lineup.dunstCold) {
            targets.append(Target(text: "cold show → first frame ahead of \(Lineup.dunstCold)",
                                  measured: "\(fixed(cold)) ms vs \(fixed(dunst)) ms = \(fixed(cold / dunst, 2)) ×", met: cold < dunst))
        }
        for (name, traces) in [("slide-in", results.slides), ("cross-fade", results.fades)] {
            guard let all = Summary(traces.flatMap(\.intervals)), let paced = Summary(traces.flatMap(\.pacedIntervals)) else { continue }
            targets.append(Target(text: "\(name): p99 frame interval ≤ 18.7 ms",
                                  measured: "\(fixed(paced.p99)) ms between consecutive slots (\(fixed(all.p99)) ms over all intervals)", met: paced.p99 <= 18.7))
            let missed = traces.map(\.missed).reduce(0, +)
            targets.append(Target(text: "\(name): no missed frames", measured: "\(missed) of \(traces.map(\.expected).reduce(0, +))", met: missed == 0))
        }
        if let requests = Summary(results.slides.flatMap(\.requests).map(Double.init)) {
            targets.append(Target(text: "≤ 2 X requests per slide frame", measured: "median \(fixed(requests.median, 0)), max \(fixed(requests.max, 0))", met: requests.max <= 2))
        }
        if let relayouts = results.relayouts.first(where: { $0.tool.hasPrefix("window-banner") }).flatMap({ Summary($0.counts) }) {
            targets.append(Target(text: "a maximized application re-laid out ≤ 2 times per show + dismiss",
                                  measured: "median \(fixed(relayouts.median, 0)), max \(fixed(relayouts.max, 0))", met: relayouts.max <= 2))
        }
        if let locked = results.lockedScreen?.costs.first(where: { $0.cost.tool.hasPrefix("window-banner") }) {
            targets.append(Target(text: "locked screen: no raise war (≤ 3 owner CPU ticks over 3 s)",
                                  measured: "\(fixed(locked.cost.counters.ticks, 0)) ticks, the locker raised itself \(locked.raises) times", met: locked.cost.counters.ticks <= 3))
        }
        if let sway = results.sway {
            let first = { (tool: String) in sway.firstFrames.first { $0.tool == tool }.flatMap { Summary($0.samples)?.median } }
            if let warm = first(SwayBench.warm), let mako = first(SwayBench.mako) {
                targets.append(Target(text: "sway: warm show → first frame ≤ 0.5 × notify-send → mako (the X11 target against dunst, on sway)",
                                      measured: "\(fixed(warm)) ms vs \(fixed(mako)) ms = \(fixed(warm / mako, 2)) ×", met: warm <= 0.5 * mako))
            }
            if let cold = first(SwayBench.cold), let mako = first(SwayBench.makoCold) {
                targets.append(Target(text: "sway (issue 53): cold show → first frame ahead of \(SwayBench.makoCold)",
                                      measured: "\(fixed(cold)) ms vs \(fixed(mako)) ms = \(fixed(cold / mako, 2)) ×", met: cold < mako))
            }
            // Issue 33: on sway, warm `show` → first frame no slower than mako's.
            if let warm = first(SwayBench.warm), let mako = first(SwayBench.mako) {
                targets.append(Target(text: "sway (issue 33): warm show → first frame ≤ notify-send → mako",
                                      measured: "\(fixed(warm)) ms vs \(fixed(mako)) ms = \(fixed(warm / mako, 2)) ×", met: warm <= mako))
            }
            // Issue 25: the memory target of X11 (the owner's RSS ≤ the notification daemon's), on sway.
            if let owner = sway.memory.first(where: { $0.tool.hasPrefix("window-banner owner") }), let mako = sway.memory.first(where: { $0.tool.hasPrefix("mako") }) {
                targets.append(Target(text: "sway (issue 25): owner RSS with nothing shown ≤ mako's",
                                      measured: "\(fixed(owner.nothingShown, 0)) KiB vs \(fixed(mako.nothingShown, 0)) KiB", met: owner.nothingShown <= mako.nothingShown))
            }
            if let relayouts = sway.relayouts.first(where: { $0.tool == SwayBench.warm }).flatMap({ Summary($0.counts) }) {
                targets.append(Target(text: "sway (issue 24): foot re-laid out ≤ 2 times per show + dismiss",
                                      measured: "median \(fixed(relayouts.median, 0)), max \(fixed(relayouts.max, 0))", met: relayouts.max <= 2))
            }
            if let owner = sway.idle.first(where: { $0.tool.hasPrefix("window-banner owner") }) {
                targets.append(Target(text: "sway (issue 24): idle owner with a banner up: 0 CPU ticks and 0 wakeups over \(fixed(owner.seconds, 0)) s",
                                      measured: "\(fixed(owner.counters.ticks, 0)) ticks, \(fixed(owner.counters.wakeups, 0)) wakeups",
                                      met: owner.counters.ticks == 0 && owner.counters.wakeups == 0))
            }
        }
        // Issue 55: the sharing banner within 0.25 s of an app starting to read a screen cast.
        var casts = results.gnome.map { ($0.shell, $0.sharing) }
        if let sway = results.swaySharing { casts.append(sway) }
        for (desktop, samples) in casts {
            guard let sharing = Summary(samples) else { continue }
            targets.append(Target(text: "\(desktop): screen cast read → sharing banner on screen ≤ 250 ms",
                                  measured: "median \(fixed(sharing.median, 1)) ms", met: sharing.median <= 250))
        }
        // Issue 53: on GNOME the shell runs the slide and the owner sleeps through it.
        for gnome in results.gnome {
            guard let wakeups = Summary(gnome.slideWakeups) else { continue }
            targets.append(Target(text: "\(gnome.shell): 0 owner wakeups while the shell runs the slide",
                                  measured: "median \(fixed(wakeups.median, 0)), max \(fixed(wakeups.max, 0))", met: wakeups.max == 0))
        }
        if let accessibility = results.accessibility { targets += accessibility.targets }
        if let owner = results.idle.first(where: { $0.tool.hasPrefix("window-banner owner") }) {
            targets.append(Target(text: "idle owner: 0 CPU ticks and 0 wakeups over \(fixed(owner.seconds, 0)) s",
                                  measured: "\(fixed(owner.counters.ticks, 0)) ticks, \(fixed(owner.counters.wakeups, 0)) wakeups",
                                  met: owner.counters.ticks == 0 && owner.counters.wakeups == 0))
        }
        if let owner = results.memory.first(where: { $0.tool.hasPrefix("window-banner") }) {
            if let dunst = results.memory.first(where: { $0.tool == "dunst" }) {
                targets.append(Target(text: "owner RSS idle ≤ dunst's idle RSS", measured: "\(fixed(owner.idle, 0)) KiB vs \(fixed(dunst.idle, 0)) KiB", met: owner.idle <= dunst.idle))
            }
            targets.append(Target(text: "owner memory growth (RssAnon) after \(owner.cycles) cycles ≤ 2 %", measured: "\(fixed(owner.growth * 100, 2)) %", met: owner.growth <= 0.02))
        }
        return targets
    }

    var markdown: String {
        var text = "# WindowBanner benchmark\n\n"
        text += "`make bench`, \(results.date). Each figure: \(results.options.runs) runs after \(results.options.warmup) warm-up runs, "
        text += "tools interleaved round by round; idle and memory once per process.\n\n"
        for (key, value) in results.machine { text += "- \(key): \(value)\n" }
        text += "- load average before / after: \(results.loadBefore) / \(results.loadAfter)\n"
        text += "- clock: X RECORD server timestamps (1 ms resolution, read as the middle of the millisecond: ±0.5 ms); "
        text += "the server's clock was CLOCK_MONOTONIC at \(results.clock.consistent) of \(results.clock.markers) markers\n"
        if results.sway != nil {
            let refresh = results.options.swayRefresh
            text += "- clock on sway: sway's own timestamp of each frame that changed the top of its output (wlr-screencopy's `ready`, "
            text += "CLOCK_MONOTONIC in ns) against CLOCK_MONOTONIC just before the exec; sway composes at most one frame per \(fixed(1000 / Double(refresh), 1)) ms (\(refresh) Hz); "
            text += "each run starts at its own point of that period (spread evenly over it), not in step with sway's frames\n"
        }
        text += "\n"
        text += "Commands:\n\n"
        for entry in results.commands { text += "- \(entry.tool): `\(entry.command)` — \(entry.note)\n" }
        text += "\n## Every figure\n\n"
        text += "Ratio: this row's median ÷ the median of the reference row of the same metric (window-banner's: warm `show`, "
        text += "the update, the owner; `status` for the start-up ladder).\n\n"
        text += "| metric | tool | n | min | median | max | ratio | note |\n|---|---|--:|--:|--:|--:|--:|---|\n"
        var lastMetric = ""
        for row in rows {
            guard let summary = Summary(row.samples) else { continue }
            let digits = row.unit == "ms" ? 1 : 0
            var ratio = ""
            if let reference = row.reference, let base = median(row.metric, reference), base > 0 { ratio = fixed(summary.median / base, 2) }
            let metric = row.metric == lastMetric ? "" : row.metric + (row.unit.isEmpty ? "" : " (\(row.unit))")
            lastMetric = row.metric
            text += "| \(metric) | \(row.tool) | \(summary.count) | \(fixed(summary.min, digits)) | \(fixed(summary.median, digits)) | \(fixed(summary.max, digits)) | \(ratio) | \(row.note) |\n"
        }
        text += "\n## Targets (issues 6 and 25; on sway, issues 24 and 25)\n\n| target | measured | met |\n|---|---|---|\n"
        for target in targets { text += "| \(target.text) | \(target.measured) | \(target.met.map { $0 ? "yes" : "**no**" } ?? "–") |\n" }
        let mapped = results.memory.filter { !$0.idleMappings.isEmpty }
        if !mapped.isEmpty {
            text += "\n## Where the idle RSS goes\n\n"
            text += "`/proc/PID/smaps` per mapped file at the idle RSS above (KiB; the \(Self.mappingRows) largest of each, the rest summed):\n\n"
            for use in mapped {
                text += "- \(use.tool), \(fixed(use.idle, 0)) KiB: "
                let shown = use.idleMappings.prefix(Self.mappingRows).map { "\($0.name) \(fixed($0.kib, 0))" }
                let rest = use.idleMappings.dropFirst(Self.mappingRows).map(\.kib).reduce(0, +)
                text += (shown + ["\(use.idleMappings.count - shown.count) more \(fixed(rest, 0))"]).joined(separator: ", ") + "\n"
            }
        }
        if let loader = results.loader {
            text += "\n## The dynamic loader on `window-banner-full --version`\n\n"
            text += "\(loader.objects) shared objects (ldd), \(loader.relocations) symbol relocations and \(loader.relativeRelocations) relative ones; "
            text += "\(fixed(loader.startupCycles / 1_000_000, 1)) M cycles in the loader (relocation \(loader.relocationShare), loading objects \(loader.loadShare)).\n"
        }
        if !results.problems.isEmpty {
            text += "\n## Not measured\n\n"
            for problem in results.problems { text += "- \(problem)\n" }
        }
        return text
    }

    var json: JSON {
        .object([
            ("date", .string(results.date)),
            ("runs", .number(Double(results.options.runs))), ("warmup", .number(Double(results.options.warmup))),
            ("machine", .object(results.machine.map { ($0.0, .string($0.1)) } + [("load before", .string(results.loadBefore)), ("load after", .string(results.loadAfter))])),
            ("commands", .object(results.commands.map { ($0.tool, .object([("command", .string($0.command)), ("note", .string($0.note))])) })),
            ("clock", .object([("monotonic markers", .number(Double(results.clock.consistent))), ("markers", .number(Double(results.clock.markers)))])),
            ("rows", .array(rows.compactMap { row in
                guard let summary = Summary(row.samples) else { return nil }
                return .object([
                    ("metric", .string(row.metric)), ("tool", .string(row.tool)), ("unit", .string(row.unit)),
                    ("summary", summary.json), ("note", .string(row.note)), ("samples", .array(row.samples.map(JSON.number))),
                ])
            })),
            ("targets", .array(targets.map { .object([("target", .string($0.text)), ("measured", .string($0.measured)), ("met", $0.met.map(JSON.bool) ?? .null)]) })),
            ("frames", .object([
                ("slide-in", .array(results.slides.map(Self.trace))), ("cross-fade", .array(results.fades.map(Self.trace))),
            ])),
            ("problems", .array(results.problems.map(JSON.string))),
        ])
    }

    private static func trace(_ trace: AnimationTrace) -> JSON {
        .object([
            ("frames (server ms)", .array(trace.frames.map { .number(Double($0)) })),
            ("requests per frame", .array(trace.requests.map { .number(Double($0)) })),
            ("missed", .number(Double(trace.missed))), ("expected", .number(Double(trace.expected))),
        ])
    }

    /// Frame intervals of every run, by frame number, for the slide-in and the cross-fade.
    func chart(work: String, png: String, supervisor: Supervisor) throws {
        var data = ""
        for (index, traces) in [results.slides, results.fades].enumerated() {
            data += "# \(index == 0 ? "slide-in" : "cross-fade"): frame interval(ms) run\n"
            for (run, trace) in traces.enumerated() {
                for (frame, interval) in trace.intervals.enumerated() { data += "\(frame + 1) \(fixed(interval, 0)) \(run)\n" }
            }
            data += "\n\n"
        }
        try writeFile("\(work)/frames.dat", data)
        let script = """
            set terminal pngcairo size 1100,480 font "DejaVu Sans,10"
            set output "\(png)"
            set multiplot layout 1,2 title "window-banner: interval between frames as the X server saw them (\(results.slides.count) slide-ins, \(results.fades.count) cross-fades, \(results.date))"
            set xlabel "frame"
            set ylabel "interval (ms)"
            set yrange [0:40]
            set xrange [0:*]
            set xtics 1
            set grid ytics
            set key top left
            do for [block=0:1] {
                set title (block == 0 ? "slide-in (0.25 s)" : "cross-fade (0.2 s)")
                plot "\(work)/frames.dat" index block using ($1 + (int($3) % 7 - 3) * 0.04):2 with points pt 7 ps 0.6 lc rgb "#3478F6" title "frames (all runs)", \\
                     16.667 with lines dt 2 lc rgb "#34C759" title "60 fps slot (16.7 ms)", \\
                     18.7 with lines dt 3 lc rgb "#FF3B30" title "target p99 (18.7 ms)"
            }
            unset multiplot

            """
        try writeFile("\(work)/frames.gp", script)
        try supervisor.run(["gnuplot", "\(work)/frames.gp"], environment: ["PATH": basePath, "LANG": "C.UTF-8"])
    }
}

/// A command line as a shell would take it back: arguments with spaces or quotes in quotes.
