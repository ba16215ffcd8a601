// Section 12 (issue 32): the call banner from PipeWire. A private PipeWire (pipewire, wireplumber
// and pipewire-pulse on their own runtime directory and bus) with a virtual microphone;
// `window-banner monitor --calls --no-network` against the warm owner on the benchmark's Xvfb.
// Each run execs `pw-record` (the calling app) and follows the call banner onto the screen on
// the X server's clock, as the network path does; then the caller is stopped and the banner
// awaited gone. Then the monitor idle with calls on (no call going), and the resident memory of
// a monitor with calls on next to one without, alike in everything else.

import Glibc

/// What section 12 measured.
struct CallResults {
    /// `pw-record` exec → the call banner's MapNotify and first frame.
    var appearances: [Appearance] = []
    /// The monitor with calls on, idle with no call.
    var idle: IdleCost?
    /// RSS (smaps_rollup), KiB: `monitor --calls` and plain `monitor`, each settled.
    var memory: (withCalls: Double, without: Double)?
}

extension Lineup {
    func callPath(runs: Int, warmup: Int, idleSeconds: Double, work: String) throws -> CallResults {
        let runtime = work + "/pipewire"
        try makeDirectory(runtime)
        var pipewire = ["PATH": basePath, "XDG_RUNTIME_DIR": runtime, "HOME": runtime, "LANG": "C.UTF-8"]
        let bus = try supervisor.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], environment: pipewire, name: "dbus-daemon (pipewire)", stdout: .pipe)
        defer { supervisor.stop(bus) }
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), let address = bus.lines.first else {
            throw BenchFailure("dbus-daemon did not print its address")
        }
        pipewire["DBUS_SESSION_BUS_ADDRESS"] = address
        var daemons: [Child] = []
        defer { for daemon in daemons.reversed() { supervisor.stop(daemon) } }
        for name in ["pipewire", "wireplumber", "pipewire-pulse"] {
            // pipewire-pulse sometimes never answers its first start (as in the tests'
            // TestPipeWire): it gets three tries, the silent one stopped.
            var started = false
            for _ in 1...(name == "pipewire-pulse" ? 3 : 1) where !started {
                let daemon = try supervisor.spawn([name], environment: pipewire, name: name)
                started = try supervisor.check(seconds: 20, until: {
                    switch name {
                    case "pipewire": access(runtime + "/pipewire-0", F_OK) == 0
                    case "wireplumber": (try? supervisor.run(["pw-dump"], environment: pipewire))?.contains { $0.contains("\"wireplumber\"") } == true
                    default: (try? supervisor.run(["pactl", "info"], environment: pipewire)) != nil
                    }
                })
                if started {
                    daemons.append(daemon)
                } else {
                    supervisor.stop(daemon)
                    _ = try? supervisor.run(["rm", "-rf", runtime + "/pulse"], environment: pipewire)
                }
            }
            guard started else { throw BenchFailure("\(name) did not start within 20 s") }
        }
        try supervisor.run(["pactl", "load-module", "module-null-sink", "media.class=Audio/Source/Virtual", "sink_name=mic",
                            "channel_map=front-left,front-right"], environment: pipewire)

        // The owner is warm, as for `show`: the monitor is one more client of it.
        let first = try presentBanner()
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(first, what: "window-banner dismiss")
        var environment = desktop.environment
        environment["PIPEWIRE_REMOTE"] = runtime + "/pipewire-0"
        let monitor = try supervisor.spawn(
            [banner, "monitor", "--calls", "--no-network", "--monitor", "primary", "--calls-hide-delay", "0.1", "--call-compact", "never"],
            environment: environment, name: "window-banner monitor --calls", stdout: .pipe)
        defer { supervisor.stop(monitor, grace: 5) }
        guard supervisor.wait(seconds: 10, until: { monitor.lines.contains { $0.hasSuffix("calls from PipeWire") } || !monitor.isRunning }),
              monitor.isRunning else { throw BenchFailure("window-banner monitor --calls did not start") }

        var results = CallResults()
        for index in 0..<(warmup + runs) {
            try recorder.mark()
            let caller = try supervisor.spawn(["pw-record", "--target", "mic", "-P", "{ application.name = \"Zoom\" }", "/dev/null"],
                                              environment: pipewire, name: "pw-record")
            guard let mapIndex = screen.firstMap(of: Self.bannerWindow) else {
                supervisor.stop(caller)
                throw BenchFailure("no call banner within 10 s")
            }
            let window = recorder.records[mapIndex].target
            guard let frameIndex = screen.firstFrame(of: window, mappedAt: mapIndex) else { throw BenchFailure("the call banner was not drawn") }
            if index >= warmup {
                let start = caller.startedAt
                results.appearances.append(Appearance(
                    connect: nil, firstRequest: nil, map: recorder.monotonic(recorder.records[mapIndex].time) - start,
                    frame: recorder.monotonic(recorder.records[frameIndex].time) - start, exit: nil, window: window, client: 0, records: []))
            }
            let hidden = monitor.lines.filter { $0.hasSuffix("call banner hidden") }.count
            supervisor.stop(caller)
            guard supervisor.wait(seconds: 10, until: { monitor.lines.filter { $0.hasSuffix("call banner hidden") }.count > hidden }) else {
                throw BenchFailure("the monitor never hid the call banner; it said: \(monitor.lines.suffix(6).joined(separator: " | "))")
            }
            try screen.waitUntilGone(window, what: "the call banner")
        }

        // Idle with calls on and no call: what it costs to be ready.
        supervisor.observe(seconds: 1)
        guard let before = ProcessCounters.read(monitor.pid) else { throw BenchFailure("the monitor is gone") }
        supervisor.observe(seconds: idleSeconds)
        guard let after = ProcessCounters.read(monitor.pid) else { throw BenchFailure("the monitor ended while idle") }
        results.idle = IdleCost(tool: "window-banner monitor --calls (no call)", seconds: idleSeconds, counters: after - before)

        // Memory: two more monitors that differ in `--calls` alone (the network from routes only:
        // no system bus, so no NetworkManager, no check and no logind), each settled.
        var plain = desktop.environment
        plain["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/window-banner-bench-no-bus"
        plain["PIPEWIRE_REMOTE"] = runtime + "/pipewire-0"
        let networkKnown = { (line: String) in line.contains(" online via ") || line.hasSuffix(" offline") }
        func settledResidentKiB(_ arguments: [String], name: String, calls: Bool) throws -> Double {
            let child = try supervisor.spawn([banner, "monitor", "--monitor", "primary"] + arguments, environment: plain, name: name, stdout: .pipe)
            defer { supervisor.stop(child, grace: 5) }
            guard supervisor.wait(seconds: 10, until: {
                (child.lines.contains(where: networkKnown) && (!calls || child.lines.contains { $0.hasSuffix("calls from PipeWire") })) || !child.isRunning
            }), child.isRunning else { throw BenchFailure("\(name) did not start") }
            supervisor.observe(seconds: 1)
            guard let resident = rollupResidentKiB(child.pid) else { throw BenchFailure("\(name) is gone") }
            return resident
        }
        let withCalls = try settledResidentKiB(["--calls"], name: "window-banner monitor --calls", calls: true)
        let without = try settledResidentKiB([], name: "window-banner monitor", calls: false)
        results.memory = (withCalls, without)
        return results
    }
}

extension Report {
    /// Section 12's rows.
    static func callRows(_ calls: CallResults) -> [Row] {
        var rows: [Row] = []
        if !calls.appearances.isEmpty {
            rows.append(Row(metric: "capture started → the call banner's MapNotify", tool: "window-banner monitor --calls", unit: "ms",
                            samples: calls.appearances.map(\.map), note: "pw-record's exec; includes the \(fixed(0.15 * 1000, 0)) ms start delay"))
            rows.append(Row(metric: "capture started → the call banner's first frame", tool: "window-banner monitor --calls", unit: "ms",
                            samples: calls.appearances.map(\.frame), note: "on the X server's clock (X RECORD), as the network path"))
        }
        if let idle = calls.idle {
            rows.append(Row(metric: "idle \(fixed(idle.seconds, 0)) s with calls on, no call: CPU ticks", tool: idle.tool, unit: "", samples: [idle.counters.ticks]))
            rows.append(Row(metric: "idle \(fixed(idle.seconds, 0)) s with calls on, no call: wakeups", tool: idle.tool, unit: "", samples: [idle.counters.wakeups]))
        }
        if let memory = calls.memory {
            rows.append(Row(metric: "monitor resident memory (smaps_rollup)", tool: "window-banner monitor --calls", unit: "KiB", samples: [memory.withCalls],
                            reference: "window-banner monitor", note: "\(memory.withCalls >= memory.without ? "+" : "−")\(fixed(abs(memory.withCalls - memory.without) / 1024, 2)) MiB for calls"))
            rows.append(Row(metric: "monitor resident memory (smaps_rollup)", tool: "window-banner monitor", unit: "KiB", samples: [memory.without]))
        }
        return rows
    }
}
