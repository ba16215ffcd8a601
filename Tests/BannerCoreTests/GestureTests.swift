// What a pointer does to a banner: clicks on the banner and on its buttons, the wheel, drags
// upwards (and the drags and buttons that mean nothing), with plain numbers for pixels.

import BannerCore
import Testing

@Suite("Gesture: click, close, action, swipe")
struct GestureTests {
    /// An 80 px banner on a 1280 px monitor with a ✕ and an action button.
    static let areas = BannerHitAreas(
        closeButton: PixelRect(x: 1240, y: 0, width: 40, height: 80),
        actionButton: PixelRect(x: 1160, y: 0, width: 80, height: 80)
    )

    static func gesture() -> BannerGesture { BannerGesture(scale: 1, bannerHeight: 80) }

    /// Press at `from`, release at `to`: what it meant.
    static func drag(from: (Int, Int), to: (Int, Int), button: PointerButton = .primary) -> BannerDismissReason? {
        var gesture = gesture()
        let pressed = gesture.press(button, x: from.0, y: from.1, on: areas)
        #expect(pressed == nil)
        return gesture.release(button, x: to.0, y: to.1)
    }

    @Test func clickOnTheBannerIsClicked() {
        #expect(Self.drag(from: (640, 40), to: (640, 40)) == .clicked)
        #expect(Self.drag(from: (640, 40), to: (643, 37)) == .clicked, "a hand shakes a little")
    }

    @Test func clickOnTheCloseButtonIsClosed() {
        #expect(Self.drag(from: (1260, 40), to: (1260, 40)) == .closed)
        #expect(Self.drag(from: (1279, 79), to: (1279, 79)) == .closed)
    }

    @Test func clickOnTheActionButtonIsAction() {
        #expect(Self.drag(from: (1200, 10), to: (1201, 10)) == .action)
    }

    @Test func wheelUpIsASwipeAtOnce() {
        var gesture = Self.gesture()
        let pressed = gesture.press(.wheelUp, x: 640, y: 40, on: Self.areas)
        let released = gesture.release(.wheelUp, x: 640, y: 40)
        #expect(pressed == .swiped)
        #expect(released == nil)
    }

    @Test func dragUpwardsIsASwipe() {
        #expect(Self.drag(from: (640, 60), to: (640, 36)) == .swiped)
        #expect(Self.drag(from: (640, 60), to: (650, 0)) == .swiped)
        // Released above the banner (and the screen's edge stops the pointer at 0 anyway).
        #expect(Self.drag(from: (1260, 60), to: (1262, -40)) == .swiped, "a swipe that starts on the ✕ is still a swipe")
    }

    @Test func shortSidewaysOrDownwardDragsMeanNothing() {
        #expect(Self.drag(from: (640, 60), to: (640, 45)) == nil, "less than the swipe distance")
        #expect(Self.drag(from: (640, 60), to: (700, 30)) == nil, "more sideways than up")
        #expect(Self.drag(from: (640, 20), to: (640, 70)) == nil, "downwards")
        #expect(Self.drag(from: (200, 40), to: (400, 40)) == nil, "sideways")
    }

    @Test func otherButtonsMeanNothing() {
        var gesture = Self.gesture()
        let pressed = gesture.press(.other, x: 640, y: 40, on: Self.areas)
        let released = gesture.release(.other, x: 640, y: 40)
        #expect(pressed == nil)
        #expect(released == nil)
        #expect(!gesture.isTracking)
    }

    @Test func releaseWithoutPressMeansNothing() {
        var gesture = Self.gesture()
        let released = gesture.release(.primary, x: 640, y: 40)
        #expect(released == nil)
    }

    @Test func cancelledPressMeansNothing() {
        var gesture = Self.gesture()
        _ = gesture.press(.primary, x: 640, y: 40, on: Self.areas)
        #expect(gesture.isTracking)
        gesture.cancel()
        let released = gesture.release(.primary, x: 640, y: 40)
        #expect(released == nil)
    }

    @Test func thresholdsScaleWithDPIAndFitACompactStrip() {
        let regular = BannerGesture(scale: 1, bannerHeight: 80)
        #expect(regular.clickSlop == 4)
        #expect(regular.swipeDistance == 24)
        let doubled = BannerGesture(scale: 2, bannerHeight: 160)
        #expect(doubled.clickSlop == 8)
        #expect(doubled.swipeDistance == 48)
        // An 18 px strip pressed in its middle can only travel 9 px up: a third of it is enough.
        let compact = BannerGesture(scale: 1, bannerHeight: 18)
        #expect(compact.swipeDistance == 6)
        #expect(compact.swipeDistance > compact.clickSlop)
    }

    @Test func eachActionButtonIsItsOwnClick() {
        let areas = BannerHitAreas(
            closeButton: PixelRect(x: 1240, y: 0, width: 40, height: 80),
            actionButton: PixelRect(x: 1166, y: 0, width: 74, height: 80),
            secondaryActionButton: PixelRect(x: 1080, y: 0, width: 86, height: 80))
        var gesture = BannerGesture(scale: 1, bannerHeight: 80)
        #expect(gesture.press(.primary, x: 1100, y: 40, on: areas) == nil)
        #expect(gesture.release(.primary, x: 1102, y: 41) == .secondaryAction)
        _ = gesture.press(.primary, x: 1200, y: 10, on: areas)
        #expect(gesture.release(.primary, x: 1200, y: 10) == .action)
        // A press on the secondary button that ends on the primary one is still the secondary's.
        _ = gesture.press(.primary, x: 1163, y: 40, on: areas)
        #expect(gesture.release(.primary, x: 1167, y: 40) == .secondaryAction)
        #expect(areas.has(.secondaryAction) && areas.has(.action) && areas.has(.closed))
        #expect(!BannerHitAreas().has(.secondaryAction))
        #expect(BannerHitAreas().has(.clicked) && BannerHitAreas().has(.swiped))
    }

    @Test func withoutButtonsEveryClickIsOnTheBanner() {
        let areas = BannerHitAreas()
        #expect(areas.reason(atX: 1270, y: 40) == .clicked)
    }
}
