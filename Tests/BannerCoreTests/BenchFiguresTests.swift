// The figures README.md gives for `make bench` are copied from its results by hand: this holds
// them to bench/results/results.json (the latest full run) and, for the cold start, to every run
// of that day stored under bench/results. A figure that no longer matches the stored run fails
// here, naming the sentence as it should read.

import Foundation
import ProcessTestSupport
import Testing

@Suite("The benchmark's figures in README.md")
struct BenchFiguresTests {
    /// One run's rows: the median of each (metric, tool), and the run's date.
    struct Run {
        let path: String
        let date: String
        let medians: [String: Double]

        init(path: String) throws {
            self.path = path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let date = object["date"] as? String, let rows = object["rows"] as? [[String: Any]] else {
                throw TestFailure("\(path) is not a results file of make bench")
            }
            self.date = date
            var medians: [String: Double] = [:]
            for row in rows {
                guard let metric = row["metric"] as? String, let tool = row["tool"] as? String,
                      let summary = row["summary"] as? [String: Any], let median = summary["median"] as? Double else { continue }
                medians[metric + " | " + tool] = median
            }
            self.medians = medians
        }

        func median(_ metric: String, _ tool: String) throws -> Double {
            guard let value = medians[metric + " | " + tool] else { throw TestFailure("\(path) has no row '\(metric)' for '\(tool)'") }
            return value
        }

        /// The cold show's first frame and the shaped C floor's (issue 53: a launcher whose
        /// process shapes, draws and stays), when the run has both.
        var coldAndFloor: (cold: Double, floor: Double)? {
            guard let cold = try? median(BenchFiguresTests.firstFrame, "window-banner show (cold)"),
                  let floor = try? median(BenchFiguresTests.firstFrame, BenchFiguresTests.shapedFloor) else { return nil }
            return (cold, floor)
        }
    }

    static let root = ArchitecturePageTests.packageRoot
    static let firstFrame = "command → first frame"
    /// The bench's name for bench/floor-shaped.c (Lineup.shapedFloorName).
    static let shapedFloor = "C shaped floor (launcher + HarfBuzz, FriBidi, Xft; stays)"

    /// README.md with each run of white space (a sentence's line breaks) as one space.
    static func readme() throws -> String {
        try String(contentsOfFile: root + "/README.md", encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func latest() throws -> Run {
        try Run(path: root + "/bench/results/results.json")
    }

    /// Every X11 run stored under bench/results (sway's own runs, in sway/, left out).
    static func storedRuns() throws -> [Run] {
        let files = FileManager.default.enumerator(atPath: root + "/bench/results")?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix("results.json") && !$0.hasPrefix("sway/") }.map { try Run(path: root + "/bench/results/" + $0) }
    }

    static func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
    static func mebibytes(_ kibibytes: Double) -> String { String(format: "%.1f", kibibytes / 1024) }

    /// Expects README.md to contain `text`, printing it when it does not.
    static func expectInReadme(_ text: String, _ what: String) throws {
        #expect(try readme().contains(text), "README.md's \(what) should read: \(text)")
    }

    @Test func warmShowsAreTheLatestRunsMedians() throws {
        let run = try Self.latest()
        let warm = try run.median(Self.firstFrame, "window-banner show (warm)")
        let dunst = try run.median(Self.firstFrame, "notify-send → dunst")
        try Self.expectInReadme("**\(Self.ms(warm)) ms** (\(Self.ratio(warm / dunst))×) | \(Self.ms(dunst)) ms |", "warm show")
        let latin = try run.median(Self.firstFrame, "window-banner show (warm, new Latin title)")
        let arabic = try run.median(Self.firstFrame, "window-banner show (warm, new Arabic title)")
        let dunstArabic = try run.median(Self.firstFrame, "notify-send → dunst (Arabic)")
        try Self.expectInReadme(
            "\(Self.ms(latin)) / \(Self.ms(arabic)) ms (\(Self.ratio(latin / dunst))× / \(Self.ratio(arabic / dunstArabic))×) | "
                + "\(Self.ms(dunst)) / \(Self.ms(dunstArabic)) ms |", "shaped titles")
    }

    /// The cold start is the run with the median ratio among that day's stored runs that have it.
    @Test func coldStartIsTheMedianOfThatDaysRuns() throws {
        let day = try Self.latest().date.prefix(10)
        let runs = try Self.storedRuns()
            .filter { $0.date.hasPrefix(day) }
            .compactMap(\.coldAndFloor)
            .sorted { $0.cold / $0.floor < $1.cold / $1.floor }
        try #require(runs.count % 2 == 1, "an odd number of that day's runs, so one has the median: \(runs.count)")
        let median = runs[runs.count / 2]
        try Self.expectInReadme(
            "\(Self.ms(median.cold)) ms; the C client \(Self.ms(median.floor)) ms (\(Self.ratio(median.cold / median.floor))×, "
                + "the median of \(["one", "two", "three", "four", "five"][min(runs.count, 5) - 1]) runs)", "cold show")
        // The peer a user would have instead, started the same way (by D-Bus activation).
        let dunst = try Self.latest().median(Self.firstFrame, "notify-send → dunst (cold: started by D-Bus activation)")
        try Self.expectInReadme("dunst started by the notification (D-Bus activation): \(Self.ms(dunst)) ms", "dunst's cold start")
    }

    /// The call sentence comes from the newest stored run that has section 12 (a full run, or
    /// the section run alone).
    @Test func theCallBannerIsTheNewestRunWithCalls() throws {
        let firstFrame = "capture started → the call banner's first frame"
        let runs = try Self.storedRuns().filter { (try? $0.median(firstFrame, "window-banner monitor --calls")) != nil }
        // Dates are "YYYY-MM-DD HH:MM UTC": their order is time's.
        let run = try #require(runs.max { $0.date < $1.date }, "no stored run has section 12")
        let call = try run.median(firstFrame, "window-banner monitor --calls")
        let ticks = try run.median("idle 10 s with calls on, no call: CPU ticks", "window-banner monitor --calls (no call)")
        let wakeups = try run.median("idle 10 s with calls on, no call: wakeups", "window-banner monitor --calls (no call)")
        let rss = "monitor resident memory (smaps_rollup)"
        let withCalls = try run.median(rss, "window-banner monitor --calls")
        let without = try run.median(rss, "window-banner monitor")
        try Self.expectInReadme(
            "reaches the call banner's first frame in \(Int(call.rounded())) ms (the 150 ms start delay included), and the idle "
                + "monitor costs \(Int(ticks)) CPU ticks, \(Int(wakeups)) wakeups and no more memory than without calls "
                + "(about \(Int((withCalls / 1024).rounded())) MiB)", "call sentence")
        // "No more memory": within a page table's and a heap's noise of the monitor without calls.
        #expect(withCalls <= without * 1.05, "\(run.path): the monitor with calls holds \(withCalls) KiB, without \(without) KiB")
    }

    @Test func memoryAndTheScreenReaderAreTheLatestRuns() throws {
        let run = try Self.latest()
        let owner = try run.median("RSS idle", "window-banner owner")
        let dunst = try run.median("RSS idle", "dunst")
        try Self.expectInReadme("**\(Self.mebibytes(owner)) MiB** | \(Self.mebibytes(dunst)) MiB |", "idle memory")
        let quiet = try run.median("accessibility: warm show → first frame", "window-banner show (no accessibility bus)")
        let listened = try run.median("accessibility: warm show → first frame", "window-banner show (accessibility bus + listener)")
        let rss = "accessibility: a new owner's RSS with its first banner on screen (smaps_rollup)"
        let more = try run.median(rss, "window-banner show (accessibility bus + listener)") - run.median(rss, "window-banner show (no accessibility bus)")
        try Self.expectInReadme("| \(Self.ratio(listened / quiet))×; +\(Self.mebibytes(more)) MiB |", "screen reader row")
    }

    @Test func swayAndGnomeAreTheLatestRuns() throws {
        let run = try Self.latest()
        let shown = "sway: command → first frame showing it"
        let sway = try run.median(shown, "window-banner show (warm, sway)")
        let mako = try run.median(shown, "notify-send → mako")
        try Self.expectInReadme("\(Self.ratio(sway / mako))× the time mako's notification takes (\(Self.ms(sway)) against \(Self.ms(mako)) ms", "sway sentence")
        var warm: [Double] = []
        var notices: [Double] = []
        var warmRatios: [Double] = []
        var coldRatios: [Double] = []
        for shell in ["GNOME Shell 43 (Debian 12)", "GNOME Shell 48 (Debian 13)", "GNOME Shell 51 (Debian unstable)"] {
            let metric = shell + ": command → first frame showing it"
            let ours = try run.median(metric, "window-banner show (warm, GNOME Shell)")
            let cold = try run.median(metric, "window-banner show (cold, GNOME Shell)")
            let theirs = try run.median(metric, "notify-send → GNOME Shell")
            warm.append(ours)
            notices.append(theirs)
            warmRatios.append(ours / theirs)
            coldRatios.append(cold / theirs)
        }
        func range(_ values: [Double], _ format: (Double) -> String) -> String {
            "\(format(values.min() ?? 0))–\(format(values.max() ?? 0))"
        }
        let whole: (Double) -> String = { String(Int($0.rounded())) }
        try Self.expectInReadme(
            "in \(range(warm, whole)) ms against \(range(notices, whole)) ms", "GNOME sentence")
        try Self.expectInReadme(
            "(\(range(warmRatios, Self.ratio))×; cold \(range(coldRatios, Self.ratio))×)", "GNOME sentence's ratios")
    }

    /// The shaped floor links a pinned list of libraries: the Makefile's and the bench's agree.
    @Test func theShapedFloorsLibrariesArePinnedOnce() throws {
        let makefile = try String(contentsOfFile: Self.root + "/Makefile", encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("SHAPED_FLOOR_LIBS := ") })
        let made = line.dropFirst("SHAPED_FLOOR_LIBS := ".count).split(separator: " ").map(String.init)
        let lineup = try String(contentsOfFile: Self.root + "/bench/window-banner-bench/Lineup.swift", encoding: .utf8)
        let declared = try #require(lineup.firstMatch(of: try Regex(#"shapedFloorLibraries = \[([^\]]*)\]"#))?.output[1].substring)
        let named = declared.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
        #expect(made == named)
        #expect(made == ["x11", "xft", "xrender", "fontconfig", "freetype2", "harfbuzz", "fribidi"])
    }
}
