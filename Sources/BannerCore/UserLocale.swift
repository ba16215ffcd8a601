// The user's language as the locale variables name it, by gettext's rules: which languages a
// user reads, in order (`languages`), and whether the first one is written right to left. Pure:
// the environment is passed in. The programs that translate hand the same variables to glibc
// (window-banner-full's Translations.swift); the layout mirrors itself for `isRightToLeft`.

/// The languages a user's locale variables ask for.
public struct UserLocale: Sendable, Hashable {
    /// The variables that choose the language of messages, highest precedence first; a request
    /// to the owner carries these so that it answers in its caller's language.
    public static let variableNames = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]

    /// The locale of messages: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and
    /// not empty (`de_DE.UTF-8`), `C` with none.
    public var messagesLocale: String
    /// The languages to translate into, most preferred first: `LANGUAGE`'s colon-separated list
    /// (gettext ignores it under the C locale, and so does this), then `messagesLocale`'s
    /// language; each without its codeset (`pt_BR`, `ar`, `sr@latin`), no duplicates. Empty
    /// for the C and POSIX locales. Whether glibc has the locale installed is not decided
    /// here: gettext translates only when it does.
    public var languages: [String]

    /// The locale variables of `environment`.
    public init(environment: [String: String]) {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        messagesLocale = locale
        var candidates: [String] = []
        if !Self.isCLocale(locale) {
            candidates = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        }
        candidates.append(locale)
        var languages: [String] = []
        for candidate in candidates {
            let language = Self.withoutCodeset(candidate)
            guard !language.isEmpty, !Self.isCLocale(language), !languages.contains(language) else { continue }
            languages.append(language)
        }
        self.languages = languages
    }

    /// The variables of ``variableNames`` that `environment` sets, to send along with a request.
    public static func variables(in environment: [String: String]) -> [String: String] {
        environment.filter { variableNames.contains($0.key) }
    }

    /// True when the first language is written right to left (Arabic, Hebrew, Persian, Urdu…):
    /// the banner then mirrors its layout.
    public var isRightToLeft: Bool {
        guard let first = languages.first else { return false }
        return Self.isRightToLeft(first)
    }

    /// Languages whose usual script (Arabic, Hebrew, Thaana, Syriac, N'Ko) runs right to left,
    /// by ISO 639 code.
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "glk", "he", "iw", "ji", "ks", "lrc", "mzn", "nqo", "ps", "sd", "syr", "ug", "ur", "yi",
    ]
    /// Languages written right to left in one region only (Punjabi in Shahmukhi, Azerbaijani in
    /// Iran), as glibc names their locales.
    static let rightToLeftRegions: Set<String> = ["pa_PK", "az_IR"]
    /// Script modifiers that choose a left-to-right script for one of those languages
    /// (`sd_IN@devanagari`, `ks_IN@devanagari`).
    static let leftToRightModifiers: Set<String> = ["devanagari", "latin", "cyrillic"]

    /// `language` (`ar_EG`, `sd_IN@devanagari`) is written right to left.
    static func isRightToLeft(_ language: String) -> Bool {
        let parts = language.split(separator: "@", maxSplits: 1)
        if parts.count == 2, leftToRightModifiers.contains(parts[1].lowercased()) { return false }
        let territory = parts.first.map(String.init) ?? ""
        if rightToLeftRegions.contains(territory) { return true }
        let code = territory.split(separator: "_").first.map { $0.lowercased() } ?? ""
        return rightToLeftLanguages.contains(code)
    }

    /// gettext's C locale, under which nothing is translated and `LANGUAGE` is ignored.
    static func isCLocale(_ name: String) -> Bool { name == "C" || name == "POSIX" }

    /// `de_DE.UTF-8@euro` → `de_DE@euro`; `C.UTF-8` → `C`.
    static func withoutCodeset(_ name: String) -> String {
        guard let dot = name.firstIndex(of: ".") else { return name }
        let modifier = name[dot...].firstIndex(of: "@").map { name[$0...] } ?? ""
        return String(name[..<dot] + modifier)
    }
}
