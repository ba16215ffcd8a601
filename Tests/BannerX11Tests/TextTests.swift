// Titles people actually write: CJK, emoji, accented Latin, Arabic and Hebrew draw on a real
// server with fontconfig's fallback fonts where DejaVu Sans has no glyph, without protocol
// errors; a long title ellipsizes inside the padding after whole graphemes.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Text")
    struct TextTests {
        /// Has Latin, Greek, Cyrillic, Arabic and Hebrew, but no CJK and no emoji.
        static let dejaVu = BannerFont(families: ["DejaVu Sans"], size: 17)
        static let width = 1280

        /// Presents `title` in DejaVu Sans, waits until it is fully drawn, and grabs the banner.
        static func show(_ title: String, on fixture: Fixture) throws -> Screenshot {
            try fixture.host.presentTopBanner { $0.title(title).font(dejaVu).backgroundColor(.systemBlue).textColor(.white) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.host.drawnTitle != nil })
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(fixture.observer.describeStack())")
            let height = fixture.host.reservedHeight
            return try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: width, height: height)))
        }

        /// Positions of the pixels that differ from the background (sampled left of any title).
        static func textPixels(_ shot: Screenshot) -> Set<[Int]> {
            let background = shot.pixel(x: 4, y: shot.area.height / 2)
            var text: Set<[Int]> = []
            for y in 0..<shot.area.height {
                for x in 0..<shot.area.width where shot.pixel(x: x, y: y).distance(to: background) > 40 {
                    text.insert([x, y])
                }
            }
            return text
        }

        /// Families of the fonts that draw each grapheme of the drawn title (runs in visual order).
        static func families(_ fixture: Fixture) throws -> [(grapheme: Character, family: String)] {
            let drawn = try #require(fixture.host.drawnTitle)
            return drawn.line.runs.flatMap { run in run.text.map { ($0, run.font.matchedFamily) } }
        }

        @Test func cjkTitleDrawsWithAFallbackFontNotBoxes() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let cjk = try Self.show("漢字のテスト", on: fixture)
            let cjkFamilies = try Self.families(fixture)
            #expect(cjkFamilies.count == 6)
            for (grapheme, family) in cjkFamilies {
                #expect(family != "DejaVu Sans", "\(grapheme) drawn with \(family)")
            }

            // A private-use codepoint no installed font has: DejaVu's .notdef boxes.
            let boxes = try Self.show(String(repeating: "\u{10FFFD}", count: 6), on: fixture)
            #expect(try Self.families(fixture).allSatisfy { $0.family == "DejaVu Sans" })

            let cjkText = Self.textPixels(cjk)
            let boxText = Self.textPixels(boxes)
            #expect(cjkText.count > 100)
            #expect(boxText.count > 100)
            #expect(cjkText != boxText)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func everyScriptDrawsWithoutProtocolErrors() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            for title in [
                "Back Online ✅🎉",
                "Überraschung — Café crème",
                "لا يوجد اتصال بالإنترنت",
                "אין חיבור לאינטרנט",
                "Offline — 接続なし 🔌 لا اتصال · אין רשת · Ça marche 👩🏽‍💻🇯🇵",
            ] {
                let shot = try Self.show(title, on: fixture)
                #expect(Self.textPixels(shot).count > 100, "\(title)")
                #expect(try #require(fixture.host.drawnTitle).text == title)
                #expect(fixture.display.protocolErrorCount == 0, "\(title)")
            }
        }

        @Test func emojiDrawWithAFallbackFont() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            _ = try Self.show("Back Online ✅🎉", on: fixture)
            let families = try Self.families(fixture)
            #expect(families.filter { $0.family == "DejaVu Sans" }.map(\.grapheme) == Array("Back Online "))
            #expect(families.suffix(2).allSatisfy { $0.family != "DejaVu Sans" })
        }

        @Test func longMixedTitleEllipsizesInsideThePaddingAfterWholeGraphemes() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let title = String(repeating: "漢字のテスト🎉👩🏽‍💻🇯🇵 Ça ", count: 160)
            #expect(title.count >= 2000)
            let shot = try Self.show(title, on: fixture)

            let drawn = try #require(fixture.host.drawnTitle)
            #expect(drawn.text.hasSuffix("…"))
            let kept = Array(drawn.text.dropLast())
            #expect(!kept.isEmpty)
            #expect(Array(title).starts(with: kept), "the ellipsis split a grapheme: \(drawn.text)")
            #expect(drawn.font.width(of: drawn.text) <= Self.width - 24)

            let columns = Self.textPixels(shot).map { $0[0] }
            let first = try #require(columns.min())
            let last = try #require(columns.max())
            #expect(first >= 12)
            #expect(last < Self.width - 12)
            #expect(last - first > Self.width / 2)
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}
