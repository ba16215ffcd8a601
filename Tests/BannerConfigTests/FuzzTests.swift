// Seeded random config files: real TOML with random keys, values and damage. Loading never
// crashes, and every refusal is one line naming the file.

import BannerConfig
import ConfigTOML
import BannerCore
import Glibc
import ProcessTestSupport
import Testing

private let iterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) }.map { $0 / 5 } ?? 600

@Suite("Fuzz: config files")
struct ConfigFuzzTests {
    @Test func randomConfigsLoadOrFailWithOneLineNamingTheFile() {
        var random = SplitMix64(seed: 6)
        let tables = ["[defaults]", "[daemon]", "[style.offline]", "[style.x]", "[style]", "[[style.y]]", "[unknown]", ""]
        let keys = AppearanceSettings.fields.map(\.name) + ["timeout", "idle-exit", "bogus", "\"quoted key\"", "a.b"]
        let values = ["\"systemRed\"", "80", "-3", "nan", "inf", "1e400", "\"#zz\"", "true", "[1, 2]", "{ a = 1 }", "\"\"\"x\"\"\"",
                      "'lit'", "\"Sans:size=13\"", "\"never\"", "0", "2.5", "\"\\u0000\"", "", "\"unterminated"]
        for _ in 0..<iterations {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                if Int.random(in: 0...3, using: &random) == 0 {
                    lines.append(tables.randomElement(using: &random) ?? "")
                } else {
                    lines.append("\(keys.randomElement(using: &random) ?? "") = \(values.randomElement(using: &random) ?? "")")
                }
            }
            var text = lines.joined(separator: "\n")
            if Int.random(in: 0...4, using: &random) == 0, !text.isEmpty {
                var scalars = Array(text.unicodeScalars)
                scalars[Int.random(in: 0..<scalars.count, using: &random)] = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random))
                text = String(String.UnicodeScalarView(scalars))
            }
            do {
                let config = try BannerConfig.parse(text, file: "fuzz.toml")
                for name in config.styles.keys { _ = try? config.resolve(style: name) }
            } catch {
                #expect(!error.description.contains("\n"), "\(error)")
                #expect(error.description.hasPrefix("fuzz.toml"), "\(error)")
            }
        }
    }
}
