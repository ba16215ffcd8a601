// A line of text as it is shown: FriBidi resolves each character's embedding level (the Unicode
// bidi algorithm, paragraph direction from the first strong character or forced), the text is
// cut into runs of whole clusters that share a level, a script and a font (FontStack picks the
// font per cluster), HarfBuzz shapes each run in its own font with the whole line as context
// (Arabic joins across a font change), and the runs are put in visual order (BidiOrder, rule L2).
// The result is a list of positioned glyphs that a backend draws (Xft in one request on X11,
// FreeType into a shared-memory buffer on Wayland), and the line's
// measurements: its advance width and the ascent and descent of the fonts it uses.

import BannerCore
import CText

/// One glyph, placed relative to the line's left edge and baseline.
public struct PlacedGlyph: Equatable {
    /// The font of the glyph's run.
    public var font: LoadedFont
    public var glyph: UInt32
    public var x: Int
    public var y: Int

    public static func == (a: PlacedGlyph, b: PlacedGlyph) -> Bool {
        a.font === b.font && a.glyph == b.glyph && a.x == b.x && a.y == b.y
    }
}

/// A shaped, ordered and measured line of text.
public final class ShapedLine {
    struct Key: Hashable {
        var text: String
        var direction: TextDirection
    }

    public let text: String
    /// Left to right, as drawn.
    public let glyphs: [PlacedGlyph]
    /// The advance width in pixels.
    public let width: Int
    /// The tallest ascent and deepest descent among the stack's primary font and the fonts the
    /// line uses, so a taller fallback grows the line instead of being clipped.
    public let ascent: Int
    public let descent: Int
    /// The paragraph's resolved direction: where its reading starts.
    public let isRightToLeft: Bool
    /// Colour fonts' glyphs (emoji) among `glyphs`.
    let colourFonts: Set<ObjectIdentifier>
    public var hasColourGlyphs: Bool { !colourFonts.isEmpty }
    public func isColour(_ glyph: PlacedGlyph) -> Bool { colourFonts.contains(ObjectIdentifier(glyph.font)) }
    /// The runs as shaped, in visual order: each one's text, font and embedding level (tests
    /// compare them with `hb-shape`).
    public let runs: [ShapedRun]

    init(text: String, glyphs: [PlacedGlyph], width: Int, ascent: Int, descent: Int, isRightToLeft: Bool, runs: [ShapedRun]) {
        self.text = text
        self.glyphs = glyphs
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.isRightToLeft = isRightToLeft
        self.runs = runs
        colourFonts = Set(runs.filter { $0.font.isColour }.map { ObjectIdentifier($0.font) })
    }
}

/// A run of clusters shaped together: one level, one script, one font.
public struct ShapedRun {
    public var text: String
    /// Where the run is in the line's scalars, in logical order.
    public var range: Range<Int>
    public var font: LoadedFont
    public var level: Int
    /// Its ISO 15924 script tag ("Arab", "Latn").
    public var script: String
    /// The glyph ids HarfBuzz gave, left to right, and their advances in 26.6 pixels.
    public var glyphIDs: [UInt32]
    public var advances: [Int32]
}

extension FontStack {
    /// The most lines a stack keeps shaped; past it the cache starts over (a banner's title,
    /// subtitle, buttons and an ellipsis search are a few dozen).
    static let shapedLineLimit = 256

    /// `text` shaped and ordered for display as one paragraph read `direction`; cached per text
    /// and direction (the stack is one font at one size), so the frames of a slide or a fade and
    /// every measurement of one string shape it once.
    public func shape(_ text: String, direction: TextDirection = .auto) -> ShapedLine {
        let key = ShapedLine.Key(text: text, direction: direction)
        if let cached = shapedLines[key] { return cached }
        let line = makeLine(text, direction: direction)
        if shapedLines.count >= Self.shapedLineLimit { shapedLines.removeAll(keepingCapacity: true) }
        shapedLines[key] = line
        return line
    }

    /// The advance width of `text` read `direction`, in pixels.
    public func width(of text: String, direction: TextDirection = .auto) -> Int {
        shape(text, direction: direction).width
    }

    private func makeLine(_ text: String, direction: TextDirection) -> ShapedLine {
        let codepoints = text.unicodeScalars.map(\.value)
        let (levels, isRightToLeft) = Self.embeddingLevels(codepoints, direction: direction)
        let runs = itemize(text, levels: levels)
        let order = BidiOrder.visualOrder(levels: runs.map(\.level))
        var glyphs: [PlacedGlyph] = []
        var shapedRuns: [ShapedRun] = []
        var pen: Int32 = 0
        var ascent = primary.ascent
        var descent = primary.descent
        for index in order {
            let run = runs[index]
            ascent = max(ascent, run.font.ascent)
            descent = max(descent, run.font.descent)
            var shaped = ShapedRun(
                text: String(String.UnicodeScalarView(text.unicodeScalars.dropFirst(run.start).prefix(run.end - run.start))),
                range: run.start..<run.end, font: run.font, level: run.level, script: Self.tag(run.script), glyphIDs: [], advances: [])
            shapeRun(run, of: codepoints) { glyph, position in
                glyphs.append(PlacedGlyph(
                    font: run.font, glyph: glyph,
                    x: Self.pixels(pen + position.x_offset), y: -Self.pixels(position.y_offset)))
                pen += position.x_advance
                shaped.glyphIDs.append(glyph)
                shaped.advances.append(position.x_advance)
            }
            shapedRuns.append(shaped)
        }
        return ShapedLine(
            text: text, glyphs: glyphs, width: Self.pixels(pen), ascent: ascent, descent: descent,
            isRightToLeft: isRightToLeft, runs: shapedRuns)
    }

    /// A script's four-letter ISO 15924 tag.
    private static func tag(_ script: hb_script_t) -> String {
        let tag = hb_script_to_iso15924_tag(script)
        return String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    /// 26.6 fixed point to whole pixels, rounded.
    private static func pixels(_ value: Int32) -> Int {
        Int((Double(value) / 64).rounded())
    }

    /// Each character's embedding level (FriBidi: types, bracket pairs, then the levels of one
    /// paragraph), and whether the paragraph reads right to left.
    static func embeddingLevels(_ codepoints: [UInt32], direction: TextDirection) -> (levels: [Int], isRightToLeft: Bool) {
        let count = Int32(codepoints.count)
        guard count > 0 else { return ([], direction == .rtl) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: codepoints.count)
        var brackets = [FriBidiBracketType](repeating: FriBidiBracketType(0), count: codepoints.count)
        var levels = [FriBidiLevel](repeating: 0, count: codepoints.count)
        var base: FriBidiParType = switch direction {
        case .auto: wb_FRIBIDI_PAR_ON()
        case .ltr: wb_FRIBIDI_PAR_LTR()
        case .rtl: wb_FRIBIDI_PAR_RTL()
        }
        fribidi_get_bidi_types(codepoints, count, &types)
        fribidi_get_bracket_types(codepoints, count, types, &brackets)
        guard fribidi_get_par_embedding_levels_ex(types, brackets, count, &base, &levels) > 0 else {
            return (Array(repeating: direction == .rtl ? 1 : 0, count: codepoints.count), direction == .rtl)
        }
        return (levels.map { Int($0) }, wb_FRIBIDI_IS_RTL(base) != 0)
    }

    /// A run in logical order: the scalars `start..<end` of the line.
    private struct LogicalRun {
        var start: Int
        var end: Int
        var level: Int
        var script: hb_script_t
        var font: LoadedFont
    }

    /// `text` cut into runs of whole clusters with one level, one script and one font. A
    /// cluster's script is its first character's that is not Common or Inherited; clusters with
    /// none (digits, spaces, punctuation) take the script before them, or the first one after.
    private func itemize(_ text: String, levels: [Int]) -> [LogicalRun] {
        let unicode = hb_unicode_funcs_get_default()
        let clusterScripts = text.map { cluster in
            cluster.unicodeScalars.lazy.map { hb_unicode_script(unicode, $0.value) }
                .first { $0 != HB_SCRIPT_COMMON && $0 != HB_SCRIPT_INHERITED && $0 != HB_SCRIPT_UNKNOWN }
        }
        var script = clusterScripts.lazy.compactMap { $0 }.first ?? HB_SCRIPT_COMMON
        var runs: [LogicalRun] = []
        var position = 0
        for (cluster, own) in zip(text, clusterScripts) {
            let count = cluster.unicodeScalars.count
            let font = font(for: cluster)
            let level = levels[position]
            script = own ?? script
            if let last = runs.indices.last, runs[last].level == level, runs[last].font === font, runs[last].script == script {
                runs[last].end = position + count
            } else {
                runs.append(LogicalRun(start: position, end: position + count, level: level, script: script, font: font))
            }
            position += count
        }
        return runs
    }

    /// Shapes one run with the whole line as context and hands each glyph, left to right, to `body`.
    private func shapeRun(_ run: LogicalRun, of codepoints: [UInt32], _ body: (UInt32, hb_glyph_position_t) -> Void) {
        guard let buffer, let font = run.font.shapingFont else { return }
        hb_buffer_clear_contents(buffer)
        codepoints.withUnsafeBufferPointer { all in
            hb_buffer_add_utf32(buffer, all.baseAddress, Int32(all.count), UInt32(run.start), Int32(run.end - run.start))
        }
        hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, run.script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        for index in 0..<Int(count) {
            body(infos[index].codepoint, positions[index])
        }
    }
}
