// Where the close button, the action buttons and the progress bar go, and how the title keeps
// clear of the buttons while staying centred.

import BannerCore
import Testing

@Suite("Layout: buttons and progress bar")
struct ButtonLayoutTests {
    @Test func closeButtonTakesFortyPointsAtTheRightEdge() {
        let buttons = BannerLayout.trailingButtons(monitorWidth: 1280, scale: 1, closeButton: true, actionLabelWidth: nil)
        #expect(buttons.close == PixelRange(x: 1240, width: 40))
        #expect(buttons.action == nil)
        #expect(buttons.width == 40)
        let doubled = BannerLayout.trailingButtons(monitorWidth: 2560, scale: 2, closeButton: true, actionLabelWidth: nil)
        #expect(doubled.close == PixelRange(x: 2480, width: 80))
    }

    @Test func actionButtonSitsLeftOfTheCloseButtonWithItsPadding() {
        let buttons = BannerLayout.trailingButtons(monitorWidth: 1280, scale: 1, closeButton: true, actionLabelWidth: 50)
        #expect(buttons.action == PixelRange(x: 1240 - 70, width: 70))
        #expect(buttons.width == 110)
    }

    @Test func actionButtonAloneKeepsOnePaddingFromTheEdge() {
        let buttons = BannerLayout.trailingButtons(monitorWidth: 1280, scale: 1, closeButton: false, actionLabelWidth: 50)
        #expect(buttons.action == PixelRange(x: 1280 - 12 - 70, width: 70))
        #expect(buttons.width == 82)
    }

    @Test func secondaryActionSitsLeftOfThePrimaryWithASpaceBetween() {
        let buttons = BannerLayout.trailingButtons(
            monitorWidth: 1280, scale: 1, closeButton: true, actionLabelWidth: 50, secondaryActionLabelWidth: 66)
        #expect(buttons.close == PixelRange(x: 1240, width: 40))
        #expect(buttons.action == PixelRange(x: 1170, width: 70))
        #expect(buttons.secondaryAction == PixelRange(x: 1170 - 8 - 86, width: 86))
        #expect(buttons.width == 40 + 70 + 8 + 86)
        // The title keeps clear of both, on both sides.
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1, trailingWidth: buttons.width) == 1280 - 2 * (12 + 204))
        // Without the ✕ the pair keeps one padding from the edge; at 2× every gap doubles.
        let alone = BannerLayout.trailingButtons(monitorWidth: 1280, scale: 1, closeButton: false, actionLabelWidth: 50, secondaryActionLabelWidth: 66)
        #expect(alone.action == PixelRange(x: 1280 - 12 - 70, width: 70))
        #expect(alone.secondaryAction == PixelRange(x: 1280 - 12 - 70 - 8 - 86, width: 86))
        let doubled = BannerLayout.trailingButtons(monitorWidth: 2560, scale: 2, closeButton: true, actionLabelWidth: 100, secondaryActionLabelWidth: 132)
        #expect(doubled.secondaryAction == PixelRange(x: 2560 - 80 - 140 - 16 - 172, width: 172))
    }

    @Test func theSpaceBetweenTheActionsIsSplitBetweenTheirHitAreas() {
        let buttons = BannerLayout.trailingButtons(
            monitorWidth: 1280, scale: 1, closeButton: true, actionLabelWidth: 50, secondaryActionLabelWidth: 66)
        let areas = BannerLayout.hitAreas(buttons, bannerHeight: 80)
        #expect(areas.secondaryActionButton == PixelRect(x: 1076, y: 0, width: 90, height: 80))
        #expect(areas.actionButton == PixelRect(x: 1166, y: 0, width: 74, height: 80))
        #expect(areas.reason(atX: 1075, y: 40) == .clicked)
        #expect(areas.reason(atX: 1076, y: 0) == .secondaryAction)
        #expect(areas.reason(atX: 1165, y: 79) == .secondaryAction)
        #expect(areas.reason(atX: 1166, y: 79) == .action)
        #expect(areas.reason(atX: 1239, y: 40) == .action)
        #expect(areas.reason(atX: 1240, y: 40) == .closed)
    }

    @Test func twoActionLabelsShareTheThird() {
        // 426 px for both boxes: 2 × 20 px padding and the 8 px between them leave 378, 189 each.
        #expect(BannerLayout.maximumActionLabelWidth(monitorWidth: 1280, scale: 1, count: 2) == 189)
        #expect(BannerLayout.maximumActionLabelWidth(monitorWidth: 1280, scale: 1, count: 1) == BannerLayout.maximumActionLabelWidth(monitorWidth: 1280, scale: 1))
        #expect(BannerLayout.maximumActionLabelWidth(monitorWidth: 40, scale: 1, count: 2) == 0)
        // Labels wider than their share are ellipsized to it: the pair never takes more than a third.
        let measure = { (text: String) in text.count * 10 }
        let label = BannerLayout.ellipsize(String(repeating: "Decline ", count: 10), maxWidth: 189, measure: measure)
        #expect(measure(label) <= 189 && label.hasSuffix("…"))
        let buttons = BannerLayout.trailingButtons(
            monitorWidth: 1280, scale: 1, closeButton: false, actionLabelWidth: 189, secondaryActionLabelWidth: measure(label))
        #expect(buttons.width - 12 <= 1280 / 3)
    }

    @Test func noButtonsTakeNothing() {
        let buttons = BannerLayout.trailingButtons(monitorWidth: 1280, scale: 1, closeButton: false, actionLabelWidth: nil)
        #expect(buttons == TrailingButtons())
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1, trailingWidth: 0) == 1256)
    }

    @Test func titleKeepsClearOfTheButtonsOnBothSides() {
        // Centred: as much is kept free on the left as the buttons take on the right.
        #expect(BannerLayout.maximumTitleWidth(monitorWidth: 1280, scale: 1, trailingWidth: 110) == 1280 - 2 * 122)
    }

    @Test func actionLabelIsLimitedToAThirdOfTheMonitor() {
        #expect(BannerLayout.maximumActionLabelWidth(monitorWidth: 1280, scale: 1) == 426 - 20)
    }

    @Test func actionBoxSurroundsTheTitleLineInsideTheBanner() {
        let box = BannerLayout.actionButtonFrame(
            PixelRange(x: 1170, width: 70), baseline: 55, line: BannerLayout.LineMetrics(ascent: 16, descent: 4),
            bannerHeight: 80, scale: 1)
        #expect(box == PixelRect(x: 1170, y: 35, width: 70, height: 28))
        // A compact strip clips the box to the banner.
        let strip = BannerLayout.actionButtonFrame(
            PixelRange(x: 1170, width: 70), baseline: 14, line: BannerLayout.LineMetrics(ascent: 13, descent: 3),
            bannerHeight: 18, scale: 1)
        #expect(strip == PixelRect(x: 1170, y: 0, width: 70, height: 18))
    }

    @Test func buttonsAreHitOverTheBannersWholeHeight() {
        var buttons = TrailingButtons()
        buttons.close = PixelRange(x: 1240, width: 40)
        buttons.action = PixelRange(x: 1170, width: 70)
        let areas = BannerLayout.hitAreas(buttons, bannerHeight: 80)
        #expect(areas.closeButton == PixelRect(x: 1240, y: 0, width: 40, height: 80))
        #expect(areas.actionButton == PixelRect(x: 1170, y: 0, width: 70, height: 80))
        #expect(areas.reason(atX: 1169, y: 40) == .clicked)
        #expect(areas.reason(atX: 1170, y: 0) == .action)
        #expect(areas.reason(atX: 1239, y: 79) == .action)
        #expect(areas.reason(atX: 1240, y: 79) == .closed)
    }

    @Test func progressBarIsThreePointsAlongTheBottomEdge() {
        let bar = BannerLayout.progressBar(0.25, monitorWidth: 1280, bannerHeight: 80, scale: 1)
        #expect(bar.filled == PixelRect(x: 0, y: 77, width: 320, height: 3))
        #expect(bar.track == PixelRect(x: 0, y: 77, width: 1280, height: 3))
        #expect(BannerLayout.progressBar(0.25, monitorWidth: 2560, bannerHeight: 160, scale: 2).filled == PixelRect(x: 0, y: 154, width: 640, height: 6))
    }

    @Test func progressBarEndsAreEmptyAndFull() {
        #expect(BannerLayout.progressBar(0, monitorWidth: 1280, bannerHeight: 80, scale: 1).filled.width == 0)
        #expect(BannerLayout.progressBar(1, monitorWidth: 1280, bannerHeight: 80, scale: 1).filled.width == 1280)
        // At least a pixel thick at any scale.
        #expect(BannerLayout.progressBar(1, monitorWidth: 100, bannerHeight: 18, scale: 0.25).filled.height == 1)
    }
}
