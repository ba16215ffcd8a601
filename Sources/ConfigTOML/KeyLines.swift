// The line each key of a TOML document is written on. TOMLKit hands back values without their
// positions, yet an error must say `config.toml:12:`; so the text the parser already accepted is
// scanned once more, just far enough to see table headers and keys. Because the text is valid
// TOML, the scanner trusts its grammar instead of checking it; on anything else it still ends,
// knowing fewer lines.

/// Where each table header and key of a document is first written.
struct KeyLines {
    private var lineOfPath: [[String]: Int]

    /// The lines of every header and key in `text`, a document TOMLKit parsed.
    init(_ text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        lineOfPath = scanner.lineOfPath
    }

    /// The first place where a key must begin but the byte there cannot begin one (`[%x]`,
    /// `a.%b = 1`), as 1-based line and column and the byte as written. TOMLKit's parser
    /// (toml++) does not report this case: debug builds stop on an assertion, release builds
    /// read on undefined — so it is checked before the text reaches it.
    static func badKeyStart(in text: String) -> (line: Int, column: Int, found: String)? {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        return scanner.badKeyStart
    }

    /// The 1-based line of the key at `path`, or of its nearest written ancestor: a table made
    /// implicitly by `[a.b]` is reported at that header.
    func line(of path: [String]) -> Int? {
        var prefix = path[...]
        while !prefix.isEmpty {
            if let line = lineOfPath[Array(prefix)] { return line }
            prefix = prefix.dropLast()
        }
        return nil
    }
}

/// A cursor over the document's UTF-8 bytes; every structural character of TOML is ASCII.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineOfPath: [[String]: Int] = [:]
    /// Where the current line starts, for columns.
    var lineStart = 0
    var badKeyStart: (line: Int, column: Int, found: String)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    /// Moves one byte on; the only place `line` changes, so no path can miss a newline.
    mutating func advance() {
        guard index < bytes.count else { return }
        if bytes[index] == .newline {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    mutating func scanDocument() {
        var table: [String] = []
        while index < bytes.count {
            let start = index
            skipBlanks()
            switch current {
            case .newline?, .carriageReturn?: advance()
            case .hash?: skipRestOfLine()
            case .openBracket?:
                let headerLine = line
                advance()
                if current == .openBracket { advance() }
                table = scanKey()
                record(table, at: headerLine)
                skipRestOfLine()
            case .some:
                let keyLine = line
                let key = table + scanKey()
                record(key, at: keyLine)
                skipBlanks()
                if current == .equals {
                    advance()
                    skipValue(at: key)
                }
                skipRestOfLine()
            case nil: break
            }
            if index == start { advance() }
        }
    }

    /// Notes `path` and each of its prefixes not seen before at `line`.
    mutating func record(_ path: [String], at line: Int) {
        guard !path.isEmpty else { return }
        for count in 1...path.count where lineOfPath[Array(path.prefix(count))] == nil {
            lineOfPath[Array(path.prefix(count))] = line
        }
    }

    /// A dotted key, `a."b c".'d'`, as its parts; stops before `=` or `]`.
    mutating func scanKey() -> [String] {
        var parts: [String] = []
        while true {
            skipBlanks()
            guard let byte = current else { break }
            if byte == .quote {
                parts.append(scanBasicString())
            } else if byte == .apostrophe {
                parts.append(scanLiteralString())
            } else if byte.isBareKeyByte {
                let start = index
                while current?.isBareKeyByte == true { advance() }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            } else {
                noteBadKeyStart()
                break
            }
            skipBlanks()
            guard current == .dot else { break }
            advance()
        }
        return parts
    }

    /// A key was due here and the byte cannot begin one.
    mutating func noteBadKeyStart() {
        guard badKeyStart == nil else { return }
        let found = index < bytes.count
            ? String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self).unicodeScalars.first.map { String($0) } ?? "?"
            : "end of file"
        badKeyStart = (line, index - lineStart + 1, found)
    }

    /// Skips the value of the key at `path`, recording the keys of an inline table under it.
    mutating func skipValue(at path: [String]) {
        skipBlanks()
        guard let byte = current else { return }
        switch byte {
        case .quote, .apostrophe:
            if peek(1) == byte && peek(2) == byte {
                skipMultilineString(delimiter: byte)
            } else if byte == .quote {
                _ = scanBasicString()
            } else {
                _ = scanLiteralString()
            }
        case .openBracket: skipArray(at: path)
        case .openBrace: scanInlineTable(at: path)
        default:
            while let byte = current, !byte.endsScalarValue { advance() }
        }
    }

    mutating func skipArray(at path: [String]) {
        advance()
        while current != nil {
            let start = index
            skipWhitespaceAndComments()
            if current == .closeBracket {
                advance()
                return
            }
            if current == .comma {
                advance()
                continue
            }
            skipValue(at: path)
            if index == start { advance() }
        }
    }

    mutating func scanInlineTable(at path: [String]) {
        advance()
        while current != nil {
            let start = index
            skipWhitespaceAndComments()
            if current == .closeBrace {
                advance()
                return
            }
            if current == .comma {
                advance()
                continue
            }
            let keyLine = line
            let key = path + scanKey()
            record(key, at: keyLine)
            skipBlanks()
            if current == .equals {
                advance()
                skipValue(at: key)
            }
            if index == start { advance() }
        }
    }

    /// A `"…"` string with its escapes decoded, as a quoted key needs to match TOMLKit's key.
    mutating func scanBasicString() -> String {
        advance()
        var decoded: [UInt8] = []
        while let byte = current, byte != .newline {
            advance()
            if byte == .quote { break }
            guard byte == .backslash, let escape = current else {
                decoded.append(byte)
                continue
            }
            advance()
            switch escape {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "e"): decoded.append(0x1B)
            case UInt8(ascii: "u"): decoded += scanHexScalar(digits: 4)
            case UInt8(ascii: "U"): decoded += scanHexScalar(digits: 8)
            default: decoded.append(escape)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The UTF-8 of the scalar written as `digits` hex digits after `\u` or `\U`.
    mutating func scanHexScalar(digits: Int) -> [UInt8] {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = current, let digit = byte.hexDigitValue else { break }
            value = value &* 16 &+ digit
            advance()
        }
        return Unicode.Scalar(value).map { Array(String($0).utf8) } ?? []
    }

    /// A `'…'` string: no escapes.
    mutating func scanLiteralString() -> String {
        advance()
        let start = index
        while let byte = current, byte != .apostrophe, byte != .newline { advance() }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if current == .apostrophe { advance() }
        return text
    }

    /// A `"""…"""` or `'''…'''` string, which may span lines and end in up to two more quotes.
    mutating func skipMultilineString(delimiter: UInt8) {
        for _ in 0..<3 { advance() }
        while let byte = current {
            if byte == .backslash && delimiter == .quote {
                advance()
                advance()
            } else if byte == delimiter && peek(1) == delimiter && peek(2) == delimiter {
                for _ in 0..<3 { advance() }
                for _ in 0..<2 where current == delimiter { advance() }
                return
            } else {
                advance()
            }
        }
    }

    mutating func skipBlanks() {
        while current == .space || current == .tab { advance() }
    }

    mutating func skipWhitespaceAndComments() {
        while let byte = current {
            if byte == .hash {
                while let byte = current, byte != .newline { advance() }
            } else if byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn {
                advance()
            } else {
                return
            }
        }
    }

    /// Up to and past the next newline: after a header or a value only a comment can follow.
    mutating func skipRestOfLine() {
        while let byte = current, byte != .newline { advance() }
        advance()
    }
}

extension UInt8 {
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")

    /// A–Z, a–z, 0–9, `_` and `-`: what a key may be written with unquoted.
    var isBareKeyByte: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Whether this byte ends a number, boolean or date; a date's inner space ends it early,
    /// which is harmless since only its line matters.
    fileprivate var endsScalarValue: Bool {
        switch self {
        case .space, .tab, .newline, .carriageReturn, .comma, .closeBracket, .closeBrace, .hash: true
        default: false
        }
    }

    fileprivate var hexDigitValue: UInt32? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(self - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(self - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(self - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
