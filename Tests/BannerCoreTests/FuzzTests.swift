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

@Suite("Fuzz: other clients' struts")
struct StrutFuzzTests {
    /// Any client may set any strut: whatever it says, the banner keeps at least half its
    /// monitor's width and stays on it, and its own reservation keeps to its columns.
    @Test func anyStrutLeavesTheBannerOnItsMonitor() {
        var random = SplitMix64(seed: 22)
        let values = [0, 1, 24, 47, 48, 639, 640, 799, 800, 1279, 1280, 1281, 2560, 65535, 0xFFFF_FFFF]
        let monitors = [
            MonitorGeometry(x: 0, y: 0, width: 1280, height: 800), MonitorGeometry(x: 640, y: 0, width: 640, height: 800),
            MonitorGeometry(x: 128, y: 800, width: 1024, height: 600),
        ]
        for _ in 0..<iterations {
            func strut() -> [Int] {
                (0..<Int.random(in: 0...13, using: &random)).map { _ in
                    Bool.random(using: &random) ? values.randomElement(using: &random) ?? 0 : Int.random(in: 0...0xFFFF_FFFF, using: &random)
                }
            }
            let partial = Bool.random(using: &random) ? strut() : nil
            let legacy = Bool.random(using: &random) ? strut() : nil
            let sides = SideStrut.struts(partial: partial, legacy: legacy, screenWidth: 1280, screenHeight: 1400)
            let top = TopStrut(partial: partial, legacy: legacy, screenWidth: 1280)
            for monitor in monitors {
                let inset = BannerLayout.panelInset(of: monitor, panels: top.map { [$0] } ?? [], placement: .belowPanels, bannerHeight: 80)
                let insets = BannerLayout.sideInsets(of: monitor, panels: sides, placement: .belowPanels, panelInset: inset, bannerHeight: 80)
                let area = BannerLayout.bannerArea(on: monitor, panelInset: inset, sides: insets)
                #expect(insets.left >= 0 && insets.right >= 0, "\(String(describing: partial)) \(String(describing: legacy))")
                #expect(area.x >= monitor.x && area.x + area.width <= monitor.x + monitor.width && area.width >= monitor.width / 2)
                let reserved = BannerLayout.topStrut(monitor: monitor, reservedHeight: inset + 80, sides: insets)
                #expect(reserved.startX == area.x && reserved.endX == area.x + area.width - 1)
            }
        }
    }
}
