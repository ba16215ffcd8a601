// What the desktop asks of every application's looks and motion, whichever way its session
// says so: XSETTINGS on X11 (BannerX11's XSettings), xdg-desktop-portal's Settings on Wayland
// and GNOME, else GSettings (DesktopPortal's PortalSettings and DesktopGSettings). One value, so every backend does the same with it: text
// scaled, motion reduced, high-contrast colours, the icon theme, the system font.

/// The desktop's preferences that banners follow when no flag or config file decides.
public struct DesktopPreferences: Sendable, Equatable {
    /// How much larger than at 1 text is drawn: GNOME's `text-scaling-factor` ("Large Text" is
    /// 1.25), or XSETTINGS' `Xft/DPI` / 96. nil where the desktop says nothing.
    public var textScale: Double?
    /// False when the desktop turned animations off or asks for reduced motion; nil where it
    /// says nothing.
    public var animationsEnabled: Bool?
    /// The desktop's GTK theme name; a high-contrast desktop is `HighContrast` (or
    /// `HighContrastInverse`) whatever way it said so.
    public var themeName: String?
    /// The desktop's icon theme.
    public var iconThemeName: String?
    /// The desktop's interface font family (`Cantarell`), without size or style.
    public var fontFamily: String?

    public init(textScale: Double? = nil, animationsEnabled: Bool? = nil, themeName: String? = nil,
                iconThemeName: String? = nil, fontFamily: String? = nil) {
        self.textScale = textScale
        self.animationsEnabled = animationsEnabled
        self.themeName = themeName
        self.iconThemeName = iconThemeName
        self.fontFamily = fontFamily
    }

    /// Text scales a desktop may ask for; outside them the value is ignored (GNOME's own
    /// settings offer 0.5 to 3).
    public static let textScales: ClosedRange<Double> = 0.25...4

    /// `scale` when it is a text scale to follow (finite, in ``textScales``), else nil.
    public static func validTextScale(_ scale: Double?) -> Double? {
        guard let scale, scale.isFinite, textScales.contains(scale) else { return nil }
        return scale
    }

    /// The family of a font as Pango writes it (`FAMILY [STYLE…] [SIZE]`: `Noto Sans Bold 10` is
    /// `Noto Sans`), as GNOME's `font-name` and XSETTINGS' `Gtk/FontName` hold it; nil when
    /// there is none, or it is not a name (control characters, over 255 bytes).
    public static func family(ofPangoFont name: String?) -> String? {
        guard let name, isFontName(name) else { return nil }
        var words = name.split(separator: " ")
        if let last = words.last, Double(last.hasSuffix("px") ? last.dropLast(2) : last) != nil { words.removeLast() }
        while let last = words.last, words.count > 1, pangoStyleWords.contains(last.lowercased()) { words.removeLast() }
        var family = words.joined(separator: " ")
        while family.hasSuffix(",") { family.removeLast() }
        return family.isEmpty ? nil : family
    }

    /// The family of a font as Qt writes it (`Noto Sans,10,-1,5,50,0,0,0,0,0`), as KDE's
    /// kdeglobals `font` holds it; nil when there is none, or it is not a name.
    public static func family(ofQtFont description: String?) -> String? {
        guard let description, isFontName(description),
              let family = description.split(separator: ",", omittingEmptySubsequences: false).first else { return nil }
        let trimmed = family.drop { $0 == " " }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    private static func isFontName(_ name: String) -> Bool {
        name.utf8.count <= 255 && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The style, weight, stretch and variant words Pango allows after a family.
    private static let pangoStyleWords: Set<String> = [
        "normal", "roman", "oblique", "italic", "small-caps", "all-small-caps", "petite-caps", "all-petite-caps",
        "unicase", "title-caps", "thin", "ultra-light", "extra-light", "light", "semi-light", "demi-light", "book",
        "regular", "medium", "semi-bold", "demi-bold", "bold", "ultra-bold", "extra-bold", "heavy", "black",
        "ultra-black", "extra-black", "ultra-condensed", "extra-condensed", "condensed", "semi-condensed",
        "semi-expanded", "expanded", "extra-expanded", "ultra-expanded", "not-rotated", "south", "upside-down",
        "north", "rotated-left", "east", "rotated-right", "west",
    ]
}
