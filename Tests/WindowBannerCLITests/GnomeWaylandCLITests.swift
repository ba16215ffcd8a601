// GNOME on Wayland, the real shell (`gnome-shell --headless --wayland`, Debian's 43) without
// WindowBanner's extension: Mutter has no layer-shell, so `show` and `run` draw through the
// session's Xwayland, where the X11 dock's strut reserves the space for Wayland windows too, and
// say so in one line, with how to get the native banner; the banner sits under GNOME's top bar. With no Xwayland either: exit 69, one line naming both. The oracle is
// Mutter's own per-monitor work area (`_GTK_WORKAREAS_D0`, what Wayland windows are maximized
// into), read on its Xwayland.

import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("GNOME on Wayland without the extension: through Xwayland", .serialized, .needsProgram("/usr/bin/gnome-shell", package: "gnome-shell"))
struct GnomeWaylandCLITests {
    static let notice = "the Wayland compositor wb-gnome has no layer-shell (GNOME's Mutter has none) and the GNOME Shell extension "
        + "\(TestGnomeShell.extensionUUID) is not installed: the banner is shown through Xwayland"

    @Test func showDrawsThroughXwaylandUnderTheTopBarAndSaysSoOnce() throws {
        let shell = try TestGnomeShell()
        let program = windowBannerExecutable()
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let bar = try #require(before.first).y

        let shown = try shell.run([program, "show", "--title", "No Internet Connection", "--compact", "never", "--sticky"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.error.hasPrefix("window-banner: warning: \(Self.notice)"), "\(shown.error)")
        // Not installed: how to get it.
        #expect(shown.error.hasSuffix("for the native banner install the extension (make install, or the window-banner package), "
            + "log in again and run gnome-extensions enable \(TestGnomeShell.extensionUUID) (docs/gnome.md)\n"), "\(shown.error)")
        #expect(shown.error.split(separator: "\n").count == 1, "\(shown.error)")
        let expected = before.map { SwayRect(x: $0.x, y: bar + 80, width: $0.width, height: $0.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == expected } == expected)

        // Said once, by the owner's first banner.
        let again = try shell.run([program, "show", "--title", "Back Online", "--compact", "never", "--sticky"])
        #expect(again.status == 0 && again.error.isEmpty, "\(again.error)")
        let status = try shell.run([program, "status", "--format", "{title}"])
        #expect(status.output == "Back Online\n", "\(status.error)")

        let dismissed = try shell.run([program, "dismiss", "--all", "--quit"])
        #expect(dismissed.status == 0, "\(dismissed.error)")
        #expect(shell.awaitWorkAreas { $0 == before } == before)
    }

    @Test func runDrawsThroughXwaylandToo() throws {
        let shell = try TestGnomeShell()
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let run = try shell.run([windowBannerExecutable(), "run", "--title", "Backup running", "--compact", "never", "--", "sh", "-c", "exit 3"])
        #expect(run.status == 3, "\(run.error)")
        #expect(run.error.hasPrefix("window-banner: warning: \(Self.notice)"), "\(run.error)")
        #expect(shell.awaitWorkAreas { $0 == before } == before)
    }

    @Test func withoutXwaylandEitherItIsOneLineAndSixtyNine() throws {
        let shell = try TestGnomeShell()
        var environment = shell.environment
        environment["DISPLAY"] = nil
        let shown = try shell.run([windowBannerExecutable(), "show", "--title", "T"], environment: environment)
        #expect(shown.status == 69)
        #expect(shown.error == "window-banner: the Wayland compositor wb-gnome has no layer-shell (GNOME's Mutter has none) and the GNOME Shell "
            + "extension \(TestGnomeShell.extensionUUID) is not installed, and no Xwayland to show the banner through instead (DISPLAY is not set); "
            + "for the native banner install the extension (make install, or the window-banner package), log in again and run "
            + "gnome-extensions enable \(TestGnomeShell.extensionUUID) (docs/gnome.md)\n")
    }
}
