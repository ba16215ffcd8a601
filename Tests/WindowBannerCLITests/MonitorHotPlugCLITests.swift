// The owner follows monitors that come and go while banners show: a `--monitor all` banner
// appears on a monitor plugged in later, with its own reservation, and a `--monitor NAME` banner
// whose monitor is unplugged moves to the primary monitor — `status --json` and the owner's log
// say so — instead of vanishing unseen.

import Foundation
import Glibc
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("owner: monitors that come and go")
    struct MonitorHotPlugCLITests {
        static let left = Rect(x: 0, y: 0, width: 640, height: 800)
        static let right = Rect(x: 640, y: 0, width: 640, height: 800)


        @Test func anAllBannerReachesAMonitorPluggedInLater() throws {
            let owner = try OwnerFixture(setup: [TestDesktop.setMonitor("left", Self.left, output: "screen")])
            let observer = owner.observer
            try owner.show(["--title", "Everywhere", "--compact", "never", "--monitor", "all"])
            #expect(observer.wait { observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)] })

            try owner.fixture.desktop.run(TestDesktop.setMonitor("right", Self.right, output: "none"))
            #expect(observer.wait {
                observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80), Rect(x: 640, y: 0, width: 640, height: 80)]
                    && observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0], [0, 0, 80, 0, 0, 0, 0, 0, 640, 1279, 0, 0]]
                    && observer.workAreas().allSatisfy { $0.y == 80 && $0.height == 720 }
            }, "banners \(observer.banners()), struts \(observer.reservationStruts()), work areas \(observer.workAreas())")
            let status = try owner.status()
            #expect(status.monitors.map(\.monitor) == ["left", "right"])
            #expect(status.monitors.allSatisfy { $0.presented && $0.title == "Everywhere" && $0.reserved == 80 }, "\(status.monitors)")

            // Dismissed, it is gone from both, reservations included.
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(observer.wait { observer.windows(named: "window-banner-reservation").isEmpty && observer.banners().isEmpty })
        }

        @Test func runOnAllMonitorsReachesAMonitorPluggedInLater() throws {
            let fixture = try Fixture(setup: [TestDesktop.setMonitor("left", Self.left, output: "screen")])
            let observer = fixture.observer
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--monitor", "all"])
            #expect(observer.wait { observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)] })
            try fixture.desktop.run(TestDesktop.setMonitor("right", Self.right, output: "none"))
            #expect(observer.wait {
                observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80), Rect(x: 640, y: 0, width: 640, height: 80)]
                    && observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0], [0, 0, 80, 0, 0, 0, 0, 0, 640, 1279, 0, 0]]
            }, "banners \(observer.banners()), struts \(observer.reservationStruts())")
            banner.signal(SIGTERM)
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError == "")
            #expect(observer.wait { observer.windows(named: "window-banner-reservation").isEmpty && observer.banners().isEmpty })
        }

        @Test func runOnAMonitorThatIsUnpluggedMovesToThePrimaryMonitor() throws {
            let fixture = try Fixture(setup: [
                TestDesktop.setMonitor("left", Self.left, output: "screen"), TestDesktop.setMonitor("right", Self.right, output: "none"),
            ])
            let observer = fixture.observer
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--monitor", "right"])
            #expect(observer.wait { observer.banners() == [Rect(x: 640, y: 0, width: 640, height: 80)] })
            try fixture.desktop.run(["xrandr", "--delmonitor", "right"])
            #expect(observer.wait {
                observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)]
                    && observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0]]
            }, "banners \(observer.banners()), struts \(observer.reservationStruts())")
            banner.signal(SIGTERM)
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError == "window-banner: warning: its monitor is gone: the banner moves to the primary monitor left\n")
            #expect(observer.wait { observer.windows(named: "window-banner-reservation").isEmpty && observer.banners().isEmpty })
        }

        @Test func aBannerWhoseMonitorIsUnpluggedMovesToThePrimaryMonitor() throws {
            let owner = try OwnerFixture(setup: [
                TestDesktop.setMonitor("left", Self.left, output: "screen"), TestDesktop.setMonitor("right", Self.right, output: "none"),
            ])
            let observer = owner.observer
            try owner.show(["--title", "Pinned", "--id", "pinned", "--compact", "never", "--monitor", "right"])
            #expect(observer.wait { observer.banners() == [Rect(x: 640, y: 0, width: 640, height: 80)] })
            #expect(observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 640, 1279, 0, 0]])

            try owner.fixture.desktop.run(["xrandr", "--delmonitor", "right"])
            #expect(observer.wait {
                observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)]
                    && observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0]]
            }, "banners \(observer.banners()), struts \(observer.reservationStruts())")
            let status = try owner.status()
            #expect(status.monitors.map(\.monitor) == ["left"])
            #expect(status.monitors.first?.title == "Pinned" && status.monitors.first?.id == "pinned", "\(status.monitors)")
            let log = (try? String(contentsOfFile: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log", encoding: .utf8)) ?? ""
            #expect(log.contains("monitor right is gone: banner pinned moves to the primary monitor left"), "log: \(log)")

            // It is the same request: dismissing its id ends it there.
            #expect(try owner.run(["dismiss", "--id", "pinned"]).status == 0)
            #expect(observer.wait { observer.windows(named: "window-banner-reservation").isEmpty })
        }
    }
}
