// Section 13 (issue 52): the administrator's broadcasts. Ten sessions, each a private desktop
// (Xvfb, the X RECORD probe, openbox) with its own runtime directory and the monitor every
// session starts (`monitor --no-network`), the spools under a private WINDOW_BANNER_ROOT. Each
// run: `broadcast set` with new words → the banner's MapNotify on all ten screens, next to what
// an administrator scripts today, a loop of `show` over the ten displays; each timed from its
// exec to the tenth MapNotify on the X servers' clock (CLOCK_MONOTONIC, as ours), then taken
// away and awaited gone. Then `broadcast list --json` with 10,000 broadcasts in a spool, next to
// `cat` of the same files. Needs root: `broadcast` is root's.

import Glibc

/// What section 13 measured, in ms.
struct BroadcastResults {
    var set: [Double] = []
    var loop: [Double] = []
    var list: [Double] = []
    var cat: [Double] = []

    static let sessions = 10
    static let listed = 10_000
    static let setTool = "window-banner broadcast set"
    static let loopTool = "window-banner show, looped over the displays"
    static let listTool = "window-banner broadcast list --json"
    static let catTool = "cat of the spool's files"

    var rows: [Row] {
        let metric = "a notice → MapNotify on all \(Self.sessions) sessions"
        let listing = "list \(Self.listed) broadcasts"
        return [
            Row(metric: metric, tool: Self.setTool, unit: "ms", samples: set, reference: Self.loopTool,
                note: "the spool written, each session's monitor (inotify) shows it through its owner"),
            Row(metric: metric, tool: Self.loopTool, unit: "ms", samples: loop, note: "one `show --display D` after another, each to a warm owner"),
            Row(metric: listing, tool: Self.listTool, unit: "ms", samples: list, reference: Self.catTool, note: "every file read with its checks, as JSON"),
            Row(metric: listing, tool: Self.catTool, unit: "ms", samples: cat, note: "the floor: the same files read"),
        ]
    }
}

extension Lineup {
    func broadcasts(probe: String, work: String, runs: Int, warmup: Int) throws -> BroadcastResults {
        guard geteuid() == 0 else { throw BenchFailure("broadcast is root's: run make bench as root for section 13") }
        let root = work + "/broadcast-root"
        guard mkdir(root, 0o755) == 0 || errno == EEXIST else { throw BenchFailure("cannot create \(root)") }
        var desktops: [Desktop] = []
        defer { for desktop in desktops { desktop.stopOwn() } }
        var monitors: [Child] = []
        defer { for monitor in monitors { supervisor.stop(monitor) } }
        for index in 0..<BroadcastResults.sessions {
            let home = work + "/session-\(index)"
            try makeDirectory(home)
            let desktop = try Desktop(supervisor: supervisor, work: home, probe: probe)
            desktops.append(desktop)
            var environment = desktop.environment
            environment["WINDOW_BANNER_ROOT"] = root
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
            monitors.append(try supervisor.spawn([banner, "monitor", "--no-network", "--no-config"], environment: environment, name: "monitor \(index)"))
        }
        let admin = ["PATH": basePath, "LANG": "C.UTF-8", "WINDOW_BANNER_ROOT": root, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
        var results = BroadcastResults()
        let loopScript = desktops.map { desktop in
            "XDG_RUNTIME_DIR='\(desktop.environment["XDG_RUNTIME_DIR"] ?? "")' HOME='\(desktop.environment["HOME"] ?? "")' '\(banner)' show --display \(desktop.display) --no-config --compact never --id loop --title \"$1\""
        }.joined(separator: "\n")

        /// `command` exec → the last of the sessions' banner MapNotify; then `clear` run and
        /// every banner awaited gone.
        func timed(_ command: [String], environment: [String: String], clear: () throws -> Void) throws -> Double {
            for desktop in desktops { try desktop.recorder.mark() }
            let child = try supervisor.spawn(command, environment: environment, name: command[1])
            var last = 0.0
            var windows: [(Desktop, UInt32)] = []
            for desktop in desktops {
                guard let index = ScreenLatency(desktop: desktop).firstMap(of: Lineup.bannerWindow, timeout: 20) else {
                    supervisor.stop(child)
                    throw BenchFailure("\(command[1]): no banner on \(desktop.display) within 20 s")
                }
                let record = desktop.recorder.records[index]
                last = max(last, desktop.recorder.monotonic(record.time))
                windows.append((desktop, record.target))
            }
            _ = supervisor.waitForExit(child, timeout: 10)
            try clear()
            for (desktop, window) in windows {
                guard desktop.recorder.waitForRecord(timeout: 20, where: { $0.kind == .unmapnotify && $0.target == window }) != nil else {
                    throw BenchFailure("\(command[1]): the banner stayed on \(desktop.display)")
                }
            }
            return last - child.startedAt
        }

        for round in 0..<(warmup + runs) {
            let words = "Maintenance tonight at 18:\(String(round % 60 + 100).dropFirst())"
            let set = try timed([banner, "broadcast", "set", "--id", "maintenance", "--title", words, "--compact", "never", "--wait", "0"], environment: admin) {
                _ = try supervisor.run([banner, "broadcast", "clear", "--id", "maintenance"], environment: admin)
            }
            let loop = try timed(["sh", "-c", loopScript, "sh", words], environment: ["PATH": basePath, "LANG": "C.UTF-8"]) {
                for desktop in desktops { _ = try supervisor.run([banner, "dismiss", "--id", "loop", "--display", desktop.display], environment: desktop.environment) }
            }
            guard round >= warmup else { continue }
            results.set.append(set)
            results.loop.append(loop)
        }

        // The listing, on a spool of its own that no session follows.
        let listRoot = work + "/list-root"
        let spool = listRoot + "/run/window-banner/broadcasts"
        _ = try supervisor.run(["mkdir", "-p", "-m", "755", spool], environment: ["PATH": basePath])
        for index in 0..<BroadcastResults.listed {
            let id = "notice-\(index)"
            try writeFile("\(spool)/\(id).json", "{\"id\":\"\(id)\",\"monitor\":\"primary\",\"persist\":false,\"settings\":{\"title\":\"Notice \(index)\"},\"version\":1}")
            chmod("\(spool)/\(id).json", 0o644)
        }
        var listing = admin
        listing["WINDOW_BANNER_ROOT"] = listRoot
        for round in 0..<(warmup + runs) {
            let list = try supervisor.spawn([banner, "broadcast", "list", "--json"], environment: listing, name: "broadcast list")
            guard supervisor.waitForExit(list, timeout: 60) == 0, let listed = list.exit else { throw BenchFailure("broadcast list failed") }
            let cat = try supervisor.spawn(["sh", "-c", "cat \"$1\"/*.json > /dev/null", "sh", spool], environment: ["PATH": basePath], name: "cat")
            guard supervisor.waitForExit(cat, timeout: 60) == 0, let read = cat.exit else { throw BenchFailure("cat failed") }
            guard round >= warmup else { continue }
            results.list.append(listed.at - list.startedAt)
            results.cat.append(read.at - cat.startedAt)
        }
        return results
    }
}
