// How often an application pays for a banner: a maximized window (bench/maximized-client.c)
// prints a line each time the window manager gives it a new size, and every new size is a
// relayout and a repaint for a browser or an IDE. Counted over one show + dismiss of the banner
// and of dunst's notification (which reserves nothing: it covers the application instead).

extension Lineup {
    /// New sizes the maximized client was given per show + dismiss, by tool.
    func relayouts(client: String, runs: Int, warmup: Int) throws -> [(tool: String, counts: [Double])] {
        let application = try supervisor.spawn([client], environment: desktop.environment, name: "maximized-client", stdout: .pipe)
        defer { supervisor.stop(application) }
        // Maximized once the sizes stop coming: the WM's first placement, then the maximize.
        guard supervisor.wait(seconds: 10, until: { !application.lines.isEmpty }) else {
            throw BenchFailure("the maximized client was never given a size")
        }
        try settle(application)
        let maximized = application.lines.last

        func count(_ show: () throws -> Void) throws -> Double {
            let before = application.lines.count
            try show()
            try settle(application)
            guard application.lines.last == maximized else {
                throw BenchFailure("the maximized client did not get its size back (\(application.lines.last ?? "none"), was \(maximized ?? "none"))")
            }
            return Double(application.lines.count - before)
        }
        var banner: [Double] = []
        var dunst: [Double] = []
        for round in 0..<(warmup + runs) {
            let ours = try count {
                let window = try presentBanner()
                try settle(application)
                try screen.run([self.banner, "dismiss"])
                try screen.waitUntilGone(window, what: "window-banner dismiss")
            }
            let theirs = try count {
                try recorder.mark()
                let child = try supervisor.spawn(["notify-send", Self.title], environment: desktop.environment)
                let window = try mapped(Self.dunstWindow, "notify-send")
                _ = supervisor.waitForExit(child, timeout: 5)
                try settle(application)
                try screen.run(["dunstctl", "close-all"])
                try screen.waitUntilGone(window, unmapIsEnough: true, what: "dunstctl close-all")
            }
            guard round >= warmup else { continue }
            banner.append(ours)
            dunst.append(theirs)
        }
        return [("window-banner show (warm)", banner), ("notify-send → dunst", dunst)]
    }

    /// Waits until the client has been given no new size for half a second (a WM may send a
    /// relayout some time after the change that caused it).
    private func settle(_ application: Child) throws {
        var seen = application.lines.count
        for _ in 0..<20 {
            supervisor.observe(seconds: 0.5)
            if application.lines.count == seen { return }
            seen = application.lines.count
        }
        throw BenchFailure("the maximized client kept being resized for 10 s")
    }
}
