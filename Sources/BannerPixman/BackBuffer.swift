// The look painter's canvas for the backends that draw with pixman (Wayland, GNOME): BannerRuntime
// paints a banner's content (background, text, buttons, icon, corners) on a back buffer the
// banner's size, once per change of content; on Wayland every frame of a slide then copies that
// buffer into the surface's shared-memory buffer at the row the slide has reached, as the X11
// backend moves a window over its back buffer; GNOME's extension is handed its pixels.

import BannerCore
import BannerRuntime
import CPixman
import CText

extension PixmanCanvas: BannerCanvas {
    /// Draws `line`'s glyphs with FreeType, each in its run's font, from `x` on `baseline`.
    public func text(_ line: ShapedLine, colour: RGBA, x: Int, baseline: Int) {
        for placed in line.glyphs {
            guard let font = placed.font.opened as? FreeTypeOpenFont else { continue }
            glyph(placed.glyph, face: font.face, x: x + placed.x, baseline: baseline + placed.y, colour: colour,
                  pixelSize: placed.font.isColour ? placed.font.pixelSize : nil)
        }
    }
}

/// Premultiplied a8r8g8b8 pixels in this process's memory, drawn on as a `PixmanCanvas`.
package final class BackBuffer {
    package let width: Int
    package let height: Int
    private let pixels: UnsafeMutablePointer<UInt32>
    private let image: OpaquePointer
    private let glyphs: GlyphCache

    package init?(width: Int, height: Int, glyphs: GlyphCache) {
        guard width > 0, height > 0 else { return nil }
        self.width = width
        self.height = height
        self.glyphs = glyphs
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0, count: width * height)
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels, Int32(width * 4)) else {
            pixels.deallocate()
            return nil
        }
        self.image = image
    }

    deinit {
        pixman_image_unref(image)
        pixels.deallocate()
    }

    package var canvas: PixmanCanvas { PixmanCanvas(image: image, width: width, height: height, glyphs: glyphs) }

    /// The pixels, `height` rows of `width` × 4 bytes, for the duration of `body`.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: pixels, count: width * height * 4))
    }

    /// Copies the buffer into `canvas` with its top row at `y` (negative: sliding in from above
    /// the surface's top edge), leaving every other pixel transparent.
    package func show(on canvas: PixmanCanvas, y: Int) {
        pixman_image_composite32(PIXMAN_OP_SRC, image, nil, canvas.image, 0, 0, 0, 0, 0, Int32(y), Int32(width), Int32(height))
        let below = y + height
        if y > 0 { canvas.clear(rows: 0..<y) }
        if below < canvas.height { canvas.clear(rows: max(below, 0)..<canvas.height) }
    }
}
