// Scripts on a locked screen (i3lock, from Debian's packages): `show` still succeeds, nothing
// appears over the lock, `status --json` says why, a transient banner keeps counting — one that
// expired while locked is gone for good and `--wait` reports its end when it happens — and a
// sticky one appears once the screen is unlocked. A full-screen window under the clients is no lock.

import Glibc
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show on a locked screen")
    struct LockedScreenCLITests {
        @Test func showSucceedsHidesUntilUnlockAndTransientBannersKeepCounting() throws {
            let owner = try OwnerFixture()
            let observer = owner.observer
            let lock = try owner.fixture.desktop.start(["i3lock", "-n", "-c", "112233"])
            func locked() -> Bool {
                observer.screenshot(Rect(x: 640, y: 40, width: 1, height: 1))?.pixel(x: 640, y: 40) == Pixel(hex: 0x112233)
            }
            #expect(observer.wait { locked() }, "i3lock never showed: \(lock.standardError)")

            // A transient banner: shown (exit 0), never visible, over when its time is up.
            let transient = try owner.run(["show", "--title", "Call from Anna", "--timeout", "0.5", "--wait", "--compact", "never"])
            #expect(transient.status == 0, "\(transient.error)")
            #expect(transient.output == "timeout\n")
            #expect(locked())

            // A sticky one: on the owner's books, hidden, and `status` says why.
            try owner.show(["--title", "Back Online", "--compact", "never"])
            let status = try owner.status()
            #expect(status.presented && status.title == "Back Online")
            #expect(status.hidden == "locked")
            #expect(status.monitors.first?.hidden == "locked")
            #expect(observer.windows(named: "window-banner").allSatisfy { !observer.isViewable($0) })
            #expect(locked())

            // No raise war with a locker that raises itself: the owner sleeps (CPU ticks of
            // 10 ms, user and system, from /proc over 2 s; a war burns a whole core).
            let pid = try #require(status.owner?.pid)
            let before = try #require(Self.cpuTicks(of: pid))
            observer.wait(timeout: 2) { false }
            let spent = try #require(Self.cpuTicks(of: pid)) - before
            #expect(spent <= 5, "the owner spent \(spent) ticks in 2 s on a locked screen")
            #expect(locked())

            lock.signal(SIGTERM)
            _ = lock.waitForExit(timeout: 5)
            #expect(owner.fixture.waitForBanner(height: 80), "no banner after unlocking: \(observer.describeStack())")
            #expect(try owner.status().title == "Back Online")
            #expect(try owner.status().hidden == nil)
        }

        /// A window manager's full-screen guard window under the clients (mutter's, muffin's) is
        /// no lock: `show` shows, `status` says nothing is hidden; the same window raised over
        /// the clients is a lock.
        @Test func aFullScreenWindowUnderTheClientsIsNoLockButOnTopItIs() throws {
            let owner = try OwnerFixture()
            let observer = owner.observer
            let guardWindow = try FullScreenOverlay(displayName: owner.fixture.desktop.displayName)
            defer { guardWindow.close() }
            try owner.show(["--title", "Back Online", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80), "no banner over the guard window: \(observer.describeStack())")
            #expect(observer.wait { observer.windows(named: "window-banner").contains { observer.isViewable($0) } })
            #expect(try owner.status().hidden == nil)

            guardWindow.raise()
            #expect(observer.wait { (try? owner.status().hidden) == "locked" })
            #expect(observer.windows(named: "window-banner").allSatisfy { !observer.isViewable($0) })
            guardWindow.lower()
            #expect(observer.wait { observer.windows(named: "window-banner").contains { observer.isViewable($0) } },
                    "no banner once the window went back under: \(observer.describeStack())")
            #expect(try owner.status().hidden == nil)
        }

        /// utime + stime of `pid`, in clock ticks (/proc/PID/stat fields 14 and 15).
        static func cpuTicks(of pid: Int) -> Int? {
            guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 1024)
            guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let close = line.lastIndex(of: ")") else { return nil }
            let fields = line[line.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }

        @Test func showWithFullscreenDelayWaitsForAFocusedFullScreenWindowAndStatusSaysSo() throws {
            let owner = try OwnerFixture()
            let observer = owner.observer
            let client = observer.mapClientWindow(maximized: false, fullscreen: true)
            #expect(observer.wait { observer.isViewable(client) && observer.cardinals(client, "_NET_FRAME_EXTENTS") != nil })
            observer.sendToRoot(client, "_NET_ACTIVE_WINDOW", [2, 0, 0])
            #expect(observer.wait { observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first == Int(client) })
            #expect(observer.requestFullscreen(client))

            try owner.show(["--title", "Call from Anna", "--fullscreen", "delay", "--compact", "never"])
            #expect(try owner.status().hidden == "fullscreen")
            #expect(observer.windows(named: "window-banner").allSatisfy { !observer.isViewable($0) })

            observer.sendToRoot(client, "_NET_WM_STATE", [0, Int(observer.atom("_NET_WM_STATE_FULLSCREEN")), 0, 1])
            #expect(observer.wait { observer.windows(named: "window-banner").contains { observer.isViewable($0) } })
            #expect(try owner.status().hidden == nil)
        }
    }
}
