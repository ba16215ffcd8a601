// The built-in styles under a high-contrast desktop: GTK's HighContrast theme (dark text on
// light surfaces) and HighContrastInverse (light on dark), as XSETTINGS' `Net/ThemeName` names
// them. The styles keep their meaning — red offline, teal online, green call, indigo portal, orange sharing —
// in shades that give the title at least 7:1 (WCAG's enhanced level), where the standard
// colours give 3–4.5:1.

/// A high-contrast GTK theme, and the built-in styles' colours under it.
public enum HighContrastTheme: String, Sendable, CaseIterable {
    /// `HighContrast`: deep backgrounds, white titles.
    case highContrast = "HighContrast"
    /// `HighContrastInverse`: light backgrounds, black titles.
    case highContrastInverse = "HighContrastInverse"

    /// The high-contrast theme a GTK theme name is; nil for any other theme (or none).
    public init?(themeName: String?) {
        guard let themeName, let theme = HighContrastTheme(rawValue: themeName) else { return nil }
        self = theme
    }

    /// The background and title colour of built-in style `style` under this theme; nil for a
    /// style that is not built in.
    public func colours(ofStyle style: String) -> (background: String, text: String)? {
        let text = self == .highContrast ? "#FFFFFF" : "#000000"
        let backgrounds: [String: String] = switch self {
        case .highContrast: ["offline": "#9B0000", "online": "#005C66", "call": "#0B5E1F", "portal": "#2B2A8F", "sharing": "#8A3A00"]
        case .highContrastInverse: ["offline": "#FF8A80", "online": "#7DDFFF", "call": "#5BE37D", "portal": "#B4B2FF", "sharing": "#FFB870"]
        }
        return backgrounds[style].map { ($0, text) }
    }
}
