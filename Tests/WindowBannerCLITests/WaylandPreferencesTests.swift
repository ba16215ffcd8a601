// The desktop's preferences on Wayland, as a sway user with GNOME's settings has them: Debian's
// sway, xdg-desktop-portal with its GTK backend on the session bus (both started by the bus on
// demand, as in a desktop session), relaying GSettings (dconf). Each test changes a setting the
// way GNOME's control panel and every GTK desktop's settings do, with `gsettings`, as the
// session's user, and the banner — its owner run as that user too — follows:
// - "Large Text" (`text-scaling-factor` 1.5) while a banner shows: it and its reserved space
//   grow together, foot moved down once, straight to the new height; back at 1, back again.
// - animations off (`enable-animations false`): the next banner appears without a slide — the
//   owner's own Wayland traffic (libwayland's WAYLAND_DEBUG log) holds one buffer for it where
//   the slide took many.
// - high contrast (`org.gnome.desktop.a11y.interface high-contrast`): the built-in styles'
//   high-contrast colours.
// - the interface font (`font-name`) while a banner shows: drawn again in its family, pixel for
//   pixel as with that family written out; the icon theme (`icon-theme`): `--icon NAME` found
//   there before hicolor.
// Oracles: foot's configures, `status --json`, grim's screenshots, libwayland's protocol log.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Wayland: the desktop's preferences from xdg-desktop-portal", .serialized,
       .needsRoot("running the portal and the banner as the session's user"),
       .needsProgram("/usr/libexec/xdg-desktop-portal", package: "xdg-desktop-portal"),
       .needsProgram("/usr/libexec/xdg-desktop-portal-gtk", package: "xdg-desktop-portal-gtk"),
       .needsProgram("/usr/bin/gsettings", package: "libglib2.0-bin"))
struct WaylandPreferencesTests {
    static let show = ["show", "--title", "Call in progress", "--background", "#cc3311", "--height", "40", "--compact", "never"]

    /// sway with a maximized foot and the portal on its session bus, and a script of the
    /// session's user there whose owner logs its Wayland traffic.
    final class Session {
        let sway: TestSway
        let foot: ResizeCountingTerminal
        let bus: String
        let script: WaylandScript
        /// foot's size before any banner.
        let full: SwayRect

        /// Without `portal`, the session bus can start dconf's writer and nothing else (no
        /// portal), and the script shares the session's HOME and runtime directory, where dconf
        /// keeps the user's settings.
        init(extra: [String: String] = [:], portal: Bool = true) throws {
            sway = try TestSway()
            bus = try sway.startSessionBus(["XDG_CURRENT_DESKTOP": "sway"], onlyServices: portal ? nil : [Self.dconfService])
            foot = try sway.startFoot()
            full = try foot.awaitConfiguredSize { $0.height == 720 }
            var environment = extra.merging(["DBUS_SESSION_BUS_ADDRESS": bus, "WAYLAND_DEBUG": "client"]) { $1 }
            if !portal {
                environment["HOME"] = sway.directory + "/home"
                environment["XDG_CONFIG_HOME"] = sway.directory + "/home/.config"
                environment["XDG_RUNTIME_DIR"] = sway.runtimeDirectory
            }
            script = try WaylandScript(socketPath: sway.socketPath, extra: environment, user: TestSway.unprivilegedUser)
        }

        /// dconf's writer, which `gsettings set` asks over the session bus.
        static let dconfService = "/usr/share/dbus-1/services/ca.desrt.dconf.service"

        /// The names the session bus can start (`ListActivatableNames`).
        func activatableNames() throws -> String {
            try Subprocess.run("/usr/bin/dbus-send", ["--bus=" + bus, "--print-reply", "--dest=org.freedesktop.DBus",
                                                     "/org/freedesktop/DBus", "org.freedesktop.DBus.ListActivatableNames"])
        }

        deinit {
            _ = try? script.run(["dismiss", "--all", "--quit"])
        }

        /// `gsettings ARGUMENTS` as the session's user on its bus (dconf writes, the portal relays).
        func gsettings(_ arguments: [String]) throws {
            let command = TestSway.running(as: TestSway.unprivilegedUser) + ["/usr/bin/gsettings"] + arguments
            let process = try Subprocess(
                executable: command[0], arguments: Array(command.dropFirst()),
                environment: ["PATH": "/usr/bin:/bin", "HOME": sway.directory + "/home", "XDG_RUNTIME_DIR": sway.runtimeDirectory,
                              "DBUS_SESSION_BUS_ADDRESS": bus])
            process.closeStandardInput()
            guard process.waitForExit(timeout: 20) == 0 else { throw TestFailure("gsettings \(arguments) failed: \(process.standardError)") }
        }

        /// Shows the suite's 40-point banner, awaits foot under its `height` pixels, then sets
        /// the text scale to `scale` and awaits foot moved straight (in one configure) to the
        /// new height, 40 × `scale`; foot's configures before the change.
        @discardableResult
        func showThenScale(from height: Int, to scale: Double) throws -> Int {
            let shown = try script.run(WaylandPreferencesTests.show)
            #expect(shown.status == 0, "show: \(shown.error)")
            try foot.awaitConfiguredSize { $0.height == full.height - height }
            #expect(try reserved() == height)
            let before = foot.configures()
            try gsettings(["set", "org.gnome.desktop.interface", "text-scaling-factor", String(scale)])
            let scaled = Int((40 * scale).rounded())
            try foot.awaitConfiguredSize { $0.height == full.height - scaled }
            #expect(try reserved() == scaled)
            #expect(foot.configures() - before == 1, "foot was configured \(foot.configures() - before) times for one change")
            return before
        }

        /// The space the owner reports for its banner (`status --json`).
        func reserved() throws -> Int? {
            let status = try script.run(["status", "--json"])
            let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
            return (report?["monitors"] as? [[String: Any]])?.first?["reserved"] as? Int
        }

        /// Shows the suite's banner, waits until it is all in (its bottom row coloured, and its
        /// space reserved), and returns how many buffers the owner attached meanwhile.
        func showCountingBuffers() throws -> Int {
            try script.attaches {
                let shown = try script.run(WaylandPreferencesTests.show)
                #expect(shown.status == 0, "show: \(shown.error)")
                let shot = try sway.awaitScreenshot { $0.pixel(640, 39) == 0xCC3311 }
                #expect(shot.pixel(640, 39) == 0xCC3311, "the banner never showed")
                try foot.awaitConfiguredSize { $0.height == full.height - 40 }
            }
        }
    }

    @Test func largeTextGrowsTheBannerAndItsSpaceTogetherInOneStep() throws {
        let session = try Session()
        let before = try session.showThenScale(from: 40, to: 1.5)

        try session.gsettings(["set", "org.gnome.desktop.interface", "text-scaling-factor", "1.0"])
        try session.foot.awaitConfiguredSize { $0.height == session.full.height - 40 }
        #expect(try session.reserved() == 40)
        #expect(session.foot.configures() - before == 2)
    }

    @Test func animationsOffMakeTheNextBannerAppearWithoutASlide() throws {
        let session = try Session()
        let sliding = try session.showCountingBuffers()
        #expect(sliding >= 3, "the slide attached \(sliding) buffers to the banner")
        #expect(try session.script.run(["dismiss"]).status == 0)
        try session.foot.awaitConfiguredSize { $0.height == session.full.height }

        try session.gsettings(["set", "org.gnome.desktop.interface", "enable-animations", "false"])
        // The owner has the change once the portal relayed it; until then a banner would still
        // slide, so the setting is awaited through a banner that shows without one.
        let deadline = monotonicSeconds() + 20
        var still = try session.showCountingBuffers()
        while still > 1, monotonicSeconds() < deadline {
            #expect(try session.script.run(["dismiss"]).status == 0)
            try session.foot.awaitConfiguredSize { $0.height == session.full.height }
            still = try session.showCountingBuffers()
        }
        #expect(still == 1, "with animations off the banner attached \(still) buffers on its way in")
    }

    @Test func highContrastGivesTheBuiltInStylesTheirHighContrastColours() throws {
        let session = try Session()
        try session.gsettings(["set", "org.gnome.desktop.a11y.interface", "high-contrast", "true"])
        let shown = try session.script.run(["show", "--style", "offline", "--compact", "never"])
        #expect(shown.status == 0, "show: \(shown.error)")
        let shot = try session.sway.awaitScreenshot { $0.pixel(5, 40) == 0x9B0000 }
        #expect(shot.pixel(5, 40) == 0x9B0000, "offline's colour is \(String(shot.pixel(5, 40), radix: 16))")
    }

    /// The banner's 40 rows as grim shows them once they hold still (two shots alike).
    static func settledBanner(_ session: Session, unlike other: [UInt32]? = nil) throws -> [UInt32] {
        try settledRows(containing: 0xCC3311, unlike: other) {
            let shot = try session.sway.screenshot()
            return (0..<40).flatMap { y in (0..<1280).map { shot.pixel($0, y) } }
        }
    }

    @Test func theDesktopsFontIsTheSystemFontLive() throws {
        let session = try Session()
        let title = ["show", "--title", "Desktop font", "--background", "#cc3311", "--height", "40", "--compact", "never"]
        #expect(try session.script.run(title).status == 0)
        let standard = try Self.settledBanner(session)
        // The banner on screen is drawn again in the desktop's family, at its own size and weight.
        try session.gsettings(["set", "org.gnome.desktop.interface", "font-name", "DejaVu Serif Bold 13"])
        let live = try Self.settledBanner(session, unlike: standard)
        // Exactly as with the family written out.
        #expect(try session.script.run(title + ["--font", "DejaVu Serif:semibold:size=17"]).status == 0)
        let explicit = try Self.settledBanner(session, unlike: standard)
        #expect(live == explicit, "the desktop's font and the same family named differ in \(zip(live, explicit).filter { $0 != $1 }.count) pixels")
    }

    @Test func theDesktopsIconThemeIsSearchedFirst() throws {
        var template = Array("/tmp/wb-icons-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let data = String(cString: made)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", data]) }
        chmod(data, 0o755)
        for (theme, colour) in [("hicolor", "#00ff00"), ("WB-Desktop", "#ff00ff")] {
            try Subprocess.run("/bin/mkdir", ["-p", "\(data)/icons/\(theme)/scalable/apps"])
            try TestSway.write(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="\#(colour)"/></svg>"#,
                               to: "\(data)/icons/\(theme)/scalable/apps/wb-themed.svg")
        }
        try Subprocess.run("/bin/chmod", ["-R", "a+rX", data])
        let session = try Session(extra: ["XDG_DATA_DIRS": data])
        func show(_ title: String) throws -> (green: Int, magenta: Int) {
            #expect(try session.script.run(["show", "--title", title, "--icon", "wb-themed", "--background", "#cc3311",
                                            "--height", "40", "--compact", "never"]).status == 0)
            let rows = try Self.settledBanner(session)
            return (rows.filter { $0 == 0x00FF00 }.count, rows.filter { $0 == 0xFF00FF }.count)
        }
        let hicolor = try show("hicolor")
        #expect(hicolor.green > 100 && hicolor.magenta == 0, "\(hicolor)")
        try session.gsettings(["set", "org.gnome.desktop.interface", "icon-theme", "WB-Desktop"])
        // The next icon looked up comes from the desktop's theme (once the portal relayed it).
        let deadline = monotonicSeconds() + 20
        var themed = try show("WB-Desktop")
        var round = 0
        while themed.magenta == 0, monotonicSeconds() < deadline {
            round += 1
            themed = try show("WB-Desktop \(round)")
        }
        #expect(themed.magenta > 100 && themed.green == 0, "\(themed)")
    }

    /// A bare sway: no portal on the session bus, GTK applications read GSettings (dconf)
    /// themselves, and so does the banner. "Large Text" while a banner shows, as above.
    @Test func withoutAPortalGSettingsIsReadDirectly() throws {
        let session = try Session(portal: false)
        let names = try session.activatableNames()
        #expect(names.contains("ca.desrt.dconf") && !names.contains("org.freedesktop.portal"), "the bus can start \(names)")
        try session.gsettings(["set", "org.gnome.desktop.interface", "text-scaling-factor", "1.25"])
        // 40 points at 1.25: 50 pixels from the first frame.
        try session.showThenScale(from: 50, to: 1.5)
        #expect(!(try session.activatableNames()).contains("org.freedesktop.portal"))
    }
}
