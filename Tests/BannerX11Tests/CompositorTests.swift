// With a compositing manager (picom, Debian's package, on the test's Xvfb) the banner is drawn on
// a 32-bit ARGB visual: its rounded corners have anti-aliased edges, a `#RRGGBBAA` background
// shows the desktop through, and a compositor started or stopped while a banner shows is picked up
// by the next presentation. Without one, the XShape path stays (corners are all or nothing).

import BannerCore
@testable import BannerX11
import CX11
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Compositor")
    struct CompositorTests {
        static let desktop = Pixel(hex: 0x0000FF)
        static let red = Pixel(hex: 0xFF0000)

        static func fixture() throws -> Fixture {
            let fixture = try Fixture()
            fixture.observer.setWallpaper(desktop)
            fixture.host.compactPolicy = .never
            return fixture
        }

        /// Starts picom (no config file: no shadows, no fading) and waits until it owns the
        /// compositing selection.
        static func startCompositor(on fixture: Fixture) throws -> Subprocess {
            let picom = try fixture.desktop.start(["picom", "--config", "/dev/null", "--backend", "xrender", "--no-fading-openclose"])
            let owned = fixture.run(timeout: 20) { fixture.observer.selectionOwner("_NET_WM_CM_S0") != 0 }
            #expect(owned, "picom never owned _NET_WM_CM_S0: \(picom.standardError)")
            return picom
        }

        static func stop(_ picom: Subprocess, on fixture: Fixture) {
            picom.signal(SIGTERM)
            _ = picom.waitForExit(timeout: 10)
            #expect(fixture.run { fixture.observer.selectionOwner("_NET_WM_CM_S0") == 0 })
        }

        /// Dismisses the banner and waits until the window manager has given its space back.
        static func dismiss(on fixture: Fixture) {
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas().allSatisfy { $0.y == 0 } })
        }

        /// Pixels of the bottom-left corner's square that are neither the banner's red nor the
        /// desktop's blue: the blended edge.
        static func blendedCornerPixels(_ shot: Screenshot, bannerHeight: Int, radius: Int) -> Int {
            var count = 0
            for y in (bannerHeight - radius)..<bannerHeight {
                for x in 0..<radius {
                    let pixel = shot.pixel(x: x, y: y)
                    if pixel.distance(to: red) > 24, pixel.distance(to: desktop) > 24 { count += 1 }
                }
            }
            return count
        }

        /// Shows `look`, lets it settle, and returns the first screenshot of the banner's rows
        /// that `accept` takes (a compositor paints in its own time), or the last one.
        static func showAndCapture(
            _ fixture: Fixture, height: Int = 80, accept: (Screenshot) -> Bool, _ look: @escaping (inout TopBannerConfigBuilder) -> Void
        ) throws -> Screenshot {
            #expect(try fixture.presentAndSettle(height: height, look))
            var shot: Screenshot?
            fixture.run(timeout: 10) {
                shot = fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: height))
                return shot.map(accept) ?? false
            }
            return try #require(shot)
        }

        @Test func cornersAreAntialiasedOnlyWithACompositor() throws {
            let fixture = try Self.fixture()
            let radius = 16
            let rounded: (inout TopBannerConfigBuilder) -> Void = { $0.title("Rounded").backgroundColor(BannerColor(RGBA(hex: 0xFF0000))).cornerRadius(16) }

            // No compositor: XShape keeps or drops each pixel.
            let plain = try Self.showAndCapture(fixture, accept: { $0.pixel(x: 640, y: 79) == Self.red }, rounded)
            #expect(!fixture.host.drawsWithAlpha)
            #expect(Self.blendedCornerPixels(plain, bannerHeight: 80, radius: radius) == 0)
            #expect(plain.pixel(x: 0, y: 79) == Self.desktop)
            Self.dismiss(on: fixture)

            let picom = try Self.startCompositor(on: fixture)
            defer { Self.stop(picom, on: fixture) }
            let smooth = try Self.showAndCapture(fixture, accept: { $0.pixel(x: 640, y: 79) == Self.red && $0.pixel(x: 0, y: 79) == Self.desktop }, rounded)
            #expect(fixture.host.drawsWithAlpha)
            let blended = Self.blendedCornerPixels(smooth, bannerHeight: 80, radius: radius)
            // About one blended pixel per row and column along the arc.
            #expect(blended >= radius, "\(blended) blended pixels in the corner")
            #expect(smooth.pixel(x: 0, y: 79) == Self.desktop, "corner \(smooth.pixel(x: 0, y: 79))")
            #expect(smooth.pixel(x: 640, y: 79) == Self.red, "bottom edge \(smooth.pixel(x: 640, y: 79))")
            #expect(smooth.pixel(x: 1279, y: 79) == Self.desktop, "corner \(smooth.pixel(x: 1279, y: 79))")
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func aHalfTransparentBackgroundShowsTheDesktopThrough() throws {
            let fixture = try Self.fixture()
            let picom = try Self.startCompositor(on: fixture)
            let expected = Pixel(red: 128, green: 0, blue: 127)
            let translucent: (inout TopBannerConfigBuilder) -> Void = { $0.title("Half").backgroundColor(BannerColor(RGBA(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))) }
            let shot = try Self.showAndCapture(fixture, accept: { $0.pixel(x: 20, y: 40).distance(to: expected) <= 12 }, translucent)
            #expect(fixture.host.drawsWithAlpha)
            #expect(shot.pixel(x: 20, y: 40).distance(to: expected) <= 12, "background over the desktop: \(shot.pixel(x: 20, y: 40))")
            #expect(fixture.host.reservedHeight == 80)

            // Stopped while the banner shows: the next presentation is opaque again.
            Self.dismiss(on: fixture)
            Self.stop(picom, on: fixture)
            let opaque = try Self.showAndCapture(fixture, accept: { $0.pixel(x: 20, y: 40) == Self.red }, translucent)
            #expect(!fixture.host.drawsWithAlpha)
            #expect(opaque.pixel(x: 20, y: 40) == Self.red, "without a compositor: \(opaque.pixel(x: 20, y: 40))")
        }

        @Test func aCompositorStartedWhileABannerShowsIsUsedByTheNextOne() throws {
            let fixture = try Self.fixture()
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Before").backgroundColor(BannerColor(RGBA(hex: 0xFF0000))) })
            #expect(!fixture.host.drawsWithAlpha)
            let picom = try Self.startCompositor(on: fixture)
            defer { Self.stop(picom, on: fixture) }
            // The shown banner keeps its windows; an update cross-fades on them.
            try fixture.host.presentTopBanner { $0.title("Update").backgroundColor(BannerColor(RGBA(hex: 0xFF0000))) }
            #expect(fixture.run { !fixture.host.isAnimating })
            #expect(!fixture.host.drawsWithAlpha)
            Self.dismiss(on: fixture)
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("After").backgroundColor(BannerColor(RGBA(red: 1, green: 0, blue: 0, alpha: 0.5))) },
                    "phase \(fixture.host.phase), work area \(fixture.observer.workAreas()), stack \(fixture.observer.describeStack())")
            #expect(fixture.host.drawsWithAlpha)
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}
