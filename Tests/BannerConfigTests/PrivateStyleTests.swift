// A style's `private = true` (issue 55, part 3): its banners are held back while the screen is
// shared, as with `show --private`. A boolean like the other on/off keys, only in a style, and
// never in a built-in style's table: those are the monitor's banners, which must show then.

import BannerConfig
import BannerCore
import ConfigTOML
import Testing

@Suite("A style's private key")
struct PrivateStyleTests {
    func parseError(_ text: String) -> ConfigError? {
        do {
            _ = try BannerConfig.parse(text, file: "config.toml")
            return nil
        } catch {
            return error
        }
    }

    @Test func aStyleMarkedPrivateResolvesPrivateAndOthersDoNot() throws {
        let config = try BannerConfig.parse("[style.payroll]\ntitle = \"Payroll\"\nprivate = true\n\n[style.news]\nprivate = false\n", file: "config.toml")
        #expect(try config.resolve(style: "payroll").private == true)
        #expect(try config.resolve(style: "news").private == false)
        #expect(try config.resolve(style: "offline").private == nil)
        #expect(try config.resolve(style: nil).private == nil)
        for name in BannerConfig.builtIn.styles.keys { #expect(BannerConfig.builtIn.styles[name]?.private == nil, "\(name)") }
    }

    @Test func privateIsATrueOrFalseInAStyleOnly() {
        let wrong = parseError("[style.payroll]\nprivate = \"yes\"\n")
        #expect(wrong?.kind == .wrongType)
        #expect(wrong?.description == "config.toml:2: style.payroll.private: expected true or false, found a string")
        #expect(parseError("[defaults]\nprivate = true\n")?.kind == .unknownKey)
    }

    @Test func aBuiltInStyleIsNeverPrivate() {
        for name in ["offline", "online", "call", "portal", "sharing"] {
            let error = parseError("[style.\(name)]\nprivate = true\n")
            #expect(error?.kind == .badValue, "\(name)")
            #expect(error?.description == "config.toml:2: style.\(name).private: the built-in style '\(name)' is never private (the monitor's banners show while the screen is shared)")
        }
        #expect(parseError("[style.call]\nprivate = false\n") == nil)
    }
}
