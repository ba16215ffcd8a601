// The progress bar on the manual clock: a new look that differs only in its progress value
// moves the bar (0.2 s, ease-out) with no cross-fade; anything more cross-fades as before.

import BannerCore
import MonotonicClock
import Testing

@Suite("Presentation: progress bar")
struct ProgressPresentationTests {
    static func upload(_ progress: Double?, title: String = "Uploading") -> TopBannerAppearance {
        var look = TopBannerAppearance.default
        look.title = title
        look.progress = progress
        return look
    }

    /// Where the bar stands at `time`; nil without a frame or a bar.
    static func bar(_ banner: BannerPresentation, at time: MonotonicTime) -> Double? {
        banner.frame(at: time)?.progress
    }

    /// A banner at 0.25, fully down since t=10.25.
    static func presentedAtAQuarter() -> BannerPresentation {
        var banner = BannerPresentation()
        banner.present(upload(0.25), at: at(10))
        _ = banner.advance(to: at(10.25))
        return banner
    }

    @Test func progressOnlyChangeMovesTheBarWithoutCrossFading() throws {
        var banner = Self.presentedAtAQuarter()
        let changed = banner.present(Self.upload(0.6), at: at(11))
        #expect(changed)
        #expect(banner.phase == .presented)
        #expect(banner.isAnimating)
        #expect(banner.animationEnd == at(11) + 0.2)
        for step in 0...20 {
            let frame = try #require(banner.frame(at: at(11) + Double(step) * 0.01))
            #expect(frame.fadingFrom == nil)
            #expect(frame.fadeProgress == 1)
            #expect(frame.reveal == 1)
            #expect(frame.appearance == Self.upload(0.6))
        }
        #expect(try #require(banner.frame(at: at(11))).progress == 0.25)
        #expect(banner.advance(to: at(11) + 0.2).isEmpty)
        #expect(try #require(banner.frame(at: at(11) + 0.2)).progress == 0.6)
        #expect(!banner.isAnimating)
    }

    @Test func barEasesOutAndNeverGoesBackwards() throws {
        var banner = Self.presentedAtAQuarter()
        banner.present(Self.upload(0.6), at: at(11))
        let midway = try #require(Self.bar(banner, at: at(11.1)))
        #expect(isClose(midway, 0.25 + 0.35 * EasingCurve.easeOut.value(at: 0.5)))
        // Ease-out: more than half the way at half the time.
        #expect(midway > 0.425)
        var last = 0.25
        for step in 0...20 {
            let value = try #require(Self.bar(banner, at: at(11) + Double(step) * 0.01))
            #expect(value >= last)
            last = value
        }
        #expect(last == 0.6)
    }

    @Test func aNewValueMidMoveStartsFromWhereTheBarStands() throws {
        var banner = Self.presentedAtAQuarter()
        banner.present(Self.upload(0.6), at: at(11))
        let standing = try #require(Self.bar(banner, at: at(11.05)))
        banner.present(Self.upload(0.9), at: at(11.05))
        #expect(try #require(banner.frame(at: at(11.05))).progress == standing)
        #expect(banner.animationEnd == at(11.05) + 0.2)
        #expect(try #require(banner.frame(at: at(11.25))).progress == 0.9)
    }

    @Test func barMovesBackTooWhenTheValueDrops() throws {
        var banner = Self.presentedAtAQuarter()
        banner.present(Self.upload(0.1), at: at(11))
        let midway = try #require(Self.bar(banner, at: at(11.1)))
        #expect(midway < 0.25 && midway > 0.1)
        #expect(try #require(banner.frame(at: at(11.2))).progress == 0.1)
    }

    @Test func titleChangeWithTheBarCrossFades() throws {
        var banner = Self.presentedAtAQuarter()
        banner.present(Self.upload(0.6, title: "Uploading 60 %"), at: at(11))
        let frame = try #require(banner.frame(at: at(11.1)))
        #expect(frame.fadingFrom == Self.upload(0.25))
        #expect(isClose(frame.fadeProgress, 0.5))
        // The new look's bar is drawn where it belongs, fading in with the rest.
        #expect(frame.progress == 0.6)
    }

    @Test func barAppearingOrGoingCrossFades() throws {
        var banner = BannerPresentation()
        banner.present(Self.upload(nil), at: at(10))
        _ = banner.advance(to: at(10.25))
        banner.present(Self.upload(0.5), at: at(11))
        #expect(try #require(banner.frame(at: at(11.1))).fadingFrom == Self.upload(nil))
        _ = banner.advance(to: at(12))
        banner.present(Self.upload(nil), at: at(12))
        let gone = try #require(banner.frame(at: at(12.1)))
        #expect(gone.fadingFrom == Self.upload(0.5))
        #expect(gone.progress == nil)
    }

    @Test func progressOnlyChangeDuringACrossFadeKeepsTheFadeGoing() throws {
        var banner = BannerPresentation()
        banner.present(Self.upload(0.2, title: "Preparing"), at: at(10))
        _ = banner.advance(to: at(10.25))
        banner.present(Self.upload(0.2), at: at(11))
        banner.present(Self.upload(0.5), at: at(11.1))
        let frame = try #require(banner.frame(at: at(11.1)))
        #expect(frame.fadingFrom == Self.upload(0.2, title: "Preparing"))
        #expect(isClose(frame.fadeProgress, 0.5))
        #expect(frame.progress == 0.2)
        #expect(banner.animationEnd == at(11.1) + 0.2)
        #expect(try #require(banner.frame(at: at(11.2))).fadingFrom == nil)
        #expect(try #require(banner.frame(at: at(11.3))).progress == 0.5)
    }

    @Test func progressOnlyChangeWhileSlidingInKeepsSliding() throws {
        var banner = BannerPresentation()
        banner.present(Self.upload(0.25), at: at(10))
        let reveal = try #require(banner.frame(at: at(10.1))).reveal
        banner.present(Self.upload(0.6), at: at(10.1))
        let frame = try #require(banner.frame(at: at(10.1)))
        #expect(frame.reveal == reveal)
        #expect(frame.fadingFrom == nil)
        #expect(banner.advance(to: at(10.25)) == [.presentationFinished])
        #expect(banner.isAnimating)
        #expect(banner.advance(to: at(10.3)).isEmpty)
        #expect(!banner.isAnimating)
    }

    @Test func presentingTheSameValueAgainDoesNothing() {
        var banner = Self.presentedAtAQuarter()
        let changed = banner.present(Self.upload(0.25), at: at(11))
        #expect(!changed)
        #expect(!banner.isAnimating)
    }

    @Test func slidingInShowsTheBarAtItsValueAtOnce() throws {
        var banner = BannerPresentation()
        banner.present(Self.upload(0.4), at: at(10))
        #expect(try #require(banner.frame(at: at(10))).progress == 0.4)
    }

    @Test func standardProgressMoveIsAFifthOfASecond() {
        #expect(BannerTiming.standard.progressDuration == 0.2)
    }
}
