// Direction rules with no X: `--direction` as written, the order runs of one embedding level are
// shown in (rule L2 of the Unicode bidi algorithm, checked against the standard's own examples),
// the mirrored layout of a right-to-left locale, and the anti-aliased corner's coverage.

import BannerCore
import Testing

@Suite("Direction: bidi run order, mirroring, corner coverage")
struct DirectionTests {
    @Test func directionFromFlagsConfigAndBuilder() throws {
        #expect(try AppearanceSettings(direction: "RTL").appearance().textDirection == .rtl)
        #expect(try AppearanceSettings(direction: "ltr").appearance().textDirection == .ltr)
        #expect(try AppearanceSettings().appearance().textDirection == .auto)
        #expect(try TopBannerConfigBuilder().textDirection(.rtl).build().textDirection == .rtl)
        #expect(try TopBannerConfigBuilder().layoutDirection(.rightToLeft).build().layoutDirection == .rightToLeft)
        #expect(TopBannerAppearance.default.layoutDirection == .leftToRight)
        #expect(AppearanceSettings.styleFields.contains { $0.name == "direction" })
    }

    @Test(arguments: ["", "right", "r2l", "auto ", "ltr,rtl"])
    func badDirectionsAreRefused(written: String) {
        #expect(throws: BannerValueError.direction(written)) { try AppearanceSettings(direction: written).appearance() }
        #expect(BannerValueError.direction(written).description.contains("auto, ltr or rtl"))
    }

    @Test func runsOfOneLevelKeepTheirOrder() {
        #expect(BidiOrder.visualOrder(levels: []) == [])
        #expect(BidiOrder.visualOrder(levels: [0, 0, 0]) == [0, 1, 2])
        #expect(BidiOrder.visualOrder(levels: [2, 2]) == [0, 1])
    }

    @Test func rightToLeftRunsAreReversedInPlace() {
        // "car MEANS CAR." in a left-to-right paragraph: levels 0 1 0.
        #expect(BidiOrder.visualOrder(levels: [0, 1, 0]) == [0, 1, 2])
        // A right-to-left paragraph of three runs: all reversed.
        #expect(BidiOrder.visualOrder(levels: [1, 1, 1]) == [2, 1, 0])
        // "Wi-Fi [Arabic] 5 G — [Arabic]": the number (level 2) stays left of the Arabic before it.
        #expect(BidiOrder.visualOrder(levels: [0, 1, 2, 0, 1]) == [0, 2, 1, 3, 4])
    }

    @Test func nestedLevelsReverseFromTheHighestDown() {
        // UAX #9's example: levels 1 2 2 1 1 (a left-to-right phrase inside right-to-left
        // text): reversing level 2 then levels ≥ 1 gives the whole line back to front, the
        // phrase's runs in reading order.
        #expect(BidiOrder.visualOrder(levels: [1, 2, 2, 1, 1]) == [4, 3, 1, 2, 0])
        #expect(BidiOrder.visualOrder(levels: [0, 2, 1, 2, 0]) == [0, 3, 2, 1, 4])
        #expect(BidiOrder.visualOrder(levels: [2, 0, 3, 3, 1]) == [0, 1, 4, 3, 2])
    }

    @Test func mirroringReflectsAboutTheCentre() {
        let width = 1280
        let close = PixelRect(x: 1240, y: 0, width: 40, height: 80)
        #expect(BannerLayout.mirrored(close, width: width) == PixelRect(x: 0, y: 0, width: 40, height: 80))
        #expect(BannerLayout.mirrored(BannerLayout.mirrored(close, width: width), width: width) == close)
        #expect(BannerLayout.mirroredX(100, extent: 300, width: width) == 880)
        let areas = BannerHitAreas(closeButton: close, actionButton: PixelRect(x: 1100, y: 0, width: 140, height: 80))
        let mirrored = areas.mirrored(width: width)
        #expect(mirrored.closeButton == PixelRect(x: 0, y: 0, width: 40, height: 80))
        #expect(mirrored.actionButton == PixelRect(x: 40, y: 0, width: 140, height: 80))
        #expect(mirrored.reason(atX: 10, y: 40) == .closed)
        #expect(mirrored.reason(atX: 100, y: 40) == .action)
        #expect(mirrored.reason(atX: 1260, y: 40) == .clicked)
    }

    @Test func twoActionsMirrorWithTheirHitAreas() {
        let width = 1280
        let buttons = BannerLayout.trailingButtons(monitorWidth: width, scale: 1, closeButton: true, actionLabelWidth: 50, secondaryActionLabelWidth: 66)
        let mirrored = BannerLayout.hitAreas(buttons, bannerHeight: 80).mirrored(width: width)
        // Left to right from the left edge: ✕, the primary action, the secondary one.
        #expect(mirrored.closeButton == PixelRect(x: 0, y: 0, width: 40, height: 80))
        #expect(mirrored.actionButton == PixelRect(x: 40, y: 0, width: 74, height: 80))
        #expect(mirrored.secondaryActionButton == PixelRect(x: 114, y: 0, width: 90, height: 80))
        #expect(mirrored.reason(atX: 60, y: 40) == .action)
        #expect(mirrored.reason(atX: 150, y: 40) == .secondaryAction)
        #expect(mirrored.reason(atX: 204, y: 40) == .clicked)
    }

    @Test func cornerCoverageIsFullInsidePartialOnTheArcAndEmptyOutside() {
        #expect(BannerLayout.cornerCoverage(radius: 0).isEmpty)
        let radius = 16
        let coverage = BannerLayout.cornerCoverage(radius: radius)
        #expect(coverage.count == radius * radius)
        func at(_ column: Int, _ row: Int) -> UInt8 { coverage[row * radius + column] }
        // The square's top-right pixel is inside, its bottom-left outside.
        #expect(at(radius - 1, 0) == 255)
        #expect(at(0, radius - 1) == 0)
        // Every row and every column crosses the arc once: from outside to inside, never back.
        for row in 0..<radius {
            let values = (0..<radius).map { at($0, row) }
            #expect(values == values.sorted(), "row \(row): \(values)")
        }
        for column in 0..<radius {
            let values = (0..<radius).map { at(column, $0) }
            #expect(values == values.sorted(by: >), "column \(column): \(values)")
        }
        // Partly covered pixels along the arc: at least one a row.
        let partial = coverage.filter { $0 > 0 && $0 < 255 }.count
        #expect(partial >= radius)
        // The covered area is the quarter-disc's, within a pixel's worth per row.
        let area = coverage.reduce(0.0) { $0 + Double($1) / 255 }
        #expect(abs(area - Double.pi * Double(radius * radius) / 4) < Double(radius) / 2)
        // Each row keeps as much as the hard outline XShape cuts without a compositor, within a
        // pixel and a half: the two agree on where the arc runs.
        let shape = BannerLayout.roundedBottomShape(width: 100, bannerHeight: 2 * radius, visibleHeight: 2 * radius, radius: radius)
        for row in 0..<radius {
            let inset = shape.filter { $0.y <= radius + row && radius + row < $0.y + $0.height }.map(\.x).min() ?? radius
            let covered = (0..<radius).reduce(0.0) { $0 + Double(at($1, row)) / 255 }
            #expect(abs(covered - Double(radius - inset)) <= 1.5, "row \(row): coverage \(covered), outline keeps \(radius - inset)")
        }
    }
}
