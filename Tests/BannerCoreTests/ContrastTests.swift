// WCAG 2 contrast, computed rather than guessed: known pairs, the large-text threshold, and
// translucent titles blended over their background first.

import BannerCore
import Testing

@Suite("Contrast check")
struct ContrastTests {
    static func rgba(_ colour: BannerColor) -> RGBA {
        guard case .rgba(let value) = colour.value else { return RGBA(hex: 0) }
        return value
    }

    static let white = RGBA(hex: 0xFFFFFF)
    static let black = RGBA(hex: 0x000000)

    @Test func blackOnWhiteIsTwentyOneToOne() {
        #expect(isClose(ContrastCheck.ratio(Self.black, Self.white), 21))
        #expect(isClose(ContrastCheck.ratio(Self.white, Self.white), 1))
        #expect(ContrastCheck.ratio(Self.white, Self.black) == ContrastCheck.ratio(Self.black, Self.white))
    }

    @Test func whiteOnSystemYellowFailsEvenLarge() {
        let large = ContrastCheck(text: Self.white, background: Self.rgba(.systemYellow), font: .system(size: 30))
        #expect(!large.passes)
        #expect(large.ratio < 1.6)
    }

    @Test func whiteOnSystemRedPassesAsLargeTextOnly() {
        let red = Self.rgba(.systemRed)
        let regular = ContrastCheck(text: Self.white, background: red, font: .system(size: 17, weight: .semibold))
        #expect(!regular.passes)
        #expect(regular.required == 4.5)
        #expect(regular.ratioText == "3.54:1")
        let large = ContrastCheck(text: Self.white, background: red, font: .system(size: 24))
        #expect(large.passes)
        #expect(large.required == 3)
        let largeBold = ContrastCheck(text: Self.white, background: red, font: .system(size: 19, weight: .bold))
        #expect(largeBold.isLargeText)
        let semiboldIsNotBold = ContrastCheck(text: Self.white, background: red, font: .system(size: 19, weight: .semibold))
        #expect(!semiboldIsNotBold.isLargeText)
    }

    @Test func theOriginalsDefaultLookFallsShort() {
        let check = ContrastCheck(text: Self.white, background: Self.rgba(.systemGreen), font: TopBannerAppearance.default.font)
        #expect(!check.passes)
        #expect(check.ratioText == "2.21:1")
    }

    @Test func translucentTextIsBlendedOverItsBackgroundFirst() {
        let faint = RGBA(red: 0, green: 0, blue: 0, alpha: 0.1)
        let check = ContrastCheck(text: faint, background: Self.white, font: .system(size: 17))
        #expect(check.ratio < 1.3)
        #expect(ContrastCheck(text: Self.black, background: Self.white, font: .system(size: 17)).passes)
    }

    @Test func messageNamesBothColoursAndTheRatio() {
        let check = ContrastCheck(text: Self.white, background: Self.rgba(.systemYellow), font: .system(size: 17))
        let message = check.message(text: "white", background: "systemYellow")
        #expect(message.hasPrefix("low contrast: text 'white' on background 'systemYellow' is 1."))
        #expect(message.hasSuffix("WCAG asks at least 4.5:1 for text under 24 pt (18.7 pt bold)"))
        #expect(!message.contains("\n"))
    }

    @Test func ratioIsRoundedDownSoItNeverPassesInPrint() {
        // #767676 on white is the classic 4.54:1 grey.
        let grey = ContrastCheck(text: RGBA(hex: 0x767676), background: Self.white, font: .system(size: 17))
        #expect(grey.ratioText == "4.54:1")
        #expect(grey.passes)
    }
}
