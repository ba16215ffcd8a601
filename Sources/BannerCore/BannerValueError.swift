// Every way a configured value can be wrong. Each case names the value as the user wrote it,
// so the CLI can print one line and exit 64.

/// A bad appearance or timing value, naming what the user wrote.
public enum BannerValueError: Error, Sendable, Equatable, CustomStringConvertible {
    case colour(String)
    case font(String, reason: String)
    case height(String)
    case inset(String)
    case duration(String)
    case compactPolicy(String)
    case placement(String)
    case direction(String)
    case fullscreenPolicy(String)
    case politeness(String)
    case progress(String)
    case action(String)
    /// A secondary action's label without a primary action.
    case secondaryActionAlone(String)
    case icon(String)
    case cornerRadius(String)
    case flag(name: String, value: String)
    /// A title or subtitle longer than ``TopBannerAppearance/maximumTextBytes``: the field and its size in bytes.
    case textTooLong(String, bytes: Int)
    /// A title below WCAG's contrast when `--strict-contrast` asks for it: the whole message.
    case contrast(String)
    /// `monitor --connectivity`: not one of the sources.
    case connectivitySource(String)
    /// `monitor --check-url`: not an `http://` or `https://` URL.
    case checkURL(String)
    /// Seconds outside the range an option accepts (`--check-timeout`, `--check-interval`).
    case seconds(String, range: SecondsRange)

    public var description: String {
        switch self {
        case .colour(let text):
            "unknown colour '\(text.printable)' (use #RRGGBB, #RRGGBBAA, an iOS name like systemRed, or an X11 name like SteelBlue)"
        case .font(let text, let reason):
            "bad font pattern '\(text.printable)': \(reason)"
        case .height(let text):
            "bad height '\(text.printable)' (points, greater than 0 and at most \(Int(TopBannerAppearance.maximumHeight)))"
        case .inset(let text):
            "bad title top inset '\(text.printable)' (points, 0 to \(Int(TopBannerAppearance.maximumHeight)))"
        case .duration(let text):
            "bad duration '\(text.printable)' (seconds, greater than 0 and at most \(Int(SecondsRange.maximumDuration)))"
        case .compactPolicy(let text):
            "bad compact policy '\(text.printable)' (auto, always or never)"
        case .placement(let text):
            "bad placement '\(text.printable)' (below-panels or screen-edge)"
        case .direction(let text):
            "bad direction '\(text.printable)' (auto, ltr or rtl)"
        case .fullscreenPolicy(let text):
            "bad fullscreen policy '\(text.printable)' (show or delay)"
        case .politeness(let text):
            "bad politeness '\(text.printable)' (assertive or polite)"
        case .progress(let text):
            "bad progress '\(text.printable)' (a number from 0 to 1)"
        case .action(let text):
            "bad action '\(text.printable)' (LABEL or LABEL=COMMAND ARGS…, with a label)"
        case .secondaryActionAlone(let label):
            "secondary action '\(label.printable)' without a primary one (the first action is the primary)"
        case .icon(let text):
            "bad icon '\(text.printable)' (a PNG file, an icon theme name, or none)"
        case .cornerRadius(let text):
            "bad corner radius '\(text.printable)' (points, 0 to \(Int(TopBannerAppearance.maximumHeight)); over half the banner's height draws as half)"
        case .flag(let name, let value):
            "bad \(name) '\(value.printable)' (true or false)"
        case .contrast(let message):
            message
        case .connectivitySource(let text):
            "bad connectivity source '\(text.printable)' (auto, networkmanager, http or routes)"
        case .checkURL(let text):
            "bad check URL '\(text.printable)' (http:// or https://HOST[:PORT][/PATH])"
        case .seconds(let text, let range):
            "bad \(range.name) '\(text.printable)' (seconds, \(BannerFont.format(range.minimum)) to \(BannerFont.format(range.maximum)))"
        case .textTooLong(let field, let bytes):
            "\(field) too long: \(bytes) bytes (at most \(TopBannerAppearance.maximumTextBytes); one line is shown, ellipsized)"
        }
    }
}

extension String {
    /// The value as it can be shown on one terminal line: control characters escaped, long values cut.
    public var printable: String {
        var out = ""
        for scalar in unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return unicodeScalars.count > 80 ? out + "…" : out
    }
}
