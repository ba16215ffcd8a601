import BannerConfig
import ConfigTOML
import Glibc
import Testing

@Suite("Desktop settings: GTK's animations switch")
struct DesktopSettingsTests {
    private func home(with files: [String: String]) throws -> String {
        var template = Array("/tmp/wb-desktop-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DesktopTestError() }
        let root = String(cString: made)
        for (path, text) in files {
            var directory = ""
            for part in ("config/" + path).split(separator: "/").dropLast() {
                directory += "/" + part
                mkdir(root + directory, 0o700)
            }
            let file = fopen(root + "/config/" + path, "w")
            fputs(text, file)
            fclose(file)
        }
        return root
    }

    private struct DesktopTestError: Error {}

    @Test(arguments: ["false", "0", " false ", "FALSE"])
    func animationsOffMeansReducedMotion(value: String) throws {
        let root = try home(with: ["gtk-3.0/settings.ini": "[Settings]\ngtk-theme-name=Adwaita\ngtk-enable-animations=\(value)\n"])
        #expect(DesktopSettings.prefersReducedMotion(environment: ["XDG_CONFIG_HOME": root + "/config", "XDG_CONFIG_DIRS": root + "/none"]))
    }

    @Test func animationsOnOrUnsetMeansMotion() throws {
        let on = try home(with: ["gtk-3.0/settings.ini": "[Settings]\ngtk-enable-animations=true\n"])
        #expect(!DesktopSettings.prefersReducedMotion(environment: ["XDG_CONFIG_HOME": on + "/config", "XDG_CONFIG_DIRS": on + "/none"]))
        let other = try home(with: ["gtk-3.0/settings.ini": "[Other]\ngtk-enable-animations=false\n"])
        #expect(!DesktopSettings.prefersReducedMotion(environment: ["XDG_CONFIG_HOME": other + "/config", "XDG_CONFIG_DIRS": other + "/none"]))
    }

    @Test func gtk4SettingsComeBeforeGtk3() throws {
        let root = try home(with: [
            "gtk-4.0/settings.ini": "[Settings]\ngtk-enable-animations=false\n",
            "gtk-3.0/settings.ini": "[Settings]\ngtk-enable-animations=true\n",
        ])
        #expect(DesktopSettings.prefersReducedMotion(environment: ["XDG_CONFIG_HOME": root + "/config", "XDG_CONFIG_DIRS": root + "/none"]))
    }

    @Test func homeConfigIsUsedWithoutXDGConfigHome() throws {
        let root = try home(with: [".config/gtk-3.0/settings.ini": "[Settings]\ngtk-enable-animations=0\n"])
        #expect(DesktopSettings.prefersReducedMotion(environment: ["HOME": root + "/config", "XDG_CONFIG_DIRS": root + "/none"]))
    }
}
