// `run --help` is where a user learns the flags: every one is there, with its default.

import Testing
import ProcessTestSupport
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("--help and completions")
    struct HelpTests {
        @Test func helpNamesEveryFlagWithItsDefault() throws {
            let help = try Subprocess(executable: windowBannerExecutable(), arguments: ["run", "--help"], environment: [:])
            #expect(help.waitForExit() == 0)
            #expect(help.standardError == "")
            let entries = Self.optionEntries(help.standardOutput)
            let flags = ["--title", "--background", "--text-color", "--height", "--title-top-inset",
                         "--font", "--compact", "--timeout", "--monitor", "--display"]
            for flag in flags { #expect(entries[flag] != nil, "\(flag) missing from help") }
            let defaults = [
                ("--height", "Default: 80"), ("--title-top-inset", "Default: 20"),
                ("--background", "Default: systemGreen"), ("--font", "size=17"), ("--compact", "Default: auto"),
            ]
            for (flag, text) in defaults {
                #expect(entries[flag]?.contains(text) == true, "\(flag) should say \(text): \(entries[flag] ?? "")")
            }
        }

        @Test func showHelpNamesEveryFlagAndTheExitCodes() throws {
            let help = try Subprocess(executable: windowBannerExecutable(), arguments: ["show", "--help"], environment: [:])
            #expect(help.waitForExit() == 0)
            let entries = Self.optionEntries(help.standardOutput)
            let flags = ["--title", "--background", "--text-color", "--height", "--title-top-inset", "--font", "--compact",
                         "--style", "--timeout", "--transient", "--sticky", "--monitor", "--id", "--enqueue", "--wait", "--private",
                         "--display", "--no-config", "--close-button/--no-close-button", "--action", "--progress", "--on-click"]
            for flag in flags { #expect(entries[flag] != nil, "\(flag) missing from show --help") }
            let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for code in ["0 (timeout)", "10 (dismissed)", "11 (replaced)", "12 (clicked)", "13 (closed)", "14 (swiped)",
                         "15 (action)", "16 (secondary-action)", "64 bad value", "69 no display",
                         "75 owner not reachable", "76 protocol version mismatch", "78 broken config file"] {
                #expect(text.contains(code), "show --help should document \(code)")
            }
        }

        @Test func completionScriptsCoverTheSubcommands() throws {
            for shell in ["bash", "zsh", "fish"] {
                let script = try Subprocess(executable: windowBannerExecutable(), arguments: ["--generate-completion-script", shell], environment: [:])
                #expect(script.waitForExit() == 0)
                for command in ["show", "dismiss", "status", "daemon", "run"] {
                    #expect(script.standardOutput.contains(command), "\(shell) completion lacks \(command)")
                }
            }
        }

        /// The OPTIONS section as flag → its help, wrapped lines joined with single spaces.
        static func optionEntries(_ help: String) -> [String: String] {
            var entries: [String: String] = [:]
            var current: String?
            for line in help.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                if line.hasPrefix("  -"), let flag = words.first {
                    current = flag.hasSuffix(",") ? words.dropFirst().first : flag
                    if let current { entries[current] = words.joined(separator: " ") }
                } else if line.hasPrefix("   "), let flag = current {
                    entries[flag, default: ""] += " " + words.joined(separator: " ")
                } else {
                    current = nil
                }
            }
            return entries
        }
    }
}
