// The banner of a right-to-left locale: the same look mirrored — the icon right of the text
// (where reading starts), the action button and ✕ at the left edge (and clicks there), the
// progress bar filling from the right — while the text itself keeps its own direction.

import BannerCore
@testable import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Mirrored layout")
    struct MirroredLayoutTests {
        static let width = 1280

        /// The look with an icon, an action, a ✕ and a bar at 25 %, laid out `direction`.
        static func present(_ direction: LayoutDirection, on fixture: Fixture) throws -> (look: Screenshot, hit: BannerHitAreas, icon: PixelRect, titleX: Int, titleWidth: Int) {
            let icon = try IconDrawingTests.makeTwoToneIcon(fixture)
            let shot = try IconDrawingTests.present(on: fixture, title: "لا يوجد اتصال") { builder in
                builder.icon(.file(icon)).action("إعادة").closeButton().progress(0.25).layoutDirection(direction)
            }
            let hit = try #require(fixture.host.drawnHitAreas)
            let frame = try #require(fixture.host.drawnIconFrame)
            let title = try #require(fixture.host.drawnTitle)
            return (shot, hit, frame, title.x, title.line.width)
        }

        @Test func rightToLeftMirrorsIconButtonsAndBar() throws {
            let fixture = try Fixture()
            let ltr = try Self.present(.leftToRight, on: fixture)
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            let rtl = try Self.present(.rightToLeft, on: fixture)

            // Left to right: icon, then text; the buttons at the right edge.
            #expect(ltr.icon.x + ltr.icon.width <= ltr.titleX)
            #expect(try #require(ltr.hit.closeButton).x + 40 == Self.width)
            // Right to left: the mirror image.
            #expect(rtl.icon.x >= rtl.titleX + rtl.titleWidth, "icon \(rtl.icon), title from \(rtl.titleX), \(rtl.titleWidth) px")
            #expect(rtl.hit.closeButton == ltr.hit.closeButton.map { BannerLayout.mirrored($0, width: Self.width) })
            #expect(rtl.hit.actionButton == ltr.hit.actionButton.map { BannerLayout.mirrored($0, width: Self.width) })
            #expect(try #require(rtl.hit.closeButton).x == 0)
            #expect(rtl.icon == BannerLayout.mirrored(ltr.icon, width: Self.width))
            // The text ends where it started, beside the icon.
            #expect(rtl.titleX + rtl.titleWidth == Self.width - ltr.titleX)

            // Pixels: the icon's opaque blue half is now at the right of its square, so blue
            // columns sit right of the middle; the bar's filled quarter is at the right end.
            let blue = rtl.look.columns(matching: IconDrawingTests.blue, tolerance: 8)
            #expect(!blue.isEmpty && blue.allSatisfy { $0 > Self.width / 2 }, "blue columns \(blue.min() ?? -1)…\(blue.max() ?? -1)")
            let bottom = rtl.look.area.height - 1
            #expect(rtl.look.pixel(x: Self.width - 10, y: bottom) == Pixel(hex: 0xFFFFFF), "right end of the bar: \(rtl.look.pixel(x: Self.width - 10, y: bottom))")
            #expect(rtl.look.pixel(x: 10, y: bottom) != Pixel(hex: 0xFFFFFF), "left end of the bar: \(rtl.look.pixel(x: 10, y: bottom))")

            // A click on the ✕ at the left edge closes the banner.
            #expect(rtl.hit.reason(atX: 20, y: 40) == .closed)
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}
