// Items 4 and 5: what a process costs while its banner sits on screen, and its memory, as the
// kernel counts them for all of its threads: run time, the number of times it was put on a CPU
// (each one a wakeup for a process that should be asleep) and voluntary context switches from
// /proc/PID/task/*/schedstat and status, CPU ticks from /proc/PID/stat, RSS from VmRSS (its
// peak from VmHWM, for a 4096x4096 icon).

import Glibc

/// The kernel's counters for one process, summed over its threads.
struct ProcessCounters {
    var runMilliseconds: Double = 0
    var wakeups: Double = 0
    var voluntarySwitches: Double = 0
    var ticks: Double = 0

    static func read(_ pid: pid_t) -> ProcessCounters? {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        var counters = ProcessCounters(ticks: user + system)
        for task in tasks(of: pid) {
            if let schedstat = readFile("/proc/\(pid)/task/\(task)/schedstat")?.split(separator: " "), schedstat.count >= 3 {
                counters.runMilliseconds += (Double(schedstat[0]) ?? 0) / 1_000_000
                counters.wakeups += Double(schedstat[2].trimmingTrailingNewline) ?? 0
            }
            if let status = readFile("/proc/\(pid)/task/\(task)/status") {
                counters.voluntarySwitches += statusValue(status, "voluntary_ctxt_switches") ?? 0
            }
        }
        return counters
    }

    static func - (a: Self, b: Self) -> Self {
        ProcessCounters(
            runMilliseconds: a.runMilliseconds - b.runMilliseconds, wakeups: a.wakeups - b.wakeups,
            voluntarySwitches: a.voluntarySwitches - b.voluntarySwitches, ticks: a.ticks - b.ticks)
    }

    private static func tasks(of pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.first?.isNumber == true { names.append(name) }
        }
        return names
    }
}

/// Resident memory in KiB (VmRSS).
func residentKiB(_ pid: pid_t) -> Double? {
    readFile("/proc/\(pid)/status").flatMap { statusValue($0, "VmRSS") }
}

/// Resident anonymous memory in KiB (RssAnon: heap, stacks, private copies): what a leak grows.
func anonymousKiB(_ pid: pid_t) -> Double? {
    readFile("/proc/\(pid)/status").flatMap { statusValue($0, "RssAnon") }
}

/// A "Key:   value" line of /proc/PID/status, as a number.
func statusValue(_ status: String, _ key: String) -> Double? {
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
        return line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) }
    }
    return nil
}

extension Substring {
    var trimmingTrailingNewline: Substring {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// One process sitting with its banner on screen for a while.
struct IdleCost {
    var tool: String
    var seconds: Double
    var counters: ProcessCounters
}

/// Memory of one banner process through the soak.
struct MemoryUse {
    var tool: String
    var idle: Double
    var oneBanner: Double
    var afterCycles: Double
    var cycles: Int
    /// With a banner showing a 4096x4096 PNG icon, after the cycles (the owner only).
    var withHugeIcon: Double?
    /// How far the peak (VmHWM) rose while that icon was read (the owner only).
    var hugeIconPeakRise: Double?
    /// RssAnon idle and after the cycles.
    var anonymousIdle: Double = 0
    var anonymousAfterCycles: Double = 0
    /// How much the anonymous memory grew over the cycles. Not the RSS: the owner gives back the
    /// file pages only its start-up used, and those a later banner uses again are mapped back
    /// from the page cache — no leak, and no growth past the code it runs.
    /// The idle RSS per mapped file (the program, each library, font and cache files), anonymous
    /// memory (heap, stacks) as one entry: where the pages go.
    var idleMappings: [(name: String, kib: Double)] = []
    var growth: Double { anonymousIdle > 0 ? (anonymousAfterCycles - anonymousIdle) / anonymousIdle : 0 }
}

/// `/proc/PID/smaps` summed per mapped file (by file name) and for anonymous memory, largest first.
func residentPerMapping(_ pid: pid_t) -> [(name: String, kib: Double)] {
    guard let smaps = readFile("/proc/\(pid)/smaps") else { return [] }
    var totals: [String: Double] = [:]
    var current = "anonymous"
    for line in smaps.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
            current = path.hasPrefix("/") ? String(path.split(separator: "/").last ?? "") : "anonymous"
        } else if fields.first == "Rss:", fields.count > 1, let kib = Double(fields[1]) {
            totals[current, default: 0] += kib
        }
    }
    return totals.map { ($0.key, $0.value) }.sorted { $0.kib > $1.kib }
}

extension Lineup {
    /// The pid the window's client put in _NET_WM_PID (the owner process, for `show`).
    func pid(of window: UInt32) -> pid_t? {
        let atom = recorder.atoms["_NET_WM_PID"].map(String.init)
        return recorder.records.last { $0.kind == .prop && $0.target == window && $0.arguments.first.map(String.init) == atom }
            .flatMap { $0.arguments.dropFirst().first }.flatMap { pid_t($0) }
    }

    /// The counters of `pid` over `seconds` of sitting still, starting `quiet` seconds after the
    /// banner settled (its last frame's reply and events are not idling).
    func idleCost(_ tool: String, pid: pid_t, seconds: Double, quiet: Double = 0.5) throws -> IdleCost {
        supervisor.observe(seconds: quiet)
        guard let before = ProcessCounters.read(pid) else { throw BenchFailure("\(tool): process \(pid) is gone") }
        supervisor.observe(seconds: seconds)
        guard let after = ProcessCounters.read(pid) else { throw BenchFailure("\(tool): process \(pid) ended while idle") }
        return IdleCost(tool: tool, seconds: seconds, counters: after - before)
    }

    /// Item 4 for every process that keeps a banner: the owner, `run`, dunst, osd_cat, the floor.
    func idleCosts(seconds: Double) throws -> [IdleCost] {
        var costs: [IdleCost] = []
        let window = try presentBanner()
        guard let owner = pid(of: window) else { throw BenchFailure("the banner window carries no _NET_WM_PID") }
        costs.append(try idleCost("window-banner owner (show)", pid: owner, seconds: seconds))
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(window, what: "window-banner dismiss")

        // Processes of their own: on screen (the banner slid in, the others drawn), then still.
        let settle: (UInt32, String) throws -> Void = { [unowned self] window, _ in try settled(window) }
        let drawnOnce: (UInt32, String) throws -> Void = { [unowned self] window, name in try drawn(window, name) }
        for (name, command, match, ready) in [
            ("window-banner run", run.command, Self.bannerWindow, settle),
            ("osd_cat -p top", osdCat.command, Self.osdWindow, drawnOnce),
            ("C Xlib+Xft floor", floorClient.command, Self.floorWindow, drawnOnce),
        ] {
            try recorder.mark()
            let child = try supervisor.spawn(command, environment: desktop.environment, name: name)
            defer { supervisor.stop(child, grace: 5) }
            try ready(try mapped(match, name), name)
            costs.append(try idleCost(name, pid: child.pid, seconds: seconds))
        }

        guard let dunst = desktop.dunstPID else { throw BenchFailure("dunst is not running") }
        let dunstWindow = try showDunstNotification()
        costs.append(try idleCost("dunst", pid: dunst, seconds: seconds))
        try screen.run(["dunstctl", "close-all"])
        try screen.waitUntilGone(dunstWindow, unmapIsEnough: true, what: "dunstctl close-all")
        return costs
    }

    /// Item 5 for the owner: idle after its first banner, with one banner, and idle again after
    /// `cycles` show → update → dismiss cycles, each step a command line.
    func ownerMemory(cycles: Int) throws -> MemoryUse {
        let first = try presentBanner()
        guard let owner = pid(of: first) else { throw BenchFailure("the banner window carries no _NET_WM_PID") }
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(first, what: "window-banner dismiss")
        supervisor.observe(seconds: 0.5)
        guard let idle = residentKiB(owner), let anonymousIdle = anonymousKiB(owner) else { throw BenchFailure("the owner is gone") }
        let ownerMappings = residentPerMapping(owner)
        let shown = try presentBanner()
        supervisor.observe(seconds: 0.5)
        guard let oneBanner = residentKiB(owner) else { throw BenchFailure("the owner is gone") }
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(shown, what: "window-banner dismiss")

        do {
            recorder.mute(true)
            defer { recorder.mute(false) }
            for _ in 0..<cycles {
                try screen.run(showCommand())
                try screen.run(showCommand(Self.newTitle))
                try screen.run([banner, "dismiss"])
            }
            // Muted, the stream still tells of windows made and destroyed: wait for the last one to go.
            try screen.waitUntilGone(try lastBannerWindow(), what: "window-banner dismiss")
        }
        supervisor.observe(seconds: 0.5)
        guard let after = residentKiB(owner), let anonymousAfter = anonymousKiB(owner) else { throw BenchFailure("the owner is gone after the cycles") }
        var use = MemoryUse(tool: "window-banner owner", idle: idle, oneBanner: oneBanner, afterCycles: after, cycles: cycles,
                            anonymousIdle: anonymousIdle, anonymousAfterCycles: anonymousAfter, idleMappings: ownerMappings)

        // A 4096x4096 PNG icon, drawn ~30 px tall: decoded straight to that size, so neither the
        // resident memory nor its peak should move by more than a few hundred KiB.
        let icon = desktop.work + "/icon-4096.png"
        try supervisor.run(["convert", "-size", "4096x4096", "gradient:#0a84ff-#30d158", "PNG32:" + icon], environment: ["PATH": basePath])
        guard let peakBefore = readFile("/proc/\(owner)/status").flatMap({ statusValue($0, "VmHWM") }) else { throw BenchFailure("the owner is gone") }
        let withIcon = try presentBanner(["--icon", icon])
        supervisor.observe(seconds: 0.5)
        use.withHugeIcon = residentKiB(owner)
        use.hugeIconPeakRise = readFile("/proc/\(owner)/status").flatMap { statusValue($0, "VmHWM") }.map { $0 - peakBefore }
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(withIcon, what: "window-banner dismiss")
        return use
    }

    /// Item 5 for dunst: idle, with one notification, idle after `cycles` notify → replace → close.
    func dunstMemory(cycles: Int) throws -> MemoryUse {
        guard let dunst = desktop.dunstPID, let idle = residentKiB(dunst), let anonymousIdle = anonymousKiB(dunst) else { throw BenchFailure("dunst is not running") }
        let dunstMappings = residentPerMapping(dunst)
        let window = try showDunstNotification()
        supervisor.observe(seconds: 0.5)
        guard let oneBanner = residentKiB(dunst) else { throw BenchFailure("dunst is gone") }
        try screen.run(["dunstctl", "close-all"])
        try screen.waitUntilGone(window, unmapIsEnough: true, what: "dunstctl close-all")

        recorder.mute(true)
        defer { recorder.mute(false) }
        for _ in 0..<cycles {
            guard let id = try supervisor.run(["dunstify", "-p", Self.title], environment: desktop.environment).first else {
                throw BenchFailure("dunstify -p printed no id")
            }
            try screen.run(["dunstify", "-r", id, Self.newTitle])
            try screen.run(["dunstctl", "close-all"])
        }
        supervisor.observe(seconds: 0.5)
        guard let after = residentKiB(dunst), let anonymousAfter = anonymousKiB(dunst) else { throw BenchFailure("dunst is gone after the cycles") }
        return MemoryUse(tool: "dunst", idle: idle, oneBanner: oneBanner, afterCycles: after, cycles: cycles,
                         anonymousIdle: anonymousIdle, anonymousAfterCycles: anonymousAfter, idleMappings: dunstMappings)
    }

    /// Shows dunst's notification as `notify-send` does and waits until it is drawn; its window.
    func showDunstNotification() throws -> UInt32 {
        try recorder.mark()
        let notify = try supervisor.spawn(notifySend.command, environment: desktop.environment)
        let window = try mapped(Self.dunstWindow, "notify-send")
        try drawn(window, "notify-send")
        _ = supervisor.waitForExit(notify, timeout: 5)
        return window
    }

    private func lastBannerWindow() throws -> UInt32 {
        let root = recorder.root
        guard let record = recorder.records.last(where: { record in
            guard record.kind == .prop, let info = recorder.windows[record.target] else { return false }
            return info.parent == root && Self.bannerWindow.test(info)
        }) else { throw BenchFailure("the last cycle's banner was not seen") }
        return record.target
    }
}
