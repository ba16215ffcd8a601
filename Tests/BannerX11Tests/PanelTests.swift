// A desktop with a status bar: the banner sits directly under the panel (which stays visible),
// reserves the panel's rows and its own so the work area shrinks by exactly the banner's height,
// follows the panel when it is resized, appears or goes away, and re-lays a maximized client
// out once when it slides in and once when it slides out. Measured as the window manager
// publishes it (`_NET_WORKAREA`), as a real client is told (its ConfigureNotify events) and in
// the pixels on screen.

import BannerCore
import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Under a status bar (openbox)")
    struct PanelTests {
        /// A desktop with a 30 px stand-in panel on top, its strut applied by the WM.
        static func desktopWithPanel(height: Int = 30, before: (XObserver) -> Void = { _ in }) throws -> (Fixture, StandInPanel, Rect) {
            let fixture = try Fixture(before: before)
            let screen = Rect(x: 0, y: 0, width: 1280, height: 800)
            let panel = try StandInPanel(displayName: fixture.desktop.displayName, height: height)
            let withPanel = Rect(x: 0, y: height, width: 1280, height: 800 - height)
            #expect(fixture.run { fixture.observer.workAreas().first == withPanel }, "work area \(fixture.observer.workAreas()) under a \(height) px panel on \(screen)")
            return (fixture, panel, withPanel)
        }

        @Test func bannerSitsUnderThePanelAndTheWorkAreaShrinksByExactlyItsHeight() throws {
            let (fixture, panel, withPanel) = try Self.desktopWithPanel()
            defer { panel.close() }
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Call in progress").backgroundColor(.systemRed) }
            let expected = Rect(x: 0, y: 110, width: 1280, height: 690)
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas().first == expected })
            #expect(fixture.observer.workAreas().first == Rect(x: withPanel.x, y: withPanel.y + 80, width: withPanel.width, height: withPanel.height - 80))
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 30, width: 1280, height: 80))
            #expect(fixture.host.panelInset == 30)
            #expect(fixture.host.reservedHeight == 80)
            let dock = try #require(fixture.observer.windows(named: "window-banner-reservation").first)
            #expect(fixture.observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 110, 0, 0, 0, 0, 0, 0, 1279, 0, 0])
            // The panel's pixels intact above, the banner's below it.
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 120)))
            for y in [0, 15, 29] { #expect(shot.pixel(x: 5, y: y) == panel.colour, "row \(y): \(fixture.observer.describeStack())") }
            for y in [30, 70, 109] { #expect(shot.pixel(x: 5, y: y) == Pixel(hex: 0xFF3B30), "row \(y)") }

            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas().first == withPanel })
            #expect(fixture.observer.windows(named: "window-banner-reservation").isEmpty)
        }

        @Test func theSlideNeverCoversThePanel() throws {
            let (fixture, panel, _) = try Self.desktopWithPanel()
            defer { panel.close() }
            var panelRows: [Pixel] = []
            var heights: [Int] = []
            fixture.host.onFrame = { [unowned fixture] frame in
                // What the user sees of the panel at every frame: its bottom row.
                if let shot = fixture.observer.screenshot(Rect(x: 640, y: 29, width: 1, height: 1)) {
                    panelRows.append(shot.pixel(x: 640, y: 29))
                    heights.append(frame.visibleHeight)
                }
            }
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Sliding") }
            #expect(fixture.run { fixture.host.phase == .presented })
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            // Frames part-way were among them (how many depends on the machine's speed).
            #expect(heights.contains { $0 > 0 && $0 < 80 }, "frames at \(heights)")
            #expect(panelRows.allSatisfy { $0 == panel.colour }, "\(panelRows)")
        }

        @Test func bannerFollowsThePanelResizedAndRemovedWhileItShows() throws {
            let (fixture, panel, _) = try Self.desktopWithPanel()
            defer { panel.close() }
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Following") }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas().first?.y == 110 })

            panel.resize(to: 44)
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 44, width: 1280, height: 80) && fixture.observer.workAreas().first?.y == 124
            }, "banner \(String(describing: fixture.bannerGeometry)), work area \(fixture.observer.workAreas())")

            panel.remove()
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80) && fixture.observer.workAreas().first?.y == 80
            }, "banner \(String(describing: fixture.bannerGeometry)), work area \(fixture.observer.workAreas())")
            // One dock at a time: the old reservation went with the change.
            #expect(fixture.run { fixture.observer.windows(named: "window-banner-reservation").count == 1 })
        }

        @Test func bannerMovesUnderAPanelThatAppearsWhileItShows() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Before the bar") })
            let panel = try StandInPanel(displayName: fixture.desktop.displayName, height: 24)
            defer { panel.close() }
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 24, width: 1280, height: 80) && fixture.observer.workAreas().first?.y == 104
            }, "banner \(String(describing: fixture.bannerGeometry)), work area \(fixture.observer.workAreas())")
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 10, height: 24)))
            #expect(shot.pixel(x: 5, y: 10) == panel.colour)
        }

        @Test func aRealStatusBarStaysVisibleAboveTheBanner() throws {
            // lemonbar, from Debian's packages: a dock with top struts, 24 px, in its own colours.
            let fixture = try Fixture()
            // -p: it stays after its input ends; it goes with the X server at the end of the test.
            let bar = try fixture.desktop.start(["sh", "-c", "echo '%{c}Mon 17:05' | lemonbar -p -g x24 -B '#3b4252' -F '#eceff4'"])
            defer { withExtendedLifetime(bar) {} }
            #expect(fixture.run { fixture.observer.workAreas().first?.y == 24 }, "lemonbar reserved nothing: \(fixture.observer.workAreas())")
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("No Internet Connection").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas().first?.y == 104 })
            #expect(fixture.waitUntilBannerIsOnTop())
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 24, width: 1280, height: 80))
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 10, height: 104)))
            #expect(shot.pixel(x: 5, y: 12) == Pixel(hex: 0x3B4252), "the bar: \(fixture.observer.describeStack())")
            #expect(shot.pixel(x: 5, y: 60) == Pixel(hex: 0xFF3B30))
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas().first?.y == 24 })
        }

        @Test func screenEdgePlacementCoversThePanel() throws {
            let (fixture, panel, _) = try Self.desktopWithPanel()
            defer { panel.close() }
            fixture.host.compactPolicy = .never
            fixture.host.placement = .screenEdge
            try fixture.host.presentTopBanner { $0.title("Over the bar").backgroundColor(.systemRed) }
            // The work area is the union of the struts: the larger of panel and banner.
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas().first?.y == 80 })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
            #expect(fixture.host.panelInset == 0)
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 10, height: 30)))
            #expect(shot.pixel(x: 5, y: 10) == Pixel(hex: 0xFF3B30))
        }

        @Test func panelsOnAnotherMonitorDoNotMoveTheBanner() throws {
            let fixture = try Fixture(width: 1280, height: 800, setup: [
                ["xrandr", "--setmonitor", "left", "640/169x800/212+0+0", "screen"],
                ["xrandr", "--setmonitor", "right", "640/169x800/212+640+0", "none"],
            ])
            // A panel over the right monitor's columns only.
            let panel = try StandInPanel(displayName: fixture.desktop.displayName, x: 640, width: 640, height: 30)
            defer { panel.close() }
            let left = try fixture.display.host(named: "left")
            let right = try fixture.display.host(named: "right")
            left.compactPolicy = .never
            right.compactPolicy = .never
            try left.presentTopBanner { $0.title("Left") }
            try right.presentTopBanner { $0.title("Right") }
            #expect(fixture.run { left.phase == .presented && right.phase == .presented && right.panelInset == 30 })
            #expect(left.panelInset == 0)
            let banners = fixture.observer.windows(named: "window-banner").compactMap(fixture.observer.geometry(of:))
            #expect(Set(banners.map(\.description)) == ["640x80+0+0", "640x80+640+30"])
        }
    }

    @Suite("One reservation change per slide (openbox)")
    struct RelayoutTests {
        /// Heights a maximized client was given, change by change, as its ConfigureNotify
        /// events told it (a repeated size is no new layout). Call it once the state awaited is
        /// seen: the round trip that saw it brought in every event sent before.
        static func layouts(of client: Window, in observer: XObserver) -> [Int] {
            observer.drainEvents()
            var heights: [Int] = []
            for record in observer.configures where record.window == client && record.height != heights.last {
                heights.append(record.height)
            }
            return heights
        }

        @Test(arguments: [false, true])
        func maximizedClientIsReconfiguredOnceOnTheWayInAndOnceOnTheWayOut(underPanel: Bool) throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let panel = try underPanel ? StandInPanel(displayName: fixture.desktop.displayName) : nil
            defer { panel?.close() }
            let original = Rect(x: 0, y: panel?.height ?? 0, width: 1280, height: 800 - (panel?.height ?? 0))
            #expect(fixture.run { observer.workAreas().first == original })
            let client = try #require(fixture.mapMaximizedClient(filling: original))
            let maximized = try #require(observer.geometry(of: client))
            observer.clearRecords()

            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Relayout") }
            let shrunk = Rect(x: original.x, y: original.y + 80, width: original.width, height: original.height - 80)
            #expect(fixture.run { fixture.host.phase == .presented && fixture.fills(client, shrunk) })
            let slideIn = Self.layouts(of: client, in: observer)
            #expect(slideIn == [maximized.height - 80], "slide in: \(slideIn)")

            observer.clearRecords()
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.geometry(of: client) == maximized })
            let slideOut = Self.layouts(of: client, in: observer)
            #expect(slideOut == [maximized.height], "slide out: \(slideOut)")
        }

        @Test func aHeightChangeDuringTheCrossFadeIsOneChange() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let original = try #require(observer.workAreas().first)
            let client = try #require(fixture.mapMaximizedClient(filling: original))
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Short") })
            let settled = try #require(observer.geometry(of: client))
            observer.clearRecords()

            try fixture.host.presentTopBanner { $0.title("Tall").height(120) }
            #expect(fixture.run { !fixture.host.isAnimating && observer.workAreas().first?.y == 120 && observer.geometry(of: client)?.height == settled.height - 40 })
            #expect(Self.layouts(of: client, in: observer) == [settled.height - 40])
            #expect(observer.windows(named: "window-banner-reservation").count == 1)

            observer.clearRecords()
            try fixture.host.presentTopBanner { $0.title("Short again") }
            #expect(fixture.run { !fixture.host.isAnimating && observer.workAreas().first?.y == 80 && observer.geometry(of: client) == settled })
            #expect(Self.layouts(of: client, in: observer) == [settled.height])
        }
    }
}
