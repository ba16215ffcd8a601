// Colours as users write them: hex, iOS system names, X11 names, and the errors for anything else.

import BannerCore
import Testing

@Suite("Colours")
struct ColourTests {
    @Test func sixDigitHexIsOpaque() throws {
        let colour = try BannerColor(parsing: "#FF8000")
        #expect(colour.rgba == RGBA(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
    }

    @Test func eightDigitHexCarriesAlpha() throws {
        let colour = try BannerColor(parsing: "#11223380")
        #expect(colour.rgba == RGBA(red: 0x11 / 255.0, green: 0x22 / 255.0, blue: 0x33 / 255.0, alpha: 0x80 / 255.0))
    }

    @Test func hexIgnoresCaseAndSurroundingSpaces() throws {
        #expect(try BannerColor(parsing: "#ff3b30") == .systemRed)
        #expect(try BannerColor(parsing: " \t#FF3B30 ") == .systemRed)
    }

    @Test(arguments: [
        ("systemRed", "#ff3b30"), ("SYSTEMRED", "#ff3b30"), ("systemred", "#ff3b30"),
        ("systemGreen", "#34c759"), ("SystemGreen", "#34c759"),
        ("systemTeal", "#30b0c7"), ("systemteal", "#30b0c7"),
    ])
    func systemNamesAreCaseInsensitiveWithLightModeValues(name: String, hex: String) throws {
        let colour = try BannerColor(parsing: name)
        #expect(colour.description == hex)
        #expect(colour.rgba != nil)
    }

    @Test func systemConstantsHaveExactLightModeComponents() {
        #expect(BannerColor.systemRed.rgba == RGBA(red: 1, green: 0x3B / 255.0, blue: 0x30 / 255.0))
        #expect(BannerColor.systemGreen.rgba == RGBA(red: 0x34 / 255.0, green: 0xC7 / 255.0, blue: 0x59 / 255.0))
        #expect(BannerColor.systemTeal.rgba == RGBA(red: 0x30 / 255.0, green: 0xB0 / 255.0, blue: 0xC7 / 255.0))
    }

    @Test(arguments: ["SteelBlue", "navy blue", "gray50", "red"])
    func otherNamesAreLeftToTheXServer(name: String) throws {
        let colour = try BannerColor(parsing: name)
        #expect(colour.value == .x11Name(name))
        #expect(colour.rgba == nil)
    }

    @Test func x11NameIsTrimmed() throws {
        #expect(try BannerColor(parsing: "  SteelBlue ").value == .x11Name("SteelBlue"))
    }

    @Test(arguments: ["#12345", "#1234567", "#GGGGGG", "#", "", "   ", "red!", "rött", "#12 345", "1abc",
                      String(repeating: "a", count: 65)])
    func badValueThrowsNamingIt(text: String) {
        #expect(throws: BannerValueError.colour(text)) { try BannerColor(parsing: text) }
    }

    @Test func megabyteValueThrowsWithShortMessage() {
        let huge = String(repeating: "a", count: 1_000_000)
        #expect(throws: BannerValueError.colour(huge)) { try BannerColor(parsing: huge) }
        let hugeHex = "#" + String(repeating: "f", count: 1_000_000)
        #expect(throws: BannerValueError.colour(hugeHex)) { try BannerColor(parsing: hugeHex) }
        #expect(BannerValueError.colour(huge).description.count < 300)
    }

    @Test func errorMessageQuotesTheValueOnOneLine() {
        #expect(BannerValueError.colour("red!").description.contains("'red!'"))
        #expect(BannerValueError.colour("a\nb").description.contains(#"'a\u{a}b'"#))
    }

    @Test(arguments: ["#ff3b30", "#11223380", "#000000", "#ffffff", "SteelBlue", "navy blue"])
    func descriptionRoundTrips(text: String) throws {
        let colour = try BannerColor(parsing: text)
        #expect(colour.description == text)
        #expect(try BannerColor(parsing: colour.description) == colour)
    }

    @Test func descriptionIsLowercaseAndDropsOpaqueAlpha() throws {
        #expect(try BannerColor(parsing: "#AABBCC").description == "#aabbcc")
        #expect(try BannerColor(parsing: "#112233FF").description == "#112233")
        #expect(try BannerColor(parsing: "#11223300").description == "#11223300")
    }

    @Test func blendingMixesEveryComponentStraight() {
        let black = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
        let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
        #expect(black.blended(with: white, fraction: 0) == black)
        #expect(black.blended(with: white, fraction: 1) == white)
        #expect(black.blended(with: white, fraction: 0.5) == RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5))
        #expect(black.blended(with: white, fraction: 0.25).alpha == 0.25)
    }

    @Test func blendingBetweenSystemColours() throws {
        let red = try #require(BannerColor.systemRed.rgba)
        let green = try #require(BannerColor.systemGreen.rgba)
        let mid = red.blended(with: green, fraction: 0.5)
        #expect(isClose(mid.red, (1 + 0x34 / 255.0) / 2))
        #expect(isClose(mid.green, (0x3B + 0xC7) / 2 / 255.0))
        #expect(isClose(mid.blue, (0x30 + 0x59) / 2 / 255.0))
        #expect(mid.alpha == 1)
    }
}
