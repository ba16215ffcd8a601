// The built-in banners' translations: which text is window-banner's own (and so translated),
// and the catalogs in Resources/po, checked with gettext's own msgfmt and msgcmp.

import BannerConfig
import ConfigTOML
import Glibc
import ProcessTestSupport
import Testing

@Suite struct TranslationTests {
    /// Resources/po, found from this file's path.
    static let poDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Resources/po"
    }()

    /// The languages the project promises (issue 15).
    static let languages = ["ar", "de", "es", "fr", "he", "hi", "ja", "pt_BR", "ru", "zh_CN"]

    /// Marks a text as translated, so a test sees what went through the translation.
    static func mark(_ text: String) -> String { "«\(text)»" }

    @Test func builtInStylesTitlesGoThroughTheTranslation() throws {
        for (name, title) in [("offline", "No Internet Connection"), ("online", "Back Online"), ("call", "Call in progress"),
                              ("sharing", "You are sharing your screen")] {
            #expect(try BannerConfig.builtIn.resolve(style: name, translating: Self.mark).appearance.title == Self.mark(title))
        }
        // Everything else about the style stays.
        let offline = try BannerConfig.builtIn.resolve(style: "offline", translating: Self.mark)
        #expect(offline.appearance.background == "systemRed")
        #expect(offline.appearance.icon == "window-banner-offline")
        #expect(try BannerConfig.builtIn.resolve(style: "online", translating: Self.mark).timeout == 2)
    }

    @Test func aStyleTheFileChangesIsTheUsersOwnWords() throws {
        let config = try BannerConfig.parse("""
            [defaults]
            title = "From the defaults"

            [style.offline]
            title = "Netz weg"

            [style.online]
            background = "systemOrange"

            [style.meeting]
            title = "In a meeting"
            """, file: "config.toml")
        #expect(try config.resolve(style: "offline", translating: Self.mark).appearance.title == "Netz weg")
        // A built-in style replaced without a title: the defaults' title, the user's too.
        #expect(try config.resolve(style: "online", translating: Self.mark).appearance.title == "From the defaults")
        #expect(try config.resolve(style: "meeting", translating: Self.mark).appearance.title == "In a meeting")
        #expect(try config.resolve(style: nil, translating: Self.mark).appearance.title == "From the defaults")
        // The style the file left alone is still window-banner's.
        #expect(try config.resolve(style: "call", translating: Self.mark).appearance.title == Self.mark("Call in progress"))
    }

    @Test func theExampleFilesCopiesOfTheBuiltInStylesStayTranslated() throws {
        let config = try BannerConfig.read(path: ConfigLayerTests.examplePath)
        #expect(try config.resolve(style: "offline", translating: Self.mark).appearance.title == Self.mark("No Internet Connection"))
    }

    @Test func theTemplateHoldsExactlyTheBuiltInTexts() throws {
        let template = try Self.msgids(inFile: Self.poDirectory + "/window-banner.pot")
        #expect(template.sorted() == BannerConfig.builtInTexts)
    }

    @Test func everyPromisedLanguageHasACatalog() {
        for language in Self.languages {
            #expect(access(Self.poDirectory + "/\(language).po", R_OK) == 0, "no \(language).po")
        }
    }

    @Test(arguments: languages)
    func eachCatalogTranslatesEveryMsgidAndPassesMsgfmtCheck(language: String) throws {
        let catalog = Self.poDirectory + "/\(language).po"
        // msgcmp fails on a msgid of the template that is missing, untranslated or fuzzy.
        try Subprocess.run("/usr/bin/msgcmp", [catalog, Self.poDirectory + "/window-banner.pot"])
        let check = try Subprocess(executable: "/usr/bin/msgfmt", arguments: ["--check", "--statistics", "-o", "/dev/null", catalog])
        #expect(check.waitForExit(timeout: 30) == 0)
        #expect(check.standardError == "\(BannerConfig.builtInTexts.count) translated messages.\n")
        // A translation is never the English text left in place.
        let translations = try Self.msgstrs(inFile: catalog)
        #expect(translations.count == BannerConfig.builtInTexts.count)
        #expect(Set(translations).isDisjoint(with: BannerConfig.builtInTexts))
    }

    /// The msgids of a PO file (single-line entries, as ours are), without the header's.
    static func msgids(inFile path: String) throws -> [String] {
        try quoted(after: "msgid ", inFile: path)
    }

    /// The msgstrs of a PO file, without the header's.
    static func msgstrs(inFile path: String) throws -> [String] {
        try quoted(after: "msgstr ", inFile: path)
    }

    /// The values of `keyword "…"` lines that are not empty: our entries are one line each and
    /// quote no quotes.
    private static func quoted(after keyword: String, inFile path: String) throws -> [String] {
        try contents(of: path).split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(keyword + "\""), line.hasSuffix("\"") else { return nil }
            let value = String(line.dropFirst(keyword.count + 1).dropLast())
            return value.isEmpty ? nil : value
        }
    }

    /// The UTF-8 text of the file at `path`.
    private static func contents(of path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw TestFailure("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
