// From TOML text to a checked BannerConfig. Every key is known or an error (a typo must not be
// silently ignored), every value has the right TOML type, and every appearance value passes
// BannerCore's own check when the file is read, not when a banner is shown. Keys are visited in
// file order, so the error reported is the first one in the file.

import BannerConfig
import BannerCore

/// Reads one config document, naming `file` and the line of any mistake.
struct ConfigReader {
    let file: String
    /// The document as toml++ parsed it: values and the lines of their keys, in one pass.
    private let document: TOMLDocument

    /// Parses `text`; throws its first syntax error.
    init(text: String, file: String) throws(ConfigError) {
        self.file = file
        document = try Self.parseTOML(text, file: file)
    }

    /// The document merged over `BannerConfig.builtIn`.
    func read() throws(ConfigError) -> BannerConfig {
        let root = document.root
        var config = BannerConfig.builtIn
        config.file = file
        for name in root.keys {
            let path = [name]
            guard let value = root[name] else { continue }
            switch name {
            case "defaults":
                config.defaults = try appearance(table(value, at: path), at: path, allowingTimeout: false).appearance
            case "daemon":
                config.idleExit = try idleExit(table(value, at: path), at: path)
            case "monitor":
                config.monitor = try monitorSettings(table(value, at: path), at: path)
            case "style":
                let styles = try table(value, at: path)
                for styleName in styles.keys {
                    guard let style = styles[styleName] else { continue }
                    let stylePath = path + [styleName]
                    config.styles[styleName] = try appearance(table(style, at: stylePath), at: stylePath, allowingTimeout: true)
                }
            default:
                let what = value.kind == .table ? "table" : "key"
                throw error(.unknownKey, at: path, "unknown \(what) (expected [defaults], [daemon], [monitor] or [style.NAME])")
            }
        }
        return config
    }

    private static func parseTOML(_ text: String, file: String) throws(ConfigError) -> TOMLDocument {
        // TOML allows no NUL, and an editor that wrote one meant no TOML: said as such.
        if let nul = text.utf8.firstIndex(of: 0) {
            let before = text.utf8[..<nul]
            let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) } ?? text.utf8.startIndex
            let column = text.utf8.distance(from: lineStart, to: nul) + 1
            throw ConfigError(kind: .syntax, file: file, line: line, column: column, message: "NUL byte")
        }
        do {
            return try TOMLDocument(parsing: text)
        } catch {
            throw ConfigError(kind: .syntax, file: file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// `[defaults]` or a `[style.NAME]`: appearance keys, plus `timeout` and `private` in a style.
    private func appearance(_ table: TOMLNode, at path: [String], allowingTimeout: Bool) throws(ConfigError) -> BannerStyle {
        var style = BannerStyle()
        for name in table.keys {
            let keyPath = path + [name]
            guard let value = table[name] else { continue }
            if allowingTimeout && name == "timeout" {
                let (seconds, written) = try number(value, at: keyPath)
                guard seconds > 0, seconds <= SecondsRange.maximumDuration, seconds.isFinite else {
                    throw error(.badValue, at: keyPath, BannerValueError.duration(written).description)
                }
                style.timeout = seconds
                continue
            }
            if allowingTimeout && name == "private" {
                let isPrivate = try boolean(value, at: keyPath) == "true"
                // The built-in styles are the monitor's banners: they must show while the
                // screen is shared, and a style of the same name in the file replaces one.
                if let styleName = path.last, isPrivate, BannerConfig.builtIn.styles[styleName] != nil {
                    throw error(.badValue, at: keyPath, "the built-in style '\(styleName.printable)' is never private (the monitor's banners show while the screen is shared)")
                }
                style.private = isPrivate
                continue
            }
            guard let field = AppearanceSettings.styleFields.first(where: { $0.name == name }) else {
                let known = AppearanceSettings.styleFields.map(\.name) + (allowingTimeout ? ["private", "timeout"] : [])
                throw error(.unknownKey, at: keyPath, "unknown key (expected one of: \(known.sorted().joined(separator: ", ")))")
            }
            let written = Self.numericFields.contains(name) ? try number(value, at: keyPath).written
                : Self.booleanFields.contains(name) ? try boolean(value, at: keyPath) : try string(value, at: keyPath)
            var single = AppearanceSettings()
            single[keyPath: field.keyPath] = written
            do {
                try single.validate()
            } catch {
                throw self.error(.badValue, at: keyPath, error.description)
            }
            style.appearance[keyPath: field.keyPath] = name == "icon" ? iconPath(written) : written
        }
        return style
    }

    /// An `icon` value with a relative file path made relative to the config file's directory,
    /// where whoever wrote it was looking; names, absolute paths and `none` as written.
    private func iconPath(_ written: String) -> String {
        guard case .file(let path)? = (try? BannerIcon.parse(written))?.source, !path.hasPrefix("/"),
              let slash = file.lastIndex(of: "/") else { return written }
        return String(file[...slash]) + path
    }

    /// Appearance fields written as TOML numbers, and as booleans (AppearanceField's table); the
    /// rest are strings.
    private static let numericFields = Set(AppearanceField.all.filter { $0.value == .number }.map(\.name))
    private static let booleanFields = Set(AppearanceField.all.filter { $0.value == .boolean }.map(\.name))

    /// `[daemon]`: `idle-exit` only.
    private func idleExit(_ table: TOMLNode, at path: [String]) throws(ConfigError) -> Double? {
        var idleExit: Double?
        for name in table.keys {
            let keyPath = path + [name]
            guard name == "idle-exit" else { throw error(.unknownKey, at: keyPath, "unknown key (expected idle-exit)") }
            guard let value = table[name] else { continue }
            let (seconds, written) = try number(value, at: keyPath)
            guard seconds >= 0, seconds.isFinite else {
                throw error(.badValue, at: keyPath, "bad idle-exit '\(written)' (seconds, 0 or more; 0 never exits)")
            }
            idleExit = seconds
        }
        return idleExit
    }

    /// `[monitor]`: connectivity, check-url, check-expect, check-interval, check-timeout, calls,
    /// calls-ignore, calls-hide-delay, sharing, sharing-ignore.
    private func monitorSettings(_ table: TOMLNode, at path: [String]) throws(ConfigError) -> MonitorSettings {
        var settings = MonitorSettings()
        for name in table.keys {
            let keyPath = path + [name]
            guard let value = table[name] else { continue }
            switch name {
            case "connectivity":
                let written = try string(value, at: keyPath)
                settings.connectivity = try checked(at: keyPath) { () throws(BannerValueError) in try ConnectivitySource(parsing: written) }
            case "check-url":
                let written = try string(value, at: keyPath)
                _ = try checked(at: keyPath) { () throws(BannerValueError) in try CheckURL(written) }
                settings.checkURL = written
            case "check-expect":
                settings.checkExpect = try string(value, at: keyPath)
            case "check-interval", "check-timeout":
                let (seconds, written) = try number(value, at: keyPath)
                let range = name == "check-interval" ? HTTPCheckRule.intervalRange : HTTPCheckRule.timeoutRange
                let checkedSeconds = try checked(at: keyPath) { () throws(BannerValueError) in try range.check(seconds, written: written) }
                if name == "check-interval" { settings.checkInterval = checkedSeconds } else { settings.checkTimeout = checkedSeconds }
            case "calls":
                settings.calls = try boolean(value, at: keyPath) == "true"
            case "sharing":
                settings.sharing = try boolean(value, at: keyPath) == "true"
            case "calls-ignore":
                settings.callsIgnore = try appNames(value, at: keyPath)
            case "sharing-ignore":
                settings.sharingIgnore = try appNames(value, at: keyPath)
            case "calls-hide-delay":
                let (seconds, written) = try number(value, at: keyPath)
                guard seconds >= 0, seconds <= 3600 else { throw error(.badValue, at: keyPath, "bad calls-hide-delay '\(written)' (seconds, 0 to 3600)") }
                settings.callsHideDelay = seconds
            default:
                throw error(
                    .unknownKey, at: keyPath,
                    "unknown key (expected one of: calls, calls-hide-delay, calls-ignore, check-expect, check-interval, check-timeout, check-url, connectivity, sharing, sharing-ignore)")
            }
        }
        return settings
    }

    /// `calls-ignore`, `sharing-ignore`: an array of app names, each 1 to 256 characters.
    private func appNames(_ value: TOMLNode, at keyPath: [String]) throws(ConfigError) -> [String] {
        guard let array = value.array else { throw wrongType(value, expected: "an array of app names", at: keyPath) }
        var names: [String] = []
        for index in 0..<array.count {
            guard let name = array[index].string, !name.isEmpty, name.count <= 256 else {
                throw error(.badValue, at: keyPath, "each entry must be an app name (a string of 1 to 256 characters)")
            }
            names.append(name)
        }
        return names
    }

    /// `body`'s value, or its BannerValueError as a bad value at `keyPath`.
    private func checked<Value>(at keyPath: [String], _ body: () throws(BannerValueError) -> Value) throws(ConfigError) -> Value {
        do {
            return try body()
        } catch {
            throw self.error(.badValue, at: keyPath, error.description)
        }
    }

    private func table(_ value: TOMLNode, at path: [String]) throws(ConfigError) -> TOMLNode {
        guard let table = value.table else { throw wrongType(value, expected: "a table", at: path) }
        return table
    }

    private func string(_ value: TOMLNode, at path: [String]) throws(ConfigError) -> String {
        guard let string = value.string else { throw wrongType(value, expected: "a string", at: path) }
        return string
    }

    /// `true` or `false`, as AppearanceSettings takes it.
    private func boolean(_ value: TOMLNode, at path: [String]) throws(ConfigError) -> String {
        guard let bool = value.boolean else { throw wrongType(value, expected: "true or false", at: path) }
        return String(bool)
    }

    /// An integer or float, and its decimal text as AppearanceSettings and messages take it
    /// (80 → "80", 80.5 → "80.5").
    private func number(_ value: TOMLNode, at path: [String]) throws(ConfigError) -> (value: Double, written: String) {
        if let integer = value.integer { return (Double(integer), String(integer)) }
        if let float = value.float { return (float, String(float)) }
        throw wrongType(value, expected: "a number", at: path)
    }

    private func wrongType(_ value: TOMLNode, expected: String, at path: [String]) -> ConfigError {
        error(.wrongType, at: path, "expected \(expected), found \(Self.name(of: value.kind))")
    }

    private func error(_ kind: ConfigError.Kind, at path: [String], _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, line: document.line(of: path), key: Self.dotted(path), message: message)
    }

    /// A TOML type as a user would call it, with its article.
    private static func name(of kind: TOMLNode.Kind) -> String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .table: "a table"
        case .array: "an array"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }

    /// `path` written as a TOML dotted key, quoting parts that are not bare keys.
    private static func dotted(_ path: [String]) -> String {
        path.map { part in
            let isBare = !part.isEmpty && part.utf8.allSatisfy(\.isBareKeyByte)
            return isBare ? part : "\"" + part.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").printable + "\""
        }
        .joined(separator: ".")
    }
}

extension UInt8 {
    /// A–Z, a–z, 0–9, `_` and `-`: what a key may be written with unquoted.
    fileprivate var isBareKeyByte: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
