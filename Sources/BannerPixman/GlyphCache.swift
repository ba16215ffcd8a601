// Glyphs rendered once: FreeType renders a glyph to a bitmap (an A8 coverage mask, or BGRA
// pixels for colour emoji) and the bitmap is kept as a pixman image, so a frame of a sliding
// banner composites what it drew before instead of rendering every glyph again (foot's fcft does
// the same). One cache per layer surface, bounded.

import CPixman
import CText

/// A glyph as pixman draws it: the image and where its top-left corner sits from the origin.
struct RenderedGlyph {
    /// An a8 coverage mask, or premultiplied a8r8g8b8 colour pixels; owned by the cache.
    let image: OpaquePointer
    let isColour: Bool
    let width: Int
    let height: Int
    /// From the pen position to the bitmap's left edge, and from the baseline up to its top.
    let left: Int
    let top: Int
    /// The face's pixel size when it was rendered (a colour strike's, scaled when drawn).
    let strikeSize: Double
}

/// The glyphs a surface drew, by face, size and glyph id; at most `capacity` of them. Faces are
/// known by address, so the fonts drawn with must stay open as long as the cache (BannerRuntime's
/// FontLibrary keeps them until the display closes); the face's glyph count and units per em are
/// part of the key too, so a face opened later at a freed one's address is not taken for it.
package final class GlyphCache {
    private struct Key: Hashable {
        let face: UnsafeMutableRawPointer
        let glyphCount: Int
        let unitsPerEm: UInt16
        let xPixels: UInt16
        let yPixels: UInt16
        let glyph: UInt32
    }

    private var glyphs: [Key: RenderedGlyph?] = [:]
    private let capacity: Int

    package init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// Glyph `glyph` of `face` at the face's current size, rendered with FT_LOAD_RENDER |
    /// FT_LOAD_COLOR on first use; nil for a glyph FreeType cannot load or that draws nothing.
    func glyph(_ glyph: UInt32, face: FT_Face) -> RenderedGlyph? {
        let metrics = face.pointee.size.pointee.metrics
        let key = Key(face: UnsafeMutableRawPointer(face), glyphCount: Int(face.pointee.num_glyphs), unitsPerEm: face.pointee.units_per_EM,
                      xPixels: metrics.x_ppem, yPixels: metrics.y_ppem, glyph: glyph)
        if let cached = glyphs[key] { return cached }
        // A full cache is emptied rather than kept in order: a banner's glyphs come back at once.
        if glyphs.count >= capacity { removeAll() }
        let rendered = Self.render(glyph, face: face)
        glyphs[key] = rendered
        return rendered
    }

    private static func render(_ glyph: UInt32, face: FT_Face) -> RenderedGlyph? {
        guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_RENDER | FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        let columns = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        guard columns > 0, rows > 0, let pixels = bitmap.buffer else { return nil }
        let pitch = Int(bitmap.pitch)
        let mode = UInt32(bitmap.pixel_mode)
        let isColour = mode == FT_PIXEL_MODE_BGRA.rawValue
        guard isColour || mode == FT_PIXEL_MODE_GRAY.rawValue || mode == FT_PIXEL_MODE_MONO.rawValue,
              // pixman allocates the bits itself (rows padded to 4 bytes) when given none.
              let image = pixman_image_create_bits(isColour ? PIXMAN_a8r8g8b8 : PIXMAN_a8, Int32(columns), Int32(rows), nil, 0),
              let data = pixman_image_get_data(image) else { return nil }
        let stride = Int(pixman_image_get_stride(image))
        let target = UnsafeMutableRawPointer(data)
        for row in 0..<rows {
            // FreeType's pitch is negative for bottom-up bitmaps: rows still start at buffer + row·pitch.
            let line = pixels.advanced(by: row * pitch)
            let out = target.advanced(by: row * stride)
            for column in 0..<columns {
                switch mode {
                case FT_PIXEL_MODE_BGRA.rawValue:
                    // FreeType's BGRA is premultiplied, bytes B, G, R, A: a8r8g8b8 on a little-endian host.
                    let byte = line.advanced(by: column * 4)
                    out.storeBytes(of: UInt32(byte[3]) << 24 | UInt32(byte[2]) << 16 | UInt32(byte[1]) << 8 | UInt32(byte[0]),
                                   toByteOffset: column * 4, as: UInt32.self)
                case FT_PIXEL_MODE_MONO.rawValue:
                    let set = line[column >> 3] & (0x80 >> UInt8(column & 7)) != 0
                    out.storeBytes(of: set ? 255 : 0, toByteOffset: column, as: UInt8.self)
                default:
                    out.storeBytes(of: line[column], toByteOffset: column, as: UInt8.self)
                }
            }
        }
        return RenderedGlyph(image: image, isColour: isColour, width: columns, height: rows,
                             left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                             strikeSize: Double(face.pointee.size.pointee.metrics.y_ppem))
    }

    private func removeAll() {
        for case let rendered? in glyphs.values { pixman_image_unref(rendered.image) }
        glyphs.removeAll()
    }

    deinit { removeAll() }
}
