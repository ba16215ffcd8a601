// Font patterns as fontconfig writes them, sizes in points, and the pattern handed to fontconfig.

import BannerCore
import Testing

@Suite("Fonts")
struct FontTests {
    @Test func patternWithWeightAndSizeProperties() throws {
        let font = try BannerFont(pattern: "DejaVu Sans:bold:size=13", defaultSize: 17)
        #expect(font.families == ["DejaVu Sans"])
        #expect(font.size == 13)
        #expect(font.weight == .bold)
        #expect(font.otherProperties.isEmpty)
    }

    @Test func trailingDashNumberIsSizeInPoints() throws {
        let font = try BannerFont(pattern: "Noto Sans-15:semibold", defaultSize: 17)
        #expect(font.families == ["Noto Sans"])
        #expect(font.size == 15)
        #expect(font.weight == .semibold)
    }

    @Test func fractionalDashSize() throws {
        #expect(try BannerFont(pattern: "Sans-10.5", defaultSize: 17).size == 10.5)
    }

    @Test func dashFollowedByWordIsPartOfTheFamily() throws {
        let font = try BannerFont(pattern: "sans-serif", defaultSize: 17, defaultWeight: .semibold)
        #expect(font.families == ["sans-serif"])
        #expect(font.size == 17)
        #expect(font.weight == .semibold)
    }

    @Test func missingSizeAndWeightComeFromDefaults() throws {
        let font = try BannerFont(pattern: "monospace", defaultSize: 11, defaultWeight: .light)
        #expect(font == BannerFont(families: ["monospace"], size: 11, weight: .light))
    }

    @Test func familyListKeepsPreferenceOrder() throws {
        let font = try BannerFont(pattern: "Inter, Noto Sans ,sans-serif:size=12", defaultSize: 17)
        #expect(font.families == ["Inter", "Noto Sans", "sans-serif"])
        #expect(font.primaryFamily == "Inter")
    }

    @Test func escapedSeparatorsStayInTheFamilyName() throws {
        let font = try BannerFont(pattern: #"My\-Font\:X\,Y-12"#, defaultSize: 17)
        #expect(font.families == ["My-Font:X,Y"])
        #expect(font.size == 12)
        #expect(try BannerFont(pattern: #"Back\\Slash"#, defaultSize: 17).families == [#"Back\Slash"#])
    }

    @Test func otherPropertiesAreKeptVerbatim() throws {
        let font = try BannerFont(pattern: "monospace:italic:hinting=false", defaultSize: 10)
        #expect(font.otherProperties == ["italic", "hinting=false"])
        #expect(font.weight == .regular)
    }

    @Test(arguments: [
        ("thin", BannerFont.Weight.thin), ("ultralight", .extralight), ("extralight", .extralight),
        ("light", .light), ("normal", .regular), ("book", .regular), ("regular", .regular),
        ("medium", .medium), ("demibold", .semibold), ("semibold", .semibold), ("BOLD", .bold),
        ("ultrabold", .extrabold), ("extrabold", .extrabold), ("heavy", .black), ("black", .black),
    ])
    func weightAliasesWorkBareAndAsProperty(name: String, weight: BannerFont.Weight) throws {
        #expect(try BannerFont(pattern: "Sans:\(name)", defaultSize: 12).weight == weight)
        #expect(try BannerFont(pattern: "Sans:weight=\(name)", defaultSize: 12).weight == weight)
    }

    @Test(arguments: [
        ("Sans:size=abc", "abc"), ("Sans:size=-3", "-3"), ("Sans:size=nan", "nan"),
        ("Sans:size=inf", "inf"), ("Sans:size=0", "0"), ("Sans-12x", "12x"),
        ("Sans:weight=wobbly", "wobbly"), ("Sans:pixelsize=12", "size="),
        ("", "family"), (":bold", "family"), ("Sans:size=2000", "larger"),
        ("Sans::bold", "empty property"), ("Sans:bad prop!", "bad prop!"), ("Sans:size=", "no value"),
    ])
    func badPatternThrowsNamingPatternAndReason(pattern: String, reasonMentions: String) {
        let error = #expect(throws: BannerValueError.self) {
            try BannerFont(pattern: pattern, defaultSize: 17)
        }
        guard case .font(let text, let reason) = error else {
            Issue.record("expected a font error, got \(String(describing: error))")
            return
        }
        #expect(text == pattern)
        #expect(reason.contains(reasonMentions))
    }

    @Test func fontconfigPatternTurnsPointsIntoPixels() throws {
        let font = try BannerFont(pattern: "DejaVu Sans:bold:size=13", defaultSize: 17)
        #expect(font.fontconfigPattern(pixelsPerPoint: 1) == "DejaVu Sans:pixelsize=13:weight=bold")
        #expect(font.fontconfigPattern(pixelsPerPoint: 2) == "DejaVu Sans:pixelsize=26:weight=bold")
        #expect(font.fontconfigPattern(pixelsPerPoint: 1.25) == "DejaVu Sans:pixelsize=16.25:weight=bold")
    }

    @Test func fontconfigPatternEscapesFamiliesAndKeepsOtherProperties() throws {
        let font = BannerFont(families: ["My-Font", "sans-serif"], size: 10, otherProperties: ["italic"])
        #expect(font.fontconfigPattern(pixelsPerPoint: 1.5) == #"My\-Font,sans\-serif:pixelsize=15:weight=regular:italic"#)
    }

    @Test func descriptionSpellsOutSizeAndWeight() throws {
        #expect(try BannerFont(pattern: "Noto Sans-15:semibold", defaultSize: 17).description == "Noto Sans:size=15:semibold")
        #expect(BannerFont.system(size: 17, weight: .semibold).description == #"sans\-serif:size=17:semibold"#)
    }

    @Test(arguments: [
        "DejaVu Sans:bold:size=13", "Noto Sans-15:semibold", "sans-serif", #"My\-Font\:X\,Y-12"#,
        "Inter,sans-serif:size=10.5:italic:hinting=false", #"Back\\Slash:heavy"#,
    ])
    func descriptionRoundTrips(pattern: String) throws {
        let font = try BannerFont(pattern: pattern, defaultSize: 17)
        #expect(try BannerFont(pattern: font.description, defaultSize: 99, defaultWeight: .thin) == font)
    }

    @Test func systemFontIsTheSystemSans() {
        #expect(BannerFont.system(size: 17, weight: .semibold) == BannerFont(families: ["sans-serif"], size: 17, weight: .semibold))
        #expect(BannerFont.system(size: 17).withSize(14).size == 14)
    }
}
