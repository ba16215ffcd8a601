// The original's defaults, the compact variant, height checks, and the chainable builder.

import BannerCore
import Testing

@Suite("Appearance")
struct AppearanceTests {
    /// A look unlike the defaults in every field.
    static let custom = TopBannerAppearance(
        title: "Backup running", backgroundColor: .systemTeal, textColor: .black,
        height: 44, titleTopInset: 6, font: BannerFont(families: ["DejaVu Sans"], size: 20, weight: .bold)
    )

    @Test func defaultsMatchTheOriginal() {
        let appearance = TopBannerAppearance.default
        #expect(appearance.title == "")
        #expect(appearance.backgroundColor == .systemGreen)
        #expect(appearance.backgroundColor.description == "#34c759")
        #expect(appearance.textColor == .white)
        #expect(appearance.textColor.description == "#ffffff")
        #expect(appearance.height == 80)
        #expect(appearance.titleTopInset == 20)
        #expect(appearance.font.families == ["sans-serif"])
        #expect(appearance.font.weight == .semibold)
        #expect(appearance.font.size == 17)
    }

    @Test func compactIsThinStripKeepingTitleColoursFamilyAndWeight() {
        let compact = Self.custom.compact
        #expect(compact.height == 18)
        #expect(compact.titleTopInset == 0)
        #expect(compact.font.size == 14)
        #expect(compact.font.families == ["DejaVu Sans"])
        #expect(compact.font.weight == .bold)
        #expect(compact.title == "Backup running")
        #expect(compact.backgroundColor == .systemTeal)
        #expect(compact.textColor == .black)
    }

    @Test func compactOfDefaultsIsSystemSemibold14() {
        let compact = TopBannerAppearance.default.compact
        #expect(compact.font == .system(size: 14, weight: .semibold))
        #expect(compact.height == 18)
        #expect(compact.titleTopInset == 0)
    }

    @Test(arguments: [(0.0, "0"), (-1, "-1"), (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (1001, "1001"), (1000.5, "1000.5")])
    func validatedHeightRejectsOutOfRange(value: Double, written: String) {
        #expect(throws: BannerValueError.height(written)) { try TopBannerAppearance.validatedHeight(value) }
    }

    @Test func validatedHeightNamesTheValueAsWritten() {
        #expect(throws: BannerValueError.height("tall")) { try TopBannerAppearance.validatedHeight(.nan, as: "tall") }
    }

    @Test(arguments: [0.5, 18, 80, 1000])
    func validatedHeightAcceptsUpToTheMaximum(value: Double) throws {
        #expect(try TopBannerAppearance.validatedHeight(value) == value)
    }

    @Test func validatedInsetAllowsZeroButNotNegative() throws {
        #expect(try TopBannerAppearance.validatedInset(0) == 0)
        #expect(throws: BannerValueError.inset("-1")) { try TopBannerAppearance.validatedInset(-1) }
        #expect(throws: BannerValueError.inset("inf")) { try TopBannerAppearance.validatedInset(.infinity) }
    }

    @Test func emptyBuilderBuildsTheDefaults() throws {
        #expect(try TopBannerConfigBuilder().build() == .default)
    }

    @Test func builderFillsUnsetFieldsFromDefaults() throws {
        let built = try TopBannerConfigBuilder().title("Saved").build()
        var expected = TopBannerAppearance.default
        expected.title = "Saved"
        #expect(built == expected)
    }

    @Test func builderFillsUnsetFieldsFromCustomDefaults() throws {
        let built = try TopBannerConfigBuilder().textColor(.white).height(30).build(defaults: Self.custom)
        var expected = Self.custom
        expected.textColor = .white
        expected.height = 30
        #expect(built == expected)
    }

    @Test func builderCallsChain() throws {
        let config = TopBannerConfigBuilder()
        config.title("Network Connection Lost").backgroundColor(.systemRed).textColor(.white)
            .height(44).titleTopInset(10).font(.system(size: 15, weight: .bold))
        let built = try config.build()
        #expect(built == TopBannerAppearance(
            title: "Network Connection Lost", backgroundColor: .systemRed, textColor: .white,
            height: 44, titleTopInset: 10, font: .system(size: 15, weight: .bold)
        ))
    }

    @Test func builderChainsInsideAConfigurationClosure() throws {
        func presentTopBanner(config: (inout TopBannerConfigBuilder) -> Void) throws(BannerValueError) -> TopBannerAppearance {
            var builder = TopBannerConfigBuilder()
            config(&builder)
            return try builder.build()
        }
        let built = try presentTopBanner { config in
            config.title("Network Connection Lost").backgroundColor(.systemRed)
        }
        #expect(built.title == "Network Connection Lost")
        #expect(built.backgroundColor == .systemRed)
        #expect(built.textColor == .white)
    }

    @Test func laterCallOverridesEarlierOne() throws {
        #expect(try TopBannerConfigBuilder().title("first").title("second").build().title == "second")
    }

    @Test(arguments: [(0.0, "0"), (-1, "-1"), (.nan, "nan"), (.infinity, "inf"), (1001, "1001")])
    func builderRefusesBadHeight(value: Double, written: String) {
        #expect(throws: BannerValueError.height(written)) { try TopBannerConfigBuilder().height(value).build() }
    }

    @Test func builderRefusesNegativeInset() {
        #expect(throws: BannerValueError.inset("-2")) { try TopBannerConfigBuilder().titleTopInset(-2).build() }
    }

    @Test func aMebibyteTitleIsRefusedNamingItsSize() {
        let huge = String(repeating: "x", count: 1 << 20)
        #expect(throws: BannerValueError.textTooLong("title", bytes: 1 << 20)) { try TopBannerConfigBuilder().title(huge).build() }
        #expect(throws: BannerValueError.textTooLong("subtitle", bytes: 1 << 20)) { try AppearanceSettings(subtitle: huge).appearance() }
        #expect(throws: Never.self) { try TopBannerConfigBuilder().title(String(repeating: "x", count: TopBannerAppearance.maximumTextBytes)).build() }
    }
}
