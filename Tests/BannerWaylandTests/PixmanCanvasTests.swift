// The Wayland canvas pixel by pixel, without a compositor: what it writes into a buffer is what
// the compositor shows (premultiplied ARGB), so straight colours, the corners' coverage, glyphs
// and icons are checked exactly here, and the screenshots on sway check they reach the screen.

import BannerCore
import BannerPixman
@testable import BannerWayland
import CPixman
import CWayland
import Testing

extension BannerWaylandTests {
    @Suite("Pixman canvas")
    struct PixmanCanvasTests {
        /// A premultiplied a8r8g8b8 buffer in this process, and a canvas over it.
        final class Buffer {
            let width: Int
            let height: Int
            let pixels: UnsafeMutablePointer<UInt32>
            private let image: OpaquePointer
            private let glyphs = GlyphCache()

            init(width: Int, height: Int) throws {
                self.width = width
                self.height = height
                pixels = .allocate(capacity: width * height)
                pixels.initialize(repeating: 0, count: width * height)
                image = try #require(pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels, Int32(width * 4)))
            }

            deinit {
                pixman_image_unref(image)
                pixels.deallocate()
            }

            var canvas: PixmanCanvas { PixmanCanvas(image: image, width: width, height: height, glyphs: glyphs) }

            func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

            /// The rows holding a pixel that is not transparent.
            var inkedRows: [Int] { (0..<height).filter { y in (0..<width).contains { pixel($0, y) >> 24 != 0 } } }
        }

        @Test func fillsAreStraightColoursStoredPremultiplied() throws {
            let buffer = try Buffer(width: 8, height: 8)
            buffer.canvas.fill(RGBA(red: 0, green: 0, blue: 1, alpha: 1))
            #expect(buffer.pixel(0, 0) == 0xFF00_00FF)
            // Half-transparent red over opaque blue: Over, per channel.
            buffer.canvas.fill(PixelRect(x: 0, y: 0, width: 4, height: 4), with: RGBA(red: 1, green: 0, blue: 0, alpha: 0.5))
            #expect(buffer.pixel(1, 1) == 0xFF80_007F)
            #expect(buffer.pixel(5, 5) == 0xFF00_00FF)
            // The whole-buffer fill replaces, alpha included: premultiplied.
            buffer.canvas.fill(RGBA(red: 1, green: 1, blue: 1, alpha: 0.5))
            #expect(buffer.pixel(7, 7) == 0x8080_8080)
        }

        @Test func rectanglesReachingPastTheBufferAreCut() throws {
            let buffer = try Buffer(width: 8, height: 8)
            buffer.canvas.fill(PixelRect(x: -4, y: 6, width: 100, height: 100), with: RGBA(red: 1, green: 0, blue: 0))
            #expect(buffer.inkedRows == [6, 7])
            buffer.canvas.fill(PixelRect(x: Int.min / 2, y: Int.max / 2, width: Int.max / 2, height: 5), with: RGBA(red: 1, green: 0, blue: 0))
            #expect(buffer.inkedRows == [6, 7])
        }

        @Test func clearedRowsAreTransparent() throws {
            let buffer = try Buffer(width: 4, height: 6)
            buffer.canvas.fill(RGBA(red: 1, green: 0, blue: 0))
            buffer.canvas.clear(rows: 0..<2)
            #expect(buffer.inkedRows == [2, 3, 4, 5])
        }

        /// The corners keep exactly the share of each pixel inside the outline, as the X11 canvas
        /// does with the same coverage table.
        @Test func roundCornersScaleEachPixelByItsCoverage() throws {
            let buffer = try Buffer(width: 40, height: 20)
            let radius = 8
            buffer.canvas.fill(RGBA(red: 1, green: 1, blue: 1))
            buffer.canvas.roundBottomCorners(radius: radius)
            let coverage = BannerLayout.cornerCoverage(radius: radius)
            for row in 0..<radius {
                for column in 0..<radius {
                    let expected = Int(coverage[row * radius + column])
                    let left = Int(buffer.pixel(column, 20 - radius + row) >> 24)
                    let right = Int(buffer.pixel(39 - column, 20 - radius + row) >> 24)
                    #expect(abs(left - expected) <= 1, "left corner (\(column), \(row)): \(left), not \(expected)")
                    #expect(abs(right - expected) <= 1, "right corner (\(column), \(row)): \(right), not \(expected)")
                }
            }
            #expect(buffer.pixel(20, 19) == 0xFFFF_FFFF)
            #expect(buffer.pixel(0, 0) == 0xFFFF_FFFF)
        }

        @Test func glyphsAreTintedMasksAndColourGlyphsKeepTheirColours() throws {
            let text = try TestFace(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", pixelSize: 32)
            let buffer = try Buffer(width: 64, height: 48)
            buffer.canvas.glyph(text.glyph("H"), face: text.face, x: 4, baseline: 40, colour: RGBA(red: 1, green: 0, blue: 0))
            let ink = (0..<48).flatMap { y in (0..<64).map { buffer.pixel($0, y) } }.filter { $0 != 0 }
            #expect(ink.contains(0xFFFF_0000), "no solid red pixel in the H")
            // Every pixel is red at some coverage: premultiplied, red equals alpha.
            #expect(ink.allSatisfy { (pixel: UInt32) -> Bool in pixel >> 24 == (pixel >> 16) & 0xFF && pixel & 0xFFFF == 0 })
            // The H stands on the baseline: its lowest inked row is the one above it.
            #expect(buffer.inkedRows.last == 39)

            let emoji = try TestFace(path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", pixelSize: 32)
            let colour = try Buffer(width: 64, height: 64)
            colour.canvas.glyph(emoji.glyph("\u{1F600}"), face: emoji.face, x: 8, baseline: 48, colour: RGBA(red: 0, green: 0, blue: 1),
                                pixelSize: 32)
            // Drawn from its 109 px strike at 32 px: about 32 rows, in its own (yellow) colours.
            let rows = colour.inkedRows
            #expect((30...40).contains(rows.count), "the emoji is \(rows.count) rows tall")
            let yellow = (0..<64).flatMap { y in (0..<64).map { colour.pixel($0, y) } }.filter { (pixel: UInt32) -> Bool in
                let (alpha, red, green, blue) = (pixel >> 24, (pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
                return alpha == 0xFF && red > 0xC0 && green > 0x90 && blue < 0x60
            }
            #expect(yellow.count > 100)
        }

        @Test func imagesAreCompositedAtTheirOpacity() throws {
            let buffer = try Buffer(width: 4, height: 4)
            let red = IconBitmap(width: 2, height: 2, premultiplied: Array(repeating: 0xFFFF_0000, count: 4))
            buffer.canvas.image(red, x: 1, y: 1, opacity: 0.5)
            #expect(buffer.pixel(1, 1) == 0x8080_0000)
            #expect(buffer.pixel(2, 2) == 0x8080_0000)
            #expect(buffer.pixel(0, 0) == 0)
            #expect(buffer.pixel(3, 3) == 0)
        }

        /// Values no style should produce (NaN, out of range, an absurd glyph size) draw
        /// something sane instead of trapping.
        @Test func valuesOutOfRangeNeverTrap() throws {
            let buffer = try Buffer(width: 8, height: 8)
            buffer.canvas.fill(RGBA(red: .nan, green: 2, blue: -1, alpha: .nan))
            buffer.canvas.fill(PixelRect(x: 0, y: 0, width: 8, height: 8), with: RGBA(red: .infinity, green: 0, blue: 0, alpha: 1))
            #expect(buffer.pixel(0, 0) == 0xFFFF_0000)
            buffer.canvas.image(IconBitmap(width: 1, height: 1, premultiplied: [0xFF00_FF00]), x: Int.max, y: Int.min, opacity: .nan)
            let emoji = try TestFace(path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", pixelSize: 32)
            for size in [Double.nan, -1, 0, .infinity, 1e300] {
                buffer.canvas.glyph(emoji.glyph("\u{1F600}"), face: emoji.face, x: 0, baseline: 8, colour: RGBA(red: 1, green: 1, blue: 1),
                                    pixelSize: size)
            }
            buffer.canvas.roundBottomCorners(radius: Int.max)
            buffer.canvas.roundBottomCorners(radius: -3)
        }
    }
}
