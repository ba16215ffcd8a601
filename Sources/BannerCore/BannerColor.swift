// Colours as users write them: `#RRGGBB`, `#RRGGBBAA`, the iOS system names
// (light-mode values) and X11 colour names, which only the X server can resolve.

/// An sRGB colour with straight (not premultiplied) alpha, each component 0...1.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB` with full opacity.
    public init(hex: UInt32) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255,
            green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255
        )
    }

    /// The straight mix `self·(1−t) + other·t` of every component.
    public func blended(with other: RGBA, fraction t: Double) -> RGBA {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return RGBA(
            red: mix(red, other.red), green: mix(green, other.green),
            blue: mix(blue, other.blue), alpha: mix(alpha, other.alpha)
        )
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func byte(_ v: Double) -> String {
            let hex = String(Int((min(max(v, 0), 1) * 255).rounded()), radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        let rgb = "#" + byte(red) + byte(green) + byte(blue)
        return alpha >= 1 ? rgb : rgb + byte(alpha)
    }
}

/// A colour as configured: either known here, or an X11 colour name the backend resolves (the X server, or the runtime's table elsewhere).
public struct BannerColor: Sendable, Hashable, CustomStringConvertible {
    /// What the colour is made of.
    public enum Value: Sendable, Hashable {
        case rgba(RGBA)
        /// An X11 colour name (`SteelBlue`, `navy blue`), resolved by the X server's colour database.
        case x11Name(String)
    }

    public var value: Value

    public init(_ rgba: RGBA) { value = .rgba(rgba) }

    /// Parses `#RRGGBB`, `#RRGGBBAA`, an iOS system colour name, or an X11 colour name.
    /// Anything else throws ``BannerValueError/colour(_:)``.
    public init(parsing text: String) throws(BannerValueError) {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("#") {
            guard let rgba = RGBA(hexString: trimmed) else { throw .colour(text) }
            value = .rgba(rgba)
        } else if let system = BannerColor.systemColours[trimmed.lowercased()] {
            value = .rgba(system)
        } else if BannerColor.isPlausibleX11Name(trimmed) {
            value = .x11Name(trimmed)
        } else {
            throw .colour(text)
        }
    }

    /// The colour if it is known without an X server.
    public var rgba: RGBA? {
        if case .rgba(let rgba) = value { return rgba }
        return nil
    }

    public var description: String {
        switch value {
        case .rgba(let rgba): rgba.description
        case .x11Name(let name): name
        }
    }

    // The iOS system colours, light-mode values (Apple HIG).
    public static let systemRed = BannerColor(RGBA(hex: 0xFF3B30))
    public static let systemOrange = BannerColor(RGBA(hex: 0xFF9500))
    public static let systemYellow = BannerColor(RGBA(hex: 0xFFCC00))
    public static let systemGreen = BannerColor(RGBA(hex: 0x34C759))
    public static let systemMint = BannerColor(RGBA(hex: 0x00C7BE))
    public static let systemTeal = BannerColor(RGBA(hex: 0x30B0C7))
    public static let systemCyan = BannerColor(RGBA(hex: 0x32ADE6))
    public static let systemBlue = BannerColor(RGBA(hex: 0x007AFF))
    public static let systemIndigo = BannerColor(RGBA(hex: 0x5856D6))
    public static let systemPurple = BannerColor(RGBA(hex: 0xAF52DE))
    public static let systemPink = BannerColor(RGBA(hex: 0xFF2D55))
    public static let systemBrown = BannerColor(RGBA(hex: 0xA2845E))
    public static let systemGray = BannerColor(RGBA(hex: 0x8E8E93))
    public static let white = BannerColor(RGBA(hex: 0xFFFFFF))
    public static let black = BannerColor(RGBA(hex: 0x000000))

    /// The iOS system colours by name, as a user writes them.
    static let systemColourNames: [(name: String, hex: UInt32)] = [
        ("systemRed", 0xFF3B30), ("systemOrange", 0xFF9500), ("systemYellow", 0xFFCC00),
        ("systemGreen", 0x34C759), ("systemMint", 0x00C7BE), ("systemTeal", 0x30B0C7),
        ("systemCyan", 0x32ADE6), ("systemBlue", 0x007AFF), ("systemIndigo", 0x5856D6),
        ("systemPurple", 0xAF52DE), ("systemPink", 0xFF2D55), ("systemBrown", 0xA2845E),
        ("systemGray", 0x8E8E93), ("systemGray2", 0xAEAEB2), ("systemGray3", 0xC7C7CC),
        ("systemGray4", 0xD1D1D6), ("systemGray5", 0xE5E5EA), ("systemGray6", 0xF2F2F7),
    ]

    /// Lower-cased name → value, for parsing.
    static let systemColours: [String: RGBA] = {
        Dictionary(uniqueKeysWithValues: systemColourNames.map { ($0.name.lowercased(), RGBA(hex: $0.hex)) })
    }()

    /// The colour as help text names it: a system colour by its name and value
    /// (`systemGreen (#34c759)`), white and black by name, any other by its value.
    public var spokenName: String {
        guard case .rgba(let rgba) = value else { return description }
        if let named = Self.systemColourNames.first(where: { RGBA(hex: $0.hex) == rgba }) { return "\(named.name) (\(rgba))" }
        if rgba == RGBA(hex: 0xFFFFFF) { return "white" }
        if rgba == RGBA(hex: 0x000000) { return "black" }
        return rgba.description
    }

    /// X11 colour names are letters, digits and spaces (`rgb.txt`), e.g. `SteelBlue`, `gray50`.
    static func isPlausibleX11Name(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter, name.utf8.count <= 64 else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == " " }
    }
}

extension RGBA {
    /// `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    init?(hexString: String) {
        let digits = hexString.dropFirst()
        guard digits.count == 6 || digits.count == 8,
              digits.unicodeScalars.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16)
        else { return nil }
        if digits.count == 6 {
            self.init(hex: value)
        } else {
            self.init(hex: value >> 8)
            alpha = Double(value & 0xFF) / 255
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isHexDigit: Bool { isASCIIDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
