// Seeded random input for the value parsers every flag, config key and socket request goes
// through: colours, font patterns, and whole appearance settings. They must never crash, and
// every refusal is one printable line that stays short whatever it quotes.

import BannerCore
import Glibc
import ProcessTestSupport
import Testing

private let iterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? 3000

/// Random text built from pieces the parsers care about, plus random scalars.
private func randomText(_ random: inout SplitMix64) -> String {
    let pieces = ["#", "ff", "0", "a", ":", "size=", "weight=", "bold", "-", "=", "\\", ",", "nan", "inf", "1e309", " ",
                  "system", "Red", "Sans", "\u{0}", "\u{7}", "\u{1B}[", "é", "漢", "🇯🇵", "\u{200D}", ".", "+", "e"]
    var text = ""
    for _ in 0..<Int.random(in: 0...12, using: &random) {
        if Bool.random(using: &random), let piece = pieces.randomElement(using: &random) {
            text += piece
        } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &random)) {
            text.unicodeScalars.append(scalar)
        }
    }
    return text
}

private func expectOneShortLine(_ error: BannerValueError) {
    let message = error.description
    #expect(!message.contains("\n"))
    #expect(message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
    #expect(message.count < 300)
}

@Suite("Fuzz: value parsers")
struct ValueFuzzTests {
    @Test func coloursParseOrRefuseInOneLine() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<iterations {
            do {
                _ = try BannerColor(parsing: randomText(&random))
            } catch {
                expectOneShortLine(error)
            }
        }
    }

    @Test func fontPatternsParseOrRefuseInOneLine() {
        var random = SplitMix64(seed: 4)
        for _ in 0..<iterations {
            do {
                let font = try BannerFont(pattern: randomText(&random), defaultSize: 17)
                #expect(font.size.isFinite && font.size > 0)
                // What parses prints back as a pattern that parses to the same font.
                #expect(try BannerFont(pattern: font.description, defaultSize: 17) == font)
            } catch {
                expectOneShortLine(error)
            }
        }
    }

    @Test func appearanceSettingsBuildOrRefuseInOneLine() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<iterations {
            var settings = AppearanceSettings()
            for field in AppearanceSettings.fields where Bool.random(using: &random) {
                settings[keyPath: field.keyPath] = randomText(&random)
            }
            do {
                let appearance = try settings.appearance()
                #expect(appearance.height > 0 && appearance.height <= TopBannerAppearance.maximumHeight)
                #expect(appearance.titleTopInset >= 0)
            } catch {
                expectOneShortLine(error)
            }
        }
    }
}
