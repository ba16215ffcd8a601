// A banner on every monitor follows the monitors that come and go while it shows: one added
// (`xrandr --setmonitor`) gets it, sliding in under its own reservation; one removed
// (`xrandr --delmonitor`) takes its banner and reservation away, the others untouched. Measured
// by an independent observer: the windows on screen, their struts, the work area, the pixels.

import BannerCore
import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("A banner on every monitor, monitors coming and going (openbox)")
    struct HotPlugBannerTests {
        static let left = MonitorGeometry(x: 0, y: 0, width: 640, height: 800)
        static let right = MonitorGeometry(x: 640, y: 0, width: 640, height: 800)
        static let red = Pixel(hex: 0xFF3B30)


        @Test func aMonitorAddedGetsTheBannerAndARemovedOneTakesItsBannerAway() throws {
            let fixture = try Fixture(setup: [HotPlugTests.setMonitor("left", Self.left, output: "screen")])
            let observer = fixture.observer
            let display = fixture.display
            #expect(display.hosts.map(\.monitorName) == ["left"])
            fixture.host.compactPolicy = .never
            try display.presentTopBannerOnEveryMonitor(TopBannerConfigBuilder().title("Everywhere").backgroundColor(.systemRed).build())
            #expect(fixture.run { fixture.host.phase == .presented && observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)] })
            #expect(observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0]])

            // A monitor comes: it gets the banner, sliding in, with its own reservation.
            var reveals: [Double] = []
            // Weak: the display keeps this closure, which must not keep the display.
            display.onMonitorsChanged = { [weak display] in
                if let added = try? display?.host(named: "right") { added.onFrame = { reveals.append($0.reveal) } }
            }
            #expect(try HotPlugTests.change(fixture, HotPlugTests.setMonitor("right", Self.right, output: "none")) {
                (try? display.host(named: "right"))?.phase == .presented
                    && observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80), Rect(x: 640, y: 0, width: 640, height: 80)]
                    && observer.workAreas().allSatisfy { $0.y == 80 && $0.height == 720 }
            }, "banners \(observer.banners()), work areas \(observer.workAreas())")
            let added = try display.host(named: "right")
            #expect(added.compactPolicy == .never)
            #expect(reveals.contains { $0 > 0 && $0 < 1 }, "reveals \(reveals)")
            #expect(reveals.last == 1)
            #expect(observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0], [0, 0, 80, 0, 0, 0, 0, 0, 640, 1279, 0, 0]])
            #expect(fixture.waitUntilBannerIsOnTop(of: added))
            let shot = try #require(observer.screenshot(Rect(x: 640, y: 0, width: 640, height: 80)))
            #expect(shot.pixel(x: 640, y: 2) == Self.red && shot.pixel(x: 1279, y: 79) == Self.red)

            // It goes: its banner and reservation go, the other monitor's stay.
            #expect(try HotPlugTests.change(fixture, ["xrandr", "--delmonitor", "right"]) {
                display.hosts.map(\.monitorName) == ["left"] && observer.banners() == [Rect(x: 0, y: 0, width: 640, height: 80)]
                    && observer.reservationStruts() == [[0, 0, 80, 0, 0, 0, 0, 0, 0, 639, 0, 0]]
            }, "banners \(observer.banners()), struts \(observer.reservationStruts())")
            #expect(fixture.host.phase == .presented)

            // Dismissed everywhere, a monitor added later stays empty.
            display.dismissTopBannerOnEveryMonitor()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.windows(named: "window-banner-reservation").isEmpty })
            #expect(try HotPlugTests.change(fixture, HotPlugTests.setMonitor("later", Self.right, output: "none")) {
                display.hosts.map(\.monitorName) == ["left", "later"]
            })
            #expect(try display.host(named: "later").phase == .hidden)
            #expect(observer.windows(named: "window-banner").isEmpty)
            #expect(display.protocolErrorCount == 0)
        }
    }
}
