// Every appearance setting, declared once, as dunst's settings_data.h declares its settings: its
// name (the flag without `--`, and the config file's key), the value it takes, what it does, its
// default (read from the built-in look, never restated), whether a config file style takes it,
// and how the network monitor names it for each of its banners. `show`'s options, the monitor's
// `--ROLE-NAME` options, the config reader's keys and value types, the defaults in `--help` and
// docs/config.md's table all come from this table, and WindowBannerCLITests' SettingsTableTests
// hold each of them to it.

/// One appearance setting.
public struct AppearanceField: Sendable {
    /// How a config file writes the value (TOML), and how the command line takes it.
    public enum Value: Sendable, Equatable {
        /// A string.
        case text
        /// A decimal number (TOML: a number).
        case number
        /// `true` or `false` (a flag and its `--no-` form on the command line).
        case boolean
    }

    /// The flag without `--`, and the config file's key.
    public let name: String
    /// The value's name in help text.
    public let valueName: String
    /// What it sets, as `show --help` says it, without the default.
    public let summary: String
    /// The default, as help text and docs/config.md say it.
    public let defaultValue: String
    public let value: Value
    /// Whether a config file's `[defaults]` and `[style.NAME]` take it (not the actions and the
    /// progress bar, which belong to one message).
    public let inStyles: Bool
    /// What the network monitor's `--ROLE-NAME` sets, after "the ROLE banner's"; nil where the
    /// monitor has no such flag.
    public let monitorNoun: String?
    /// Whether `show` has a flag of its own for it (the secondary action is the second `--action`).
    public let isFlag: Bool

    init(
        _ name: String, _ valueName: String, _ summary: String, default defaultValue: String, _ value: Value = .text,
        inStyles: Bool = true, monitor monitorNoun: String? = nil, isFlag: Bool = true
    ) {
        self.name = name
        self.valueName = valueName
        self.summary = summary
        self.defaultValue = defaultValue
        self.value = value
        self.inStyles = inStyles
        self.monitorNoun = monitorNoun
        self.isFlag = isFlag
    }

    /// `show --help`'s text: what it sets, then its default.
    public var help: String { "\(summary) Default: \(defaultValue)." }

    /// The monitor's `--ROLE-NAME` help text for banner `role`.
    public func monitorHelp(role: String) -> String {
        let fallback = name == "placement" ? "--placement, else the style's, else \(defaultValue)" : "the style's, else \(defaultValue)"
        return "The \(role) banner's \(monitorNoun ?? name) (as --\(name) of show). Default: \(fallback)."
    }

    /// docs/config.md's entry for the key: the values it takes, its default and what it sets.
    public var configEntry: String {
        let values: String
        switch value {
        case .boolean: values = "`true` or `false`"
        case .number: values = "a number (\(valueName))"
        case .text: values = valueName.contains("|") ? valueName.split(separator: "|").map { "`\($0)`" }.joined(separator: ", ") : valueName
        }
        return "- `\(name)` — \(values); default: \(defaultValue). \(summary)"
    }

    /// The field's value in `settings`.
    public var keyPath: WritableKeyPath<AppearanceSettings, String?> {
        guard let field = AppearanceSettings.fields.first(where: { $0.name == name }) else { preconditionFailure("no settings field \(name)") }
        return field.keyPath
    }

    /// The field called `name`; the table is fixed, so a name that is not in it is a mistake here.
    public static func named(_ name: String) -> AppearanceField {
        guard let field = all.first(where: { $0.name == name }) else { preconditionFailure("no appearance field \(name)") }
        return field
    }

    /// The table, in the order help text and docs list it.
    public static let all: [AppearanceField] = {
        let look = TopBannerAppearance.default
        let compact = look.compact
        let points = BannerFont.format
        let font = look.font
        return [
            AppearanceField(
                "title", "text", "The banner's title (UTF-8; one line, ellipsized with … when too wide).",
                default: look.title.isEmpty ? "empty" : look.title, monitor: "title"),
            AppearanceField(
                "subtitle", "text", "A second, smaller line under the title (joined to the title with — in the compact style).",
                default: "none", monitor: "subtitle"),
            AppearanceField(
                "background", "colour", "Background colour: #RRGGBB, #RRGGBBAA (translucent where a compositor runs), systemRed…, or an X11 name.",
                default: look.backgroundColor.spokenName, monitor: "background colour"),
            AppearanceField("text-color", "colour", "Title colour, same forms as --background.", default: look.textColor.spokenName, monitor: "title colour"),
            AppearanceField(
                "height", "pt",
                "Height in points (1 pt = 1 px at 96 DPI), more than 0 and at most \(points(TopBannerAppearance.maximumHeight)), exactly: the banner and the space it reserves, whatever the title; text that does not fit moves up into the inset, then is clipped.",
                default: "\(points(look.height)), compact \(points(compact.height))", .number, monitor: "height in points"),
            AppearanceField(
                "title-top-inset", "pt", "Space above the title's line, in points.",
                default: "\(points(look.titleTopInset)), compact \(points(compact.titleTopInset))", .number, monitor: "space above the title, in points"),
            AppearanceField(
                "font", "pattern", "fontconfig pattern, e.g. \"DejaVu Sans:bold:size=13\".",
                default: "\(font.families.joined(separator: ",")):\(font.weight.rawValue):size=\(points(font.size)), compact \(points(compact.font.size))",
                monitor: "fontconfig pattern"),
            AppearanceField(
                "subtitle-font", "pattern", "fontconfig pattern for the subtitle.",
                default: "the title's family, regular, \(points(TopBannerAppearance.subtitleScale * 17))/17 of its size", monitor: "subtitle's fontconfig pattern"),
            AppearanceField(
                "compact", "auto|always|never",
                "Compact style (height \(points(compact.height)), inset \(points(compact.titleTopInset)), \(points(compact.font.size)) pt): auto = on landscape monitors, always, never.",
                default: "auto", monitor: "compact style"),
            AppearanceField(
                "placement", "below-panels|screen-edge",
                "below-panels: directly under the status bars and other docks that reserve the monitor's top edge, reserving their rows and the banner's; screen-edge: at the top edge, over them.",
                default: "below-panels", monitor: "place"),
            AppearanceField(
                "fullscreen", "show|delay",
                "Where a full-screen window has the focus (a video, a presentation): show = over its top (full-screen windows ignore the reserved space); delay = keep the banner off the screen until the full-screen window ends or loses the focus (it stays presented; a transient banner's timeout keeps running).",
                default: "show"),
            AppearanceField(
                "direction", "auto|ltr|rtl",
                "Which way the title and subtitle read: auto = from their first strong letter (Arabic, Hebrew: right to left), ltr, rtl. Mixed text is ordered by the Unicode bidi algorithm either way.",
                default: "auto"),
            AppearanceField(
                "icon", "path|name|none",
                "An icon left of the text, as tall as it: a PNG or SVG file (a value with a / or ending in .png or .svg; in a config file, relative to its directory), a name in the icon theme (the desktop's, Adwaita, hicolor), or none. Missing or unreadable: a warning, and no icon.",
                default: "the style's, else none"),
            AppearanceField(
                "corner-radius", "pt",
                "Round the bottom corners (XShape; clicks there go through), 0 to \(points(TopBannerAppearance.maximumHeight)) points; drawn at most half the banner's height.",
                default: points(look.cornerRadius), .number),
            AppearanceField(
                "politeness", "assertive|polite",
                "How urgently a screen reader speaks the banner: assertive = at once, interrupting; polite = when it is done speaking (AT-SPI's live attribute).",
                default: "the style's, else assertive for the offline and call styles, polite for others"),
            AppearanceField(
                "close-button", "true|false", "A close button ✕ at the right edge (--no-close-button: none, whatever the style says).",
                default: look.closeButton ? "shown" : "none", .boolean),
            AppearanceField(
                "reduce-motion", "true|false",
                "No slide: the banner and its space appear and go at once (--no-reduce-motion: slide, whatever the style or desktop says).",
                default: "the desktop's setting (GTK's gtk-enable-animations), else slide", .boolean),
            AppearanceField(
                "action", "label[=command]",
                "A button at the right edge labelled LABEL; clicking it runs COMMAND ARGS… (split at spaces, no shell) and dismisses the banner. Given twice: the primary action, then the secondary one (left of it; mirrored in a right-to-left locale).",
                default: "none", inStyles: false),
            AppearanceField(
                "secondary-action", "label[=command]", "The second --action: a button left of the primary one.",
                default: "none", inStyles: false, isFlag: false),
            AppearanceField(
                "progress", "0…1", "A progress bar along the bottom edge (3 pt, the text colour), 0 to 1 of the width; a later show with the same look and --id moves it.",
                default: "none", .number, inStyles: false),
        ]
    }()
}
