// BannerCore's one table of appearance settings (AppearanceField) is where each setting is
// declared; these hold the config file's side and docs/config.md to it (WindowBannerCLITests'
// SettingsTableTests hold `show --help` and the monitor's options).

import BannerConfig
import BannerCore
import ConfigTOML
import Foundation
import Testing

@Suite("The table of settings: the config file and docs/config.md")
struct SettingsTableTests {
    static let packageRoot = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    /// A value each field takes, as a config file writes it.
    static let examples: [String: String] = [
        "title": "\"Offline\"", "subtitle": "\"Wi-Fi\"", "background": "\"#112233\"", "text-color": "\"systemRed\"", "height": "40",
        "title-top-inset": "6", "font": "\"DejaVu Sans:size=12\"", "subtitle-font": "\"DejaVu Sans:size=9\"", "compact": "\"never\"",
        "placement": "\"screen-edge\"", "fullscreen": "\"delay\"", "direction": "\"rtl\"", "icon": "\"none\"", "corner-radius": "8",
        "politeness": "\"polite\"", "close-button": "true", "reduce-motion": "false",
    ]

    @Test func theTableNamesEverySettingOnceWithItsField() {
        let names = AppearanceField.all.map(\.name)
        #expect(names.count == Set(names).count)
        #expect(Set(names) == Set(AppearanceSettings.fields.map(\.name)))
        for field in AppearanceSettings.fields {
            #expect(AppearanceField.named(field.name).keyPath == field.keyPath, "\(field.name)")
        }
        #expect(AppearanceSettings.styleFields.map(\.name) == AppearanceSettings.fields.map(\.name).filter { AppearanceField.named($0).inStyles })
    }

    @Test func theConfigFileTakesEachStyleKeyAsTheTableWritesIt() throws {
        let styled = AppearanceField.all.filter(\.inStyles)
        #expect(Set(styled.map(\.name)) == Set(Self.examples.keys))
        let text = "[defaults]\n" + styled.map { "\($0.name) = \(Self.examples[$0.name] ?? "")" }.joined(separator: "\n") + "\n"
        let config = try BannerConfig.parse(text, file: "config.toml")
        for field in styled {
            #expect(config.defaults[keyPath: field.keyPath] != nil, "\(field.name) was not read")
        }
        // The value's kind is the table's: a number or a boolean written as a string is refused.
        for field in styled where field.value != .text {
            #expect(throws: ConfigError.self, "\(field.name)") { try BannerConfig.parse("[defaults]\n\(field.name) = \"1\"\n", file: "config.toml") }
        }
        for field in AppearanceField.all where !field.inStyles {
            #expect(throws: ConfigError.self, "\(field.name)") { try BannerConfig.parse("[defaults]\n\(field.name) = \"x\"\n", file: "config.toml") }
        }
    }

    @Test func docsConfigListIsTheTable() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/config.md", encoding: .utf8)
        let marker = "<!-- keys: checked by SettingsTableTests -->\n"
        let start = try #require(page.range(of: marker), "docs/config.md has no checked list of keys")
        let entries = page[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("- ") }.map(String.init)
        let expected = AppearanceField.all.filter(\.inStyles).map(\.configEntry)
        #expect(entries == expected, "docs/config.md's list of keys should read:\n\(expected.joined(separator: "\n"))")
    }

    @Test func theDefaultsAreTheBuiltInLooks() {
        let look = TopBannerAppearance.default
        #expect(AppearanceField.named("height").defaultValue == "\(BannerFont.format(look.height)), compact \(BannerFont.format(look.compact.height))")
        #expect(AppearanceField.named("background").defaultValue.hasPrefix("systemGreen (\(look.backgroundColor))"))
        #expect(AppearanceField.named("text-color").defaultValue == "white")
        #expect(AppearanceField.named("font").defaultValue.contains("size=\(BannerFont.format(look.font.size))"))
    }
}
