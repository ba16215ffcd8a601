// docs/config.md is the config file's reference and, through scripts/md2man.py, its manual page
// window-banner.toml(5): it must list exactly the keys the program reads, and the page made from
// it must be one groff reads without a warning.

import BannerConfig
import BannerCore
import Foundation
import ProcessTestSupport
import Testing

@Suite struct ConfigManualTests {
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The keys docs/config.md describes ("- `key` — …"), in order.
    static func documentedKeys() throws -> [String] {
        let page = try String(contentsOfFile: packageRoot + "/docs/config.md", encoding: .utf8)
        return page.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }

    @Test func thePageListsExactlyTheKeysTheProgramReads() throws {
        let documented = try Self.documentedKeys()
        let read = AppearanceSettings.styleFields.map(\.name) + ["timeout", "private", "idle-exit"]
            + ["connectivity", "check-url", "check-expect", "check-interval", "check-timeout", "calls", "calls-ignore", "calls-hide-delay",
               "sharing", "sharing-ignore"]
        #expect(Set(documented) == Set(read), "documented but not read: \(Set(documented).subtracting(read)); read but not documented: \(Set(read).subtracting(documented))")
        #expect(documented.count == Set(documented).count, "a key documented twice: \(documented)")
    }

    @Test func theManualPageIsMadeFromThePageAndGroffReadsIt() throws {
        let page = try Subprocess.run("/usr/bin/env", ["python3", Self.packageRoot + "/scripts/md2man.py", Self.packageRoot + "/docs/config.md", "5"])
        #expect(page.hasPrefix(#".TH "WINDOW-BANNER.TOML" "5""#))
        for key in try Self.documentedKeys() {
            #expect(page.contains(".TP\n\\fB\(key)\\fR\n"), "\(key) is not an entry of the manual page")
        }
        let groff = try Subprocess(executable: "/usr/bin/groff", arguments: ["-man", "-Tutf8", "-ww", "-z"])
        groff.writeToStandardInput(page)
        groff.closeStandardInput()
        #expect(groff.waitForExit() == 0)
        #expect(groff.standardError.isEmpty, "groff: \(groff.standardError)")
    }
}
