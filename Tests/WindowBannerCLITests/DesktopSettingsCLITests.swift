// The desktop's XSETTINGS through the command line, with Debian's xsettingsd as the manager
// before the owner starts: a high-contrast GTK theme gives the built-in styles their
// high-contrast colours (a flag still wins), and animations turned off make `show` appear
// without a slide.

import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: the desktop's XSETTINGS")
    struct DesktopSettingsCLITests {
        @Test func aHighContrastThemeGivesTheBuiltInStylesHighContrastColoursAndFlagsStillWin() throws {
            let owner = try OwnerFixture()
            let manager = try XSettingsManager(owner.fixture.desktop, "Net/ThemeName \"HighContrast\"\n")
            try owner.show(["--style", "offline", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            var shot = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: 5, y: 40) == Pixel(hex: 0x9B0000), "\(shot.pixel(x: 5, y: 40))")
            // The title is white on it.
            #expect(shot.count(matching: Pixel(hex: 0xFFFFFF), tolerance: 0) > 100)

            try owner.show(["--style", "offline", "--compact", "never", "--background", "#003380"])
            #expect(owner.observer.wait {
                owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80))?.pixel(x: 5, y: 40) == Pixel(hex: 0x003380)
            })
            shot = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.count(matching: Pixel(hex: 0xFFFFFF), tolerance: 0) > 100)
            manager.stop()
        }

        /// The banner window's vertical positions as the server saw them while `show` brought
        /// it in, with `animations` as the desktop's `Gtk/EnableAnimations`.
        static func positionsOnTheWayIn(animations: Int) throws -> [Int] {
            let owner = try OwnerFixture()
            let manager = try XSettingsManager(owner.fixture.desktop, "Gtk/EnableAnimations \(animations)\n")
            owner.fixture.startRecordingMaps()
            try owner.show(["--title", "Motion", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let banner = try #require(owner.observer.windows(named: "window-banner").first)
            let positions = owner.observer.configures.filter { $0.window == UInt(banner) }.map(\.y)
            manager.stop()
            return positions
        }

        @Test func animationsTurnedOffMakeShowAppearWithoutASlide() throws {
            let sliding = try Self.positionsOnTheWayIn(animations: 1)
            #expect(sliding.contains { $0 < 0 && $0 > -80 }, "\(sliding)")
            let still = try Self.positionsOnTheWayIn(animations: 0)
            #expect(still.allSatisfy { $0 == 0 }, "\(still)")
        }
    }
}
