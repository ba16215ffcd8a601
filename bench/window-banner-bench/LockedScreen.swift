// What a locked screen costs (issue 14): a self-raising locker (bench/self-raising-locker.c, an
// override-redirect window over the whole screen that raises itself whenever it is obscured)
// goes up over a banner; the banner process must neither fight it for the top nor wake while it
// is there. Measured over 3 s for the owner and for dunst, with how often the locker had to
// raise itself; then, lock after lock, the time from the locker going away to the banner's
// first frame back on screen.

import Glibc

struct LockedScreen {
    /// The banner processes' counters while the locker was up, with the locker's raises.
    var costs: [(cost: IdleCost, raises: Int)] = []
    /// Unlock (the locker killed) → the banner's first frame, ms.
    var unlock: [Double] = []
}

extension Lineup {
    static let lockerWindow = WindowMatch.overrideRedirect(instance: "bench-locker")

    func lockedScreen(locker: String, seconds: Double, runs: Int, warmup: Int) throws -> LockedScreen {
        var result = LockedScreen()
        let banner = try presentBanner()
        guard let owner = pid(of: banner) else { throw BenchFailure("the banner window carries no _NET_WM_PID") }
        for round in 0..<(warmup + runs) {
            try recorder.mark()
            let lock = try supervisor.spawn([locker], environment: desktop.environment, name: "self-raising-locker", stdout: .pipe)
            _ = try mapped(Self.lockerWindow, "self-raising-locker")
            // Locked once the banner has left the screen.
            guard recorder.waitForRecord(timeout: 5, where: { $0.kind == .unmapnotify && $0.target == banner }) != nil else {
                supervisor.stop(lock)
                throw BenchFailure("the banner stayed on screen over the locker")
            }
            if round == 0 {
                let raisesBefore = lock.lines.count
                let cost = try idleCost("window-banner owner (show)", pid: owner, seconds: seconds, quiet: 0.2)
                result.costs.append((cost, lock.lines.count - raisesBefore))
            }
            try recorder.mark()
            let start = monotonicMilliseconds()
            supervisor.stop(lock)
            // Its window's background is the back buffer, drawn before the lock: the server
            // paints it as the window maps, so the map is the first frame back.
            guard let map = recorder.waitForRecord(timeout: 5, where: { $0.kind == .mapnotify && $0.target == banner }) else {
                throw BenchFailure("the banner did not come back after the locker went")
            }
            if round >= warmup { result.unlock.append(recorder.monotonic(recorder.records[map].time) - start) }
        }
        try screen.run([self.banner, "dismiss"])
        try screen.waitUntilGone(banner, what: "window-banner dismiss")

        // dunst in the same situation: its notification up, the locker over it.
        guard let dunst = desktop.dunstPID else { throw BenchFailure("dunst is not running") }
        let dunstWindow = try showDunstNotification()
        let lock = try supervisor.spawn([locker], environment: desktop.environment, name: "self-raising-locker", stdout: .pipe)
        _ = try mapped(Self.lockerWindow, "self-raising-locker")
        let raisesBefore = lock.lines.count
        let cost = try idleCost("dunst", pid: dunst, seconds: seconds, quiet: 0.2)
        result.costs.append((cost, lock.lines.count - raisesBefore))
        supervisor.stop(lock)
        try screen.run(["dunstctl", "close-all"])
        try screen.waitUntilGone(dunstWindow, unmapIsEnough: true, what: "dunstctl close-all")
        return result
    }
}
