// The subtitle as drawn: a second line of smaller text below the title, inside the banner; a
// banner too short for both keeps its height, the lines move up into the inset and are cut at
// its bottom edge.

import BannerCore
@testable import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Subtitle drawing")
    struct SubtitleDrawingTests {
        static let font = BannerFont(families: ["DejaVu Sans"], size: 17, weight: .bold)

        /// Rows (y) that hold text pixels, grouped into runs of consecutive rows.
        static func textRowRuns(_ shot: Screenshot) -> [ClosedRange<Int>] {
            let background = shot.pixel(x: 2, y: shot.area.height - 1)
            let rows = (0..<shot.area.height).filter { y in
                (0..<shot.area.width).contains { shot.pixel(x: $0, y: y).distance(to: background) > 60 }
            }
            var runs: [ClosedRange<Int>] = []
            for row in rows {
                if let last = runs.last, last.upperBound == row - 1 {
                    runs[runs.count - 1] = last.lowerBound...row
                } else {
                    runs.append(row...row)
                }
            }
            return runs
        }

        static func present(_ subtitle: String?, height: Double, on fixture: Fixture) throws -> Screenshot {
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { config in
                config.title("Incoming call").font(font).backgroundColor(.systemIndigo).textColor(.white).height(height)
                if let subtitle { config.subtitle(subtitle) }
            }
            #expect(fixture.run { fixture.host.phase == .presented })
            #expect(fixture.display.runUntilIdle())
            return try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: fixture.host.reservedHeight)))
        }

        @Test func subtitleDrawsAsASmallerSecondLineBelowTheTitle() throws {
            let fixture = try Fixture()
            let shot = try Self.present("Anna Lindqvist · mobile", height: 80, on: fixture)
            let runs = Self.textRowRuns(shot)
            #expect(runs.count == 2, "expected a title line and a subtitle line, got rows \(runs)")
            guard runs.count == 2 else { return }
            #expect(runs[0].upperBound < runs[1].lowerBound)
            // Smaller: the subtitle's glyphs are shorter than the title's.
            #expect(runs[1].count < runs[0].count)
            #expect(runs[0].lowerBound >= 20, "the title stays below the 20 px inset")
            #expect(runs[1].upperBound < 80)
            #expect(fixture.host.reservedHeight == 80)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func withoutSubtitleThereIsOneLine() throws {
            let fixture = try Fixture()
            let shot = try Self.present(nil, height: 80, on: fixture)
            #expect(Self.textRowRuns(shot).count == 1)
        }

        @Test func twoLinesThatDoNotFitKeepTheBannersHeightAndAreCutAtItsEdge() throws {
            let fixture = try Fixture()
            let shot = try Self.present("does not fit", height: 30, on: fixture)
            #expect(fixture.host.reservedHeight == 30)
            #expect(fixture.run { fixture.observer.workAreas().first?.y == 30 })
            #expect(fixture.bannerGeometry?.height == 30)
            // Moved up into the inset: the title's line shows; the subtitle is cut at the bottom edge.
            let runs = Self.textRowRuns(shot)
            #expect(runs.count >= 1)
            #expect(runs.allSatisfy { $0.upperBound < 30 }, "\(runs)")
        }
    }
}
