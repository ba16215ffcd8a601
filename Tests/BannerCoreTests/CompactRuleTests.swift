// When the banner goes compact: the monitor's shape under the user's policy.

import BannerCore
import Testing

@Suite("Compact rule")
struct CompactRuleTests {
    static let landscape = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
    static let portrait = MonitorGeometry(x: 1280, y: 0, width: 800, height: 1280)
    static let square = MonitorGeometry(x: 0, y: 800, width: 1024, height: 1024)

    @Test func autoIsCompactOnLandscapeOnly() {
        #expect(CompactRule.isCompact(Self.landscape, policy: .auto))
        #expect(!CompactRule.isCompact(Self.portrait, policy: .auto))
        #expect(!CompactRule.isCompact(Self.square, policy: .auto))
    }

    @Test(arguments: [landscape, portrait, square])
    func alwaysAndNeverIgnoreTheMonitorShape(monitor: MonitorGeometry) {
        #expect(CompactRule.isCompact(monitor, policy: .always))
        #expect(!CompactRule.isCompact(monitor, policy: .never))
    }

    @Test func effectiveAppearanceIsTheCompactVariantWhenCompact() {
        let appearance = TopBannerAppearance.default
        #expect(CompactRule.effectiveAppearance(appearance, on: Self.landscape, policy: .auto) == appearance.compact)
        #expect(CompactRule.effectiveAppearance(appearance, on: Self.portrait, policy: .auto) == appearance)
        #expect(CompactRule.effectiveAppearance(appearance, on: Self.landscape, policy: .never) == appearance)
        #expect(CompactRule.effectiveAppearance(appearance, on: Self.portrait, policy: .always) == appearance.compact)
    }

    @Test(arguments: [("auto", CompactPolicy.auto), ("always", .always), ("never", .never), ("AUTO", .auto), ("Never", .never)])
    func policyParsesCaseInsensitively(text: String, policy: CompactPolicy) throws {
        #expect(try CompactPolicy(parsing: text) == policy)
    }

    @Test(arguments: ["sometimes", "", "landscape", " auto"])
    func badPolicyThrowsNamingIt(text: String) {
        #expect(throws: BannerValueError.compactPolicy(text)) { try CompactPolicy(parsing: text) }
    }

    @Test func monitorDescribesItselfLikeXrandr() {
        #expect(Self.portrait.description == "800x1280+1280+0")
    }
}
