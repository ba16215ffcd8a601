// Section 11's sharing banner (issue 55), on the GNOME Shell the rest of the section runs (Gnome.swift):
// an app casts the screen through Mutter's own ScreenCast while the session's `monitor --sharing`
// runs, timed from the app's reader starting to the first frame the section's probe sees with
// the banner. How an app is started and its reader's start read (`startCastReader`) is shared
// with sway's row (SwaySharing.swift).

extension GnomeBench {
    static let sharing = "window-banner monitor --sharing (GNOME Shell)"

    /// The sharing banner (issue 55): an app casts the screen through Mutter's own ScreenCast
    /// (Tests/Clients/mutter-screencast.py, GStreamer's pipewiresrc reading it) while the
    /// session's `monitor --sharing` runs; from the reader's start to the first frame the probe
    /// sees with the banner on screen. Then the app ends, and the banner and its space go. (No
    /// system notices: this machine's own "restart required" would be the banner on screen.)
    func sharing(runs: Int, warmup: Int) throws -> [Double] {
        let monitor = try supervisor.spawn(GnomeDesktop.asUser + [banner, "monitor", "--sharing", "--no-network", "--no-system", "--calls-hide-delay", "0.1"],
                                           environment: desktop.environment, name: Self.sharing, stdout: .pipe, stderr: .file(errors))
        defer { supervisor.stop(monitor, grace: 5) }
        guard supervisor.wait(seconds: 10, until: { monitor.lines.contains { $0.hasSuffix("screen sharing from PipeWire") } || !monitor.isRunning }),
              monitor.isRunning else { throw BenchFailure("\(Self.sharing) did not start (see \(errors))") }
        let space = try desktop.workArea()
        var samples: [Double] = []
        for round in 0..<(warmup + runs) {
            try desktop.resetProbe()
            let hidden = monitor.lines.filter { $0.hasSuffix("sharing banner hidden") }.count
            guard let (app, started) = try supervisor.startCastReader(
                GnomeDesktop.asUser + ["python3", "Tests/Clients/mutter-screencast.py", "Meta-0", "Zoom"], environment: desktop.environment,
                name: "an app sharing the screen", log: errors, seconds: 30
            ) else { throw BenchFailure("Mutter cast nothing (see \(errors))") }
            defer { supervisor.stop(app) }
            var seen = 0.0
            guard try desktop.poll(seconds: 10, until: {
                seen = try desktop.probed().ours
                return seen > 0
            }) else { throw BenchFailure("no sharing banner on screen within 10 s; the monitor said: \(monitor.lines.suffix(4).joined(separator: " | "))") }
            if round >= warmup { samples.append(seen - started * 1000) }
            supervisor.stop(app)
            guard supervisor.wait(seconds: 10, until: { monitor.lines.filter { $0.hasSuffix("sharing banner hidden") }.count > hidden }),
                  try desktop.poll(seconds: 10, until: { try desktop.workArea() == space }) else {
                throw BenchFailure("the sharing banner stayed after the share ended; the monitor said: \(monitor.lines.suffix(4).joined(separator: " | "))")
            }
        }
        return samples
    }
}

extension Supervisor {
    /// An app sharing the screen (`command`: one of Tests/Clients' cast readers) and when its
    /// reader started (CLOCK_MONOTONIC, s), once it has said so (`streaming NODE SECONDS`); nil,
    /// the app stopped, when nothing was cast within `seconds`. Its stderr goes to `log`.
    func startCastReader(_ command: [String], environment: [String: String], name: String, log: String, seconds: Double) throws -> (Child, Double)? {
        let app = try spawn(command, environment: environment, name: name, stdout: .pipe, stderr: .file(log))
        guard wait(seconds: seconds, until: { app.lines.contains { $0.hasPrefix("streaming ") } || !app.isRunning }),
              let line = app.lines.first(where: { $0.hasPrefix("streaming ") }), let started = line.split(separator: " ").last.flatMap({ Double($0) })
        else {
            stop(app)
            return nil
        }
        return (app, started)
    }
}
