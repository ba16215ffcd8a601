// The banner's state machine on a manual clock: slide in, slide out, interruptions, cross-fades.

import BannerCore
import MonotonicClock
import Testing

@Suite("Presentation")
struct PresentationTests {
    static let green = TopBannerAppearance.default
    static let red: TopBannerAppearance = {
        var look = TopBannerAppearance.default
        look.title = "Network Connection Lost"
        look.backgroundColor = .systemRed
        return look
    }()

    /// A banner presented at t=10 and fully down since t=10.25.
    static func presentedBanner() -> BannerPresentation {
        var banner = BannerPresentation()
        banner.present(green, at: at(10))
        _ = banner.advance(to: at(10.25))
        return banner
    }

    @Test func startsHiddenWithNoFrame() {
        let banner = BannerPresentation()
        #expect(banner.phase == .hidden)
        #expect(!banner.isPresented)
        #expect(!banner.isAnimating)
        #expect(banner.animationEnd == nil)
        #expect(banner.frame(at: at(0)) == nil)
    }

    @Test func presentSlidesInAndFinishesAtExactlyAQuarterSecond() {
        var banner = BannerPresentation()
        banner.present(Self.green, at: at(10))
        #expect(banner.phase == .presenting)
        #expect(banner.isPresented)
        #expect(banner.isAnimating)
        #expect(banner.animationEnd == at(10.25))
        #expect(banner.frame(at: at(10))?.reveal == 0)

        #expect(banner.advance(to: at(10.2499)).isEmpty)
        #expect(banner.phase == .presenting)

        #expect(banner.advance(to: at(10.25)) == [.presentationFinished])
        #expect(banner.phase == .presented)
        #expect(banner.frame(at: at(10.25))?.reveal == 1)
        #expect(!banner.isAnimating)
        #expect(banner.animationEnd == nil)
        #expect(banner.advance(to: at(11)).isEmpty)
    }

    @Test func slideInEasesOut() throws {
        var banner = BannerPresentation()
        banner.present(Self.green, at: at(10))
        let midway = try #require(banner.frame(at: at(10.125)))
        #expect(midway.reveal == 0.875)
        #expect(midway.appearance == Self.green)
        #expect(midway.fadingFrom == nil)
        #expect(midway.fadeProgress == 1)
    }

    @Test func dismissSlidesOutAndHidesAtExactlyAQuarterSecond() {
        var banner = Self.presentedBanner()
        banner.dismiss(at: at(11))
        #expect(banner.phase == .dismissing)
        #expect(!banner.isPresented)
        #expect(banner.animationEnd == at(11.25))
        #expect(banner.frame(at: at(11))?.reveal == 1)
        #expect(banner.frame(at: at(11.125))?.reveal == 0.875)

        #expect(banner.advance(to: at(11.2499)).isEmpty)
        #expect(banner.phase == .dismissing)

        #expect(banner.advance(to: at(11.25)) == [.dismissalFinished])
        #expect(banner.phase == .hidden)
        #expect(banner.frame(at: at(11.25)) == nil)
        #expect(!banner.isAnimating)
    }

    @Test func dismissMidSlideReversesFromCurrentPosition() throws {
        var banner = BannerPresentation()
        banner.present(Self.green, at: at(10))
        let switchTime = at(10.1)
        let revealBefore = try #require(banner.frame(at: switchTime)).reveal
        #expect(isClose(revealBefore, EasingCurve.easeOut.value(at: 0.4)))

        banner.dismiss(at: switchTime)
        #expect(banner.phase == .dismissing)
        // No jump: the frame at the switch instant is where the slide in had got to.
        #expect(try #require(banner.frame(at: switchTime)).reveal == revealBefore)
        let justAfter = try #require(banner.frame(at: switchTime + 0.001)).reveal
        #expect(justAfter < revealBefore)
        #expect(revealBefore - justAfter < 0.01)

        // The remaining distance takes its share of the full slide.
        let end = try #require(banner.animationEnd)
        #expect(isClose(end - switchTime, 0.25 * revealBefore))
        #expect(banner.advance(to: at(end.seconds - 0.001)).isEmpty)
        #expect(banner.advance(to: end) == [.dismissalFinished])
        #expect(banner.phase == .hidden)
    }

    @Test func presentWhileDismissingSlidesBackInFromCurrentPosition() throws {
        var banner = Self.presentedBanner()
        banner.dismiss(at: at(11))
        let switchTime = at(11.1)
        let revealBefore = try #require(banner.frame(at: switchTime)).reveal
        #expect(isClose(revealBefore, 1 - EasingCurve.easeIn.value(at: 0.4)))

        banner.present(Self.green, at: switchTime)
        #expect(banner.phase == .presenting)
        #expect(banner.isPresented)
        let atSwitch = try #require(banner.frame(at: switchTime))
        #expect(atSwitch.reveal == revealBefore)
        #expect(atSwitch.fadingFrom == nil)
        #expect(try #require(banner.frame(at: switchTime + 0.001)).reveal > revealBefore)

        let end = try #require(banner.animationEnd)
        #expect(isClose(end - switchTime, 0.25 * (1 - revealBefore)))
        #expect(banner.advance(to: end) == [.presentationFinished])
        #expect(banner.frame(at: end)?.reveal == 1)
    }

    @Test func presentNewLookWhileDismissingSlidesBackInAndCrossFades() throws {
        var banner = Self.presentedBanner()
        banner.dismiss(at: at(11))
        banner.present(Self.red, at: at(11.1))
        let frame = try #require(banner.frame(at: at(11.1)))
        #expect(frame.appearance == Self.red)
        #expect(frame.fadingFrom == Self.green)
        #expect(frame.fadeProgress == 0)
    }

    @Test func presentWhileVisibleCrossFadesWithoutSliding() throws {
        var banner = Self.presentedBanner()
        banner.present(Self.red, at: at(11))
        #expect(banner.phase == .presented)
        #expect(banner.isAnimating)
        #expect(banner.animationEnd == at(11) + 0.2)

        let start = try #require(banner.frame(at: at(11)))
        #expect(start.reveal == 1)
        #expect(start.appearance == Self.red)
        #expect(start.fadingFrom == Self.green)
        #expect(start.fadeProgress == 0)

        let midway = try #require(banner.frame(at: at(11.1)))
        #expect(midway.reveal == 1)
        #expect(midway.fadingFrom == Self.green)
        #expect(isClose(midway.fadeProgress, 0.5))

        #expect(banner.advance(to: at(11) + 0.2).isEmpty)
        let end = try #require(banner.frame(at: at(11) + 0.2))
        #expect(end.reveal == 1)
        #expect(end.appearance == Self.red)
        #expect(end.fadingFrom == nil)
        #expect(end.fadeProgress == 1)
        #expect(!banner.isAnimating)
        #expect(banner.phase == .presented)
    }

    @Test func crossFadeProgressNeverGoesBackwards() throws {
        var banner = Self.presentedBanner()
        banner.present(Self.red, at: at(11))
        var last = 0.0
        for step in 0...20 {
            let progress = try #require(banner.frame(at: at(11) + Double(step) * 0.01)).fadeProgress
            #expect(progress >= last)
            last = progress
        }
        #expect(last == 1)
    }

    @Test func presentSameLookWhileVisibleDoesNothing() throws {
        var banner = Self.presentedBanner()
        let changed = banner.present(Self.green, at: at(11))
        #expect(!changed)
        #expect(banner.phase == .presented)
        #expect(!banner.isAnimating)
        #expect(banner.animationEnd == nil)
        let frame = try #require(banner.frame(at: at(11)))
        #expect(frame.reveal == 1)
        #expect(frame.fadingFrom == nil)
        #expect(frame.fadeProgress == 1)
        #expect(banner.advance(to: at(12)).isEmpty)
    }

    @Test func presentReportsWhetherAnythingChanges() {
        var banner = BannerPresentation()
        var changes: [Bool] = []
        changes.append(banner.present(Self.green, at: at(10)))
        // Already on its way in, and again once down: nothing to do.
        changes.append(banner.present(Self.green, at: at(10.1)))
        changes.append(banner.present(Self.green, at: at(10.3)))
        changes.append(banner.present(Self.red, at: at(11)))
        // The look a running cross-fade is heading for: the fade goes on untouched.
        changes.append(banner.present(Self.red, at: at(11.1)))
        #expect(banner.animationEnd == at(11) + 0.2)
        banner.dismiss(at: at(12))
        changes.append(banner.present(Self.red, at: at(12.1)))
        #expect(changes == [true, false, false, true, false, true])
    }

    @Test func presentNewLookWhileSlidingInCrossFadesAndKeepsSliding() throws {
        var banner = BannerPresentation()
        banner.present(Self.green, at: at(10))
        let revealBefore = try #require(banner.frame(at: at(10.1))).reveal
        banner.present(Self.red, at: at(10.1))
        #expect(banner.phase == .presenting)
        let frame = try #require(banner.frame(at: at(10.1)))
        #expect(frame.reveal == revealBefore)
        #expect(frame.fadingFrom == Self.green)
        #expect(banner.animationEnd == at(10.1) + 0.2)

        #expect(banner.advance(to: at(10.25)) == [.presentationFinished])
        #expect(banner.isAnimating)
        #expect(banner.advance(to: at(10.1) + 0.2).isEmpty)
        #expect(!banner.isAnimating)
    }

    @Test func dismissWhenHiddenIsANoOp() {
        var banner = BannerPresentation()
        banner.dismiss(at: at(5))
        #expect(banner.phase == .hidden)
        #expect(!banner.isAnimating)
        #expect(banner.frame(at: at(5)) == nil)
        #expect(banner.advance(to: at(6)).isEmpty)
    }

    @Test func dismissWhileDismissingChangesNothing() {
        var banner = Self.presentedBanner()
        banner.dismiss(at: at(11))
        banner.dismiss(at: at(11.1))
        #expect(banner.animationEnd == at(11.25))
        #expect(banner.advance(to: at(11.25)) == [.dismissalFinished])
    }

    @Test func lastLookIsKeptAfterDismissalAndSlidesInAgain() throws {
        var banner = Self.presentedBanner()
        banner.present(Self.red, at: at(11))
        banner.dismiss(at: at(12))
        _ = banner.advance(to: at(12.25))
        #expect(banner.phase == .hidden)
        #expect(banner.appearance == Self.red)

        banner.present(Self.green, at: at(20))
        let frame = try #require(banner.frame(at: at(20)))
        #expect(frame.reveal == 0)
        #expect(frame.appearance == Self.green)
        #expect(frame.fadingFrom == nil)
        #expect(banner.animationEnd == at(20.25))
    }

    @Test func customTimingScalesBothAnimations() {
        var banner = BannerPresentation(timing: BannerTiming(slideDuration: 0.5, crossFadeDuration: 0.1))
        banner.present(Self.green, at: at(1))
        #expect(banner.animationEnd == at(1.5))
        #expect(banner.advance(to: at(1.5)) == [.presentationFinished])
        banner.present(Self.red, at: at(2))
        #expect(banner.animationEnd == at(2) + 0.1)
    }

    @Test func standardTimingIsAQuarterSecondSlideAndFifthSecondFade() {
        #expect(BannerTiming.standard.slideDuration == 0.25)
        #expect(BannerTiming.standard.crossFadeDuration == 0.2)
    }
}
