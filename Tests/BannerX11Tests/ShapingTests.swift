// Shaped and reordered text, checked against oracles nobody here wrote: HarfBuzz's `hb-shape`
// gives the glyph ids and advances for each run (same font file, size and context), FriBidi's
// `fribidi` the visual order of a mixed-direction title, HarfBuzz's `hb-view` what the text
// should look like. Colour emoji are checked in the pixels; emoji sequences are one glyph.

import BannerCore
@testable import BannerX11
@testable import BannerRuntime
import CX11
import CText
import Foundation
import ProcessTestSupport
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Shaping")
    struct ShapingTests {
        static let width = 1280

        /// The titles of the issue, each in the font that covers its script.
        static let scripts: [(title: String, family: String)] = [
            ("لا يوجد اتصال بالإنترنت", "Noto Sans Arabic"),
            ("אין חיבור לאינטרנט", "Noto Sans Hebrew"),
            ("इंटरनेट कनेक्शन नहीं है", "Noto Sans Devanagari"),
            ("ไม่มีการเชื่อมต่ออินเทอร์เน็ต", "Noto Sans Thai"),
            ("Wi-Fi غير متصل 5G", "Noto Sans"),
        ]

        /// Presents `title` in `family`, 17 pt, white on black, and waits until it is drawn and
        /// on top; returns the drawn title and a screenshot of the banner.
        static func show(
            _ title: String, family: String = "Noto Sans", direction: TextDirection = .auto, on fixture: Fixture
        ) throws -> (line: ShapedLine, x: Int, baseline: Int, shot: Screenshot) {
            try fixture.host.presentTopBanner {
                $0.title(title).font(BannerFont(families: [family], size: 17)).textDirection(direction)
                    .backgroundColor(BannerColor(RGBA(hex: 0x000000)))
                    .textColor(.white)
            }
            // The title as drawn: all of it, or the part that fits and an ellipsis.
            #expect(fixture.run {
                guard fixture.host.phase == .presented, let drawn = fixture.host.drawnTitle?.text else { return false }
                return drawn == title || drawn.hasSuffix("…") && title.hasPrefix(String(drawn.dropLast()))
            })
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(fixture.observer.describeStack())")
            let drawn = try #require(fixture.host.drawnTitle)
            let height = fixture.host.reservedHeight
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: width, height: height)))
            return (drawn.line, drawn.x, try #require(fixture.host.drawnBaseline), shot)
        }

        /// `hb-shape`'s glyph ids and advances for `run` of `line`: the run's font file at the
        /// size the banner shapes it (26.6 pixels), its direction, script and language, and the
        /// text around it as context.
        static func hbShape(_ run: ShapedRun, of line: ShapedLine) throws -> (glyphs: [UInt32], advances: [Int32]) {
            let file = try #require(run.font.file)
            let scalars = Array(line.text.unicodeScalars)
            func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
            let size = Int((run.font.pixelSize * 64).rounded())
            let ppem = Int(run.font.pixelSize.rounded())
            let language = String(cString: hb_language_to_string(hb_language_get_default()))
            let output = try Subprocess.run("/usr/bin/hb-shape", [
                "--font-funcs=ot", "--font-size=\(size)", "--font-ppem=\(ppem)", "--face-index=\(file.index)",
                "--direction=\(run.level % 2 == 1 ? "rtl" : "ltr")", "--script=\(run.script)", "--language=\(language)",
                "--text-before=\(text(0..<run.range.lowerBound))", "--text-after=\(text(run.range.upperBound..<scalars.count))",
                "--output-format=json", "--no-glyph-names", file.path, run.text,
            ])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "hb-shape said: \(output)")
            return (entries.compactMap { ($0["g"] as? Int).map(UInt32.init) }, entries.compactMap { ($0["ax"] as? Int).map(Int32.init) })
        }

        @Test(arguments: scripts)
        func glyphsAndAdvancesAreHbShapes(title: String, family: String) throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let drawn = try Self.show(title, family: family, on: fixture)
            #expect(!drawn.line.runs.isEmpty)
            for run in drawn.line.runs {
                let oracle = try Self.hbShape(run, of: drawn.line)
                #expect(run.glyphIDs == oracle.glyphs, "\(run.text) in \(run.font.matchedFamily)")
                #expect(run.advances == oracle.advances, "\(run.text) in \(run.font.matchedFamily)")
                #expect(!run.glyphIDs.contains(0), "a .notdef box in \(run.text)")
            }
            // The line is as wide as its advances, rounded once.
            let total = drawn.line.runs.flatMap(\.advances).reduce(0, +)
            #expect(abs(drawn.line.width * 64 - Int(total)) <= 32)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// FriBidi's visual-to-logical map of `text` read `direction`, from its command line.
        static func fribidiOrder(_ text: String, direction: TextDirection) throws -> [Int] {
            var arguments = ["--novisual", "--vtol", "--nopad", "--nobreak", "--charset", "UTF-8"]
            if direction == .rtl { arguments.append("--rtl") }
            if direction == .ltr { arguments.append("--ltr") }
            return try Subprocess.run("/usr/bin/fribidi", arguments, input: text + "\n")
                .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        }

        /// The logical index of each scalar as the line shows them, left to right: its runs in
        /// visual order, a right-to-left run's scalars reversed.
        static func visualOrder(_ line: ShapedLine) -> [Int] {
            line.runs.flatMap { run in run.level % 2 == 1 ? Array(run.range.reversed()) : Array(run.range) }
        }

        @Test func mixedDirectionTitlesAreInFriBidisVisualOrder() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            for (title, direction) in [
                ("Wi-Fi غير متصل 5G", TextDirection.auto),
                ("غير متصل Wi-Fi 5G (2.4 GHz)", .auto),
                ("Wi-Fi غير متصل 5G", .rtl),
                ("אין חיבור: VPN [כבוי] 3/4", .auto),
                ("Call עם Dana 12:30", .ltr),
            ] {
                let drawn = try Self.show(title, direction: direction, on: fixture)
                #expect(Self.visualOrder(drawn.line) == (try Self.fribidiOrder(title, direction: direction)), "\(title) read \(direction)")
            }
        }

        @Test func directionDecidesWhereReadingStarts() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try Self.show("لا اتصال Wi-Fi", on: fixture).line.isRightToLeft)
            #expect(try !Self.show("Wi-Fi لا اتصال", on: fixture).line.isRightToLeft)
            #expect(try Self.show("Wi-Fi لا اتصال", direction: .rtl, on: fixture).line.isRightToLeft)
            #expect(try !Self.show("לא מחובר", direction: .ltr, on: fixture).line.isRightToLeft)
        }

        /// The text's ink: pixels brighter than half, in a grey image `width` wide.
        struct Ink {
            var width: Int
            var height: Int
            var lit: Set<[Int]>

            /// The ink moved to start at (0, 0).
            var normalized: Ink {
                let left = lit.map { $0[0] }.min() ?? 0
                let top = lit.map { $0[1] }.min() ?? 0
                return Ink(width: width, height: height, lit: Set(lit.map { [$0[0] - left, $0[1] - top] }))
            }

            var box: (width: Int, height: Int) {
                ((lit.map { $0[0] }.max() ?? -1) + 1, (lit.map { $0[1] }.max() ?? -1) + 1)
            }

            /// Intersection over union with `other`, at the best offset within ±`slack` px.
            func overlap(_ other: Ink, slack: Int = 2) -> Double {
                var best = 0.0
                for dx in -slack...slack {
                    for dy in -slack...slack {
                        let moved = Set(other.lit.map { [$0[0] + dx, $0[1] + dy] })
                        let union = lit.union(moved).count
                        guard union > 0 else { continue }
                        best = max(best, Double(lit.intersection(moved).count) / Double(union))
                    }
                }
                return best
            }
        }

        static func ink(_ shot: Screenshot) -> Ink {
            var lit: Set<[Int]> = []
            for y in 0..<shot.area.height {
                for x in 0..<shot.area.width {
                    let pixel = shot.pixel(x: x + shot.area.x, y: y + shot.area.y)
                    if (pixel.red + pixel.green + pixel.blue) / 3 > 127 { lit.insert([x, y]) }
                }
            }
            return Ink(width: shot.area.width, height: shot.area.height, lit: lit).normalized
        }

        /// `hb-view`'s rendering of `text` in `font`'s file at its size, white on black.
        static func hbView(_ text: String, font: LoadedFont, direction: String) throws -> Ink {
            let file = try #require(font.file)
            let output = NSTemporaryDirectory() + "hb-view-\(getpid()).png"
            defer { unlink(output) }
            try Subprocess.run("/usr/bin/hb-view", [
                "--font-funcs=ot", "--font-size=\(font.pixelSize)", "--face-index=\(file.index)", "--direction=\(direction)",
                "--background=#000000", "--foreground=#FFFFFF", "--margin=4", "--output-format=png", "--output-file=\(output)",
                file.path, text,
            ])
            // At its own size: the longest side as the square, the rest transparent (unlit).
            let size = try #require(PNGFile.size(path: output))
            let side = max(size.width, size.height)
            let bitmap = try #require(PNGFile.decode(path: output, sides: [side]).bySide[side])
            var lit: Set<[Int]> = []
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let pixel = bitmap.pixels[y * bitmap.width + x]
                    let grey = (Int(pixel >> 16 & 0xFF) + Int(pixel >> 8 & 0xFF) + Int(pixel & 0xFF)) / 3
                    if grey > 127 { lit.insert([x, y]) }
                }
            }
            return Ink(width: bitmap.width, height: bitmap.height, lit: lit).normalized
        }

        @Test(arguments: scripts.dropLast())
        func inkMatchesHbView(title: String, family: String) throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let drawn = try Self.show(title, family: family, on: fixture)
            let font = try #require(drawn.line.runs.first?.font)
            #expect(drawn.line.runs.count == 1, "one script, one font: \(drawn.line.runs.map(\.text))")
            let ours = Self.ink(drawn.shot)
            let oracle = try Self.hbView(title, font: font, direction: drawn.line.isRightToLeft ? "rtl" : "ltr")
            #expect(abs(ours.box.width - oracle.box.width) <= 3, "ink \(ours.box) vs hb-view's \(oracle.box)")
            #expect(abs(ours.box.height - oracle.box.height) <= 3, "ink \(ours.box) vs hb-view's \(oracle.box)")
            let overlap = ours.overlap(oracle)
            // The same text with its clusters in reverse order: what reads wrongly scores far lower.
            let reversed = try Self.hbView(String(title.reversed()), font: font, direction: drawn.line.isRightToLeft ? "rtl" : "ltr")
            let wrong = ours.overlap(reversed)
            #expect(overlap >= 0.6, "overlap with hb-view \(overlap); with reversed text \(wrong)")
            #expect(wrong < overlap - 0.2, "overlap with hb-view \(overlap); with reversed text \(wrong)")
        }

        @Test func emojiAreDrawnInColour() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let drawn = try Self.show("Online 🎉🌍", on: fixture)
            #expect(drawn.line.runs.last?.font.isColour == true, "\(drawn.line.runs.map { ($0.text, $0.font.matchedFamily) })")
            // White text on black has no colour: anything saturated is the emoji's.
            let coloured = (0..<drawn.shot.area.height).flatMap { y in
                (0..<drawn.shot.area.width).map { x in drawn.shot.pixel(x: x, y: y) }
            }.filter { max($0.red, $0.green, $0.blue) - min($0.red, $0.green, $0.blue) > 80 }
            #expect(coloured.count > 100, "\(coloured.count) coloured pixels")
        }

        @Test func emojiSequencesAreOneGlyphNoWiderThanOneEmoji() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let single = try Self.show("👨", on: fixture).line
            #expect(single.glyphs.count == 1)
            for sequence in ["👨‍👩‍👧", "👍🏽", "🇯🇵", "1️⃣", "🏳️‍🌈"] {
                let line = try Self.show(sequence, on: fixture).line
                #expect(line.glyphs.count == 1, "\(sequence): \(line.glyphs.count) glyphs")
                #expect(line.width <= single.width + 1, "\(sequence): \(line.width) px, one emoji \(single.width)")
                #expect(line.runs.allSatisfy { $0.font.isColour }, "\(sequence) in \(line.runs.map(\.font.matchedFamily))")
            }
        }

        @Test func ellipsisCutsWholeClustersAndSitsAtTheVisualEndOfARightToLeftTitle() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let title = String(repeating: "لا يوجد اتصال بالإنترنت 👨‍👩‍👧 ", count: 40)
            let drawn = try Self.show(title, family: "Noto Sans Arabic", on: fixture)
            let text = drawn.line.text
            #expect(text.hasSuffix("…"))
            #expect(Array(title).starts(with: Array(text.dropLast())), "cut inside a cluster: \(text)")
            #expect(drawn.line.isRightToLeft)
            // The ellipsis is the leftmost glyph: its run comes first, and it is that run's last
            // character, drawn at its left end.
            let first = try #require(drawn.line.runs.first)
            #expect(first.text.hasSuffix("…"), "leftmost run: \(first.text)")
            #expect(first.level % 2 == 1 || first.text == "…")
            #expect(drawn.line.width <= Self.width - 24)
        }
    }
}

extension BannerX11Tests.ShapingTests {
    /// The brightest colour channel spread (max − min) in `canvas`'s pixels: how colourful it is.
    static func colourfulness(of canvas: Canvas, on fixture: Fixture) throws -> Int {
        fixture.display.connection.sync()
        let image = try #require(XGetImage(fixture.observer.display, canvas.pixmap, 0, 0, UInt32(canvas.width), UInt32(canvas.height), UInt(~0 as UInt32), ZPixmap))
        defer { _ = wb_XDestroyImage(image) }
        var best = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let value = Int(wb_XGetPixel(image, Int32(x), Int32(y)))
                let channels = [value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF]
                best = max(best, (channels.max() ?? 0) - (channels.min() ?? 0))
            }
        }
        return best
    }

    @Test func colourEmojiFadeWithTheirText() throws {
        let fixture = try Fixture()
        let stack = try fixture.display.fonts.font(BannerFont(families: ["Noto Sans"], size: 17), scale: 1)
        let line = stack.shape("🎉")
        let canvas = Canvas(connection: fixture.display.connection, surface: fixture.display.connection.opaqueSurface, width: 60, height: 40)
        defer { canvas.release() }
        func draw(opacity: Double) throws -> Int {
            canvas.fill(RGBA(hex: 0x000000))
            canvas.text(line, colour: RGBA(red: 1, green: 1, blue: 1, alpha: opacity), x: 10, baseline: 30)
            return try Self.colourfulness(of: canvas, on: fixture)
        }
        let full = try draw(opacity: 1)
        let faint = try draw(opacity: 0.25)
        let none = try draw(opacity: 0)
        #expect(full > 150, "at full opacity \(full)")
        #expect(faint < full / 2, "at a quarter \(faint), at full \(full)")
        #expect(none == 0)
    }
}
