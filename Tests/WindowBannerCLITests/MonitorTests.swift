// `window-banner run --monitor`: one banner on every monitor with `all`, or on the one named,
// each over its own monitor's width, all gone together when the process ends.

import Glibc
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("run: monitors")
    struct MonitorTests {
        static let left = Rect(x: 0, y: 0, width: 640, height: 800)
        static let right = Rect(x: 640, y: 0, width: 640, height: 800)

        /// Two monitors side by side, defined before the WM starts.
        static func makeFixture() throws -> Fixture {
            try Fixture(setup: twoMonitors)
        }

        /// The commands that define `left` and `right`.
        static var twoMonitors: [[String]] {
            func monitor(_ name: String, _ area: Rect, output: String) -> [String] {
                // Physical size at 96 DPI, which xrandr wants but nothing here uses.
                let size = "\(area.width)/\(area.width * 254 / 960)x\(area.height)/\(area.height * 254 / 960)"
                return ["xrandr", "--setmonitor", name, "\(size)+\(area.x)+\(area.y)", output]
            }
            return [monitor("left", left, output: "screen"), monitor("right", right, output: "none")]
        }

        static func bannerGeometries(_ fixture: Fixture) -> [Rect] {
            fixture.observer.windows(named: "window-banner")
                .compactMap(fixture.observer.geometry(of:))
                .sorted { $0.x < $1.x }
        }

        @Test func allShowsOneBannerPerMonitorAndSigtermRemovesThemAll() throws {
            let fixture = try Self.makeFixture()
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--monitor", "all"])
            #expect(fixture.observer.wait {
                fixture.observer.workAreas() == fixture.workAreas(shrunkBy: 80)
                    && Self.bannerGeometries(fixture) == [
                        Rect(x: 0, y: 0, width: 640, height: 80), Rect(x: 640, y: 0, width: 640, height: 80),
                    ]
            }, "banners \(Self.bannerGeometries(fixture)), work areas \(fixture.observer.workAreas())")
            #expect(fixture.observer.windows(named: "window-banner-reservation").count == 2)
            banner.signal(SIGTERM)
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError == "")
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func namedMonitorGetsTheOnlyBanner() throws {
            let fixture = try Self.makeFixture()
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--monitor", "right"])
            #expect(fixture.observer.wait {
                Self.bannerGeometries(fixture) == [Rect(x: Self.right.x, y: 0, width: Self.right.width, height: 80)]
            }, "banners \(Self.bannerGeometries(fixture))")
            #expect(fixture.observer.windows(named: "window-banner-reservation").count == 1)
            banner.signal(SIGTERM)
            #expect(banner.waitForExit() == 0)
            #expect(fixture.waitForRestoredDesktop())
        }
    }
}
