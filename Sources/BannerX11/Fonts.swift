// Fonts through fontconfig and Xft: a core `BannerFont` becomes a fontconfig pattern, the
// pattern becomes a `FontStack` — the open XftFont fontconfig matched, followed by the fonts it
// sorts after it — and text is measured and drawn in runs, each grapheme with the first font of
// the stack that has it (like dmenu's drw_text). Stacks are cached per pattern and destroyed
// together when the display closes (see `closeAll` for why "destroyed").

import BannerCore
import CX11
import Glibc
import Synchronization

/// An open Xft font: one face at one pixel size.
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

    /// Whether the font has a glyph for `scalar` (`XftCharExists`).
    func has(_ scalar: Unicode.Scalar) -> Bool {
        XftCharExists(connection.display, handle, scalar.value) != 0
    }

    /// Advance width of `text` drawn with this font alone, in pixels (`XftTextExtentsUtf8`).
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

/// Consecutive graphemes drawn with one font.
struct TextRun {
    var text: String
    var font: LoadedFont
}

/// The font fontconfig matched for a pattern, then the fallbacks fontconfig sorts after it for the
/// same pattern (`FcFontSort`, trimmed to fonts that add coverage), opened on first use.
final class FontStack {
    /// The matched font: draws every grapheme it has, and the .notdef box for those no font has.
    let primary: LoadedFont
    private unowned let connection: XConnection
    /// The substituted request, which `FcFontRenderPrepare` completes into each fallback's pattern.
    private let request: OpaquePointer
    private let sorted: UnsafeMutablePointer<FcFontSet>?
    private var opened: [Int: LoadedFont] = [:]
    private var unopenable: Set<Int> = []
    private var chosen: [Unicode.Scalar: LoadedFont] = [:]

    init(primary: LoadedFont, request: OpaquePointer, sorted: UnsafeMutablePointer<FcFontSet>?, connection: XConnection) {
        self.primary = primary
        self.request = request
        self.sorted = sorted
        self.connection = connection
    }

    /// `text` split into runs of whole graphemes, each drawn with the first font that has the
    /// grapheme's first scalar. Invisible format characters (joiners, variation selectors) the
    /// run's font lacks are left out rather than drawn as boxes.
    func runs(of text: String) -> [TextRun] {
        var runs: [TextRun] = []
        for grapheme in text {
            let font = grapheme.unicodeScalars.first.map(font(for:)) ?? primary
            var drawn = String.UnicodeScalarView()
            drawn.append(contentsOf: grapheme.unicodeScalars.filter {
                !$0.properties.isDefaultIgnorableCodePoint || font.has($0)
            })
            if let last = runs.indices.last, runs[last].font === font {
                runs[last].text.unicodeScalars.append(contentsOf: drawn)
            } else {
                runs.append(TextRun(text: String(drawn), font: font))
            }
        }
        return runs
    }

    /// Advance width of `text` in pixels: the sum of its runs' advances.
    func width(of text: String) -> Int {
        runs(of: text).reduce(0) { $0 + $1.font.width(of: $1.text) }
    }

    /// The tallest ascent and deepest descent among the primary font and the fonts `text` uses,
    /// so a taller fallback grows the line instead of being clipped.
    func lineMetrics(of text: String) -> (ascent: Int, descent: Int) {
        runs(of: text).reduce((primary.ascent, primary.descent)) { metrics, run in
            (max(metrics.0, run.font.ascent), max(metrics.1, run.font.descent))
        }
    }

    private func font(for scalar: Unicode.Scalar) -> LoadedFont {
        if let known = chosen[scalar] { return known }
        let font = primary.has(scalar) ? primary : fallback(for: scalar) ?? primary
        chosen[scalar] = font
        return font
    }

    /// The first font of fontconfig's sorted list whose charset has `scalar`, opened at the
    /// request's size.
    private func fallback(for scalar: Unicode.Scalar) -> LoadedFont? {
        guard let sorted, let fonts = sorted.pointee.fonts else { return nil }
        for index in 0..<Int(sorted.pointee.nfont) where !unopenable.contains(index) {
            guard let candidate = fonts[index] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(candidate, wb_FC_CHARSET(), 0, &charset) == FcResultMatch,
                  FcCharSetHasChar(charset, scalar.value) != 0 else { continue }
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
        guard let prepared = FcFontRenderPrepare(nil, request, candidate) else { return nil }
        let family = FontLibrary.family(of: prepared)
        // XftFontOpenPattern owns `prepared` from here on, on success.
        guard let handle = XftFontOpenPattern(connection.display, prepared) else {
            FcPatternDestroy(prepared)
            return nil
        }
        return LoadedFont(handle: handle, matchedFamily: family, connection: connection)
    }

    /// Closes every font of the stack and frees fontconfig's list.
    func close() {
        primary.close()
        for font in opened.values { font.close() }
        opened.removeAll()
        chosen.removeAll()
        if let sorted { FcFontSetDestroy(sorted) }
        FcPatternDestroy(request)
    }
}

/// Opens font stacks on demand and keeps them until `closeAll`.
final class FontLibrary {
    private unowned let connection: XConnection
    private var open: [String: FontStack] = [:]
    /// Warnings about substituted families, reported once each.
    private(set) var warnedFamilies: Set<String> = []
    var warn: (String) -> Void = { _ in }

    init(connection: XConnection) { self.connection = connection }

    /// Generic fontconfig names that never match a family of the same name.
    private static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji"]

    /// The font stack for `font` at `scale` pixels per point.
    func font(_ font: BannerFont, scale: Double) throws(BannerValueError) -> FontStack {
        let pattern = font.fontconfigPattern(pixelsPerPoint: scale)
        if let cached = open[pattern] { return cached }
        FontWarmup.finish()
        guard let request = FcNameParse(pattern) else {
            throw .font(font.description, reason: "fontconfig cannot parse it")
        }
        FcConfigSubstitute(nil, request, FcMatchPattern)
        XftDefaultSubstitute(connection.display, connection.screen, request)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, request, &result) else {
            FcPatternDestroy(request)
            throw .font(font.description, reason: "no font matches it")
        }
        let matchedFamily = Self.family(of: match)
        // XftFontOpenPattern owns `match` from here on, on success.
        guard let handle = XftFontOpenPattern(connection.display, match) else {
            FcPatternDestroy(match)
            FcPatternDestroy(request)
            throw .font(font.description, reason: "Xft cannot open the matched font '\(matchedFamily)'")
        }
        let requested = font.primaryFamily
        if !Self.genericFamilies.contains(requested.lowercased()),
           requested.lowercased() != matchedFamily.lowercased(),
           !warnedFamilies.contains(requested) {
            warnedFamilies.insert(requested)
            warn("font family '\(requested.printable)' not found; using '\(matchedFamily)'")
        }
        let primary = LoadedFont(handle: handle, matchedFamily: matchedFamily, connection: connection)
        let sorted = FcFontSort(nil, request, FcBool(FcTrue), nil, &result)
        let stack = FontStack(primary: primary, request: request, sorted: sorted, connection: connection)
        open[pattern] = stack
        return stack
    }

    /// The family name in a matched pattern ("?" when it has none).
    static func family(of pattern: OpaquePointer) -> String {
        var familyPointer: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, wb_FC_FAMILY(), 0, &familyPointer) == FcResultMatch, let familyPointer else {
            return "?"
        }
        return String(cString: familyPointer)
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
        FontWarmup.finish()
        if let noCache = FcPatternCreate() {
            FcPatternAddInteger(noCache, XFT_MAX_UNREF_FONTS, 0)
            // Xft owns the pattern from here on. It replaces the display's Xft defaults, which
            // nothing reads again once the fonts are gone.
            XftDefaultSet(connection.display, noCache)
        }
        for stack in open.values { stack.close() }
        open.removeAll()
    }
}

/// fontconfig's start-up — reading every config file and font cache, several milliseconds —
/// done on a thread of its own, so a process that knows it will draw (the owner) can have it
/// happen while it connects to the X server and waits for its first request. Every font lookup
/// waits for it first; without `start()`, the first lookup initialises fontconfig itself.
public enum FontWarmup {
    private static let thread = Mutex<pthread_t?>(nil)

    /// Starts FcInit() on a new thread (once).
    public static func start() {
        thread.withLock { running in
            guard running == nil else { return }
            var created = pthread_t()
            if pthread_create(&created, nil, { _ in
                _ = FcInit()
                return nil
            }, nil) == 0 {
                running = created
            }
        }
    }

    /// Waits until a started warm-up has finished.
    static func finish() {
        thread.withLock { running in
            guard let started = running else { return }
            pthread_join(started, nil)
            running = nil
        }
    }
}
