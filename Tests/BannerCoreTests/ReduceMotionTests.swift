// Reduce motion: no slide — the banner is all there (and its space reserved) from its first
// frame and gone in one step — and no cross-fade: a change of look shows at once.

import BannerCore
import Testing

@Suite("Reduce motion")
struct ReduceMotionTests {
    static let still: TopBannerAppearance = {
        var appearance = TopBannerAppearance.default
        appearance.title = "Offline"
        appearance.reduceMotion = true
        return appearance
    }()

    @Test func appearsFullyAtOnce() {
        var banner = BannerPresentation()
        banner.present(Self.still, at: at(10))
        #expect(banner.phase == .presented)
        #expect(banner.frame(at: at(10))?.reveal == 1)
        #expect(banner.advance(to: at(10)) == [.presentationFinished])
        #expect(!banner.isAnimating)
    }

    @Test func goesAtOnce() {
        var banner = BannerPresentation()
        banner.present(Self.still, at: at(0))
        _ = banner.advance(to: at(0))
        banner.dismiss(at: at(1))
        #expect(banner.phase == .hidden)
        #expect(banner.frame(at: at(1)) == nil)
        #expect(banner.advance(to: at(1)) == [.dismissalFinished])
    }

    @Test func aChangeOfLookShowsAtOnce() {
        var banner = BannerPresentation()
        banner.present(Self.still, at: at(0))
        _ = banner.advance(to: at(0))
        var online = Self.still
        online.title = "Back Online"
        banner.present(online, at: at(1))
        let frame = banner.frame(at: at(1))
        #expect(frame?.reveal == 1)
        #expect(frame?.fadeProgress == 1)
        #expect(frame?.fadingFrom == nil)
        #expect(frame?.appearance.title == "Back Online")
        #expect(!banner.isAnimating)
    }

    @Test func withoutItAChangeOfLookCrossFades() {
        var banner = BannerPresentation()
        var sliding = Self.still
        sliding.reduceMotion = false
        banner.present(sliding, at: at(0))
        _ = banner.advance(to: at(1))
        var online = sliding
        online.title = "Back Online"
        banner.present(online, at: at(1))
        #expect((banner.frame(at: at(1.1))?.fadeProgress ?? 1) < 1)
    }

    @Test func withoutItTheBannerSlides() {
        var banner = BannerPresentation()
        banner.present(.default, at: at(0))
        #expect(banner.phase == .presenting)
        #expect((banner.frame(at: at(0.1))?.reveal ?? 1) < 1)
    }

    @Test func settingsAndBuilderCarryIt() throws {
        #expect(try AppearanceSettings(reduceMotion: "true").appearance().reduceMotion)
        #expect(try AppearanceSettings(reduceMotion: "false").appearance().reduceMotion == false)
        #expect(throws: BannerValueError.self) { try AppearanceSettings(reduceMotion: "maybe").appearance() }
        #expect(try TopBannerConfigBuilder().reduceMotion().build().reduceMotion)
    }
}
