// The banner follows the monitors RandR reports: a mode switch (a rotated or replaced screen)
// re-evaluates the compact rule and re-lays out a visible banner and its reservation, and a
// banner on a monitor below another one stays inside its own monitor while it slides.

import BannerCore
import BannerX11
import BannerRuntime
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("RandR mode switches")
    struct RandRModeTests {
        static let landscape = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        static let portrait = MonitorGeometry(x: 0, y: 0, width: 800, height: 1280)
        static let teal = Pixel(hex: 0x30B0C7)
        static let white = Pixel(hex: 0xFFFFFF)

        /// Xvfb's framebuffer never grows past its start size, so the desktop starts at the
        /// largest size the test needs and switches between modes defined here.
        static func makeDesktop() throws -> Fixture {
            let fixture = try Fixture(width: 1280, height: 1280)
            for monitor in [landscape, portrait] {
                let name = modeName(monitor)
                let width = String(monitor.width)
                let height = String(monitor.height)
                try fixture.desktop.run(["xrandr", "--newmode", name, "0", width, width, width, width, height, height, height, height])
                try fixture.desktop.run(["xrandr", "--addmode", "screen", name])
            }
            return fixture
        }

        static func modeName(_ monitor: MonitorGeometry) -> String { "\(monitor.width)x\(monitor.height)-test" }

        /// Switches the screen to `monitor`'s size and serves the loop until the banner's
        /// display and the window manager have both seen the new size. The loop runs while
        /// xrandr works, so the notifications arrive as they would in a running daemon.
        static func switchMode(_ fixture: Fixture, to monitor: MonitorGeometry) throws -> Bool {
            let command = ["xrandr", "--output", "screen", "--mode", modeName(monitor)]
            let xrandr = try fixture.desktop.start(command)
            let seen = fixture.run {
                fixture.host.monitor == monitor
                    && fixture.observer.workAreas().allSatisfy { $0.width == monitor.width && $0.y + $0.height == monitor.height }
            }
            try fixture.desktop.finish(xrandr, command)
            return seen
        }

        /// Every desktop's work area: the whole `monitor` less `reserved` px at the top.
        static func workAreas(_ monitor: MonitorGeometry, reserved: Int, desktops: Int) -> [Rect] {
            Array(repeating: Rect(x: monitor.x, y: monitor.y + reserved, width: monitor.width, height: monitor.height - reserved), count: desktops)
        }

        @Test func compactRuleFollowsEveryModeSwitchOfAVisibleBanner() throws {
            let fixture = try Self.makeDesktop()
            let observer = fixture.observer
            #expect(try Self.switchMode(fixture, to: Self.landscape))
            let desktops = observer.workAreas().count
            #expect(desktops >= 1)

            // Landscape under `auto`: the compact strip.
            #expect(fixture.host.compactPolicy == .auto)
            try fixture.host.presentTopBanner { $0.title("Rotate me").backgroundColor(.systemTeal) }
            #expect(fixture.run {
                fixture.host.phase == .presented && observer.workAreas() == Self.workAreas(Self.landscape, reserved: 18, desktops: desktops)
            })
            #expect(fixture.run { fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 18) },
                    "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere")")
            let banner = fixture.host.bannerWindowID

            // Portrait: the same banner re-lays itself out to the regular 80 px over the new width.
            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }
            #expect(try Self.switchMode(fixture, to: Self.portrait))
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 800, height: 80)
                    && observer.workAreas() == Self.workAreas(Self.portrait, reserved: 80, desktops: desktops)
            })
            #expect(fixture.host.bannerWindowID == banner)
            #expect(fixture.host.reservedHeight == 80)
            // One re-layout per switch, however many notifications the server sent for it.
            #expect(frames.count == 1, "frames \(frames)")
            #expect(frames.last?.bannerHeight == 80)
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            // The window manager places the new dock, and the banner puts it back, in their own time.
            #expect(fixture.run { observer.geometry(of: dock) == Rect(x: 0, y: 0, width: 800, height: 80) },
                    "dock at \(observer.geometry(of: dock).map(\.description) ?? "nowhere")")
            #expect(observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 80, 0, 0, 0, 0, 0, 0, 799, 0, 0])
            // Drawn for the new width: background to the right edge, title centred on 800 px.
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(observer.describeStack())")
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 800, height: 80)))
            #expect(shot.pixel(x: 799, y: 2) == Self.teal)
            #expect(shot.pixel(x: 0, y: 79) == Self.teal)
            let columns = shot.columns(matching: Self.white, tolerance: 40)
            let left = try #require(columns.first)
            let right = try #require(columns.last)
            #expect(abs((left + right) / 2 - 400) <= 3, "title spans \(left)...\(right)")

            // Landscape again: compact again.
            frames.removeAll()
            #expect(try Self.switchMode(fixture, to: Self.landscape))
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 18)
                    && observer.workAreas() == Self.workAreas(Self.landscape, reserved: 18, desktops: desktops)
            })
            #expect(frames.count == 1, "frames \(frames)")
            #expect(fixture.host.bannerWindowID == banner)

            // And dismissing gives back exactly the landscape desktop.
            fixture.host.dismissTopBanner()
            #expect(fixture.run {
                fixture.host.phase == .hidden && observer.workAreas() == Self.workAreas(Self.landscape, reserved: 0, desktops: desktops)
            })
        }
    }

    @Suite("Monitor below another")
    struct LowerMonitorTests {
        static let upper = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        static let lower = MonitorGeometry(x: 128, y: 800, width: 1024, height: 600)
        static let red = Pixel(hex: 0xFF3B30)

        /// Two monitors defined before the WM starts (some WMs read them only at start-up).
        static func makeDesktop() throws -> Fixture {
            func monitor(_ name: String, _ geometry: MonitorGeometry, output: String) -> [String] {
                // Physical size at 96 DPI, which xrandr wants but nothing here uses.
                let size = "\(geometry.width)/\(geometry.width * 254 / 960)x\(geometry.height)/\(geometry.height * 254 / 960)"
                return ["xrandr", "--setmonitor", name, "\(size)+\(geometry.x)+\(geometry.y)", output]
            }
            return try Fixture(width: 1280, height: 1400, setup: [
                monitor("upper", upper, output: "screen"),
                monitor("lower", lower, output: "none"),
            ])
        }

        @Test func slidingBannerNeverShowsOnTheMonitorAbove() throws {
            let fixture = try Self.makeDesktop()
            let observer = fixture.observer
            let host = try fixture.display.host(named: "lower")
            #expect(host.monitor == Self.lower)
            host.compactPolicy = .never
            // The upper monitor's bottom rows, as tall as the banner: where a banner sliding
            // down from above the lower monitor's top edge would show.
            let strip = Rect(x: 0, y: Self.lower.y - 80, width: Self.upper.width, height: 80)
            let clean = try #require(observer.screenshot(strip))
            var reveals: [Double] = []
            var spoiled: [Double] = []
            host.onFrame = { frame in
                reveals.append(frame.reveal)
                if observer.screenshot(strip) != clean { spoiled.append(frame.reveal) }
            }

            try host.presentTopBanner { $0.title("Lower monitor").backgroundColor(.systemRed) }
            #expect(fixture.run { host.phase == .presented })
            #expect(fixture.waitUntilBannerIsOnTop(of: host), "stack: \(observer.describeStack())")
            let shown = try #require(observer.screenshot(Rect(x: Self.lower.x, y: Self.lower.y, width: Self.lower.width, height: 80)))
            #expect(shown.pixel(x: Self.lower.x, y: Self.lower.y) == Self.red)
            #expect(shown.pixel(x: Self.lower.x + Self.lower.width - 1, y: Self.lower.y + 79) == Self.red)
            #expect(fixture.run { fixture.bannerGeometry == Rect(x: 128, y: 800, width: 1024, height: 80) },
                    "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere")")

            // In root coordinates, and only across this monitor's columns.
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            #expect(fixture.run { observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 880, 0, 0, 0, 0, 0, 128, 1151, 0, 0] })
            #expect(observer.cardinals(dock, "_NET_WM_STRUT") == [0, 0, 880, 0])
            #expect(fixture.run { observer.geometry(of: dock) == Rect(x: 128, y: 800, width: 1024, height: 80) })

            host.dismissTopBanner()
            #expect(fixture.run { host.phase == .hidden })
            // Checked part-way in and out, however many frames the machine's speed allows.
            #expect(reveals.contains { $0 > 0 && $0 < 1 }, "frames at reveal \(reveals)")
            #expect(spoiled.isEmpty, "banner pixels on the upper monitor at reveal \(spoiled)")
            #expect(observer.screenshot(strip) == clean)
        }
    }
}
