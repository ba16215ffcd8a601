// The GNOME extension's own state, in the same suite as GnomeShellExtensionTests.swift: installed
// but not enabled (the banner comes through Xwayland and says how to enable it), each way the
// newest shell refuses it (named with its fix), and the rules extensions.gnome.org's review
// applies, checked by reading the code and by loading the 45+ variant with gjs.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

extension GnomeShellExtensionTests {
    @Test func withTheExtensionInstalledButNotEnabledTheBannerComesThroughXwaylandAndSaysHowToEnableIt() throws {
        let shell = try TestGnomeShell(withExtension: .installed)
        let program = windowBannerExecutable()
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let shown = try shell.run([program] + Self.show)
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.error == "window-banner: warning: the Wayland compositor wb-gnome has no layer-shell (GNOME's Mutter has none) and the GNOME Shell "
            + "extension \(Self.uuid) is not enabled: the banner is shown through Xwayland (\(shell.xDisplay)); for the native banner: "
            + "gnome-extensions enable \(Self.uuid) (docs/gnome.md)\n")
        let reserved = before.map { SwayRect(x: $0.x, y: $0.y + 80, width: $0.width, height: $0.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == reserved } == reserved)
        #expect(try shell.run([program, "dismiss", "--all", "--quit"]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == before } == before)
    }

    /// Where the newest shell refuses the extension, `show` says so in one line with the fix for
    /// that state (never "not enabled" of an enabled extension), and falls back to Xwayland.
    @Test(arguments: Refusal.allCases)
    func theShellsRefusalIsNamedWithItsFix(refusal: Refusal) throws {
        let shell = try TestGnomeShell(
            release: .newest, withExtension: refusal == .disabled ? .installed : .enabled,
            settings: refusal == .extensionsOff ? [["set", "org.gnome.shell", "disable-user-extensions", "true"]] : [],
            changingTheExtension: { directory in
                switch refusal {
                case .outOfDate:
                    let metadata = directory + "/metadata.json"
                    let text = try String(contentsOfFile: metadata, encoding: .utf8)
                    let older = try #require(text.range(of: #""shell-version": \[[^]]*\]"#, options: .regularExpression))
                    try text.replacingCharacters(in: older, with: #""shell-version": ["45", "46", "47", "48", "49"]"#)
                        .write(toFile: metadata, atomically: true, encoding: .utf8)
                case .failing:
                    let module = directory + "/extension.js"
                    try (String(contentsOfFile: module, encoding: .utf8) + "\nthis is not JavaScript\n").write(toFile: module, atomically: true, encoding: .utf8)
                case .disabled, .extensionsOff: break
                }
            })
        let state = try shell.extensionState()
        let shown = try shell.run([windowBannerExecutable()] + Self.show)
        #expect(shown.status == 0, "\(shown.error)")
        let lines = shown.error.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(shown.error)")
        #expect(!shown.error.contains("not enabled") || refusal == .disabled, "\(shown.error)")
        switch refusal {
        case .outOfDate:
            #expect(state == "OUT OF DATE")
            #expect(shown.error.contains("extension \(Self.uuid) is out of date for GNOME Shell \(shell.major)."), "\(shown.error)")
            #expect(shown.error.contains("install the extension built for GNOME Shell \(shell.major) (make install"), "\(shown.error)")
        case .failing:
            #expect(state == "ERROR")
            #expect(shown.error.contains("extension \(Self.uuid) failed to load ("), "\(shown.error)")
            #expect(shown.error.contains("reinstall it"), "\(shown.error)")
        case .extensionsOff:
            #expect(shown.error.contains("is enabled, but GNOME Shell has its extensions turned off"), "\(shown.error)")
            #expect(shown.error.contains("gsettings set org.gnome.shell disable-user-extensions false"), "\(shown.error)")
        case .disabled:
            #expect(shown.error.contains("is not enabled: the banner is shown through Xwayland"), "\(shown.error)")
            #expect(shown.error.contains("for the native banner: gnome-extensions enable \(Self.uuid)"), "\(shown.error)")
        }
        #expect(shown.error.contains("the banner is shown through Xwayland"), "\(shown.error)")
        #expect(try shell.run([windowBannerExecutable(), "dismiss", "--all", "--quit"]).status == 0)
    }

    /// `make extension-zip`'s zip for this shell, installed by the shell's own `gnome-extensions
    /// install` as a user installs a download from extensions.gnome.org: the shell runs it.
    @Test(arguments: Self.releases)
    func theZipInstallsWithGnomeExtensionsAndRuns(release: TestGnomeShell.Release) throws {
        var template = Array("/tmp/window-banner-zip-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
        chmod(directory, 0o755)
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        try Subprocess.run("/usr/bin/make", ["-s", "-C", checkout, "extension-zip", "SCRATCH=\(directory)/build", "DIST=\(directory)"])
        let zips = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".zip") }.sorted()
        #expect(zips == ["\(Self.uuid).shell-42-44.zip", "\(Self.uuid).shell-45.zip"])
        let zip = directory + "/" + (release == .installed ? "\(Self.uuid).shell-42-44.zip" : "\(Self.uuid).shell-45.zip")

        let shell = try TestGnomeShell(release: release, withExtension: .enabledFromZip(zip))
        #expect(try shell.extensionState() == "ACTIVE")
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let shown = try shell.run([windowBannerExecutable()] + Self.show)
        #expect(shown.status == 0 && shown.error.isEmpty, "the native banner: \(shown.error)")
        let reserved = before.map { SwayRect(x: $0.x, y: $0.y + 80, width: $0.width, height: $0.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == reserved } == reserved)
        #expect(try shell.run([windowBannerExecutable(), "dismiss", "--all", "--quit"]).status == 0)
    }

    /// extensions.gnome.org's review rules that a reading of the code can check, on both built
    /// variants: nothing synchronous on the shell's main loop (no `*_sync` call, no blocking
    /// file read), no subprocess; no objects made before `enable()` (the 45+ class's constructor
    /// and 42–44's `init()` only return).
    @Test func theExtensionKeepsTheReviewRulesACodeReadingCanCheck() throws {
        var template = Array("/tmp/window-banner-review-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        try Subprocess.run("/bin/sh", [checkout + "/scripts/build-extension.sh", directory])
        for variant in ["42", "45"] {
            let code = try String(contentsOfFile: "\(directory)/\(variant)/\(Self.uuid)/extension.js", encoding: .utf8)
            for forbidden in ["_sync(", "Subprocess", "spawn", "load_contents(", "Util.", "Mainloop", "setTimeout", "setInterval"] {
                #expect(!code.contains(forbidden), "the \(variant) variant calls \(forbidden)")
            }
            #expect(code.contains("disable() {\n        this._service.destroy();\n        this._service = null;\n    }"))
        }
        let legacy = try String(contentsOfFile: "\(directory)/42/\(Self.uuid)/extension.js", encoding: .utf8)
        #expect(legacy.contains("function init() {\n    return new WindowBannerExtension();\n}"))
    }

    /// How the shell can refuse the extension.
    enum Refusal: CaseIterable, Sendable {
        case outOfDate, failing, extensionsOff, disabled
    }

    @Test(.needsProgram("/usr/bin/gjs", package: "gjs"))
    func theVariantForShell45AndLaterLoadsInGjs() throws {
        var template = Array("/tmp/window-banner-gjs-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        try Subprocess.run("/bin/sh", [source + "/scripts/build-extension.sh", directory + "/built"])
        let built = directory + "/built/45/" + Self.uuid
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: built + "/metadata.json"))) as? [String: Any]
        #expect(metadata?["uuid"] as? String == Self.uuid)
        #expect((metadata?["shell-version"] as? [String])?.first == "45")
        // The shell's own modules (resource:///org/gnome/shell/…) exist only inside the shell:
        // stand-ins for the three it imports; every gi:// module is the real typelib.
        let module = try String(contentsOfFile: built + "/extension.js", encoding: .utf8)
            .replacingOccurrences(of: "resource:///org/gnome/shell/", with: "./shell/")
        for (path, text) in [
            "extension.js": module,
            "shell/ui/main.js": "export const overview = {}; export const sessionMode = {}; export const layoutManager = {};",
            "shell/misc/config.js": "export const PACKAGE_VERSION = '45.0';",
            "shell/extensions/extension.js": "export class Extension { constructor(metadata) { this.metadata = metadata; } }",
            "load.js": """
                import WindowBannerExtension from './extension.js';
                const extension = new WindowBannerExtension({uuid: '\(Self.uuid)'});
                print(typeof extension.enable, typeof extension.disable);
                """,
        ] {
            let url = URL(fileURLWithPath: directory + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let loaded = try Subprocess.run("/bin/sh", ["-c", """
            cd "$1" && GI_TYPELIB_PATH=$(ls -d /usr/lib/*/mutter-* | head -n 1):/usr/lib/gnome-shell \
            LD_LIBRARY_PATH=$(ls -d /usr/lib/*/mutter-* | head -n 1):/usr/lib/gnome-shell gjs -m load.js
            """, "sh", directory])
        #expect(loaded == "function function\n")
    }
}
