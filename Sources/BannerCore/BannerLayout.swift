// Where things go, in pixels: point → pixel scaling, the banner's height (grown to fit its
// font), the title's baseline, ellipsizing, and where the window sits at a given reveal.
// The X layer measures text and asks; these functions decide.

/// Pixel layout rules for one banner on one monitor.
public enum BannerLayout {
    /// Space kept free on each side of the title, in points.
    public static let horizontalPadding: Double = 12
    /// The DPI at which 1 pt = 1 px.
    public static let referenceDPI: Double = 96

    /// Pixels per point for an `Xft.dpi` value; 1 when unset or nonsense.
    public static func pixelsPerPoint(xftDPI: Double?) -> Double {
        guard let dpi = xftDPI, dpi.isFinite, dpi >= 24, dpi <= 960 else { return 1 }
        return dpi / referenceDPI
    }

    /// Converts points to whole pixels.
    public static func pixels(_ points: Double, scale: Double) -> Int {
        Int((points * scale).rounded())
    }

    /// The banner's height in pixels: the configured height, grown when the font's line
    /// (`lineHeight` px, ascent + descent) does not fit below the inset, so glyphs are never cut.
    public static func bannerHeight(_ appearance: TopBannerAppearance, scale: Double, lineHeight: Int) -> Int {
        let configured = pixels(appearance.height, scale: scale)
        let needed = pixels(appearance.titleTopInset, scale: scale) + lineHeight
        return max(configured, needed, 1)
    }

    /// The title's baseline, from the banner's top: its line is centred in the area below the inset.
    public static func baseline(
        _ appearance: TopBannerAppearance, scale: Double, bannerHeight: Int, ascent: Int, descent: Int
    ) -> Int {
        let top = pixels(appearance.titleTopInset, scale: scale)
        let area = max(bannerHeight - top, ascent + descent)
        return top + (area - ascent - descent) / 2 + ascent
    }

    /// The title's left edge: centred on the monitor.
    public static func titleX(monitorWidth: Int, textWidth: Int) -> Int {
        (monitorWidth - textWidth) / 2
    }

    /// The widest a title may be on a monitor `monitorWidth` px wide.
    public static func maximumTitleWidth(monitorWidth: Int, scale: Double) -> Int {
        max(0, monitorWidth - 2 * pixels(horizontalPadding, scale: scale))
    }

    /// `title` if it fits in `maxWidth`, else the longest prefix of whole characters (graphemes)
    /// followed by "…" that does. `measure` returns a string's advance width in pixels.
    public static func ellipsize(_ title: String, maxWidth: Int, measure: (String) -> Int) -> String {
        guard measure(title) > maxWidth else { return title }
        let characters = Array(title)
        var low = 0
        var high = characters.count - 1
        var best = ""
        while low <= high {
            let count = (low + high) / 2
            let candidate = Self.trimmedTrailingSpace(String(characters[0..<count])) + "…"
            if measure(candidate) <= maxWidth {
                best = candidate
                low = count + 1
            } else {
                high = count - 1
            }
        }
        return best
    }

    /// The title as one line: line breaks, tabs and other control characters become spaces.
    public static func singleLine(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }

    /// Where the banner window sits and how much space it reserves, for a banner
    /// `bannerHeight` px tall that is `reveal` (0...1) of the way down on `monitor`.
    public static func placement(monitor: MonitorGeometry, bannerHeight: Int, reveal: Double) -> BannerPlacement {
        let shown = Int((Double(bannerHeight) * min(max(reveal, 0), 1)).rounded())
        return BannerPlacement(
            windowY: monitor.y - bannerHeight + shown,
            reservedHeight: shown
        )
    }

    private static func trimmedTrailingSpace(_ text: String) -> String {
        var result = text
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}

/// The banner window's top edge (root coordinates) and the height of the space reserved for it.
public struct BannerPlacement: Sendable, Hashable {
    public var windowY: Int
    /// Pixels reserved below the monitor's top edge: exactly the visible part of the banner.
    public var reservedHeight: Int
}
