// Fonts through fontconfig, for every backend: a core `BannerFont` becomes a fontconfig pattern,
// the pattern becomes a `FontStack` — the font fontconfig matched, followed by the fonts it sorts
// after it — and each cluster of text is given the first font of the stack that has all of it
// (colour emoji fonts first for emoji). TextShaping.swift shapes and orders the text with them.
// How a matched font is opened is the backend's (`FontOpener`): X11 opens it with Xft, which
// draws it; Wayland with FreeType, whose glyphs it draws itself. Either way HarfBuzz shapes with
// the opened font's own FreeType face, so both backends place the same glyphs.
// Stacks are cached per pattern and closed together when the display closes.

import BannerCore
import CText

/// How a backend opens the fonts fontconfig matched.
public protocol FontOpener: AnyObject {
    /// Completes a parsed request the way this backend renders (DPI, antialiasing, hinting),
    /// after fontconfig's own substitutions.
    func substituteDefaults(_ request: OpaquePointer)
    /// Opens the matched, render-prepared `pattern`, taking it over on success (the caller
    /// destroys it otherwise); nil when the font cannot be opened.
    func open(_ pattern: OpaquePointer) -> (any OpenFont)?
    /// Called once before every font is closed (the display is closing).
    func willCloseAll()
}

extension FontOpener {
    public func willCloseAll() {}
}

/// One face at one pixel size, as a backend opened it.
public protocol OpenFont: AnyObject {
    /// The pattern it was opened from (kept by the font).
    var pattern: OpaquePointer { get }
    /// Rows above and below the baseline, in pixels.
    var ascent: Int { get }
    var descent: Int { get }
    /// Calls `body` with the font's FreeType face while it may be used; nil when there is none.
    func withFace<Result>(_ body: (FT_Face) -> Result) -> Result?
    func close()
}

/// An open font: one face at one pixel size, and the HarfBuzz font that shapes text for it.
public final class LoadedFont {
    /// The backend's font (an Xft font on X11, a FreeType face on Wayland).
    public let opened: any OpenFont
    /// What fontconfig actually picked.
    public let matchedFamily: String
    /// A colour font (Noto Color Emoji's bitmaps): preferred for clusters shown as emoji.
    public let isColour: Bool
    /// The characters the font has (fontconfig's charset of the matched pattern).
    private let charset: OpaquePointer?
    private var shaper: OpaquePointer?
    private var shaperMade = false

    init(opened: any OpenFont, matchedFamily: String) {
        self.opened = opened
        self.matchedFamily = matchedFamily
        var colour = FcBool(FcFalse)
        isColour = FcPatternGetBool(opened.pattern, wb_FC_COLOR(), 0, &colour) == FcResultMatch && colour != FcBool(FcFalse)
        var charset: OpaquePointer?
        self.charset = FcPatternGetCharSet(opened.pattern, wb_FC_CHARSET(), 0, &charset) == FcResultMatch ? charset : nil
    }

    public var ascent: Int { opened.ascent }
    public var descent: Int { opened.descent }

    /// Whether the font has a glyph for `scalar` (its charset, as `XftCharExists` reads it).
    func has(_ scalar: Unicode.Scalar) -> Bool {
        guard let charset else { return false }
        return FcCharSetHasChar(charset, scalar.value) != 0
    }

    /// The HarfBuzz font that shapes for this one: its face is the opened font's FreeType face
    /// (referenced, so it outlives the backend closing the file), read through HarfBuzz's own
    /// OpenType functions at the font's pixel size in 26.6 units — unhinted, as `hb-shape`
    /// shapes the same file. Nil when the face cannot be had.
    var shapingFont: OpaquePointer? {
        if shaperMade { return shaper }
        shaperMade = true
        let pixelSize = self.pixelSize
        shaper = opened.withFace { face -> OpaquePointer? in
            guard let hbFace = hb_ft_face_create_referenced(face) else { return nil }
            defer { hb_face_destroy(hbFace) }
            guard let font = hb_font_create(hbFace) else { return nil }
            let scale = Int32((pixelSize * 64).rounded())
            hb_font_set_scale(font, scale, scale)
            // Bitmap fonts (colour emoji) pick their strike by ppem.
            let ppem = UInt32(pixelSize.rounded())
            hb_font_set_ppem(font, ppem, ppem)
            return font
        } ?? nil
        return shaper
    }

    /// The font file and the face's index in it (what `hb-shape` and `hb-view` are given).
    public var file: (path: String, index: Int)? {
        let pattern = opened.pattern
        var path: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, wb_FC_FILE(), 0, &path) == FcResultMatch, let path else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, wb_FC_INDEX(), 0, &index)
        return (String(cString: path), Int(index))
    }

    /// The size the font is drawn at: the pattern's pixel size, times the factor fontconfig
    /// scales a bitmap-only font's fixed strike by (Noto Color Emoji's 109 px strike drawn at 17).
    public var pixelSize: Double {
        let pattern = opened.pattern
        var size = 0.0
        guard FcPatternGetDouble(pattern, wb_FC_PIXEL_SIZE(), 0, &size) == FcResultMatch, size > 0 else {
            return Double(ascent + descent)
        }
        var factor = 1.0
        if FcPatternGetDouble(pattern, "pixelsizefixupfactor", 0, &factor) == FcResultMatch, factor > 0 {
            size *= factor
        }
        return size
    }

    func close() {
        if let shaper { hb_font_destroy(shaper) }
        shaper = nil
        opened.close()
    }
}

/// The font fontconfig matched for a pattern, then the fallbacks fontconfig sorts after it for the
/// same pattern (`FcFontSort`), opened on first use; and the lines of text shaped with them
/// (see TextShaping.swift), cached.
public final class FontStack {
    /// The matched font: draws every cluster it has, and the .notdef box for those no font has.
    public let primary: LoadedFont
    private unowned let opener: any FontOpener
    /// The request as written (`BannerFont.fontconfigPattern`).
    private let pattern: String
    /// The substituted request, which `FcFontRenderPrepare` completes into each fallback's
    /// pattern; made on first need when the primary font was a remembered one.
    var request: OpaquePointer? {
        if requestStorage == nil { requestStorage = FontLibrary.substitutedRequest(pattern, opener: opener) }
        return requestStorage
    }
    private var requestStorage: OpaquePointer?
    /// Where the primary font came from, and whether fontconfig has confirmed it.
    var provenance = Provenance.checked
    enum Provenance {
        /// Nothing left to compare or remember.
        case checked
        /// fontconfig matched it: remembered for the next process, once the first banner is out.
        case matched(request: String)
        /// Opened from the memory of an earlier process (`matched`, as remembered): fontconfig's
        /// own answer is still to be compared with it.
        case remembered(request: String, matched: String)
    }
    /// Every font in fontconfig's order for the request, untrimmed: the first font covering a
    /// character is the same as in the trimmed list, and a cluster (an emoji sequence, a letter
    /// with its marks) may need a font that covers all of it, which trimming can drop. Sorted on
    /// first need (`FcFontSort` ranks every installed font: most titles never need a fallback,
    /// and a first banner should not wait for one).
    private var sorted: UnsafeMutablePointer<FcFontSet>? {
        if !sortedMade, let request {
            sortedMade = true
            var result = FcResultNoMatch
            sortedFonts = FcFontSort(nil, request, FcBool(FcFalse), nil, &result)
        }
        return sortedFonts
    }
    private var sortedFonts: UnsafeMutablePointer<FcFontSet>?
    private var sortedMade = false
    private var opened: [Int: LoadedFont] = [:]
    private var unopenable: Set<Int> = []
    private var chosen: [Character: LoadedFont] = [:]
    /// Shaped lines by text and direction; see `shape(_:direction:)`.
    var shapedLines: [ShapedLine.Key: ShapedLine] = [:]
    /// HarfBuzz's buffer, reused for every run shaped with this stack.
    let buffer: OpaquePointer?

    init(primary: LoadedFont, pattern: String, request: OpaquePointer?, opener: any FontOpener) {
        self.primary = primary
        self.pattern = pattern
        requestStorage = request
        self.opener = opener
        buffer = hb_buffer_create()
    }

    /// The font a cluster (a user-perceived character: a letter and its marks, an emoji
    /// sequence) is shaped with, never split across two: a cluster shown as emoji takes the
    /// first colour font that has all of it; otherwise the primary font when it has all of it,
    /// else the first fallback that does, else the first that has its first character, else
    /// the primary (its .notdef box). Joiners and variation selectors need no glyph of their own.
    func font(for cluster: Character) -> LoadedFont {
        if let known = chosen[cluster] { return known }
        let needed = Array(cluster.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint })
        let font: LoadedFont
        if needed.isEmpty {
            font = primary
        } else if Self.isEmojiPresentation(cluster), let colour = fallback(covering: needed, colourOnly: true) {
            font = colour
        } else if needed.allSatisfy(primary.has) {
            font = primary
        } else {
            font = fallback(covering: needed, colourOnly: false) ?? fallback(covering: [needed[0]], colourOnly: false) ?? primary
        }
        chosen[cluster] = font
        return font
    }

    /// Whether `cluster` is shown as an emoji picture rather than as text: it asks to be
    /// (U+FE0F), its first character is one by default, or it is a sequence only emoji fonts
    /// form (a ZWJ sequence of emoji, a skin tone, a keycap, a flag's regional indicators).
    static func isEmojiPresentation(_ cluster: Character) -> Bool {
        let scalars = cluster.unicodeScalars
        guard let first = scalars.first, !scalars.contains("\u{FE0E}") else { return false }
        if scalars.contains("\u{FE0F}") || scalars.contains("\u{20E3}") || first.properties.isEmojiPresentation { return true }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        return scalars.count > 1 && first.properties.isEmoji
            && scalars.contains { $0.properties.isEmojiModifier || $0 == "\u{200D}" }
    }

    /// The first font of fontconfig's sorted list (colour fonts only, if asked) whose charset
    /// has every scalar of `scalars`, opened at the request's size.
    private func fallback(covering scalars: [Unicode.Scalar], colourOnly: Bool) -> LoadedFont? {
        guard let sorted, let fonts = sorted.pointee.fonts else { return nil }
        for index in 0..<Int(sorted.pointee.nfont) where !unopenable.contains(index) {
            guard let candidate = fonts[index] else { continue }
            if colourOnly {
                var colour = FcBool(FcFalse)
                guard FcPatternGetBool(candidate, wb_FC_COLOR(), 0, &colour) == FcResultMatch, colour != FcBool(FcFalse) else { continue }
            }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(candidate, wb_FC_CHARSET(), 0, &charset) == FcResultMatch,
                  scalars.allSatisfy({ FcCharSetHasChar(charset, $0.value) != 0 }) else { continue }
            if let font = opened[index] { return font }
            if let font = open(candidate) {
                opened[index] = font
                return font
            }
            unopenable.insert(index)
        }
        return nil
    }

    private func open(_ candidate: OpaquePointer) -> LoadedFont? {
        guard let request, let prepared = FcFontRenderPrepare(nil, request, candidate) else { return nil }
        let family = FontLibrary.family(of: prepared)
        // The opener owns `prepared` from here on, on success.
        guard let opened = opener.open(prepared) else {
            FcPatternDestroy(prepared)
            return nil
        }
        return LoadedFont(opened: opened, matchedFamily: family)
    }

    /// Closes every font of the stack and frees fontconfig's list.
    func close() {
        primary.close()
        for font in opened.values { font.close() }
        opened.removeAll()
        chosen.removeAll()
        shapedLines.removeAll()
        hb_buffer_destroy(buffer)
        if let sortedFonts { FcFontSetDestroy(sortedFonts) }
        if let requestStorage { FcPatternDestroy(requestStorage) }
    }
}
