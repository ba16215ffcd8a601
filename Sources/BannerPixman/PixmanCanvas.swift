// The pixman drawing layer of Wayland and GNOME, the sibling of BannerX11's Canvas: the banner
// asks for "fill", "glyph", "image", "round the corners" in buffer pixels; this file knows
// pixman's operators, premultiplied colours and FreeType's bitmap formats so nobody else has to.
// Both are always composited, so every pixel keeps its alpha and the corners are cut with
// anti-aliased edges.

import BannerCore
import CPixman
import CText

/// Draws into one buffer (premultiplied a8r8g8b8), `width`×`height` pixels: a frame's, valid
/// only inside the `draw` closure of BannerWayland's `LayerSurface.requestFrame(draw:)` that
/// received it, or a back buffer's.
public struct PixmanCanvas {
    /// The pixman image over the buffer's pixels.
    package let image: OpaquePointer
    /// The surface's rendered glyphs.
    private let glyphs: GlyphCache
    /// The buffer's width in pixels.
    public let width: Int
    /// The buffer's height in pixels.
    public let height: Int

    package init(image: OpaquePointer, width: Int, height: Int, glyphs: GlyphCache) {
        self.image = image
        self.width = width
        self.height = height
        self.glyphs = glyphs
    }

    /// Replaces every pixel with `colour`, alpha included.
    public func fill(_ colour: RGBA) {
        fill(PixelRect(x: 0, y: 0, width: width, height: height), with: colour, operator: PIXMAN_OP_SRC)
    }

    /// Paints `rect` with `colour` blended over what is there by its alpha (pixman's Over).
    public func fill(_ rect: PixelRect, with colour: RGBA) {
        guard colour.alpha > 0 else { return }
        fill(rect, with: colour, operator: PIXMAN_OP_OVER)
    }

    /// Makes rows `rows` fully transparent: what shows there is whatever is under the surface.
    public func clear(rows: Range<Int>) {
        fill(PixelRect(x: 0, y: rows.lowerBound, width: width, height: rows.count), with: RGBA(red: 0, green: 0, blue: 0, alpha: 0),
             operator: PIXMAN_OP_SRC)
    }

    private func fill(_ rect: PixelRect, with colour: RGBA, operator op: pixman_op_t) {
        // pixman's solid fills write where they are told: a rectangle reaching past the buffer
        // (a banner sliding in from above) is cut to it here.
        let left = max(rect.x, 0)
        let top = max(rect.y, 0)
        let right = min(rect.x + rect.width, width)
        let bottom = min(rect.y + rect.height, height)
        guard right > left, bottom > top else { return }
        var shade = Self.premultiplied(colour)
        var box = pixman_rectangle16_t(x: Int16(clamping: left), y: Int16(clamping: top),
                                       width: UInt16(clamping: right - left), height: UInt16(clamping: bottom - top))
        pixman_image_fill_rectangles(op, image, &shade, 1, &box)
    }

    /// Makes the bottom corners round: every pixel of the two corner squares is scaled by how
    /// much of it lies inside the outline (`BannerLayout.cornerCoverage`), with pixman's
    /// OutReverse through an A8 mask of what lies outside — the X11 canvas's rule, pixel for pixel.
    public func roundBottomCorners(radius: Int) {
        guard radius > 0, radius <= width / 2, radius <= height else { return }
        let inside = BannerLayout.cornerCoverage(radius: radius)
        let left = inside.map { 255 - $0 }
        let right = (0..<radius).flatMap { row in left[row * radius..<(row + 1) * radius].reversed() }
        for (outside, x) in [(left, 0), (right, width - radius)] {
            Self.withAlphaImage(outside, width: radius, height: radius) { mask in
                pixman_image_composite32(PIXMAN_OP_OUT_REVERSE, mask, nil, image, 0, 0, 0, 0,
                                         Int32(clamping: x), Int32(clamping: height - radius), Int32(clamping: radius), Int32(clamping: radius))
            }
        }
    }

    /// Draws glyph `glyph` of `face` (at the face's current size) with its origin at (`x`,
    /// `baseline`). An outline or bitmap glyph (an A8 or 1-bit mask) is painted in `colour`,
    /// blended by its alpha; a colour glyph (BGRA, emoji) keeps its own colours, faded by
    /// `colour`'s alpha, and is scaled from its bitmap strike to `pixelSize` when given (Noto
    /// Color Emoji has a single 109 px strike). Each glyph is rendered by FreeType once per
    /// surface (FT_LOAD_RENDER | FT_LOAD_COLOR) and kept; nothing for one it cannot load.
    public func glyph(_ glyph: UInt32, face: FT_Face, x: Int, baseline: Int, colour: RGBA, pixelSize: Double? = nil) {
        guard colour.alpha > 0, let rendered = glyphs.glyph(glyph, face: face) else { return }
        if rendered.isColour {
            // A size that is no size (NaN, ≤ 0) draws the strike as it is; no glyph grows past 64x.
            let factor = pixelSize.flatMap { size in
                size.isFinite && size > 0 && rendered.strikeSize > 0 ? min(size / rendered.strikeSize, 64) : nil
            } ?? 1
            composite(rendered.image, width: rendered.width, height: rendered.height, scale: factor,
                      x: x + Int((Double(rendered.left) * factor).rounded()),
                      y: baseline - Int((Double(rendered.top) * factor).rounded()), opacity: colour.alpha)
        } else {
            var shade = Self.premultiplied(colour)
            guard let source = pixman_image_create_solid_fill(&shade) else { return }
            defer { pixman_image_unref(source) }
            pixman_image_composite32(PIXMAN_OP_OVER, source, rendered.image, image, 0, 0, 0, 0,
                                     Int32(clamping: x + rendered.left), Int32(clamping: baseline - rendered.top),
                                     Int32(rendered.width), Int32(rendered.height))
        }
    }

    /// Composites `image` (premultiplied ARGB) with its top-left corner at (`x`, `y`), blended
    /// over what is there by its alpha times `opacity`.
    public func image(_ image: IconBitmap, x: Int, y: Int, opacity: Double) {
        guard image.width > 0, image.height > 0, opacity > 0 else { return }
        composite(image.pixels, width: image.width, height: image.height, x: x, y: y, opacity: opacity)
    }

    /// Composites premultiplied ARGB `pixels` at (`x`, `y`) through a solid mask of `opacity`.
    private func composite(_ pixels: [UInt32], width: Int, height: Int, x: Int, y: Int, opacity: Double) {
        var pixels = pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let source = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), buffer.baseAddress, Int32(width * 4)) else { return }
            defer { pixman_image_unref(source) }
            composite(source, width: width, height: height, scale: 1, x: x, y: y, opacity: opacity)
        }
    }

    /// Composites the a8r8g8b8 image `source`, scaled by `scale` (bilinear), at (`x`, `y`)
    /// through a solid mask of `opacity`. The scale is set on the image for this call only.
    private func composite(_ source: OpaquePointer, width: Int, height: Int, scale: Double, x: Int, y: Int, opacity: Double) {
        if scale != 1, scale > 0 {
            // pixman's transform maps destination pixels back to source ones.
            var transform = pixman_transform()
            let inverse = pixman_fixed_t((65536 / scale).rounded())
            pixman_transform_init_scale(&transform, inverse, inverse)
            pixman_image_set_transform(source, &transform)
            pixman_image_set_filter(source, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        defer {
            if scale != 1, scale > 0 {
                pixman_image_set_transform(source, nil)
                pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0)
            }
        }
        var fade = pixman_color_t(red: 0, green: 0, blue: 0, alpha: Self.sixteenBits(opacity))
        let mask = opacity < 1 ? pixman_image_create_solid_fill(&fade) : nil
        defer { if let mask { pixman_image_unref(mask) } }
        pixman_image_composite32(PIXMAN_OP_OVER, source, mask, image, 0, 0, 0, 0, Int32(clamping: x), Int32(clamping: y),
                                 Int32(clamping: Int((Double(width) * scale).rounded())), Int32(clamping: Int((Double(height) * scale).rounded())))
    }

    /// Runs `body` with an A8 pixman image of `alpha` (`width` bytes a row), copied into rows
    /// padded to 4 bytes as pixman wants them.
    private static func withAlphaImage(_ alpha: [UInt8], width: Int, height: Int, _ body: (OpaquePointer) -> Void) {
        let stride = (width + 3) & ~3
        var padded = [UInt32](repeating: 0, count: stride * height / 4)
        padded.withUnsafeMutableBytes { bytes in
            for row in 0..<height {
                for column in 0..<width { bytes[row * stride + column] = alpha[row * width + column] }
            }
            guard let base = bytes.baseAddress,
                  let mask = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), base.assumingMemoryBound(to: UInt32.self), Int32(stride))
            else { return }
            defer { pixman_image_unref(mask) }
            body(mask)
        }
    }

    /// `value` within 0…1; 0 for NaN, which no comparison would move.
    private static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// `value` (0…1) in 16 bits, as pixman's colours hold it.
    private static func sixteenBits(_ value: Double) -> UInt16 {
        UInt16((unit(value) * 65535).rounded())
    }

    /// `colour` as pixman wants it: 16 bits a channel, premultiplied by its alpha.
    private static func premultiplied(_ colour: RGBA) -> pixman_color_t {
        let alpha = Self.unit(colour.alpha)
        func channel(_ value: Double) -> UInt16 { sixteenBits(unit(value) * alpha) }
        return pixman_color_t(red: channel(colour.red), green: channel(colour.green), blue: channel(colour.blue),
                              alpha: sixteenBits(alpha))
    }
}
