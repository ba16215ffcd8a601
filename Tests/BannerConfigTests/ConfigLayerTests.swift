// What a valid config file means: the example file, the built-in styles, and how defaults,
// styles and flags stack.

import BannerConfig
import ConfigTOML
import BannerCore
import Testing

@Suite struct ConfigLayerTests {
    /// Resources/config.example.toml, found from this file's path.
    static let examplePath: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Resources/config.example.toml"
    }()

    @Test func exampleFileIsTheBuiltInStylesPlusItsDefaultsAndIdleExit() throws {
        let config = try BannerConfig.read(path: Self.examplePath)
        var expected = BannerConfig.builtIn
        expected.defaults = AppearanceSettings(
            background: "systemGreen", textColor: "white", height: "80", titleTopInset: "20",
            font: "sans-serif:semibold:size=17", compact: "auto", placement: "below-panels"
        )
        expected.idleExit = 60
        expected.file = Self.examplePath
        #expect(config == expected)
    }

    /// A screen reader's urgency: the settings' (flags over the style), else assertive for the
    /// built-in offline and call styles, whatever the file made of them, polite for the rest.
    @Test func politenessIsTheSettingsElseAssertiveForOfflineAndCall() throws {
        for (style, expected) in [("offline", Politeness.assertive), ("call", .assertive), ("sharing", .assertive), ("online", .polite), ("portal", .polite), ("mine", .polite)] {
            #expect(try BannerConfig.politeness(of: AppearanceSettings(), style: style) == expected)
        }
        #expect(try BannerConfig.politeness(of: AppearanceSettings(), style: nil) == .polite)
        #expect(try BannerConfig.politeness(of: AppearanceSettings(politeness: "polite"), style: "call") == .polite)
        #expect(try BannerConfig.politeness(of: AppearanceSettings(politeness: "Assertive"), style: nil) == .assertive)
        #expect(throws: BannerValueError.politeness("loud")) { try BannerConfig.politeness(of: AppearanceSettings(politeness: "loud"), style: nil) }
    }

    @Test func builtInStylesNeedNoFile() throws {
        #expect(try BannerConfig.builtIn.resolve(style: "offline") == BannerStyle(
            appearance: AppearanceSettings(title: "No Internet Connection", background: "systemRed", icon: "window-banner-offline")
        ))
        #expect(try BannerConfig.builtIn.resolve(style: "online") == BannerStyle(
            appearance: AppearanceSettings(title: "Back Online", background: "systemTeal", icon: "window-banner-online"), timeout: 2.0
        ))
        #expect(try BannerConfig.builtIn.resolve(style: "call") == BannerStyle(
            appearance: AppearanceSettings(title: "Call in progress", background: "systemGreen")
        ))
    }

    @Test func missingFileGivesTheBuiltInConfig() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(try BannerConfig.read(path: directory.path + "/config.toml") == .builtIn)
    }

    @Test func styleOverridesDefaultsAndFlagsOverrideStyle() throws {
        let config = try BannerConfig.parse("""
            [defaults]
            background = "systemGreen"
            height = 60
            font = "DejaVu Sans:bold:size=13"

            [style.alarm]
            background = "systemRed"
            title = "Alarm"
            timeout = 5
            """, file: "config.toml")
        let style = try config.resolve(style: "alarm")
        #expect(style.appearance == AppearanceSettings(
            title: "Alarm", background: "systemRed", height: "60", font: "DejaVu Sans:bold:size=13"
        ))
        #expect(style.timeout == 5)

        let flags = AppearanceSettings(background: "#000000", height: "30")
        #expect(style.appearance.overlaid(by: flags) == AppearanceSettings(
            title: "Alarm", background: "#000000", height: "30", font: "DejaVu Sans:bold:size=13"
        ))
    }

    @Test func noStyleResolvesToTheDefaultsAlone() throws {
        let config = try BannerConfig.parse("[defaults]\ntext-color = \"black\"\n", file: "config.toml")
        #expect(try config.resolve(style: nil) == BannerStyle(appearance: AppearanceSettings(textColor: "black")))
    }

    @Test func fileStyleReplacesTheBuiltInStyleWholeAndNewNamesAddStyles() throws {
        let config = try BannerConfig.parse("""
            [style.offline]
            background = "systemOrange"

            [style.meeting]
            title = "In a meeting"
            """, file: "config.toml")
        #expect(config.styles["offline"] == BannerStyle(appearance: AppearanceSettings(background: "systemOrange")))
        #expect(config.styles["online"] == BannerConfig.builtIn.styles["online"])
        #expect(config.styles["call"] == BannerConfig.builtIn.styles["call"])
        #expect(config.styles["meeting"] == BannerStyle(appearance: AppearanceSettings(title: "In a meeting")))
    }

    @Test func numbersBecomeTheirDecimalText() throws {
        let config = try BannerConfig.parse("""
            [defaults]
            height = 80.5
            title-top-inset = 0

            [style.quick]
            timeout = 1

            [daemon]
            idle-exit = 0.5
            """, file: "config.toml")
        #expect(config.defaults == AppearanceSettings(height: "80.5", titleTopInset: "0"))
        #expect(config.styles["quick"]?.timeout == 1.0)
        #expect(config.idleExit == 0.5)
    }

    @Test func idleExitZeroMeansNeverAndIsKept() throws {
        #expect(try BannerConfig.parse("[daemon]\nidle-exit = 0\n", file: "config.toml").idleExit == 0)
        #expect(try BannerConfig.parse("", file: "config.toml").idleExit == nil)
    }

    @Test func colourNamesOnlyTheXServerKnowsAreKeptAsWritten() throws {
        let config = try BannerConfig.parse("[defaults]\nbackground = \"SteelBlue\"\n", file: "config.toml")
        #expect(config.defaults.background == "SteelBlue")
    }

    @Test func closeButtonIsABooleanInAStyle() throws {
        let config = try BannerConfig.parse("[style.note]\nclose-button = true\n[defaults]\nclose-button = false\n", file: "config.toml")
        #expect(config.styles["note"]?.appearance.closeButton == "true")
        #expect(config.defaults.closeButton == "false")
        #expect(try config.resolve(style: "note").appearance.appearance().closeButton)
    }

    @Test func iconAndCornerRadiusAreStyleKeys() throws {
        let config = try BannerConfig.parse("""
            [defaults]
            corner-radius = 12
            icon = "dialog-information"

            [style.backup]
            icon = "icons/backup.png"
            corner-radius = 6.5

            [style.plain]
            icon = "none"

            [style.absolute]
            icon = "/usr/share/pixmaps/backup.png"
            """, file: "/home/me/.config/window-banner/config.toml")
        #expect(config.defaults.icon == "dialog-information")
        #expect(config.defaults.cornerRadius == "12")
        // A relative path starts at the config file's directory, not wherever the owner runs.
        #expect(config.styles["backup"]?.appearance.icon == "/home/me/.config/window-banner/icons/backup.png")
        #expect(config.styles["absolute"]?.appearance.icon == "/usr/share/pixmaps/backup.png")
        let backup = try config.resolve(style: "backup").appearance.appearance()
        #expect(backup.icon == .file("/home/me/.config/window-banner/icons/backup.png"))
        #expect(backup.cornerRadius == 6.5)
        // The style's `none` wins over the defaults' icon; a flag wins over both.
        #expect(try config.resolve(style: "plain").appearance.appearance().icon == nil)
        #expect(try config.resolve(style: nil).appearance.appearance().icon == .named("dialog-information"))
        let flags = AppearanceSettings(icon: "network-offline")
        #expect(try config.resolve(style: "plain").appearance.overlaid(by: flags).appearance().icon == .named("network-offline"))
    }

    @Test func titleIsAllowedInDefaults() throws {
        let config = try BannerConfig.parse("[defaults]\ntitle = \"Hello\"\n", file: "config.toml")
        #expect(config.defaults.title == "Hello")
    }

    @Test func dottedQuotedAndInlineTableKeysAreRead() throws {
        let config = try BannerConfig.parse("""
            defaults.height = 40
            [style]
            "my style" = { title = "Mine", timeout = 3 }
            call.background = "#102030"
            """, file: "config.toml")
        #expect(config.defaults == AppearanceSettings(height: "40"))
        #expect(config.styles["my style"] == BannerStyle(appearance: AppearanceSettings(title: "Mine"), timeout: 3))
        #expect(config.styles["call"] == BannerStyle(appearance: AppearanceSettings(background: "#102030")))
    }

    @Test func defaultPathPrefersAbsoluteXDGConfigHome() {
        #expect(BannerConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"])
            == "/xdg/window-banner/config.toml")
        #expect(BannerConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/xdg/", "HOME": "/home/u"])
            == "/xdg/window-banner/config.toml")
    }

    @Test func defaultPathIgnoresRelativeOrEmptyXDGConfigHome() {
        #expect(BannerConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "xdg", "HOME": "/home/u"])
            == "/home/u/.config/window-banner/config.toml")
        #expect(BannerConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/u"])
            == "/home/u/.config/window-banner/config.toml")
        #expect(BannerConfig.defaultPath(environment: ["HOME": "/home/u/"])
            == "/home/u/.config/window-banner/config.toml")
    }

    @Test func defaultPathIsNilWithoutHomeOrXDGConfigHome() {
        #expect(BannerConfig.defaultPath(environment: [:]) == nil)
        #expect(BannerConfig.defaultPath(environment: ["HOME": ""]) == nil)
        #expect(BannerConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "relative"]) == nil)
    }
}
