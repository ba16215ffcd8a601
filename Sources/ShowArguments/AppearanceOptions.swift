// The appearance flags shared by every command that shows a banner, each declared here for
// swift-argument-parser with its help from BannerCore's one table of settings (AppearanceField:
// what it sets and its default, never restated here). Values stay strings until
// `appearance()` hands them to BannerCore, so a bad value is reported exactly as written.
// Every value is taken unconditionally, so that `--height -5` or `--background -1` is reported
// as a bad height or colour, not mistaken for a flag.

import ArgumentParser
import BannerCore
import OwnerIPC

package struct AppearanceOptions: ParsableArguments {
    package init() {}

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("title"))
    package var title: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("background"))
    package var background: String?

    @Option(name: .customLong("text-color"), parsing: .unconditional, help: AppearanceField.argumentHelp("text-color"))
    package var textColor: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("height"))
    package var height: String?

    @Option(name: .customLong("title-top-inset"), parsing: .unconditional, help: AppearanceField.argumentHelp("title-top-inset"))
    package var titleTopInset: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("font"))
    package var font: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("subtitle"))
    package var subtitle: String?

    @Option(name: .customLong("subtitle-font"), parsing: .unconditional, help: AppearanceField.argumentHelp("subtitle-font"))
    package var subtitleFont: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("compact"))
    package var compact: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("placement"))
    package var placement: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("fullscreen"))
    package var fullscreen: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("direction"))
    package var direction: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("icon"))
    package var icon: String?

    @Option(name: .customLong("corner-radius"), parsing: .unconditional, help: AppearanceField.argumentHelp("corner-radius"))
    package var cornerRadius: String?

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("politeness"))
    package var politeness: String?

    @Flag(name: .customLong("strict-contrast"), help: "Refuse (exit 64) a title below WCAG's contrast on its background (4.5:1; 3:1 from 24 pt, or 18.7 pt bold) instead of warning. The built-in looks, which fall short, are only checked with this flag.")
    package var strictContrast = false

    @Flag(name: .customLong("reduce-motion"), inversion: .prefixedNo, help: AppearanceField.flagHelp("reduce-motion"))
    package var reduceMotion: Bool?

    @Flag(name: .customLong("close-button"), inversion: .prefixedNo, help: AppearanceField.flagHelp("close-button"))
    package var closeButton: Bool?

    @Option(parsing: .unconditionalSingleValue, help: AppearanceField.argumentHelp("action"))
    package var action: [String] = []

    @Option(parsing: .unconditional, help: AppearanceField.argumentHelp("progress"))
    package var progress: String?

    /// The most `--action`s a banner has: the primary and the secondary.
    package static let maximumActions = 2

    package func validate() throws {
        if action.count > Self.maximumActions {
            throw ValidationError("--action given \(action.count) times: a banner has at most two actions (the primary, then the secondary); the third is '\(action[2].printable)'")
        }
    }

    /// The flags as one layer of settings, exactly as written.
    package var settings: AppearanceSettings {
        AppearanceSettings(
            title: title, background: background, textColor: textColor, height: height,
            titleTopInset: titleTopInset, font: font, compact: compact, subtitle: subtitle, subtitleFont: subtitleFont,
            closeButton: closeButton.map { String($0) }, action: action.first,
            secondaryAction: action.dropFirst().first, progress: progress,
            reduceMotion: reduceMotion.map { String($0) }, icon: icon, cornerRadius: cornerRadius, placement: placement, fullscreen: fullscreen,
            direction: direction, politeness: politeness)
    }

    /// The appearance these flags describe, defaults filled in.
    package func appearance() throws(BannerValueError) -> TopBannerAppearance {
        try settings.appearance()
    }

    package func compactPolicy() throws(BannerValueError) -> CompactPolicy {
        try settings.compactPolicy()
    }

    /// `--compact` as written, `auto` when absent.
    package static func compactPolicy(_ text: String?) throws(BannerValueError) -> CompactPolicy {
        try AppearanceSettings(compact: text).compactPolicy()
    }
}

extension AppearanceField {
    /// Help for the option that sets field `name`: what it sets, its default, its value's name.
    package static func argumentHelp(_ name: String) -> ArgumentHelp {
        let field = named(name)
        return ArgumentHelp(field.help, valueName: field.valueName)
    }

    /// Help for the flag (and its `--no-` form) that sets boolean field `name`.
    package static func flagHelp(_ name: String) -> ArgumentHelp {
        ArgumentHelp(named(name).help)
    }

    /// Help for the network monitor's `--ROLE-NAME` option of banner `role`.
    package static func monitorHelp(_ name: String, role: String) -> ArgumentHelp {
        let field = named(name)
        return ArgumentHelp(field.monitorHelp(role: role), valueName: field.valueName)
    }
}
