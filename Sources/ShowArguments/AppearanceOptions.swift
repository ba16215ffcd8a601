// The appearance flags shared by every command that shows a banner. Values stay strings until
// `appearance()` hands them to BannerCore, so a bad value is reported exactly as written.
// Every value is taken unconditionally, so that `--height -5` or `--background -1` is reported
// as a bad height or colour, not mistaken for a flag.

import ArgumentParser
import BannerCore
import OwnerIPC

package struct AppearanceOptions: ParsableArguments {
    package init() {}

    @Option(parsing: .unconditional, help: ArgumentHelp("The banner's title (UTF-8; one line, ellipsized with … when too wide). Default: empty.", valueName: "text"))
    package var title: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Background colour: #RRGGBB, #RRGGBBAA, systemRed…, or an X11 name. Default: systemGreen (#34C759).", valueName: "colour"))
    package var background: String?

    @Option(name: .customLong("text-color"), parsing: .unconditional, help: ArgumentHelp("Title colour, same forms as --background. Default: white.", valueName: "colour"))
    package var textColor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Height in points (1 pt = 1 px at 96 DPI), exactly: the banner and the space it reserves, whatever the title; text that does not fit moves up into the inset, then is clipped. Default: 80, compact 18.", valueName: "pt"))
    package var height: String?

    @Option(name: .customLong("title-top-inset"), parsing: .unconditional, help: ArgumentHelp("Space above the title's line, in points. Default: 20, compact 0.", valueName: "pt"))
    package var titleTopInset: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("fontconfig pattern, e.g. \"DejaVu Sans:bold:size=13\". Default: sans-serif:semibold:size=17, compact 14.", valueName: "pattern"))
    package var font: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A second, smaller line under the title (joined to the title with — in the compact style). Default: none.", valueName: "text"))
    package var subtitle: String?

    @Option(name: .customLong("subtitle-font"), parsing: .unconditional, help: ArgumentHelp("fontconfig pattern for the subtitle. Default: the title's family, regular, 13/17 of its size.", valueName: "pattern"))
    package var subtitleFont: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Compact style (height 18, inset 0, 14 pt): auto = on landscape monitors, always, never. Default: auto.", valueName: "auto|always|never"))
    package var compact: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("below-panels: directly under the status bars and other docks that reserve the monitor's top edge, reserving their rows and the banner's; screen-edge: at the top edge, over them. Default: below-panels.", valueName: "below-panels|screen-edge"))
    package var placement: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Where a full-screen window has the focus (a video, a presentation): show = over its top (full-screen windows ignore the reserved space); delay = keep the banner off the screen until the full-screen window ends or loses the focus (it stays presented; a transient banner's timeout keeps running). Default: show.", valueName: "show|delay"))
    package var fullscreen: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Which way the title and subtitle read: auto = from their first strong letter (Arabic, Hebrew: right to left), ltr, rtl. Mixed text is ordered by the Unicode bidi algorithm either way. Default: auto.", valueName: "auto|ltr|rtl"))
    package var direction: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("An icon left of the text, as tall as it: a PNG or SVG file (a value with a / or ending in .png or .svg), a name in the icon theme (the desktop's, Adwaita, hicolor), or none. Missing or unreadable: a warning, and no icon. Default: the style's, else none.", valueName: "path|name|none"))
    package var icon: String?

    @Option(name: .customLong("corner-radius"), parsing: .unconditional, help: ArgumentHelp("Round the bottom corners (XShape; clicks there go through), 0 to 1000 points; drawn at most half the banner's height. Default: 0.", valueName: "pt"))
    package var cornerRadius: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How urgently a screen reader speaks the banner: assertive = at once, interrupting; polite = when it is done speaking (AT-SPI's live attribute). Default: the style's, else assertive for the offline and call styles, polite for others.", valueName: "assertive|polite"))
    package var politeness: String?

    @Flag(name: .customLong("strict-contrast"), help: "Refuse (exit 64) a title below WCAG's contrast on its background (4.5:1; 3:1 from 24 pt, or 18.7 pt bold) instead of warning. The built-in looks, which fall short, are only checked with this flag.")
    package var strictContrast = false

    @Flag(name: .customLong("reduce-motion"), inversion: .prefixedNo, help: "No slide: the banner and its space appear and go at once (--no-reduce-motion: slide, whatever the style or desktop says). Default: the desktop's setting (GTK's gtk-enable-animations), else slide.")
    package var reduceMotion: Bool?

    @Flag(name: .customLong("close-button"), inversion: .prefixedNo, help: "A close button ✕ at the right edge (--no-close-button: none, whatever the style says). Default: none.")
    package var closeButton: Bool?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A button at the right edge labelled LABEL; clicking it runs COMMAND ARGS… (split at spaces, no shell) and dismisses the banner. Given twice: the primary action, then the secondary one (left of it; mirrored in a right-to-left locale). Default: none.", valueName: "label[=command]"))
    package var action: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("A progress bar along the bottom edge (3 pt, the text colour), 0 to 1 of the width; a later show with the same look and --id moves it. Default: none.", valueName: "0…1"))
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
