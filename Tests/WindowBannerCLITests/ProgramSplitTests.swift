// The three binaries: `window-banner` runs show/dismiss/status/stats itself without X11 or
// Foundation and hands every other command to `window-banner-full` beside it; that one reads
// config files through `window-banner-config`. What a user sees when one is missing, and that
// the small binary really is small (what its start-up time rests on).

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("The three binaries")
    struct ProgramSplitTests {
        typealias Scratch = IconShapeCLITests.Scratch

        /// The shared libraries `program` asks the dynamic loader for (readelf's DT_NEEDED).
        static func neededLibraries(_ program: String) throws -> [String] {
            let dynamic = try Subprocess.run("/usr/bin/readelf", ["-d", windowBannerExecutable(program)])
            return dynamic.split(separator: "\n").compactMap { line in
                guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }

        static func write(_ path: String, _ text: String) throws {
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw TestFailure("cannot write \(path)") }
        }

        @Test func theClientLoadsNoX11AndNoFoundationAndTheOwnerNoFoundationOrCXX() throws {
            let client = try Self.neededLibraries("window-banner")
            let owner = try Self.neededLibraries("window-banner-full")
            let reader = try Self.neededLibraries("window-banner-config")
            // The check itself sees these libraries where they are linked.
            #expect(owner.contains { $0.hasPrefix("libX11.so") }, "\(owner)")
            #expect(reader.contains { $0.hasPrefix("libstdc++.so") }, "\(reader)")
            let drawing = ["libX11.so", "libXft.so", "libfontconfig.so", "libpng16.so"]
            let heavy = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libstdc++.so"]
            for library in client {
                #expect(!(drawing + heavy).contains { library.hasPrefix($0) }, "window-banner loads \(library)")
            }
            for library in owner {
                #expect(!heavy.contains { library.hasPrefix($0) }, "window-banner-full loads \(library)")
            }
        }

        @Test func otherCommandsAreHandedToTheFullBinary() throws {
            let version = try Subprocess(executable: windowBannerExecutable(), arguments: ["--version"], environment: [:])
            #expect(version.waitForExit() == 0)
            #expect(version.standardOutput == "0.2.0\n")
            let help = try Subprocess(executable: windowBannerExecutable(), arguments: ["--help"], environment: [:])
            #expect(help.waitForExit() == 0)
            for command in ["show", "dismiss", "status", "stats", "action", "run", "monitor", "daemon", "demo"] {
                #expect(help.standardOutput.contains("  \(command) "), "--help lists \(command)")
            }
        }

        @Test func aClientWithoutItsFullBinarySaysWhatIsMissing() throws {
            let scratch = try Scratch()
            let lone = scratch.path + "/window-banner"
            _ = try Subprocess.run("/bin/cp", [windowBannerExecutable(), lone])
            let runtime = scratch.path + "/runtime"
            mkdir(runtime, 0o700)
            let environment = ["XDG_RUNTIME_DIR": runtime, "DISPLAY": ":999", "HOME": scratch.path]

            let run = try Subprocess(executable: lone, arguments: ["run", "--title", "x"], environment: environment)
            #expect(run.waitForExit() == 70)
            #expect(run.standardError == "window-banner: cannot run \(scratch.path)/window-banner-full: No such file or directory (window-banner needs the window-banner-full installed beside it)\n")

            let show = try Subprocess(executable: lone, arguments: ["show", "--title", "x"], environment: environment)
            #expect(show.waitForExit() == 75)
            #expect(show.standardError == "window-banner: cannot start the owner (\(scratch.path)/window-banner-full): No such file or directory\n")
        }

        @Test func theConfigReaderPrintsTheFileAsJSONOrItsErrorAsOneLine() throws {
            let scratch = try Scratch()
            let path = scratch.path + "/config.toml"
            let reader = windowBannerExecutable("window-banner-config")

            try Self.write(path, "[defaults]\nbackground = \"navy\"\n[style.call]\ntitle = \"On air\"\ntimeout = 3\n")
            let good = try Subprocess(executable: reader, arguments: [path], environment: [:])
            #expect(good.waitForExit() == 0)
            #expect(good.standardError == "")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(good.standardOutput.utf8)) as? [String: Any])
            let config = try #require(json["config"] as? [String: Any])
            #expect((config["defaults"] as? [String: Any])?["background"] as? String == "navy")
            let call = (config["styles"] as? [String: Any])?["call"] as? [String: Any]
            #expect((call?["appearance"] as? [String: Any])?["title"] as? String == "On air")
            #expect(call?["timeout"] as? Double == 3)

            try Self.write(path, "[defaults]\nheight = -3\n")
            let bad = try Subprocess(executable: reader, arguments: [path], environment: [:])
            #expect(bad.waitForExit() == 78)
            #expect(bad.standardError.hasPrefix("window-banner-config: \(path):2: defaults.height: "))
            #expect(bad.standardError.filter { $0 == "\n" }.count == 1)
            #expect(bad.standardOutput.contains("\"error\""))

            let usage = try Subprocess(executable: reader, arguments: [], environment: [:])
            #expect(usage.waitForExit() == 64)
            #expect(usage.standardError.hasPrefix("usage: window-banner-config PATH"))
        }

        @Test func anOwnerWithoutTheConfigReaderRefusesTheFileAndKeepsTheBanner() throws {
            let owner = try OwnerFixture()
            let scratch = try Scratch()
            for program in ["window-banner", "window-banner-full"] {
                _ = try Subprocess.run("/bin/cp", [windowBannerExecutable(program), scratch.path + "/" + program])
            }
            let client = scratch.path + "/window-banner"
            // No file, no reader needed.
            let plain = try IconShapeCLITests.run(owner, ["show", "--title", "Kept", "--compact", "never"], executable: client)
            #expect(plain.status == 0)
            #expect(plain.error == "")
            #expect(owner.fixture.waitForBanner(height: 80))

            let path = try owner.writeConfig("[defaults]\nbackground = \"navy\"\n")
            let refused = try IconShapeCLITests.run(owner, ["show", "--title", "New"], executable: client)
            #expect(refused.status == 78)
            #expect(refused.error == "window-banner: \(path): cannot start \(scratch.path)/window-banner-config: No such file or directory\n")
            #expect(try owner.status().title == "Kept")
        }
    }
}
