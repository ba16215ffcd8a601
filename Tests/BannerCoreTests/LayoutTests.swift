// Pixel layout: point scaling, banner height, baseline, placement while sliding, and titles
// cut to fit, measured with a fake font so every width is known.

import BannerCore
import Testing

@Suite("Layout")
struct LayoutTests {
    /// A fake font: every character (grapheme) is 10 px wide.
    static func tenPixelsPerCharacter(_ text: String) -> Int { text.count * 10 }
    /// A fake font that draws each Unicode scalar 10 px wide, so a split grapheme would still fit.
    static func tenPixelsPerScalar(_ text: String) -> Int { text.unicodeScalars.count * 10 }

    static let family = "👨\u{200D}👩\u{200D}👧"
    static let decomposedE = "e\u{301}"

    @Test func pixelsPerPointFollowsXftDPI() {
        #expect(BannerLayout.pixelsPerPoint(xftDPI: nil) == 1)
        #expect(BannerLayout.pixelsPerPoint(xftDPI: 96) == 1)
        #expect(BannerLayout.pixelsPerPoint(xftDPI: 192) == 2)
        #expect(BannerLayout.pixelsPerPoint(xftDPI: 144) == 1.5)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 0, -96, 10, 1e9])
    func nonsenseDPIMeansOnePixelPerPoint(dpi: Double) {
        #expect(BannerLayout.pixelsPerPoint(xftDPI: dpi) == 1)
    }

    @Test func pointsRoundToWholePixels() {
        #expect(BannerLayout.pixels(80, scale: 1) == 80)
        #expect(BannerLayout.pixels(80, scale: 2) == 160)
        #expect(BannerLayout.pixels(17, scale: 1.5) == 26)
    }

    @Test func bannerHeightIsExactlyTheConfiguredHeightScaled() {
        #expect(BannerLayout.bannerHeight(.default, scale: 1) == 80)
        #expect(BannerLayout.bannerHeight(.default, scale: 2) == 160)
        #expect(BannerLayout.bannerHeight(TopBannerAppearance.default.compact, scale: 1) == 18)
        var look = TopBannerAppearance.default
        look.height = 30
        #expect(BannerLayout.bannerHeight(look, scale: 1) == 30)
        #expect(BannerLayout.bannerHeight(look, scale: 1.5) == 45)
        look.height = 0.2
        #expect(BannerLayout.bannerHeight(look, scale: 1) == 1)
    }

    /// At a fractional output scale the height is a whole number of device and logical pixels:
    /// rounded up to the step (compact 18 pt at 1.25 is 22.5 px, so 25: 20 logical).
    @Test func atAFractionalScaleTheHeightIsWholeInBothPixels() {
        #expect([1, 1.25, 1.5, 1.75, 2, 2.25, 3].map { BannerLayout.heightStep(deviceScale: $0) } == [1, 5, 3, 7, 2, 9, 3])
        // 1.1 needs 10 logical pixels a step, 1.3 (156/120) 10, and nonsense none: only rounded.
        #expect([1.1, 1.3, 0.5, .nan, .infinity, 1.2345].map { BannerLayout.heightStep(deviceScale: $0) } == [1, 1, 1, 1, 1, 1])
        let compact = TopBannerAppearance.default.compact
        #expect(BannerLayout.bannerHeight(compact, scale: 1.25, step: 5) == 25)
        #expect(BannerLayout.bannerHeight(compact, scale: 1.5, step: 3) == 27)
        #expect(BannerLayout.bannerHeight(.default, scale: 1.25, step: 5) == 100)
        for scale in [1.25, 1.5, 1.75, 2, 2.25] {
            for points in stride(from: 10.0, through: 120, by: 1) {
                var look = TopBannerAppearance.default
                look.height = points
                let step = BannerLayout.heightStep(deviceScale: scale)
                let pixels = BannerLayout.bannerHeight(look, scale: scale, step: step)
                let logical = Double(pixels) / scale
                #expect(logical == logical.rounded() && pixels >= Int((points * scale).rounded()) && pixels - step < Int((points * scale).rounded()),
                        "\(points) pt at \(scale): \(pixels) px")
            }
        }
    }

    @Test func textTallerThanTheAreaBelowTheInsetMovesUpIntoIt() {
        // 40 px banner, 20 px inset: a 22 px line (17 + 5) does not fit in the 20 px below, so
        // its bottom sits on the banner's bottom edge.
        var look = TopBannerAppearance.default
        look.height = 40
        #expect(BannerLayout.baseline(look, scale: 1, bannerHeight: 40, ascent: 17, descent: 5) == 40 - 5)
        // Exactly filling the area below the inset: the same place either way.
        #expect(BannerLayout.baseline(look, scale: 1, bannerHeight: 40, ascent: 16, descent: 4) == 36)
    }

    @Test func textTallerThanTheBannerIsCentredAndClippedAtBothEdges() {
        var look = TopBannerAppearance.default.compact
        look.height = 18
        // A 26 px line (20 + 6) in an 18 px strip: 4 px cut above, 4 below.
        #expect(BannerLayout.baseline(look, scale: 1, bannerHeight: 18, ascent: 20, descent: 6) == -4 + 20)
    }

    @Test func baselineCentresTheLineBelowTheInset() {
        // 80 px tall, 20 px inset: a 20 px line (16 + 4) centred in the 60 px below.
        let baseline = BannerLayout.baseline(.default, scale: 1, bannerHeight: 80, ascent: 16, descent: 4)
        #expect(baseline == 56)
        #expect((baseline - 16) - 20 == 80 - (baseline + 4))
    }

    @Test func baselineCentresInTheCompactStrip() {
        let compact = TopBannerAppearance.default.compact
        #expect(BannerLayout.baseline(compact, scale: 1, bannerHeight: 18, ascent: 13, descent: 3) == 14)
        #expect(BannerLayout.baseline(compact, scale: 1, bannerHeight: 20, ascent: 16, descent: 4) == 16)
    }

    @Test func baselineScalesTheInset() {
        #expect(BannerLayout.baseline(.default, scale: 2, bannerHeight: 160, ascent: 32, descent: 8) == 112)
    }

    @Test func titleIsCentredWithinPadding() {
        #expect(BannerLayout.titleX(monitorWidth: 1280, textWidth: 200) == 540)
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1) == 1256)
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 2) == 1232)
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 10, scale: 1) == 0)
    }

    @Test(arguments: [
        (0.0, 0, -80), (0.5, 40, -40), (1.0, 80, 0), (-0.5, 0, -80), (1.5, 80, 0), (0.004, 0, -80), (0.996, 80, 0),
    ])
    func placementShowsTheRevealedRowsBelowTheMonitorsTopEdge(reveal: Double, visible: Int, offset: Int) {
        let placement = BannerLayout.placement(bannerHeight: 80, reveal: reveal, reservedHeight: 80)
        #expect(placement.visibleHeight == visible)
        #expect(placement.contentOffset == offset)
        // The reservation is the whole banner all through the slide: one change in, one out.
        #expect(placement.reservedHeight == 80)
    }

    @Test func aCrossFadeReservesTheLargerHeightUntilItEnds() {
        #expect(BannerLayout.reservedHeight(settled: 80, fadingFrom: nil) == 80)
        // Growing: the new height from the fade's first frame.
        #expect(BannerLayout.reservedHeight(settled: 120, fadingFrom: 80) == 120)
        // Shrinking: the old height until the fade is over.
        #expect(BannerLayout.reservedHeight(settled: 80, fadingFrom: 120) == 120)
    }

    @Test func placementNeverReachesAboveTheMonitor() {
        for step in 0...100 {
            let placement = BannerLayout.placement(bannerHeight: 80, reveal: Double(step) / 100, reservedHeight: 80)
            #expect((0...80).contains(placement.visibleHeight))
            // The banner's bottom edge is the bottom of what shows; the rest is cut off above.
            #expect(placement.contentOffset + 80 == placement.visibleHeight)
            #expect(placement.contentOffset <= 0)
        }
    }

    @Test func aLockerCoversAWholeMonitor() {
        let right = MonitorGeometry(x: 1280, y: 0, width: 1280, height: 800)
        #expect(right.isCovered(by: MonitorGeometry(x: 0, y: 0, width: 2560, height: 800)))
        #expect(right.isCovered(by: right))
        #expect(!right.isCovered(by: MonitorGeometry(x: 1280, y: 0, width: 1280, height: 799)))
        #expect(!right.isCovered(by: MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)))
    }

    @Test func titleThatFitsIsUnchanged() {
        #expect(BannerLayout.ellipsize("Hello", maxWidth: 50, measure: Self.tenPixelsPerCharacter) == "Hello")
        #expect(BannerLayout.ellipsize("", maxWidth: 0, measure: Self.tenPixelsPerCharacter) == "")
    }

    @Test func tooWideTitleBecomesPrefixAndEllipsisWithinMaxWidth() {
        let title = "Network Connection Lost"
        for maxWidth in stride(from: 10, to: 230, by: 7) {
            let cut = BannerLayout.ellipsize(title, maxWidth: maxWidth, measure: Self.tenPixelsPerCharacter)
            #expect(cut.hasSuffix("…"), "maxWidth \(maxWidth)")
            #expect(title.hasPrefix(String(cut.dropLast())), "maxWidth \(maxWidth)")
            #expect(Self.tenPixelsPerCharacter(cut) <= maxWidth, "maxWidth \(maxWidth)")
        }
        #expect(BannerLayout.ellipsize(title, maxWidth: 80, measure: Self.tenPixelsPerCharacter) == "Network…")
        #expect(BannerLayout.ellipsize(title, maxWidth: 120, measure: Self.tenPixelsPerCharacter) == "Network Con…")
    }

    @Test func trailingSpaceIsTrimmedBeforeTheEllipsis() {
        #expect(BannerLayout.ellipsize("Hello world", maxWidth: 70, measure: Self.tenPixelsPerCharacter) == "Hello…")
        #expect(BannerLayout.ellipsize("Hello world", maxWidth: 80, measure: Self.tenPixelsPerCharacter) == "Hello w…")
    }

    @Test func onlyTheEllipsisOrNothingWhenSpaceIsTiny() {
        #expect(BannerLayout.ellipsize("Hello", maxWidth: 10, measure: Self.tenPixelsPerCharacter) == "…")
        #expect(BannerLayout.ellipsize("Hello", maxWidth: 5, measure: Self.tenPixelsPerCharacter) == "")
    }

    @Test func ellipsizingNeverSplitsAnEmojiSequence() {
        let title = Self.family + Self.family + Self.family
        // 90 px would hold the family, "…" and two more scalars of the next family.
        let cut = BannerLayout.ellipsize(title, maxWidth: 90, measure: Self.tenPixelsPerScalar)
        #expect(Array(cut.unicodeScalars) == Array((Self.family + "…").unicodeScalars))
        #expect(BannerLayout.ellipsize(title, maxWidth: 50, measure: Self.tenPixelsPerScalar) == "…")
    }

    @Test func ellipsizingNeverSplitsACombiningAccent() {
        let title = String(repeating: Self.decomposedE, count: 5)
        // 60 px would hold "é", "é", a bare "e" and "…" if scalars were cut apart.
        let cut = BannerLayout.ellipsize(title, maxWidth: 60, measure: Self.tenPixelsPerScalar)
        #expect(Array(cut.unicodeScalars) == Array((Self.decomposedE + Self.decomposedE + "…").unicodeScalars))
    }

    @Test func singleLineTurnsLineBreaksAndTabsIntoSpaces() {
        #expect(BannerLayout.singleLine("Line one\nLine two\tend") == "Line one Line two end")
        #expect(BannerLayout.singleLine("a\r\nb") == "a  b")
        #expect(BannerLayout.singleLine("a\u{2028}b\u{2029}c\u{85}d") == "a b c d")
        #expect(BannerLayout.singleLine("Plain title ✓") == "Plain title ✓")
    }
}
