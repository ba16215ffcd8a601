// The complete look of one banner, the defaults of the iOS original, and its compact (landscape)
// variant. Every default lives here, each with the CLI flag that overrides it.

/// Everything that decides how a banner looks. Sizes are points.
public struct TopBannerAppearance: Sendable, Hashable {
    public var title: String
    public var backgroundColor: BannerColor
    public var textColor: BannerColor
    /// Height of the banner, and so of the space it reserves, in points.
    public var height: Double
    /// Distance from the banner's top edge to the top of the title's area, in points.
    public var titleTopInset: Double
    public var font: BannerFont
    /// A second, smaller line under the title; empty for none.
    public var subtitle: String
    /// The subtitle's font; nil for ``derivedSubtitleFont``.
    public var subtitleFont: BannerFont?
    /// A close button ✕ at the right edge: clicking it dismisses the banner as `closed`.
    public var closeButton: Bool
    /// The label of the primary action button at the right edge (left of the ✕); empty for
    /// none. Clicking it dismisses the banner as `action`.
    public var actionLabel: String
    /// The label of the secondary action button, left of the primary one; empty for none (it
    /// needs a primary one). Clicking it dismisses the banner as `secondaryAction`.
    public var secondaryActionLabel: String
    /// A progress bar along the bottom edge, 0...1 of the banner's width; nil for none.
    /// Presenting a look that differs only here moves the bar instead of cross-fading.
    public var progress: Double?
    /// No slide: the banner appears, and its space is reserved, at once (and goes at once);
    /// a change of look still cross-fades. For people whom motion bothers.
    public var reduceMotion: Bool
    /// A square icon left of the text, as tall as the text (title, or title and subtitle);
    /// nil for none. One that cannot be found or read is a warning, and the banner shows without it.
    public var icon: BannerIcon?
    /// Radius of the bottom corners in points, 0 for square ones. The window's shape is cut
    /// (XShape), so what lies beneath shows there and clicks go through; a radius over half the
    /// banner's height is drawn as half its height.
    public var cornerRadius: Double
    /// Which way the title and subtitle read: from their first strong character, or forced.
    public var textDirection: TextDirection
    /// Which way the banner is laid out: mirrored (icon right of the text, buttons at the left
    /// edge) for a right-to-left locale.
    public var layoutDirection: LayoutDirection

    public init(
        title: String, backgroundColor: BannerColor, textColor: BannerColor,
        height: Double, titleTopInset: Double, font: BannerFont,
        subtitle: String = "", subtitleFont: BannerFont? = nil,
        closeButton: Bool = false, actionLabel: String = "", secondaryActionLabel: String = "", progress: Double? = nil, reduceMotion: Bool = false,
        icon: BannerIcon? = nil, cornerRadius: Double = 0,
        textDirection: TextDirection = .auto, layoutDirection: LayoutDirection = .leftToRight
    ) {
        self.title = title
        self.backgroundColor = backgroundColor
        self.textColor = textColor
        self.height = height
        self.titleTopInset = titleTopInset
        self.font = font
        self.subtitle = subtitle
        self.subtitleFont = subtitleFont
        self.closeButton = closeButton
        self.actionLabel = actionLabel
        self.secondaryActionLabel = secondaryActionLabel
        self.progress = progress
        self.reduceMotion = reduceMotion
        self.icon = icon
        self.cornerRadius = cornerRadius
        self.textDirection = textDirection
        self.layoutDirection = layoutDirection
    }

    /// The action buttons' labels, the primary first; empty for none.
    public var actionLabels: [String] {
        [actionLabel, secondaryActionLabel].filter { !$0.isEmpty }
    }

    /// The action button a request names (`window-banner action`): the one labelled `label`
    /// exactly, or without a label the primary one (the secondary one when `secondary`); nil
    /// when this banner has no such button.
    public func actionButton(labelled label: String?, secondary: Bool = false) -> BannerDismissReason? {
        let buttons = [(actionLabel, BannerDismissReason.action), (secondaryActionLabel, .secondaryAction)].filter { !$0.0.isEmpty }
        if let label { return buttons.first { $0.0 == label }?.1 }
        let wanted: BannerDismissReason = secondary ? .secondaryAction : .action
        return buttons.first { $0.1 == wanted }?.1
    }

    /// The subtitle's size relative to the title's: 13 pt under a 17 pt title, as iOS pairs a
    /// footnote with a headline.
    public static let subtitleScale = 13.0 / 17.0

    /// The title's families and properties, regular weight, at ``subtitleScale`` of its size.
    public var derivedSubtitleFont: BannerFont {
        var derived = font.withSize(font.size * Self.subtitleScale)
        derived.weight = .regular
        return derived
    }

    /// The font the subtitle is drawn with.
    public var effectiveSubtitleFont: BannerFont { subtitleFont ?? derivedSubtitleFont }

    /// The original's defaults.
    public static let `default` = TopBannerAppearance(
        title: "",                          // --title
        backgroundColor: .systemGreen,      // --background
        textColor: .white,                  // --text-color
        height: 80,                         // --height
        titleTopInset: 20,                  // --title-top-inset
        font: .system(size: 17, weight: .semibold), // --font
        subtitle: "",                       // --subtitle
        subtitleFont: nil,                  // --subtitle-font (nil: the title's family, regular, 13 pt)
        closeButton: false,                 // --close-button
        actionLabel: "",                    // --action LABEL[=COMMAND]
        secondaryActionLabel: "",           // a second --action LABEL[=COMMAND]
        progress: nil,                      // --progress
        reduceMotion: false,                // --reduce-motion (also from GTK's gtk-enable-animations)
        icon: nil,                          // --icon (a style's icon otherwise)
        cornerRadius: 0,                    // --corner-radius
        textDirection: .auto,               // --direction
        layoutDirection: .leftToRight       // mirrored under a right-to-left locale
    )

    /// Compact style (landscape in `auto`): a thin strip, as the original does in landscape.
    public static let compactHeight: Double = 18
    public static let compactTitleTopInset: Double = 0
    public static let compactFontSize: Double = 14

    /// Heights above this are refused as a mistake (the tallest monitors are ~2160 pt).
    public static let maximumHeight: Double = 1000

    /// The compact variant: same title, colours, font family and weight; height 18, inset 0, 14 pt.
    /// A strip has room for one line, so a subtitle joins the title on it: "Title — Subtitle".
    public var compact: TopBannerAppearance {
        var copy = self
        copy.height = Self.compactHeight
        copy.titleTopInset = Self.compactTitleTopInset
        copy.font = font.withSize(Self.compactFontSize)
        if !subtitle.isEmpty {
            copy.title = title.isEmpty ? subtitle : title + " — " + subtitle
            copy.subtitle = ""
        }
        copy.subtitleFont = nil
        return copy
    }

    /// Titles and subtitles above this many UTF-8 bytes are refused: one line of a banner shows
    /// a few hundred characters at most, and every request must fit the owner's 64 KiB frame.
    public static let maximumTextBytes = 16 * 1024

    /// Checks a title or subtitle's size; `field` names it in the error.
    public static func validatedText(_ text: String, field: String) throws(BannerValueError) -> String {
        guard text.utf8.count <= maximumTextBytes else { throw .textTooLong(field, bytes: text.utf8.count) }
        return text
    }

    /// Checks a height as given on the command line or in the builder.
    public static func validatedHeight(_ value: Double, as written: String? = nil) throws(BannerValueError) -> Double {
        guard value.isFinite, value > 0, value <= maximumHeight else {
            throw .height(written ?? BannerFont.format(value))
        }
        return value
    }

    /// Checks a progress value: a fraction from 0 to 1.
    public static func validatedProgress(_ value: Double, as written: String? = nil) throws(BannerValueError) -> Double {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw .progress(written ?? BannerFont.format(value))
        }
        return value
    }

    /// Checks a corner radius: 0 to ``maximumHeight`` points (drawn at most half the height).
    public static func validatedCornerRadius(_ value: Double, as written: String? = nil) throws(BannerValueError) -> Double {
        guard value.isFinite, value >= 0, value <= maximumHeight else {
            throw .cornerRadius(written ?? BannerFont.format(value))
        }
        return value
    }

    /// Checks a title top inset.
    public static func validatedInset(_ value: Double, as written: String? = nil) throws(BannerValueError) -> Double {
        guard value.isFinite, value >= 0, value <= maximumHeight else {
            throw .inset(written ?? BannerFont.format(value))
        }
        return value
    }
}
