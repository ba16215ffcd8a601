// The built-in styles under a high-contrast desktop theme: every one in that theme's colours,
// each at least 7:1; a style the config file defines, and the flags, still win.

import BannerConfig
import BannerCore
import Testing

@Suite("High-contrast desktop themes")
struct HighContrastTests {
    static let styles = ["offline", "online", "call", "portal", "sharing"]

    @Test(arguments: HighContrastTheme.allCases)
    func everyBuiltInStyleTakesTheThemesColoursAtSevenToOne(theme: HighContrastTheme) throws {
        for name in Self.styles {
            let resolved = try BannerConfig.builtIn.resolve(style: name, highContrast: theme) { $0 }
            let colours = try #require(theme.colours(ofStyle: name))
            #expect(resolved.appearance.background == colours.background)
            #expect(resolved.appearance.textColor == colours.text)
            let appearance = try resolved.appearance.appearance()
            guard case .rgba(let text) = appearance.textColor.value, case .rgba(let background) = appearance.backgroundColor.value else {
                Issue.record("\(name): colours are not hex")
                continue
            }
            let check = ContrastCheck(text: text, background: background, font: appearance.font)
            #expect(check.ratio >= 7, "\(theme) \(name): \(check.ratioText)")
        }
    }

    @Test func otherThemesChangeNothing() throws {
        #expect(HighContrastTheme(themeName: "Adwaita") == nil)
        #expect(HighContrastTheme(themeName: "highcontrast") == nil)
        #expect(HighContrastTheme(themeName: nil) == nil)
        #expect(HighContrastTheme(themeName: "HighContrastInverse") == .highContrastInverse)
        let plain = try BannerConfig.builtIn.resolve(style: "offline") { $0 }
        #expect(plain.appearance.background == "systemRed")
        #expect(plain.appearance.textColor == nil)
    }

    @Test func aStyleTheFileDefinesAndTheFlagsStillWin() throws {
        var config = BannerConfig.builtIn
        config.styles["offline"] = BannerStyle(appearance: AppearanceSettings(title: "Offline", background: "#333333"))
        let own = try config.resolve(style: "offline", highContrast: .highContrast) { $0 }
        #expect(own.appearance.background == "#333333")
        // The file left `online` as built: high contrast there.
        #expect(try config.resolve(style: "online", highContrast: .highContrast) { $0 }.appearance.background == "#005C66")
        // A flag goes on top.
        let flagged = try BannerConfig.builtIn.resolve(style: "offline", highContrast: .highContrast) { $0 }
            .appearance.overlaid(by: AppearanceSettings(background: "orange"))
        #expect(flagged.background == "orange")
        #expect(flagged.textColor == "#FFFFFF")
    }
}
