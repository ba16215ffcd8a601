// A font as a fontconfig pattern with its size in points. The core owns the parsing and the
// point → pixel rule; the runtime only hands the resulting pattern to fontconfig.

/// A font: fontconfig families, a size in points, a weight, and any further fontconfig properties.
///
/// Written like fontconfig patterns: `"DejaVu Sans:bold:size=13"`, `"Noto Sans-15:semibold"`,
/// `"monospace:italic"`. Sizes are points; 1 pt = 1 px at 96 DPI (see ``fontconfigPattern(pixelsPerPoint:)``).
public struct BannerFont: Sendable, Hashable, CustomStringConvertible {
    /// Weights with their fontconfig names. `semibold` is the iOS system banner weight.
    public enum Weight: String, Sendable, CaseIterable {
        case thin, extralight, light, regular, medium, semibold, bold, extrabold, black

        /// fontconfig's constants for the same weights, including common aliases.
        static let aliases: [String: Weight] = [
            "thin": .thin, "extralight": .extralight, "ultralight": .extralight, "light": .light,
            "regular": .regular, "normal": .regular, "book": .regular, "medium": .medium,
            "semibold": .semibold, "demibold": .semibold, "bold": .bold, "extrabold": .extrabold,
            "ultrabold": .extrabold, "black": .black, "heavy": .black,
        ]
    }

    /// Family names in preference order; `sans-serif` is the system sans.
    public var families: [String]
    /// Size in points.
    public var size: Double
    public var weight: Weight
    /// Other fontconfig properties, kept verbatim (`italic`, `hinting=false`, …).
    public var otherProperties: [String]

    public init(families: [String] = ["sans-serif"], size: Double, weight: Weight = .regular, otherProperties: [String] = []) {
        self.families = families
        self.size = size
        self.weight = weight
        self.otherProperties = otherProperties
    }

    /// The system sans at `size` points: the iOS `.systemFont(ofSize:weight:)`.
    public static func system(size: Double, weight: Weight = .regular) -> BannerFont {
        BannerFont(size: size, weight: weight)
    }

    /// The same font at another size.
    public func withSize(_ points: Double) -> BannerFont {
        var copy = self
        copy.size = points
        return copy
    }

    /// The first family asked for; the runtime warns when fontconfig substitutes another.
    public var primaryFamily: String { families.first ?? "sans-serif" }

    /// Parses a fontconfig pattern. A missing size takes `defaultSize`, a missing weight `defaultWeight`.
    public init(pattern: String, defaultSize: Double, defaultWeight: Weight = .regular) throws(BannerValueError) {
        let parts = BannerFont.splitUnescaped(pattern, on: ":")
        guard let head = parts.first else { throw .font(pattern, reason: "empty") }
        var size = defaultSize
        var weight = defaultWeight
        var others: [String] = []

        // "Family-12" carries the size after the last unescaped dash.
        var familyText = head
        if let dash = BannerFont.lastUnescapedDash(in: head) {
            let sizeText = String(head[head.index(after: dash)...])
            guard let parsed = BannerFont.positiveNumber(sizeText) else {
                throw .font(pattern, reason: "size '\(sizeText.printable)' is not a positive number")
            }
            size = parsed
            familyText = String(head[..<dash])
        }
        let families = BannerFont.splitUnescaped(familyText, on: ",")
            .map { BannerFont.unescape($0).trimmingSpaces }
            .filter { !$0.isEmpty }
        guard !families.isEmpty else { throw .font(pattern, reason: "no font family") }
        for family in families where family.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw .font(pattern, reason: "family '\(family.printable)' contains control characters")
        }

        for property in parts.dropFirst() {
            let trimmed = property.trimmingSpaces
            if trimmed.isEmpty { throw .font(pattern, reason: "empty property") }
            if let equals = trimmed.firstIndex(of: "=") {
                let key = trimmed[..<equals].lowercased().trimmingSpaces
                let value = String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces
                guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) else {
                    throw .font(pattern, reason: "property '\(trimmed.printable)' has no valid name")
                }
                guard !value.isEmpty else { throw .font(pattern, reason: "property '\(key)' has no value") }
                switch key {
                case "size":
                    guard let parsed = BannerFont.positiveNumber(value) else {
                        throw .font(pattern, reason: "size '\(value.printable)' is not a positive number")
                    }
                    size = parsed
                case "pixelsize":
                    throw .font(pattern, reason: "use size= (points) instead of pixelsize=")
                case "weight":
                    guard let named = Weight.aliases[value.lowercased()] else {
                        throw .font(pattern, reason: "unknown weight '\(value.printable)'")
                    }
                    weight = named
                default:
                    others.append(trimmed)
                }
            } else if let named = Weight.aliases[trimmed.lowercased()] {
                weight = named
            } else if trimmed.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) {
                others.append(trimmed)
            } else {
                throw .font(pattern, reason: "unknown property '\(trimmed.printable)'")
            }
        }
        guard size <= TopBannerAppearance.maximumHeight else {
            throw .font(pattern, reason: "size \(size) is larger than \(Int(TopBannerAppearance.maximumHeight)) points")
        }
        self.init(families: families, size: size, weight: weight, otherProperties: others)
    }

    /// The pattern handed to fontconfig, with the size turned into pixels:
    /// `pixelsPerPoint` is 1 at 96 DPI and `Xft.dpi / 96` otherwise.
    public func fontconfigPattern(pixelsPerPoint: Double) -> String {
        let familyPart = families.map(BannerFont.escape).joined(separator: ",")
        let pixels = (size * pixelsPerPoint * 100).rounded() / 100
        return ([familyPart, "pixelsize=\(BannerFont.format(pixels))", "weight=\(weight.rawValue)"]
            + otherProperties).joined(separator: ":")
    }

    /// Round-trips through ``init(pattern:defaultSize:defaultWeight:)``.
    public var description: String {
        let familyPart = families.map(BannerFont.escape).joined(separator: ",")
        return ([familyPart, "size=\(BannerFont.format(size))", weight.rawValue] + otherProperties)
            .joined(separator: ":")
    }

    /// A number as a user would write it: no trailing ".0", at most a few decimals.
    public static func format(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String(value)
    }

    static func positiveNumber(_ text: String) -> Double? {
        guard let value = Double(text.trimmingSpaces), value.isFinite, value > 0 else { return nil }
        return value
    }

    static func escape(_ family: String) -> String {
        var out = ""
        for character in family {
            if character == "\\" || character == "-" || character == ":" || character == "," { out.append("\\") }
            out.append(character)
        }
        return out
    }

    static func unescape(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if !escaped && character == "\\" { escaped = true; continue }
            out.append(character)
            escaped = false
        }
        return out
    }

    static func splitUnescaped(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// The dash that starts a trailing size (`Sans-12`), if the text ends in a number after one.
    static func lastUnescapedDash(in text: String) -> String.Index? {
        var escaped = false
        var last: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "-" {
                last = index
            }
            index = text.index(after: index)
        }
        guard let dash = last else { return nil }
        let tail = text[text.index(after: dash)...]
        // "sans-serif" has a dash but no size after it.
        guard let first = tail.unicodeScalars.first, first.isASCIIDigit || first == "." else { return nil }
        return dash
    }
}
