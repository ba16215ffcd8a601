// Every way a config file, or a style asked for, can be wrong — as one line that says where:
// `config.toml:12: style.offline.background: unknown colour '#zz' (…)`, the form compilers use,
// so editors can jump to it.

/// A config file that cannot be used, or a style nobody defined.
public struct ConfigError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of mistake, for callers that treat some differently (an unknown `--style` is a
    /// usage error, the rest are config errors).
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The file exists but cannot be read: permissions, a directory, too big.
        case unreadable
        /// Not TOML: a parser error, invalid UTF-8, a NUL byte.
        case syntax
        /// A table or key this tool does not know; most likely a typo.
        case unknownKey
        /// A value of the wrong TOML type: `height = "tall"`, `background = 5`.
        case wrongType
        /// A value of the right type that BannerCore refuses: `background = "#zz"`, `height = -3`.
        case badValue
        /// `resolve(style:)` was asked for a style neither the file nor the built-in config has.
        case unknownStyle
    }

    /// What kind of mistake.
    public var kind: Kind
    /// The config file; nil for an unknown style when no file was loaded.
    public var file: String?
    /// 1-based line of the mistake, when it is in the file's text.
    public var line: Int?
    /// 1-based column, when the parser reports one.
    public var column: Int?
    /// The dotted key at fault, as `style.offline.background`.
    public var key: String?
    /// What is wrong, naming the value as written.
    public var message: String

    /// Whether this is a `--style` naming no style: the command line's mistake, not the file's.
    public var isUnknownStyle: Bool { kind == .unknownStyle }

    package init(kind: Kind, file: String?, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `file:line:column: key: message`, leaving out the parts not known; always one line.
    public var description: String {
        var location = file.map(Self.escapingControlCharacters) ?? ""
        if let line {
            location += location.isEmpty ? "line \(line)" : ":\(line)"
            if let column { location += ":\(column)" }
        }
        return [location, key ?? "", Self.escapingControlCharacters(message)]
            .filter { !$0.isEmpty }
            .joined(separator: ": ")
    }

    /// `text` with control characters written as `\u{…}`, so a path or parser message with a
    /// newline cannot break the one-line promise; unlike `printable`, never shortened.
    private static func escapingControlCharacters(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
