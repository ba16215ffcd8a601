// The rounded bottom corners: the radius as written (and every bad form), how it is clamped
// to the banner, and the outline the X layer gives XShape while the banner slides.

import BannerCore
import Testing

@Suite("Rounded corners: values and the outline")
struct CornerShapeTests {
    @Test func radiusFromFlagsAndBuilder() throws {
        #expect(try AppearanceSettings(cornerRadius: "12.5").appearance().cornerRadius == 12.5)
        #expect(try AppearanceSettings().appearance().cornerRadius == 0)
        #expect(try TopBannerConfigBuilder().cornerRadius(1000).build().cornerRadius == 1000)
    }

    @Test(arguments: ["-1", "nan", "inf", "1001", "twelve", "", "12pt"])
    func badRadiiAreRefused(written: String) {
        #expect(throws: BannerValueError.cornerRadius(written)) { try AppearanceSettings(cornerRadius: written).appearance() }
    }

    @Test func builderRefusesNegativeAndNaN() {
        #expect(throws: BannerValueError.cornerRadius("-3")) { try TopBannerConfigBuilder().cornerRadius(-3).build() }
        #expect(throws: BannerValueError.cornerRadius("nan")) { try TopBannerConfigBuilder().cornerRadius(.nan).build() }
    }

    @Test func radiusIsClampedToHalfTheBanner() {
        #expect(BannerLayout.cornerRadius(12, scale: 1, bannerWidth: 1280, bannerHeight: 80) == 12)
        #expect(BannerLayout.cornerRadius(12, scale: 2, bannerWidth: 1280, bannerHeight: 160) == 24)
        #expect(BannerLayout.cornerRadius(100, scale: 1, bannerWidth: 1280, bannerHeight: 80) == 40)
        #expect(BannerLayout.cornerRadius(100, scale: 1, bannerWidth: 1280, bannerHeight: 18) == 9)
        #expect(BannerLayout.cornerRadius(100, scale: 1, bannerWidth: 30, bannerHeight: 80) == 15)
        #expect(BannerLayout.cornerRadius(0, scale: 1, bannerWidth: 1280, bannerHeight: 80) == 0)
    }

    /// Whether the outline covers pixel (x, y).
    static func covers(_ rects: [PixelRect], _ x: Int, _ y: Int) -> Bool {
        rects.contains { $0.contains(x: x, y: y) }
    }

    @Test func squareCornersAreOneRectangle() {
        #expect(BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 80, radius: 0)
            == [PixelRect(x: 0, y: 0, width: 1280, height: 80)])
    }

    @Test func bottomCornersAreCutAndTheRestIsKept() {
        let rects = BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 80, radius: 16)
        #expect(rects.first == PixelRect(x: 0, y: 0, width: 1280, height: 64))
        #expect(rects.count == 17)
        // Banded top to bottom, each row symmetric, narrowing towards the bottom edge.
        #expect(rects.map(\.y) == rects.map(\.y).sorted())
        for rect in rects { #expect(rect.x + rect.width == 1280 - rect.x) }
        #expect(zip(rects.dropFirst(), rects.dropFirst(2)).allSatisfy { $0.x <= $1.x })
        // The very corners are gone, the middle of the bottom edge and the top corners stay.
        #expect(!Self.covers(rects, 0, 79) && !Self.covers(rects, 1279, 79))
        #expect(!Self.covers(rects, 2, 77))
        #expect(Self.covers(rects, 640, 79))
        #expect(Self.covers(rects, 0, 0) && Self.covers(rects, 1279, 63))
        // The last row keeps the columns whose centres are inside the circle: 16 − 0.5 − √(16² − 15.5²) ≈ 11.5.
        #expect(rects.last == PixelRect(x: 12, y: 79, width: 1256, height: 1))
        #expect(rects[1] == PixelRect(x: 0, y: 64, width: 1280, height: 1))
    }

    @Test func whileSlidingTheOutlineFollowsTheBottomEdge() {
        // 5 rows showing: they are the banner's last 5 rows, the deepest part of the corners.
        let full = BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 80, radius: 16)
        let sliding = BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 5, radius: 16)
        #expect(sliding.count == 5)
        #expect(sliding.map(\.y) == [0, 1, 2, 3, 4])
        #expect(sliding.map(\.x) == full.suffix(5).map(\.x))
        // Half-way: the straight part is cut to what shows above the corners.
        let half = BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 40, radius: 16)
        #expect(half.first == PixelRect(x: 0, y: 0, width: 1280, height: 24))
        #expect(half.last?.y == 39)
        #expect(BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 80, visibleHeight: 0, radius: 16).isEmpty)
    }

    @Test func aRadiusOverHalfTheHeightDrawsAsHalf() {
        let rects = BannerLayout.roundedBottomShape(width: 1280, bannerHeight: 18, visibleHeight: 18, radius: 40)
        #expect(rects.first == PixelRect(x: 0, y: 0, width: 1280, height: 9))
        #expect(rects.count == 10)
    }
}
