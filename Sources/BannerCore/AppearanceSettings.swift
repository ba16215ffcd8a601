// Appearance values as a user wrote them — on the command line, in a config file style, or in a
// socket request — before they are checked. Layers stack: built-in defaults, then the config
// file's defaults, then a named style, then flags; `overlaid(by:)` applies one layer on another
// and `appearance()` checks the result once, so an error names the value exactly as written.
// Three fields belong to one message rather than to a look — the actions (they name commands)
// and `progress` — so a config file style cannot set them (`styleFields`).

/// One layer of appearance values as written; `nil` means "not set in this layer".
public struct AppearanceSettings: Sendable, Hashable, Codable {
    public var title: String?
    /// Colour forms accepted by `BannerColor(parsing:)`; X11 names are resolved by the server.
    public var background: String?
    public var textColor: String?
    /// Points, as a decimal number.
    public var height: String?
    public var titleTopInset: String?
    /// A fontconfig pattern.
    public var font: String?
    /// `auto`, `always` or `never`.
    public var compact: String?
    /// `below-panels` or `screen-edge` (see ``EdgePlacement``).
    public var placement: String?
    /// `show` or `delay` (see ``FullscreenPolicy``).
    public var fullscreen: String?
    public var subtitle: String?
    /// A fontconfig pattern; unset: the title's family, regular, 13/17 of its size.
    public var subtitleFont: String?
    /// `true` or `false`: the close button ✕.
    public var closeButton: String?
    /// `LABEL` or `LABEL=COMMAND ARGS…`: the (primary) action button and what it runs (see
    /// ``ActionSetting``); the first `--action`.
    public var action: String?
    /// The same for the secondary action button, left of the primary one: the second `--action`.
    public var secondaryAction: String?
    /// A decimal number from 0 to 1: the progress bar.
    public var progress: String?
    /// `true` or `false`: no slide (see ``TopBannerAppearance/reduceMotion``).
    public var reduceMotion: String?
    /// A PNG file, an icon theme name, or `none` (see ``BannerIcon/parse(_:)``).
    public var icon: String?
    /// Points, as a decimal number: the bottom corners' radius.
    public var cornerRadius: String?
    /// `auto`, `ltr` or `rtl`: the text's base direction (see ``TextDirection``).
    public var direction: String?
    /// `assertive` or `polite`: how urgently a screen reader speaks it (see ``Politeness``).
    public var politeness: String?

    public init(
        title: String? = nil, background: String? = nil, textColor: String? = nil,
        height: String? = nil, titleTopInset: String? = nil, font: String? = nil, compact: String? = nil,
        subtitle: String? = nil, subtitleFont: String? = nil,
        closeButton: String? = nil, action: String? = nil, secondaryAction: String? = nil, progress: String? = nil, reduceMotion: String? = nil,
        icon: String? = nil, cornerRadius: String? = nil, placement: String? = nil, fullscreen: String? = nil,
        direction: String? = nil, politeness: String? = nil
    ) {
        self.title = title
        self.background = background
        self.textColor = textColor
        self.height = height
        self.titleTopInset = titleTopInset
        self.font = font
        self.compact = compact
        self.subtitle = subtitle
        self.subtitleFont = subtitleFont
        self.closeButton = closeButton
        self.action = action
        self.secondaryAction = secondaryAction
        self.progress = progress
        self.reduceMotion = reduceMotion
        self.icon = icon
        self.cornerRadius = cornerRadius
        self.placement = placement
        self.fullscreen = fullscreen
        self.direction = direction
        self.politeness = politeness
    }

    /// The settings' fields by the name a user writes them with (flag without `--`, config key;
    /// the secondary action is the second `--action`).
    public static var fields: [(name: String, keyPath: WritableKeyPath<AppearanceSettings, String?>)] { [
        ("title", \.title), ("background", \.background), ("text-color", \.textColor),
        ("height", \.height), ("title-top-inset", \.titleTopInset), ("font", \.font), ("compact", \.compact),
        ("subtitle", \.subtitle), ("subtitle-font", \.subtitleFont), ("close-button", \.closeButton),
        ("action", \.action), ("secondary-action", \.secondaryAction), ("progress", \.progress), ("reduce-motion", \.reduceMotion),
        ("icon", \.icon), ("corner-radius", \.cornerRadius), ("placement", \.placement), ("fullscreen", \.fullscreen),
        ("direction", \.direction), ("politeness", \.politeness),
    ] }

    /// The fields a config file's `[defaults]` and `[style.NAME]` may set: all but the actions
    /// and `progress`, which describe one message (and a command) rather than a look.
    public static var styleFields: [(name: String, keyPath: WritableKeyPath<AppearanceSettings, String?>)] {
        fields.filter { AppearanceField.named($0.name).inStyles }
    }

    /// This layer with every field `top` sets replaced by `top`'s value.
    public func overlaid(by top: AppearanceSettings) -> AppearanceSettings {
        var result = self
        for field in Self.fields where top[keyPath: field.keyPath] != nil {
            result[keyPath: field.keyPath] = top[keyPath: field.keyPath]
        }
        return result
    }

    /// True when no field is set.
    public var isEmpty: Bool { Self.fields.allSatisfy { self[keyPath: $0.keyPath] == nil } }

    /// The appearance these values describe, built-in defaults filled in.
    public func appearance() throws(BannerValueError) -> TopBannerAppearance {
        let builder = TopBannerConfigBuilder()
        if let title { builder.title(title) }
        if let background { builder.backgroundColor(try BannerColor(parsing: background)) }
        if let textColor { builder.textColor(try BannerColor(parsing: textColor)) }
        if let height { builder.height(try TopBannerAppearance.validatedHeight(Double(height) ?? .nan, as: height)) }
        if let titleTopInset {
            builder.titleTopInset(try TopBannerAppearance.validatedInset(Double(titleTopInset) ?? .nan, as: titleTopInset))
        }
        if let font {
            let defaults = TopBannerAppearance.default.font
            builder.font(try BannerFont(pattern: font, defaultSize: defaults.size, defaultWeight: defaults.weight))
        }
        if let subtitle { builder.subtitle(subtitle) }
        if let subtitleFont {
            let title = builder.font ?? TopBannerAppearance.default.font
            let derived = title.withSize(title.size * TopBannerAppearance.subtitleScale)
            builder.subtitleFont(try BannerFont(pattern: subtitleFont, defaultSize: derived.size, defaultWeight: .regular))
        }
        if let closeButton {
            guard let value = Bool(closeButton) else { throw .flag(name: "close-button", value: closeButton) }
            builder.closeButton(value)
        }
        if let reduceMotion {
            guard let value = Bool(reduceMotion) else { throw .flag(name: "reduce-motion", value: reduceMotion) }
            builder.reduceMotion(value)
        }
        if let icon, let parsed = try BannerIcon.parse(icon) { builder.icon(parsed) }
        if let cornerRadius {
            builder.cornerRadius(try TopBannerAppearance.validatedCornerRadius(Double(cornerRadius) ?? .nan, as: cornerRadius))
        }
        if let action { builder.action(try ActionSetting(parsing: action).label) }
        if let secondaryAction { builder.secondaryAction(try ActionSetting(parsing: secondaryAction).label) }
        if let direction { builder.textDirection(try TextDirection(parsing: direction)) }
        if let progress { builder.progress(try TopBannerAppearance.validatedProgress(Double(progress) ?? .nan, as: progress)) }
        return try builder.build()
    }

    /// The compact policy these values name, `auto` when unset.
    public func compactPolicy() throws(BannerValueError) -> CompactPolicy {
        try compact.map { text throws(BannerValueError) in try CompactPolicy(parsing: text) } ?? .auto
    }

    /// Where the banner goes at the top of its monitor, `below-panels` when unset.
    public func edgePlacement() throws(BannerValueError) -> EdgePlacement {
        try placement.map { text throws(BannerValueError) in try EdgePlacement(parsing: text) } ?? .belowPanels
    }

    /// What the banner does where a full-screen window has the focus, `show` when unset.
    public func fullscreenPolicy() throws(BannerValueError) -> FullscreenPolicy {
        try fullscreen.map { text throws(BannerValueError) in try FullscreenPolicy(parsing: text) } ?? .show
    }

    /// How urgently a screen reader speaks the banner; nil when unset (the built-in styles
    /// decide: BannerConfig's `politeness(of:style:)`).
    public func politenessSetting() throws(BannerValueError) -> Politeness? {
        try politeness.map { text throws(BannerValueError) in try Politeness(parsing: text) }
    }

    /// Checks every field without building anything; throws the first bad value.
    public func validate() throws(BannerValueError) {
        _ = try appearance()
        _ = try compactPolicy()
        _ = try edgePlacement()
        _ = try fullscreenPolicy()
        _ = try politenessSetting()
    }
}

/// `--action LABEL=COMMAND ARGS…` as written: the button's label, and the argument vector its
/// click runs. The command is split at whitespace and nothing else — no quoting, no variables,
/// no globbing — because it is never given to a shell; anything fancier belongs in a script.
public struct ActionSetting: Sendable, Hashable {
    /// The button's text.
    public var label: String
    /// The program and its arguments; empty when the button only dismisses.
    public var command: [String]

    /// Splits `text` at its first `=`: the label before it (trimmed, not empty), the command after.
    public init(parsing text: String) throws(BannerValueError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let label = parts[0].trimmingWhitespace
        guard !label.isEmpty else { throw .action(text) }
        self.label = label
        command = parts.count > 1 ? parts[1].split(whereSeparator: \.isWhitespace).map(String.init) : []
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
