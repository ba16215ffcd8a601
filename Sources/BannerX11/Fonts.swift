// Fonts through fontconfig and Xft: a core `BannerFont` becomes a fontconfig pattern, the
// pattern becomes an open XftFont, and text is measured in pixels. Open fonts are cached per
// pattern and destroyed together when the display closes (see `closeAll` for why "destroyed").

import CX11
import BannerCore

/// An open Xft font.
final class LoadedFont {
    let handle: UnsafeMutablePointer<XftFont>
    /// What fontconfig actually picked.
    let matchedFamily: String
    private unowned let connection: XConnection

    init(handle: UnsafeMutablePointer<XftFont>, matchedFamily: String, connection: XConnection) {
        self.handle = handle
        self.matchedFamily = matchedFamily
        self.connection = connection
    }

    var ascent: Int { Int(handle.pointee.ascent) }
    var descent: Int { Int(handle.pointee.descent) }
    var lineHeight: Int { ascent + descent }

    /// Advance width of `text` in pixels.
    func width(of text: String) -> Int {
        var extents = XGlyphInfo()
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            XftTextExtentsUtf8(connection.display, handle, buffer.baseAddress, Int32(buffer.count), &extents)
        }
        return Int(extents.xOff)
    }

    func close() { XftFontClose(connection.display, handle) }
}

/// Opens fonts on demand and keeps them until `closeAll`.
final class FontLibrary {
    private unowned let connection: XConnection
    private var open: [String: LoadedFont] = [:]
    /// Warnings about substituted families, reported once each.
    private(set) var warnedFamilies: Set<String> = []
    var warn: (String) -> Void = { _ in }

    init(connection: XConnection) { self.connection = connection }

    /// Generic fontconfig names that never match a family of the same name.
    private static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji"]

    /// The font for `font` at `scale` pixels per point.
    func font(_ font: BannerFont, scale: Double) throws(BannerValueError) -> LoadedFont {
        let pattern = font.fontconfigPattern(pixelsPerPoint: scale)
        if let cached = open[pattern] { return cached }
        guard let parsed = FcNameParse(pattern) else {
            throw .font(font.description, reason: "fontconfig cannot parse it")
        }
        FcConfigSubstitute(nil, parsed, FcMatchPattern)
        XftDefaultSubstitute(connection.display, connection.screen, parsed)
        var result = FcResultNoMatch
        let match = FcFontMatch(nil, parsed, &result)
        FcPatternDestroy(parsed)
        guard let match else { throw .font(font.description, reason: "no font matches it") }
        var familyPointer: UnsafeMutablePointer<FcChar8>?
        var matchedFamily = "?"
        if FcPatternGetString(match, wb_FC_FAMILY(), 0, &familyPointer) == FcResultMatch, let familyPointer {
            matchedFamily = String(cString: familyPointer)
        }
        // XftFontOpenPattern owns `match` from here on, on success.
        guard let handle = XftFontOpenPattern(connection.display, match) else {
            FcPatternDestroy(match)
            throw .font(font.description, reason: "Xft cannot open the matched font '\(matchedFamily)'")
        }
        let requested = font.primaryFamily
        if !Self.genericFamilies.contains(requested.lowercased()),
           requested.lowercased() != matchedFamily.lowercased(),
           !warnedFamilies.contains(requested) {
            warnedFamilies.insert(requested)
            warn("font family '\(requested.printable)' not found; using '\(matchedFamily)'")
        }
        let loaded = LoadedFont(handle: handle, matchedFamily: matchedFamily, connection: connection)
        open[pattern] = loaded
        return loaded
    }

    /// Closes and destroys every font; call before the connection closes.
    ///
    /// Xft keeps closed fonts in a cache and destroys what is left there from its own
    /// XCloseDisplay hook, which runs after libXrender's. Freeing their glyph sets at that point
    /// registers the dying display with libXrender again, and a display opened later at the same
    /// address inherits that stale record: its Render requests go out with an opcode read from
    /// freed memory (hung replies, "extra reply data" aborts, nothing drawn). With the cache
    /// turned off, each font dies here, while Render's record of the display is still sound.
    func closeAll() {
        if let noCache = FcPatternCreate() {
            FcPatternAddInteger(noCache, XFT_MAX_UNREF_FONTS, 0)
            // Xft owns the pattern from here on. It replaces the display's Xft defaults, which
            // nothing reads again once the fonts are gone.
            XftDefaultSet(connection.display, noCache)
        }
        for font in open.values { font.close() }
        open.removeAll()
    }
}
