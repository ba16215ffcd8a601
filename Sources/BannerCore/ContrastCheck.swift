// Is the title readable on its background? WCAG 2's contrast ratio between the title colour
// (blended over the background when translucent) and the background, against the threshold
// for the title's size: 4.5:1, or 3:1 for large text — 18 pt, or 14 pt bold, in WCAG's
// typographic points, which are 24 and 18.67 of this project's points (1 pt = 1 px at 96 DPI).

// For `pow` only: the sRGB transfer curve needs a real exponent.
import Glibc

/// The contrast of one look's title against its background.
public struct ContrastCheck: Sendable, Equatable {
    /// `(L1 + 0.05) / (L2 + 0.05)`, 1…21.
    public var ratio: Double
    /// What WCAG asks for at this title's size: 4.5, or 3 for large text.
    public var required: Double
    /// Whether the title counts as large text.
    public var isLargeText: Bool

    /// Large text in this project's points (CSS pixels): 24 regular, 18.67 bold.
    public static let largeSize = 24.0
    public static let largeBoldSize = 14.0 * 4 / 3

    /// Checks `text` (as drawn over `background`) in `font`.
    public init(text: RGBA, background: RGBA, font: BannerFont) {
        let opaqueBackground = RGBA(red: background.red, green: background.green, blue: background.blue)
        let drawn = opaqueBackground.blended(with: RGBA(red: text.red, green: text.green, blue: text.blue), fraction: min(max(text.alpha, 0), 1))
        ratio = Self.ratio(drawn, opaqueBackground)
        isLargeText = font.size >= Self.largeSize || (font.size >= Self.largeBoldSize && font.weight.isBold)
        required = isLargeText ? 3 : 4.5
    }

    /// Whether the title reaches WCAG AA.
    public var passes: Bool { ratio >= required }

    /// The ratio as people quote it: two decimals, rounded down so 4.499 never prints as 4.5.
    public var ratioText: String {
        let hundredths = Int((ratio * 100).rounded(.down))
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction):1"
    }

    /// One line naming both colours as written and the ratio.
    public func message(text: String, background: String) -> String {
        let size = isLargeText ? "large text (24 pt, or 18.7 pt bold, and up)" : "text under 24 pt (18.7 pt bold)"
        return "low contrast: text '\(text.printable)' on background '\(background.printable)' is \(ratioText); WCAG asks at least \(Int(required) == 3 ? "3" : "4.5"):1 for \(size)"
    }

    /// The warning for a title this check found below WCAG's contrast, naming the colours as
    /// `written` (built-in defaults where unset); nil when it passes, or when `appearance` keeps
    /// the colours of `reference` — a built-in look, the original's, which falls short — and
    /// `strict` does not ask for it anyway.
    public func warning(for appearance: TopBannerAppearance, reference: TopBannerAppearance, written: AppearanceSettings, strict: Bool) -> String? {
        let chosen = appearance.backgroundColor != reference.backgroundColor || appearance.textColor != reference.textColor
        guard !passes, chosen || strict else { return nil }
        let defaults = TopBannerAppearance.default
        return message(text: written.textColor ?? "\(defaults.textColor)", background: written.background ?? "\(defaults.backgroundColor)")
    }

    /// WCAG 2's relative luminance of an sRGB colour (alpha ignored).
    public static func relativeLuminance(_ colour: RGBA) -> Double {
        func linear(_ channel: Double) -> Double {
            channel <= 0.040_45 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)
    }

    /// The contrast ratio of two colours, 1…21, whichever is lighter.
    public static func ratio(_ a: RGBA, _ b: RGBA) -> Double {
        let la = relativeLuminance(a)
        let lb = relativeLuminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}

extension BannerFont.Weight {
    /// Bold or heavier, as WCAG counts "bold".
    var isBold: Bool { [.bold, .extrabold, .black].contains(self) }
}
