// `show --help`, `run --help` and `monitor --help` take every appearance option's name, value,
// help and default from BannerCore's one table of settings (AppearanceField): each option is
// the table's, word for word, and no appearance option is declared beside it.

import BannerCore
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("The table of settings: the commands' help")
    struct SettingsTableCLITests {
        /// `command --help`'s options, flag → its help (wrapped lines joined).
        static func entries(_ arguments: [String]) throws -> [String: String] {
            let help = try Subprocess(executable: windowBannerExecutable(), arguments: arguments + ["--help"], environment: [:])
            #expect(help.waitForExit() == 0)
            return HelpTests.optionEntries(help.standardOutput)
        }

        /// The text `--help` shows for `field`'s option `flag`: its value's name, then its help.
        static func expected(_ flag: String, _ field: AppearanceField, help: String) -> (key: String, text: String) {
            field.value == .boolean
                ? ("\(flag)/--no-\(flag.dropFirst(2))", "\(flag)/--no-\(flag.dropFirst(2)) \(help)")
                : (flag, "\(flag) <\(field.valueName)> \(help)")
        }

        @Test(arguments: [["show"], ["run"]])
        func everyAppearanceOptionIsTheTables(command: [String]) throws {
            let entries = try Self.entries(command)
            for field in AppearanceField.all where field.isFlag {
                let (key, text) = Self.expected("--\(field.name)", field, help: field.help)
                let shown = entries[key]?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(shown == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "\(command) --help: \(key)")
            }
        }

        @Test func everyMonitorBannerOptionIsTheTables() throws {
            let entries = try Self.entries(["monitor"])
            for role in ["offline", "restored", "portal", "call"] {
                let named = AppearanceField.all.filter { $0.monitorNoun != nil }
                for field in named {
                    let (key, text) = Self.expected("--\(role)-\(field.name)", field, help: field.monitorHelp(role: role))
                    let shown = entries[key]?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    #expect(shown == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "monitor --help: \(key)")
                }
                // Nothing else of a banner's look is declared for the role beside the table (its style aside).
                let declared = entries.keys.filter { $0.hasPrefix("--\(role)-") && $0 != "--\(role)-style" }
                let fromTable = Set(named.map { "--\(role)-\($0.name)" })
                #expect(Set(declared).subtracting(fromTable).isEmpty, "--\(role)-… beside the table: \(Set(declared).subtracting(fromTable).sorted())")
            }
        }
    }
}
