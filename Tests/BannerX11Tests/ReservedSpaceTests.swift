// The banner takes space from the desktop while it is there and gives back exactly that space:
// measured as the window manager publishes it (`_NET_WORKAREA`) and where it puts windows.

import BannerCore
import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Reserved space under openbox")
    struct ReservedSpaceTests {
        @Test func presentShrinksWorkAreaByExactlyTheBannerHeightOnEveryDesktop() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            #expect(before.count >= 1)
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Call in progress") }
            let shrunk = Fixture.shrunk(before, by: 80)
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas() == shrunk })
            #expect(fixture.observer.workAreas() == shrunk)
            #expect(fixture.host.reservedHeight == 80)
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
        }

        @Test func dismissRestoresWorkAreaExactly() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("No Internet Connection") })
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas() == before })
            #expect(fixture.observer.workAreas() == before)
            #expect(fixture.observer.windows(named: "window-banner").isEmpty)
            #expect(fixture.observer.windows(named: "window-banner-reservation").isEmpty)
        }

        @Test func compactBannerOnLandscapeMonitorReservesEighteenPixels() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            try fixture.host.presentTopBanner { $0.title("Back Online").backgroundColor(.systemTeal) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.observer.workAreas() == Fixture.shrunk(before, by: 18) })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 18))
        }

        @Test func maximizedWindowMovesDownAndBack() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let original = try #require(observer.workAreas().first)
            let client = try #require(fixture.mapMaximizedClient(filling: original))
            let maximized = try #require(observer.geometry(of: client))

            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Call in progress") }
            let shrunk = Rect(x: original.x, y: original.y + 80, width: original.width, height: original.height - 80)
            #expect(fixture.run { fixture.fills(client, shrunk) })
            #expect(observer.geometry(of: client)?.y == maximized.y + 80)
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.geometry(of: client) == maximized })
        }

        @Test func reservationIsADockWithStrutsAndTheBannerIsOverrideRedirect() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Struts") })
            let observer = fixture.observer
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            let banner = try #require(observer.windows(named: "window-banner").first)
            #expect(observer.isOverrideRedirect(banner))
            #expect(!observer.isOverrideRedirect(dock))
            #expect(observer.cardinals(dock, "_NET_WM_WINDOW_TYPE") == [Int(observer.atom("_NET_WM_WINDOW_TYPE_DOCK"))])
            #expect(observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 80, 0, 0, 0, 0, 0, 0, 1279, 0, 0])
            #expect(observer.cardinals(dock, "_NET_WM_STRUT") == [0, 0, 80, 0])
            // The banner itself carries no strut: a WM that honoured it would count the space twice.
            #expect(observer.cardinals(banner, "_NET_WM_STRUT_PARTIAL") == nil)
            #expect(observer.geometry(of: dock) == Rect(x: 0, y: 0, width: 1280, height: 80))
        }

        /// Titles in the scripts people write them in: Latin, CJK, emoji and Arabic glyphs come
        /// from different fonts with different line heights, and none may change the height.
        static let titles = ["Plain", "接続がありません 日本語", "Online 😀🎉", "لا يوجد اتصال بالإنترنت"]

        /// At 96, 120, 144 and 192 DPI (`Xft.dpi`: 100 %, 125 %, 150 %, 200 %), a height in
        /// points is that many pixels times the scale, rounded to the nearest (compact 18 pt at
        /// 125 % is 22.5, so 23 px): X11 has no logical pixels, so the banner's window is drawn
        /// at the screen's own.
        @Test(arguments: [96, 120, 144, 192])
        func heightsAreExactWhateverTheTitlesScriptAtEveryScaleAndStyle(dpi: Int) throws {
            let fixture = try Fixture(before: { if dpi != 96 { $0.setXftDPI(dpi) } })
            let scale = Double(dpi) / 96
            let before = fixture.observer.workAreas()
            for (policy, points) in [(CompactPolicy.never, 80), (.always, 18), (.never, 30), (.never, 40)] {
                fixture.host.compactPolicy = policy
                for title in Self.titles {
                    try fixture.host.presentTopBanner { config in
                        config.title(title)
                        if points == 30 || points == 40 { config.height(Double(points)) }
                    }
                    let expected = Int((Double(points) * scale).rounded())
                    let settled = fixture.run {
                        !fixture.host.isAnimating && fixture.bannerGeometry?.height == expected
                            && fixture.observer.workAreas() == Fixture.shrunk(before, by: expected)
                    }
                    #expect(settled, "\(title) at \(dpi) DPI, \(policy), \(points) pt: banner \(String(describing: fixture.bannerGeometry)), work area \(fixture.observer.workAreas())")
                    #expect(fixture.host.reservedHeight == expected)
                }
            }
        }

        @Test func textThatDoesNotFitBelowTheInsetMovesUpAndTheRestIsClipped() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            // A 48 pt line in a 20 pt banner: centred on it and cut at both edges.
            #expect(try fixture.presentAndSettle(height: 20) { $0.title("Tall").height(20).font(.system(size: 48, weight: .bold)).backgroundColor(.black) })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 20))
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 24)))
            let white = Pixel(hex: 0xFFFFFF)
            let inked = (0..<24).filter { row in (0..<1280).contains { shot.pixel(x: $0, y: row).distance(to: white) <= 60 } }
            // Glyphs reach both edges of the banner, and nothing below it.
            #expect(inked.first == 0 && inked.last == 19, "rows \(inked)")
        }

        @Test func xftDPIScalesPointsToPixels() throws {
            let fixture = try Fixture(before: { $0.setXftDPI(192) })
            #expect(fixture.display.pixelsPerPoint == 2)
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 160) { $0.title("HiDPI") })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 160))
        }

        @Test func doubledDPIDrawsTextTwiceAsLarge() throws {
            /// The title's text-pixel bounding box at `dpi`.
            func titleBox(dpi: Int?) throws -> (width: Int, height: Int) {
                let fixture = try Fixture(before: { observer in dpi.map(observer.setXftDPI) })
                fixture.host.compactPolicy = .never
                let height = dpi == nil ? 80 : 160
                #expect(try fixture.presentAndSettle(height: height) { $0.title("Scaled Title").backgroundColor(.black) })
                let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: height)))
                let white = Pixel(hex: 0xFFFFFF)
                let columns = shot.columns(matching: white, tolerance: 60)
                let rows = (0..<height).filter { row in (0..<1280).contains { shot.pixel(x: $0, y: row).distance(to: white) <= 60 } }
                let width = try #require(columns.last) - (try #require(columns.first)) + 1
                return (width, try #require(rows.last) - (try #require(rows.first)) + 1)
            }
            let regular = try titleBox(dpi: nil)
            let doubled = try titleBox(dpi: 192)
            let widthRatio = Double(doubled.width) / Double(regular.width)
            let heightRatio = Double(doubled.height) / Double(regular.height)
            #expect(abs(widthRatio - 2) < 0.15, "width \(regular.width) → \(doubled.width)")
            #expect(abs(heightRatio - 2) < 0.2, "height \(regular.height) → \(doubled.height)")
        }

        @Test func unusableColourIsRefusedAndTheVisibleBannerStays() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Keep me").backgroundColor(.systemRed) })
            #expect(throws: BannerValueError.colour("nosuchcolour")) {
                try fixture.host.presentTopBanner { $0.title("Never").backgroundColor(try! BannerColor(parsing: "nosuchcolour")) }
            }
            #expect(fixture.settle())
            #expect(fixture.host.phase == .presented)
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: 2, y: 2) == Pixel(hex: 0xFF3B30), "stack: \(fixture.observer.describeStack())")
        }
    }

    @Suite("Reserved space under i3 (no _NET_WORKAREA)")
    struct TilingReservedSpaceTests {
        @Test func tiledWindowMovesDownByTheBannerHeightAndBack() throws {
            let fixture = try Fixture(.i3)
            #expect(fixture.observer.workAreas().isEmpty)
            let client = fixture.observer.mapClientWindow(maximized: false)
            var before: Rect?
            #expect(fixture.run {
                guard fixture.observer.isViewable(client), let rect = fixture.observer.geometry(of: client), rect.height > 600 else { return false }
                before = rect
                return true
            })
            let original = try #require(before)
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Tiled") }
            #expect(fixture.run { fixture.observer.geometry(of: client)?.y == original.y + 80 })
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.geometry(of: client) == original })
        }
    }

    @Suite("Without a window manager")
    struct NoWindowManagerTests {
        @Test func bannerStillShowsAndDismisses() throws {
            let fixture = try Fixture(.none)
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Bare X") }
            #expect(fixture.run { fixture.host.phase == .presented })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            #expect(fixture.observer.windows(named: "window-banner").isEmpty)
        }
    }
}
