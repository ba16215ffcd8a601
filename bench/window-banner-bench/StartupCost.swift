// Where the time of a warm `show` goes: a ladder of commands, each doing a little more than the
// one before, timed from exec to exit — a C hello, a Swift hello (dynamic and static stdlib), a
// Swift hello that links Foundation, `window-banner status` (the small client: the argument
// parser and the socket round trip to a running owner), `window-banner-full --version` (the
// binary that draws and owns: every X library, no work), `window-banner-config` on a missing
// file (what a config file costs the owner: a toml++/Foundation process) — and the dynamic
// loader's own statistics for `window-banner-full --version` (LD_DEBUG=statistics).

import Glibc

/// One rung of the ladder.
struct StartupStep {
    let name: String
    let command: [String]
    var samples: [Double] = []
}

/// What glibc's loader said about one start of window-banner.
struct LoaderStatistics {
    var objects = 0
    var relocations = 0
    var relativeRelocations = 0
    var startupCycles = 0.0
    var relocationShare = ""
    var loadShare = ""
}

extension Lineup {
    /// Times every rung `runs` times (after `warmup`), interleaved so that load spreads evenly.
    func startupLadder(bin: String, runs: Int, warmup: Int) throws -> [StartupStep] {
        var steps = [
            StartupStep(name: "C hello (glibc, dynamic)", command: ["\(bin)/hello-c"]),
            StartupStep(name: "Swift hello (dynamic stdlib)", command: ["\(bin)/hello-swift"]),
            StartupStep(name: "Swift hello (-static-stdlib)", command: ["\(bin)/hello-swift-static"]),
            StartupStep(name: "Swift hello + Foundation", command: ["\(bin)/hello-foundation"]),
            StartupStep(name: "window-banner status (owner running)", command: [banner, "status"]),
            StartupStep(name: "window-banner-full --version", command: [sibling("window-banner-full"), "--version"]),
            StartupStep(name: "window-banner-config (no file)", command: [sibling("window-banner-config"), "\(desktop.work)/no-such-config.toml"]),
        ]
        // The owner must be running for `status` to be a round trip.
        let window = try presentBanner()
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(window, what: "window-banner dismiss")
        for index in 0..<(warmup + runs) {
            for step in steps.indices {
                let child = try supervisor.spawn(steps[step].command, environment: desktop.environment, name: steps[step].name)
                guard supervisor.waitForExit(child, timeout: 10) == 0, let exit = child.exit else {
                    throw BenchFailure("\(steps[step].command.joined(separator: " ")) failed")
                }
                if index >= warmup { steps[step].samples.append(exit.at - child.startedAt) }
            }
        }
        return steps
    }

    /// `program` in window-banner's directory.
    func sibling(_ program: String) -> String {
        guard let slash = banner.lastIndex(of: "/") else { return program }
        return String(banner[...slash]) + program
    }

    /// LD_DEBUG=statistics for one `window-banner-full --version`.
    func loaderStatistics() throws -> LoaderStatistics {
        var environment = desktop.environment
        environment["LD_DEBUG"] = "statistics"
        let log = "\(desktop.work)/ld-debug.txt"
        _ = try? supervisor.run(["rm", "-f", log], environment: environment)
        let program = sibling("window-banner-full")
        let child = try supervisor.spawn([program, "--version"], environment: environment, stderr: .file(log))
        _ = supervisor.waitForExit(child, timeout: 10)
        var statistics = LoaderStatistics()
        statistics.objects = (try? supervisor.run(["ldd", program], environment: desktop.environment).count) ?? 0
        for line in (readFile(log) ?? "").split(separator: "\n") {
            // Lines look like "     12345:\t  total startup time in dynamic loader: 1234567 cycles".
            guard let colon = line.firstIndex(of: ":") else { continue }
            let text = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            let value = text.split(separator: ":").last.map { $0.trimmingCharacters }
            func number(_ field: Substring?) -> Double { field.flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0 }
            if text.hasPrefix("total startup time in dynamic loader") { statistics.startupCycles = number(value) }
            if text.hasPrefix("number of relocations:") { statistics.relocations = Int(number(value)) }
            if text.hasPrefix("number of relative relocations") { statistics.relativeRelocations = Int(number(value)) }
            if text.hasPrefix("time needed for relocation") { statistics.relocationShare = share(value) }
            if text.hasPrefix("time needed to load objects") { statistics.loadShare = share(value) }
        }
        return statistics
    }

    private func share(_ text: Substring?) -> String {
        guard let text, let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")") else { return "" }
        return String(text[text.index(after: open)..<close])
    }
}

extension Substring {
    var trimmingCharacters: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
