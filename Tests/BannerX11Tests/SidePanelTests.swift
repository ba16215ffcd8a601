// Beside vertical panels: a dock along the left or right edge reserves its columns with a side
// strut, and the banner starts right of a left one and ends left of a right one — the panels'
// pixels stay intact, the banner's own reservation keeps to its columns, and the work area a
// maximized client is given is what both leave. Followed live as side panels come and go.
// Measured by an independent observer: window geometry, strut properties, `_NET_WORKAREA`, pixels.

import BannerCore
@testable import BannerX11
import CX11
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Beside side panels")
    struct SidePanelTests {
        static let red = Pixel(hex: 0xFF3B30)
        static let white = Pixel(hex: 0xFFFFFF)
        static let leftColour = 0x2040A0
        static let rightColour = 0x40A020

        /// A 48 px dock along the left edge and a 64 px one along the right, full height.
        static func docks(on fixture: Fixture) throws -> (left: StandInPanel, right: StandInPanel) {
            let name = fixture.desktop.displayName
            let left = try StandInPanel(displayName: name, edge: .left, x: 0, y: 0, width: 48, height: 800, colour: leftColour)
            let right = try StandInPanel(displayName: name, edge: .right, x: 1216, y: 0, width: 64, height: 800, colour: rightColour)
            return (left, right)
        }

        /// Whether `client` is maximized in `area`: inside it and reaching each of its edges up to
        /// the WM's frame there (icewm drops a maximized window's side borders, openbox keeps them).
        static func fills(_ client: Window, in observer: XObserver, _ area: Rect) -> Bool {
            guard let rect = observer.geometry(of: client), let frame = observer.cardinals(client, "_NET_FRAME_EXTENTS"), frame.count == 4 else { return false }
            let gaps = [rect.x - area.x, area.x + area.width - rect.x - rect.width, rect.y - area.y, area.y + area.height - rect.y - rect.height]
            return zip(gaps, frame).allSatisfy { gap, border in gap >= 0 && gap <= border }
        }

        /// The work area a WM that publishes it shows with nothing but the side docks.
        static let besideDocks = Rect(x: 48, y: 0, width: 1168, height: 800)

        @Test(arguments: [TestDesktop.WindowManager.openbox, .icewm])
        func bannerSitsBetweenALeftAndARightDockAndReservesOnlyItsColumns(windowManager: TestDesktop.WindowManager) throws {
            let fixture = try Fixture(windowManager)
            let observer = fixture.observer
            let (left, right) = try Self.docks(on: fixture)
            defer { left.close(); right.close() }
            #expect(fixture.run { observer.workAreas().first == Self.besideDocks }, "work area \(observer.workAreas())")
            let client = observer.mapClientWindow(maximized: true)
            #expect(fixture.run { observer.cardinals(client, "_NET_FRAME_EXTENTS") != nil })
            observer.requestMaximize(client)
            #expect(fixture.run { Self.fills(client, in: observer, Self.besideDocks) },
                    "client at \(observer.geometry(of: client).map(\.description) ?? "nowhere"), frame \(observer.cardinals(client, "_NET_FRAME_EXTENTS") ?? [])")

            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Between the docks").backgroundColor(.systemRed) }
            let underBanner = Rect(x: 48, y: 80, width: 1168, height: 720)
            #expect(fixture.run { fixture.host.phase == .presented && observer.workAreas().first == underBanner },
                    "work area \(observer.workAreas())")
            #expect(fixture.run { fixture.bannerGeometry == Rect(x: 48, y: 0, width: 1168, height: 80) },
                    "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere")")
            #expect(fixture.host.bannerWidth == 1168)
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            #expect(observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 80, 0, 0, 0, 0, 0, 48, 1215, 0, 0])
            #expect(fixture.run { observer.geometry(of: dock) == Rect(x: 48, y: 0, width: 1168, height: 80) },
                    "dock at \(observer.geometry(of: dock).map(\.description) ?? "nowhere")")
            // The maximized client is given what the docks and the banner leave.
            #expect(fixture.run { Self.fills(client, in: observer, underBanner) }, "client at \(observer.geometry(of: client).map(\.description) ?? "nowhere")")

            // The docks' pixels intact beside the banner; the title centred on the banner, not the screen.
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(observer.describeStack())")
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            for y in [0, 40, 79] {
                #expect(shot.pixel(x: 0, y: y) == left.colour && shot.pixel(x: 47, y: y) == left.colour, "row \(y): \(observer.describeStack())")
                #expect(shot.pixel(x: 1216, y: y) == right.colour && shot.pixel(x: 1279, y: y) == right.colour, "row \(y)")
                #expect(shot.pixel(x: 48, y: y) == Self.red && shot.pixel(x: 1215, y: y) == Self.red, "row \(y)")
            }
            let columns = shot.columns(matching: Self.white, tolerance: 40)
            let first = try #require(columns.first)
            let last = try #require(columns.last)
            #expect(abs((first + last) / 2 - (48 + 1168 / 2)) <= 3, "title spans \(first)...\(last)")

            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.workAreas().first == Self.besideDocks })
            #expect(observer.windows(named: "window-banner-reservation").isEmpty)
            // icewm re-fits no maximized window when a strut shrinks (docs/x11.md): its work area says it.
            #expect(windowManager == .icewm || fixture.run { Self.fills(client, in: observer, Self.besideDocks) }, "client at \(observer.geometry(of: client).map(\.description) ?? "nowhere")")
        }

        @Test func aLongTitleIsEllipsizedToTheBannersWidthNotTheMonitors() throws {
            let fixture = try Fixture()
            let (left, right) = try Self.docks(on: fixture)
            defer { left.close(); right.close() }
            #expect(fixture.run { fixture.display.panels.sidePanels.count == 2 })
            fixture.host.compactPolicy = .never
            let title = String(repeating: "Synchronising the shared folders ", count: 8)
            try fixture.host.presentTopBanner { $0.title(title).backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && !fixture.host.isAnimating })
            let drawn = try #require(fixture.host.drawnTitle)
            #expect(drawn.text.hasSuffix("…"))
            let room = BannerLayout.maximumTitleWidth(monitorWidth: 1168, scale: fixture.display.pixelsPerPoint)
            #expect(drawn.line.width <= room && drawn.line.width > room - 40, "title \(drawn.line.width) px in \(room)")
            #expect(drawn.x >= 0 && drawn.x + drawn.line.width <= 1168)
            // On screen, the text stays between the docks.
            #expect(fixture.waitUntilBannerIsOnTop())
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            let columns = shot.columns(matching: Self.white, tolerance: 40)
            #expect((columns.first ?? 0) > 48 && (columns.last ?? 1280) < 1216, "text spans \(columns.first ?? -1)...\(columns.last ?? -1)")
        }

        @Test func bannerFollowsSidePanelsThatComeAndGoWhileItShows() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Following").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80) })

            // A right dock appears: the banner ends left of it, with a new reservation.
            let right = try StandInPanel(displayName: fixture.desktop.displayName, edge: .right, x: 1216, y: 0, width: 64, height: 800, colour: Self.rightColour)
            defer { right.close() }
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1216, height: 80)
                    && observer.windows(named: "window-banner-reservation").first
                        .flatMap { observer.cardinals($0, "_NET_WM_STRUT_PARTIAL") } == [0, 0, 80, 0, 0, 0, 0, 0, 0, 1215, 0, 0]
                    && observer.workAreas().first == Rect(x: 0, y: 80, width: 1216, height: 720)
            }, "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere"), work area \(observer.workAreas())")
            #expect(fixture.waitUntilBannerIsOnTop())
            let shot = try #require(observer.screenshot(Rect(x: 1200, y: 0, width: 80, height: 80)))
            #expect(shot.pixel(x: 1215, y: 40) == Self.red && shot.pixel(x: 1216, y: 40) == right.colour)

            // A left dock that starts below the banner changes nothing; grown to the top, it does.
            let left = try StandInPanel(displayName: fixture.desktop.displayName, edge: .left, x: 0, y: 200, width: 48, height: 600, colour: Self.leftColour)
            defer { left.close() }
            #expect(fixture.run { observer.workAreas().first?.x == 48 && fixture.display.panels.sidePanels.count == 2 })
            #expect(fixture.run { !fixture.host.isAnimating })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1216, height: 80))
            left.close()
            let tall = try StandInPanel(displayName: fixture.desktop.displayName, edge: .left, x: 0, y: 0, width: 48, height: 800, colour: Self.leftColour)
            defer { tall.close() }
            #expect(fixture.run { fixture.bannerGeometry == Rect(x: 48, y: 0, width: 1168, height: 80) },
                    "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere")")

            // Both go: the banner spans the monitor again, and so does its reservation.
            tall.remove()
            right.remove()
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80)
                    && observer.workAreas().first == Rect(x: 0, y: 80, width: 1280, height: 720)
            }, "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere"), work area \(observer.workAreas())")
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            #expect(observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 80, 0, 0, 0, 0, 0, 0, 1279, 0, 0])
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// tint2, Debian's, as a vertical panel 48 px wide along `side` (`left` or `right`).
        static func startTint2(on fixture: Fixture, side: String) throws -> Subprocess {
            let config = fixture.desktop.home + "/tint2rc"
            guard let file = fopen(config, "w") else { throw TestFailure("cannot write \(config)") }
            fputs("""
                rounded = 0
                border_width = 0
                background_color = #208040 100
                panel_items = T
                panel_position = center \(side) vertical
                panel_size = 100% 48
                panel_margin = 0 0
                panel_padding = 0 0 0
                panel_background_id = 1
                panel_layer = top
                strut_policy = follow_size
                panel_dock = 0
                wm_menu = 0
                taskbar_background_id = 0
                taskbar_active_background_id = 0
                task_background_id = 0

                """, file)
            fclose(file)
            return try fixture.desktop.start(["tint2", "-c", config])
        }

        @Test func aRealVerticalPanelStaysVisibleBesideTheBanner() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let tint2 = try Self.startTint2(on: fixture, side: "left")
            defer { withExtendedLifetime(tint2) {} }
            #expect(fixture.run(timeout: 20) { observer.workAreas().first == Rect(x: 48, y: 0, width: 1232, height: 800) },
                    "tint2 reserved \(observer.workAreas())")
            let green = Pixel(hex: 0x208040)

            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Beside tint2").backgroundColor(.systemRed) }
            #expect(fixture.run {
                fixture.host.phase == .presented && fixture.bannerGeometry == Rect(x: 48, y: 0, width: 1232, height: 80)
                    && observer.workAreas().first == Rect(x: 48, y: 80, width: 1232, height: 720)
            }, "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere"), work area \(observer.workAreas())")
            #expect(fixture.waitUntilBannerIsOnTop())
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 100, height: 80)))
            for y in [0, 40, 79] {
                #expect(shot.pixel(x: 2, y: y) == green && shot.pixel(x: 47, y: y) == green, "row \(y): \(observer.describeStack())")
                #expect(shot.pixel(x: 48, y: y) == Self.red, "row \(y)")
            }

            // tint2 quits while the banner shows: the banner takes the whole width again.
            tint2.signal(SIGTERM)
            #expect(tint2.waitForExit() != nil)
            #expect(fixture.run {
                fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80)
                    && observer.workAreas().first == Rect(x: 0, y: 80, width: 1280, height: 720)
            }, "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere"), work area \(observer.workAreas())")
        }
    }
}
