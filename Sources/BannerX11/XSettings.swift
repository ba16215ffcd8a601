// The desktop's settings as its XSETTINGS manager (gsd-xsettings, xfsettingsd, xsettingsd)
// publishes them: the `_XSETTINGS_SETTINGS` property of the `_XSETTINGS_S<screen>` selection's
// owner, in the freedesktop XSETTINGS format. Those bytes are another client's: every length
// and count is checked against what is left, and anything malformed is refused as a whole.

import BannerCore

/// One XSETTINGS value.
public enum XSettingValue: Sendable, Equatable {
    case integer(Int32)
    case string(String)
    /// 16-bit components, as the format carries them.
    case colour(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)
}

/// The settings an XSETTINGS manager publishes, by name (`Xft/DPI`, `Net/ThemeName`).
public struct XSettings: Sendable, Equatable {
    /// The manager's serial, bumped on every change.
    public var serial: UInt32 = 0
    public var values: [String: XSettingValue] = [:]

    /// No manager, or nothing it sets.
    public init() {}

    /// The settings of an `_XSETTINGS_SETTINGS` property's bytes; nil when they are not in the
    /// XSETTINGS format (truncated, an unknown byte order or type, a length past the end).
    public init?(parsing bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let order = reader.byte() else { return nil }
        switch order {
        case 0: reader.bigEndian = false  // LSBFirst
        case 1: reader.bigEndian = true   // MSBFirst
        default: return nil
        }
        guard reader.skip(3), let serial = reader.card32(), let count = reader.card32() else { return nil }
        self.serial = serial
        // Each setting takes at least 12 bytes: a count larger than the bytes could hold is a lie,
        // refused before looping on it.
        guard Int(count) <= reader.remaining / 12 else { return nil }
        for _ in 0..<count {
            guard let type = reader.byte(), reader.skip(1), let nameLength = reader.card16(),
                  let name = reader.paddedBytes(Int(nameLength)), reader.card32() != nil else { return nil }
            let value: XSettingValue
            switch type {
            case 0:
                guard let integer = reader.card32() else { return nil }
                value = .integer(Int32(bitPattern: integer))
            case 1:
                guard let length = reader.card32(), let text = reader.paddedBytes(Int(length)) else { return nil }
                value = .string(String(decoding: text, as: UTF8.self))
            case 2:
                // The format's order is red, blue, green, alpha.
                guard let red = reader.card16(), let blue = reader.card16(), let green = reader.card16(),
                      let alpha = reader.card16() else { return nil }
                value = .colour(red: red, green: green, blue: blue, alpha: alpha)
            default:
                return nil
            }
            values[String(decoding: name, as: UTF8.self)] = value
        }
    }

    /// `Xft/DPI` in dots per inch (the format carries 1024ths); nil when unset or not positive
    /// (gsd-xsettings and xsettingsd publish -1 for "the server's own").
    public var dpi: Double? {
        guard case .integer(let value)? = values["Xft/DPI"], value > 0 else { return nil }
        return Double(value) / 1024
    }

    /// `Gtk/EnableAnimations`: false when the desktop turned animations off (GNOME's reduce
    /// motion); nil when unset.
    public var animationsEnabled: Bool? {
        guard case .integer(let value)? = values["Gtk/EnableAnimations"] else { return nil }
        return value != 0
    }

    /// `Net/IconThemeName`, the desktop's icon theme; nil when unset or empty.
    public var iconThemeName: String? { nonEmptyString("Net/IconThemeName") }
    /// `Gtk/FontName`, the desktop's UI font as Pango writes it (`Cantarell 11`); nil when unset.
    public var fontName: String? { nonEmptyString("Gtk/FontName") }
    /// The family of ``fontName``: Pango's `FAMILY [STYLE…] [SIZE]` without its size and style
    /// words (`Noto Sans Bold 10` is `Noto Sans`); nil when there is none, or it is not a name
    /// (control characters, over 255 bytes).
    public var fontFamily: String? { DesktopPreferences.family(ofPangoFont: fontName) }

    /// `Net/ThemeName`, the desktop's GTK theme; nil when unset.
    public var themeName: String? { nonEmptyString("Net/ThemeName") }

    /// What these settings ask of banners, as every backend reads the desktop's preferences.
    public var preferences: DesktopPreferences {
        DesktopPreferences(textScale: DesktopPreferences.validTextScale(dpi.map { $0 / BannerLayout.referenceDPI }),
                           animationsEnabled: animationsEnabled, themeName: themeName,
                           iconThemeName: iconThemeName, fontFamily: fontFamily)
    }

    private func nonEmptyString(_ name: String) -> String? {
        guard case .string(let value)? = values[name], !value.isEmpty else { return nil }
        return value
    }
}

/// Reads the format's fields, never past the end.
private struct Reader {
    let bytes: [UInt8]
    var offset = 0
    var bigEndian = false

    var remaining: Int { bytes.count - offset }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }

    mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func card16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        let (first, second) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    mutating func card32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        let parts = (0..<4).map { UInt32(bytes[offset + $0]) }
        return bigEndian
            ? parts[0] << 24 | parts[1] << 16 | parts[2] << 8 | parts[3]
            : parts[3] << 24 | parts[2] << 16 | parts[1] << 8 | parts[0]
    }

    /// `count` bytes, then the padding that brings them to a multiple of 4.
    mutating func paddedBytes(_ count: Int) -> ArraySlice<UInt8>? {
        let padded = (count + 3) & ~3
        guard count >= 0, padded <= remaining else { return nil }
        defer { offset += padded }
        return bytes[offset..<offset + count]
    }
}
