// Where a cold `show`'s time goes, step by step: `window-banner show` with no owner running (a
// fresh XDG_RUNTIME_DIR), traced by WINDOW_BANNER_TRACE_STARTUP=1 — the client's marks on its
// standard error, the owner's in its log, each on CLOCK_MONOTONIC like the bench's own clock —
// and cut into the steps a maintainer can act on: the client, the owner's exec up to its `main`
// (the dynamic loader and the Swift runtime), the argument parser, the X connection, the
// display's setup, the hand-over of the request, the font, the first frame. fontconfig's own
// start-up runs on a thread beside those steps and is given apart.

import Glibc

/// One step of a cold show: its name and how long it took in each run (ms).
struct ColdStep {
    let name: String
    var samples: [Double] = []
}

extension Lineup {
    /// The steps of `runs` traced cold shows (after `warmup`), in the order they happen.
    func coldShowSteps(runs: Int, warmup: Int) throws -> [ColdStep] {
        // (name, the mark it starts at, the mark it ends at); nil: the command's start.
        let cuts: [(String, String?, String)] = [
            ("the client: its start, the socket tried, the owner spawned", nil, "owner spawned"),
            ("the owner's exec → its main (dynamic loader, Swift runtime)", "owner spawned", "main"),
            ("main → the X connection starts (argument parser, owner lock)", "main", "X connection"),
            ("the X connection", "X connection", "X connected"),
            ("X connected → the display set up (RandR, atoms, panels, XSETTINGS)", "X connected", "X display set up"),
            ("the display set up → ready (the owner: its socket, state, log)", "X display set up", "display ready"),
            ("display ready → the request in (ready line, the client's send)", "display ready", "request in"),
            ("request in → the font opened", "request in", "font"),
            ("font → first frame flushed (shaping, layout, drawing, mapping)", "font", "first frame flushed"),
            ("total: command → first frame flushed", nil, "first frame flushed"),
            ("fontconfig's start-up, on its own thread", "fontconfig starts", "fontconfig ready"),
        ]
        var steps = cuts.map { ColdStep(name: $0.0) }
        let runtime = "\(desktop.work)/runtime-traced"
        var environment = desktop.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["WINDOW_BANNER_TRACE_STARTUP"] = "1"
        let clientLog = "\(desktop.work)/cold-client.txt"
        for index in 0..<(warmup + runs) {
            try screen.run(["rm", "-rf", runtime, clientLog])
            try makeDirectory(runtime)
            let child = try supervisor.spawn(showCommand(), environment: environment, name: "window-banner show (traced)", stderr: .file(clientLog))
            guard supervisor.waitForExit(child, timeout: 10) == 0 else { throw BenchFailure("a traced cold show failed") }
            try screen.run([banner, "dismiss", "--all", "--quit"], environment: environment)
            let ownerLog = try ownerLogPath(in: runtime)
            try awaitLine("stopped", in: ownerLog)
            guard index >= warmup else { continue }
            let marks = Self.marks(in: (readFile(clientLog) ?? "") + (readFile(ownerLog) ?? ""))
            for (cut, (_, from, to)) in cuts.enumerated() {
                guard let end = marks[to], let start = from.map({ marks[$0] }) ?? child.startedAt else { continue }
                steps[cut].samples.append(end - start)
            }
        }
        return steps
    }

    /// The owner's log in `runtime`.
    private func ownerLogPath(in runtime: String) throws -> String {
        let directory = runtime + "/window-banner"
        guard let listing = opendir(directory) else { throw BenchFailure("no \(directory) after a cold show") }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".log") { return directory + "/" + name }
        }
        throw BenchFailure("no owner log in \(directory)")
    }

    /// Waits (5 s at most) until `path` holds a line containing `text`: the owner has ended.
    private func awaitLine(_ text: String, in path: String) throws {
        for _ in 0..<500 {
            if (readFile(path) ?? "").contains(text) { return }
            usleep(10_000)
        }
        throw BenchFailure("the traced owner did not stop within 5 s of dismiss --all --quit")
    }

    /// "window-banner: startup MS STEP" lines, by step (a font's step by its first word:
    /// `font opened from memory: …` and `font matched and opened` are both `font`).
    static func marks(in text: String) -> [String: Double] {
        var marks: [String: Double] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("window-banner: startup ") {
            let fields = line.dropFirst("window-banner: startup ".count).split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let time = Double(fields[0]) else { continue }
            let step = fields[1].hasPrefix("font ") ? "font" : String(fields[1])
            if marks[step] == nil { marks[step] = time }
        }
        return marks
    }
}
