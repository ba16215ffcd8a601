// The icon as the core sees it: what a written value means, which of a theme's sizes is
// taken, how pixels are premultiplied and scaled, and where the icon goes beside the text.

import BannerCore
import Testing

@Suite("Icons: values, theme sizes, pixels, layout")
struct IconTests {
    @Test func aValueIsAFileANameOrNone() throws {
        #expect(try BannerIcon.parse("/usr/share/pixmaps/xterm.png") == .file("/usr/share/pixmaps/xterm.png"))
        #expect(try BannerIcon.parse("icons/offline.svg") == .file("icons/offline.svg"))
        #expect(try BannerIcon.parse("offline.PNG") == .file("offline.PNG"))
        #expect(try BannerIcon.parse("network-offline") == .named("network-offline"))
        #expect(try BannerIcon.parse("none") == nil)
    }

    @Test(arguments: ["", "bad\u{0}name", "line\nbreak", String(repeating: "a", count: 4097)])
    func badValuesAreRefused(written: String) {
        #expect(throws: BannerValueError.icon(written)) { try AppearanceSettings(icon: written).appearance() }
    }

    @Test func noneOverridesAStylesIcon() throws {
        let style = AppearanceSettings(icon: "window-banner-offline")
        #expect(try style.appearance().icon == .named("window-banner-offline"))
        #expect(try style.overlaid(by: AppearanceSettings(icon: "none")).appearance().icon == nil)
        #expect(try style.overlaid(by: AppearanceSettings(icon: "/tmp/mine.png")).appearance().icon == .file("/tmp/mine.png"))
    }

    @Test func compactKeepsTheIconAndTheCorners() throws {
        let look = try TopBannerConfigBuilder().title("Offline").icon(.named("network-offline")).cornerRadius(12).build()
        #expect(look.compact.icon == .named("network-offline"))
        #expect(look.compact.cornerRadius == 12)
    }

    // MARK: Theme sizes

    @Test func sizeDirectoriesReadAsPixels() {
        #expect(IconThemeRule.pixelSize(ofDirectory: "48x48") == 48)
        #expect(IconThemeRule.pixelSize(ofDirectory: "24x24@2") == 48)
        #expect(IconThemeRule.pixelSize(ofDirectory: "scalable") == nil)
        #expect(IconThemeRule.pixelSize(ofDirectory: "symbolic") == nil)
        #expect(IconThemeRule.pixelSize(ofDirectory: "48x32") == nil)
        #expect(IconThemeRule.pixelSize(ofDirectory: "0x0") == nil)
        #expect(IconThemeRule.pixelSize(ofDirectory: "16x16@x") == nil)
    }

    @Test func theSmallestSizeAtLeastAsBigAsNeededComesFirst() {
        #expect(IconThemeRule.preferenceOrder([256, 16, 48, 24, 32, 48], needed: 30) == [32, 48, 256, 24, 16])
        #expect(IconThemeRule.preferenceOrder([16, 24], needed: 40) == [24, 16])
        #expect(IconThemeRule.preferenceOrder([22, 21, 64], needed: 21) == [21, 22, 64])
    }

    // MARK: Pixels

    @Test func straightAlphaIsPremultiplied() {
        let bitmap = IconBitmap(width: 2, height: 1, straightRGBA: [255, 0, 0, 128, 10, 20, 30, 255])
        #expect(bitmap.pixels == [0x8080_0000, 0xFF0A_141E])
    }

    @Test func uniformAreasKeepTheirExactColourWhenScaledDown() {
        // 64×64: the left half opaque blue, the right half red at 50 %.
        let blue: UInt32 = 0xFF00_00FF
        let halfRed: UInt32 = 0x8080_0000
        let pixels = (0..<64 * 64).map { $0 % 64 < 32 ? blue : halfRed }
        let scaled = IconBitmap(width: 64, height: 64, premultiplied: pixels).scaled(toSquare: 21)
        #expect(scaled.width == 21 && scaled.height == 21)
        for row in 0..<21 {
            #expect(scaled.pixels[row * 21 + 3] == blue)
            #expect(scaled.pixels[row * 21 + 17] == halfRed)
        }
        // The column across the edge is a mix, never darker than its parts allow.
        let edge = scaled.pixels[10 * 21 + 10]
        #expect(edge != blue && edge != halfRed)
        #expect(edge & 0xFF <= edge >> 24)
    }

    @Test func scalingAveragesPremultipliedPixels() {
        // One opaque white pixel among three transparent ones: a quarter-opaque white.
        let bitmap = IconBitmap(width: 2, height: 2, premultiplied: [0xFFFF_FFFF, 0, 0, 0]).scaled(toSquare: 1)
        #expect(bitmap.pixels == [0x4040_4040])
    }

    @Test func aWideImageIsCentredInItsSquare() {
        let wide = IconBitmap(width: 40, height: 20, premultiplied: .init(repeating: 0xFF00_FF00, count: 800)).scaled(toSquare: 20)
        #expect(wide.width == 20 && wide.height == 20)
        #expect(wide.pixels[0] == 0, "transparent above")
        #expect(wide.pixels[19 * 20] == 0, "transparent below")
        #expect(wide.pixels[10 * 20] == 0xFF00_FF00, "the image across the middle")
        #expect(wide.pixels.filter { $0 != 0 }.count == 20 * 10)
    }

    @Test func aSquareOfTheRightSizeIsKept() {
        let bitmap = IconBitmap(width: 3, height: 3, premultiplied: (0..<9).map { UInt32($0) << 24 })
        #expect(bitmap.scaled(toSquare: 3) == bitmap)
    }

    // MARK: Layout

    @Test func theIconIsAsTallAsTheTextBlock() {
        #expect(BannerLayout.iconSide(titleLine: 21, scale: 1) == 21)
        // Title line, 2 pt gap, subtitle line.
        #expect(BannerLayout.iconSide(titleLine: 21, subtitleLine: 16, scale: 1) == 39)
        #expect(BannerLayout.iconSide(titleLine: 42, subtitleLine: 32, scale: 2) == 78)
    }

    @Test func iconAndTextAreCentredTogether() {
        let columns = BannerLayout.leadingIcon(monitorWidth: 1280, side: 21, textWidth: 200, scale: 1)
        // 21 px icon, 8 px spacing, 200 px text: 229 px centred.
        #expect(columns.iconX == (1280 - 229) / 2)
        #expect(columns.textX == columns.iconX + 29)
        let left = columns.iconX
        let right = 1280 - (columns.textX + 200)
        #expect(abs(left - right) <= 1)
    }

    @Test func ellipsizingLeavesRoomForTheIcon() {
        let plain = BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1)
        let withIcon = BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1, leadingWidth: BannerLayout.iconLeadingWidth(side: 21, scale: 1))
        #expect(plain - withIcon == 29)
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 20, scale: 1, leadingWidth: 29) == 0)
    }

    @Test func theIconSitsOnTheMiddleOfTheTextBlock() {
        #expect(BannerLayout.iconTop(blockTop: 30, blockHeight: 21, side: 21) == 30)
        #expect(BannerLayout.iconTop(blockTop: 30, blockHeight: 25, side: 21) == 32)
    }
}
