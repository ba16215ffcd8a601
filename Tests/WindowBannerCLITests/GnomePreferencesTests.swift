// GNOME's preferences with the shell extension, as a GNOME user changes them: `gsettings` (what
// GNOME's Settings writes) in the real shell's session, relayed to the banner's owner by
// xdg-desktop-portal, which the session bus starts on demand with its GTK backend. "Large Text"
// (`text-scaling-factor` 1.5) while a banner shows: GNOME's own top bar grows, and the banner
// under it grows with its text, from 80 to 120 px of reserved space — as the shell's work area
// shows it. Animations off (`enable-animations false`): a change of look reaches the shell as one
// frame, where `--no-reduce-motion`'s cross-fade takes many — counted by dbus-monitor on the
// session bus (the owner's `Show` calls to the extension). (The headless shell, on a software
// renderer, has its own animations off from the start: the portal reports `enable-animations`
// false there even before the change, so the change itself is not seen live here; on sway it
// is.) Debian 12's GNOME 43 (this machine's shell, portal and its GTK backend), Debian 13's 48
// and the newest (their own, with GNOME's backend, from chroots). Where no portal answers (here:
// masked on the session bus, so its start fails), "Large Text" comes from GSettings directly.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("GNOME on Wayland: the desktop's preferences", .serialized,
       .needsProgram("/usr/bin/gnome-shell", package: "gnome-shell"),
       .needsProgram("/usr/libexec/xdg-desktop-portal", package: "xdg-desktop-portal"),
       .needsProgram("/usr/libexec/xdg-desktop-portal-gtk", package: "xdg-desktop-portal-gtk"))
struct GnomePreferencesTests {
    static let show = ["show", "--title", "No Internet Connection", "--background", "#2050d0", "--compact", "never", "--sticky"]

    /// The top of the shell's work area once it has held for half a second (the shell lays
    /// its bar out again over a few frames after a change of text size).
    static func settledTop(of shell: TestGnomeShell, _ isWanted: (Int) -> Bool) throws -> Int {
        let deadline = monotonicSeconds() + 30
        var previous: Int?
        while monotonicSeconds() < deadline {
            let top = shell.workAreas().first?.y
            if let top, top == previous, isWanted(top) { return top }
            previous = top
            poll(nil, 0, 500)
        }
        throw TestFailure("the work area's top is \(previous.map(String.init) ?? "unknown") after 30 s\n\(shell.log)")
    }

    /// The shells users have: Debian 12's 43 (this machine's), Debian 13's 48 and the newest
    /// (Debian unstable's), the last two from chroots with their own portal (GNOME's backend).
    static let releases: [TestGnomeShell.Release] = [.installed, .debian13, .newest]

    /// Starts dbus-monitor on the shell's session bus, writing the owner's `Show` calls to the
    /// extension to a file; the file.
    static func monitorShows(_ shell: TestGnomeShell) throws -> String {
        let file = shell.directory + "/shows.log"
        let rule = "type='method_call',interface='org.windowbanner.Shell1',member='Show'"
        _ = try shell.start(["/bin/sh", "-c", "exec dbus-monitor --address \"$DBUS_SESSION_BUS_ADDRESS\" \"\(rule)\" >\(file)"])
        return file
    }

    @Test(arguments: Self.releases) func largeTextGrowsTheBannerUnderTheLargerTopBar(release: TestGnomeShell.Release) throws {
        try Self.largeText(in: TestGnomeShell(release: release, withExtension: .enabled))
    }

    /// Where no portal answers (none installed, or it failed to start), the owner reads
    /// GSettings itself, and "Large Text" still grows the banner, in one step.
    @Test(arguments: Self.releases) func withoutAPortalLargeTextStillGrowsTheBanner(release: TestGnomeShell.Release) throws {
        try Self.largeText(in: TestGnomeShell(release: release, withExtension: .enabled, withPortal: false))
    }

    /// Shows a banner in `shell`, sets "Large Text" (`text-scaling-factor` 1.5) as GNOME's
    /// Settings does, and expects the banner's 80 px of reserved space to become 120 under the
    /// grown top bar, in one frame sent to the shell.
    static func largeText(in shell: TestGnomeShell) throws {
        let file = try Self.monitorShows(shell)
        let program = windowBannerExecutable()
        let bar = try Self.settledTop(of: shell) { $0 > 0 }
        let shown = try shell.run([program] + Self.show)
        #expect(shown.status == 0, "\(shown.error)")
        #expect(try Self.settledTop(of: shell) { $0 == bar + 80 } == bar + 80)

        let before = Self.shows(in: file)
        let scaled = try shell.run(["gsettings", "set", "org.gnome.desktop.interface", "text-scaling-factor", "1.5"])
        #expect(scaled.status == 0, "\(scaled.error)")
        // The bar grows by half its text; the banner's 80 px become 120 under it.
        let grown = try Self.settledTop(of: shell) { $0 >= bar + 120 }
        // In one step: one frame at the new height and strut reached the shell, none between.
        #expect(Self.shows(in: file) - before == 1, "the change of text size reached the shell as \(Self.shows(in: file) - before) frames")
        let dismissed = try shell.run([program, "dismiss", "--all", "--quit"])
        #expect(dismissed.status == 0, "\(dismissed.error)")
        let largerBar = try Self.settledTop(of: shell) { $0 < grown }
        #expect(largerBar > bar, "GNOME's top bar did not grow with its text: \(bar) px, then \(largerBar)")
        #expect(grown - largerBar == 120, "the banner reserved \(grown - largerBar) px at a text scale of 1.5")
    }

    /// The owner's `Show` calls to the extension so far, as dbus-monitor (the session's user's)
    /// saw them in `file`.
    static func shows(in file: String) -> Int {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("method call") && $0.contains("member=Show") }.count
    }

    /// Shows `look` over the banner there, waits until the shell has it, and returns how many
    /// frames the owner sent it meanwhile (a cross-fade sends several).
    static func framesOfChange(to look: [String], shell: TestGnomeShell, file: String) throws -> Int {
        let before = shows(in: file)
        let shown = try shell.run([windowBannerExecutable()] + look)
        #expect(shown.status == 0, "\(shown.error)")
        // The first frame of the change has come, and no other for a second (a cross-fade
        // lasts a third of one): the change is over.
        let deadline = monotonicSeconds() + 20
        var count = shows(in: file)
        var quietSince = monotonicSeconds()
        while monotonicSeconds() < deadline, count == before || monotonicSeconds() - quietSince < 1 {
            poll(nil, 0, 50)
            let now = shows(in: file)
            if now != count { (count, quietSince) = (now, monotonicSeconds()) }
        }
        return count - before
    }

    @Test(arguments: Self.releases) func animationsOffMakeAChangeOfLookReachTheShellAsOneFrame(release: TestGnomeShell.Release) throws {
        let shell = try TestGnomeShell(release: release, withExtension: .enabled)
        let file = try Self.monitorShows(shell)
        #expect(try shell.run(["gsettings", "set", "org.gnome.desktop.interface", "enable-animations", "false"]).status == 0)
        let bar = try Self.settledTop(of: shell) { $0 > 0 }
        let first = try shell.run([windowBannerExecutable()] + Self.show)
        #expect(first.status == 0, "\(first.error)")
        #expect(try Self.settledTop(of: shell) { $0 == bar + 80 } == bar + 80)
        // A flag still wins: `--no-reduce-motion` cross-fades, frame by frame (and shows that
        // dbus-monitor sees every frame).
        let red = Self.show.map { $0 == "#2050d0" ? "#cc3311" : $0 }
        let fading = try Self.framesOfChange(to: red + ["--no-reduce-motion"], shell: shell, file: file)
        #expect(fading >= 3, "the cross-fade sent \(fading) frames")
        // As the desktop asks: the new look at once, one frame.
        let frames = try Self.framesOfChange(to: Self.show, shell: shell, file: file)
        #expect(frames == 1, "with animations off the change of look came in \(frames) frames")
    }
}
