// The same desktop under every window manager Debian ships that honours docks, stacking and
// tiling: a 30 px stand-in panel, then a banner that must sit next to the panel without covering
// it, reserve exactly its height (measured as the WM itself shows it: `_NET_WORKAREA` where it
// publishes one, else where it tiles a client), grow its reservation with a taller look during a
// cross-fade, and give the space back when it goes. WMs differ in what they do with a dock's
// strut — some read it only when they manage the dock, some honour only the legacy property,
// one never gives space back — and the banner's hints must work on all of them.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Reservation on every window manager")
    struct ReservationMatrixTests {
        static let windowManagers: [TestDesktop.WindowManager] = [
            .openbox, .fluxbox, .icewm, .jwm, .pekwm, .i3, .awesome, .bspwm, .herbstluftwm,
        ]

        @Test(arguments: windowManagers)
        func theBannerSitsByThePanelReservesItsHeightAndGivesItBack(windowManager: TestDesktop.WindowManager) throws {
            let fixture = try Fixture(windowManager)
            let observer = fixture.observer
            let panel = try StandInPanel(displayName: fixture.desktop.displayName, height: 30)
            defer { panel.close() }
            // Where the reservation shows: the WM's work area, or the top of a tiled client.
            let client = windowManager.tiles ? observer.mapClientWindow(maximized: false) : nil
            func reservedTop() -> Int? {
                if let client {
                    guard observer.isViewable(client), let rect = observer.geometry(of: client), rect.width >= 1200 else { return nil }
                    return rect.y
                }
                return observer.workAreas().first?.y
            }
            var base = 0
            #expect(fixture.run {
                guard let top = reservedTop(), top >= 30 else { return false }
                base = top
                return true
            }, "\(windowManager): the panel's 30 px were never reserved: \(observer.describeStack())")
            let baseHeight = client.flatMap(observer.geometry(of:))?.height ?? 0

            fixture.host.compactPolicy = .never
            observer.clearRecords()
            try fixture.host.presentTopBanner { $0.title("Call in progress").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && reservedTop() == base + 80 },
                    "\(windowManager): reserved top \(String(describing: reservedTop())), expected \(base + 80)")
            #expect(fixture.waitUntilBannerIsOnTop())
            // Next to the panel, not over it: under it, or above it where the WM stacks its docks
            // in its own order (i3); the panel's pixels and the banner's both on screen.
            let banner = try #require(fixture.bannerGeometry)
            let panelRect = try #require(observer.geometry(of: panel.window))
            #expect(banner.height == 80 && banner.width == 1280)
            #expect(banner.y + banner.height <= panelRect.y || panelRect.y + panelRect.height <= banner.y,
                    "\(windowManager): banner \(banner) over panel \(panelRect)")
            #expect(max(banner.y + banner.height, panelRect.y + panelRect.height) == 110)
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 110)))
            #expect(shot.pixel(x: 640, y: panelRect.y + 15) == panel.colour, "\(windowManager): \(observer.describeStack())")
            #expect(shot.pixel(x: 5, y: banner.y + 40) == Pixel(hex: 0xFF3B30), "\(windowManager): \(observer.describeStack())")
            // The tiled client went straight to its new height: no size in between (a WM may
            // repeat a size; the frame-by-frame reservation of old gave a dozen).
            if let client {
                let heights = RelayoutTests.layouts(of: client, in: observer)
                #expect(Set(heights).isSubset(of: [baseHeight, baseHeight - 80]), "\(windowManager): the tiled client was given \(heights)")
            }

            // Taller: a new dock carries the new strut, so WMs that read a strut only when they
            // manage a dock reserve it too.
            try fixture.host.presentTopBanner { $0.title("Call in progress").backgroundColor(.systemRed).height(120) }
            #expect(fixture.run { !fixture.host.isAnimating && reservedTop() == base + 120 },
                    "\(windowManager): reserved top \(String(describing: reservedTop())), expected \(base + 120)")

            observer.clearRecords()
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.windows(named: "window-banner-reservation").isEmpty })
            // bspwm never gives a strut back (bspwm#1382): only reserving is checked there.
            if windowManager != .bspwm {
                #expect(fixture.run { reservedTop() == base }, "\(windowManager): reserved top \(String(describing: reservedTop())) after dismissal, expected \(base)")
                if let client {
                    let heights = RelayoutTests.layouts(of: client, in: observer)
                    #expect(Set(heights).isSubset(of: [baseHeight - 120, baseHeight]), "\(windowManager): the tiled client was given \(heights)")
                }
            }
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}
