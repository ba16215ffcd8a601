// The subtitle: a second, smaller line under the title. Its font derives from the title's, the
// two lines are centred below the inset as one block, the banner grows when they do not fit,
// and the compact strip joins them on one line.

import BannerCore
import Testing

@Suite("Subtitle")
struct SubtitleTests {
    @Test func subtitleFontIsTheTitlesFamilyRegularAtThirteenSeventeenths() {
        var appearance = TopBannerAppearance.default
        appearance.font = BannerFont(families: ["DejaVu Sans"], size: 34, weight: .bold)
        let derived = appearance.effectiveSubtitleFont
        #expect(derived.families == ["DejaVu Sans"])
        #expect(derived.weight == .regular)
        #expect(isClose(derived.size, 26))
    }

    @Test func explicitSubtitleFontWins() throws {
        let appearance = try AppearanceSettings(title: "T", subtitle: "S", subtitleFont: "Serif:bold").appearance()
        #expect(appearance.effectiveSubtitleFont.families == ["Serif"])
        #expect(appearance.effectiveSubtitleFont.weight == .bold)
        // Size not given: 13/17 of the title's.
        #expect(isClose(appearance.effectiveSubtitleFont.size, 13))
    }

    @Test func badSubtitleFontIsRefusedNamingIt() {
        #expect(throws: BannerValueError.self) {
            try AppearanceSettings(subtitle: "S", subtitleFont: "Sans:size=-4").appearance()
        }
    }

    @Test func twoLinesAreCentredAsOneBlockBelowTheInset() {
        // 80 px banner, 20 px inset: a 60 px area. Title line 20 (16+4), gap 2, subtitle 15 (12+3):
        // a 37 px block starting at 20 + (60 - 37) / 2 = 31.
        let title = BannerLayout.LineMetrics(ascent: 16, descent: 4)
        let subtitle = BannerLayout.LineMetrics(ascent: 12, descent: 3)
        let baselines = BannerLayout.baselines(.default, scale: 1, bannerHeight: 80, title: title, subtitle: subtitle)
        #expect(baselines.title == 31 + 16)
        #expect(baselines.subtitle == 31 + 20 + 2 + 12)
    }

    @Test func withoutSubtitleTheTitleStaysWhereItWas() {
        let title = BannerLayout.LineMetrics(ascent: 16, descent: 4)
        let baselines = BannerLayout.baselines(.default, scale: 1, bannerHeight: 80, title: title, subtitle: nil)
        #expect(baselines.title == BannerLayout.baseline(.default, scale: 1, bannerHeight: 80, ascent: 16, descent: 4))
        #expect(baselines.subtitle == nil)
    }

    @Test func twoLinesThatDoNotFitBelowTheInsetMoveUpIntoItAndTheBannerKeepsItsHeight() {
        var appearance = TopBannerAppearance.default
        appearance.height = 40
        // title 20 + gap 2 + subtitle 15 = a 37 px block in a 40 px banner: 3 px of inset left above.
        let title = BannerLayout.LineMetrics(ascent: 16, descent: 4)
        let subtitle = BannerLayout.LineMetrics(ascent: 12, descent: 3)
        #expect(BannerLayout.bannerHeight(appearance, scale: 1) == 40)
        let baselines = BannerLayout.baselines(appearance, scale: 1, bannerHeight: 40, title: title, subtitle: subtitle)
        #expect(baselines.title == 3 + 16)
        #expect(baselines.subtitle == 3 + 20 + 2 + 12)
    }

    @Test func gapScalesWithTheDisplay() throws {
        let title = BannerLayout.LineMetrics(ascent: 32, descent: 8)
        let subtitle = BannerLayout.LineMetrics(ascent: 24, descent: 6)
        let baselines = BannerLayout.baselines(.default, scale: 2, bannerHeight: 160, title: title, subtitle: subtitle)
        #expect(try #require(baselines.subtitle) - baselines.title == 8 + 4 + 24)
    }

    @Test func compactStripJoinsSubtitleToTheTitle() {
        var appearance = TopBannerAppearance.default
        appearance.title = "No Internet Connection"
        appearance.subtitle = "Retrying in 5 s"
        let compact = appearance.compact
        #expect(compact.title == "No Internet Connection — Retrying in 5 s")
        #expect(compact.subtitle.isEmpty)
        appearance.subtitle = ""
        #expect(appearance.compact.title == "No Internet Connection")
    }

    @Test func builderAndSettingsCarryTheSubtitle() throws {
        let built = try TopBannerConfigBuilder().title("Call in progress").subtitle("00:42").build()
        #expect(built.subtitle == "00:42")
        let settings = AppearanceSettings(subtitle: "from flags")
        #expect(AppearanceSettings(subtitle: "from style").overlaid(by: settings).subtitle == "from flags")
        #expect(try settings.appearance().subtitle == "from flags")
    }
}
