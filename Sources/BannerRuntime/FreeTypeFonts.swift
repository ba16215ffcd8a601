// Fonts opened with FreeType alone, for a backend that draws glyphs itself (Wayland's shared-
// memory buffers): the same fontconfig match and the same face file as Xft would open on X11,
// set to the same pixel size, with Xft's rule for ascent and descent — so a banner is laid out
// alike on both backends.

import CText
import Glibc

/// Opens fonts with one FreeType library; lives as long as the fonts it opened.
public final class FreeTypeFontOpener: FontOpener {
    private var library: FT_Library?

    public init() {
        if FT_Init_FreeType(&library) != 0 { library = nil }
    }

    deinit {
        if let library { FT_Done_FreeType(library) }
    }

    public func substituteDefaults(_ request: OpaquePointer) {
        FcDefaultSubstitute(request)
    }

    public func open(_ pattern: OpaquePointer) -> (any OpenFont)? {
        guard let library else { return nil }
        var path: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, wb_FC_FILE(), 0, &path) == FcResultMatch, let path else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, wb_FC_INDEX(), 0, &index)
        var face: FT_Face?
        let opened = path.withMemoryRebound(to: CChar.self, capacity: 1) { FT_New_Face(library, $0, FT_Long(index), &face) }
        guard opened == 0, let face else { return nil }
        // The size the font is drawn at: the pattern's pixel size, times the factor fontconfig
        // gives a bitmap-only font's fixed strike (Noto Color Emoji: its 109 px strike, drawn at
        // the 17 px asked for) — what Xft draws it at.
        var pixelSize = 0.0
        if FcPatternGetDouble(pattern, wb_FC_PIXEL_SIZE(), 0, &pixelSize) != FcResultMatch || pixelSize <= 0 { pixelSize = 16 }
        var factor = 1.0
        if FcPatternGetDouble(pattern, "pixelsizefixupfactor", 0, &factor) == FcResultMatch, factor > 0 { pixelSize *= factor }
        guard FreeTypeOpenFont.setSize(face, pixelSize: pixelSize) else {
            FT_Done_Face(face)
            return nil
        }
        return FreeTypeOpenFont(face: face, pattern: pattern, pixelSize: pixelSize)
    }
}

/// A FreeType face at one pixel size.
public final class FreeTypeOpenFont: OpenFont {
    public let face: FT_Face
    public let pattern: OpaquePointer
    public let ascent: Int
    public let descent: Int

    init(face: FT_Face, pattern: OpaquePointer, pixelSize: Double) {
        self.face = face
        self.pattern = pattern
        // Xft's rule: the size's ascender rounded up and descender rounded down to whole
        // pixels; a bitmap strike's metrics scaled to the size it is drawn at.
        let metrics = face.pointee.size.pointee.metrics
        let strike = Double(metrics.y_ppem)
        let factor = wb_FT_IS_SCALABLE(face) != 0 || strike <= 0 ? 1 : pixelSize / strike
        ascent = Int((Double(metrics.ascender) / 64 * factor).rounded(.up))
        descent = Int((-Double(metrics.descender) / 64 * factor).rounded(.up))
    }

    /// Sets `face` to `pixelSize`: scalable outlines at that size, a bitmap-only font (colour
    /// emoji) at its strike nearest above it, scaled when drawn.
    static func setSize(_ face: FT_Face, pixelSize: Double) -> Bool {
        if wb_FT_IS_SCALABLE(face) != 0 {
            return FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0
        }
        let count = Int(face.pointee.num_fixed_sizes)
        guard count > 0, let sizes = face.pointee.available_sizes else { return false }
        let strikes = (0..<count).map { (index: $0, size: Double(sizes[$0].y_ppem) / 64) }
        let chosen = strikes.filter { $0.size >= pixelSize }.min { $0.size < $1.size } ?? strikes.max { $0.size < $1.size }
        guard let chosen else { return false }
        return FT_Select_Size(face, Int32(chosen.index)) == 0
    }

    public func withFace<Result>(_ body: (FT_Face) -> Result) -> Result? { body(face) }

    public func close() {
        FT_Done_Face(face)
        FcPatternDestroy(pattern)
    }
}
