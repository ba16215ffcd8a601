// GNOME at a fractional scale (issue 54): Mutter's `scale-monitor-framebuffer` on, a virtual
// monitor set to 1.25 or 1.5 with gdctl (mutter-common-bin, GNOME 48 and later), the extension
// enabled. The banner must take exactly its height in logical pixels from Mutter's work area and
// give it back, and be drawn at the monitor's own pixels — not drawn at 1× and scaled up by the
// shell, which leaves its text soft. Sharpness is measured on the shell's own screenshot: of the
// title's dark pixels, the share that is the pure text colour (black on white), which a soft,
// scaled-up title rarely reaches.

import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("GNOME at fractional scales", .serialized, .needsProgram("/usr/bin/gnome-shell", package: "gnome-shell"))
struct GnomeScaleTests {
    /// Of the dark pixels in `shot`'s rows `rows`, the share that is pure black.
    static func sharpness(_ shot: WaylandTestSupport.Screenshot, rows: Range<Int>) -> (share: Double, dark: Int) {
        var dark = 0
        var pure = 0
        for y in rows where y < shot.height {
            for x in 0..<shot.width {
                let pixel = shot.pixel(x, y)
                let (red, green, blue) = ((pixel >> 16) & 0xff, (pixel >> 8) & 0xff, pixel & 0xff)
                guard max(red, green, blue) < 128 else { continue }
                dark += 1
                if pixel == 0 { pure += 1 }
            }
        }
        return (dark == 0 ? 0 : Double(pure) / Double(dark), dark)
    }

    @Test(arguments: [TestGnomeShell.Release.debian13, .newest], [1.25, 1.5])
    func theBannerIsDrawnAtTheMonitorsPixelsAndReservesItsLogicalHeight(release: TestGnomeShell.Release, scale: Double) throws {
        let shell = try TestGnomeShell(
            release: release, width: 1920, height: 1200, withExtension: .enabled,
            settings: [["set", "org.gnome.mutter", "experimental-features", "['scale-monitor-framebuffer']"]])
        let monitors = try shell.runInSession(["gdctl", "show"])
        let connector = try #require(monitors.output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("Meta-") }.map(String.init),
                                     "gdctl show: \(monitors.output) \(monitors.error)")
        let set = try shell.runInSession(["gdctl", "set", "--logical-monitor", "--primary", "--monitor", connector, "--scale", String(scale)])
        #expect(set.status == 0, "gdctl set: \(set.output) \(set.error)")
        let logical = (width: Int((1920 / scale).rounded()), height: Int((1200 / scale).rounded()))
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].width == logical.width && $0[0].y > 0 }
        let area = try #require(before.first, "the monitor never became \(logical.width) logical px wide: \(before)")

        let shown = try shell.run([windowBannerExecutable(), "show", "--title", "Maintenance tonight at 18:00 — save your work",
                                   "--background", "#ffffff", "--text-color", "#000000", "--compact", "never", "--sticky"])
        #expect(shown.status == 0, "\(shown.error)")
        let reserved = before.map { SwayRect(x: $0.x, y: $0.y + 80, width: $0.width, height: $0.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == reserved } == reserved, "80 logical px are reserved")

        // The screenshot is at the monitor's pixels: the banner's rows are 80 × scale of them.
        let top = Int((Double(area.y) * scale).rounded())
        let bottom = Int((Double(area.y + 80) * scale).rounded())
        var shot = try shell.screenshot(width: area.width, height: area.y + 80)
        let deadline = monotonicSeconds() + 20
        while Self.sharpness(shot, rows: top..<bottom).dark == 0, monotonicSeconds() < deadline {
            poll(nil, 0, 100)
            shot = try shell.screenshot(width: area.width, height: area.y + 80)
        }
        #expect(shot.width == Int((Double(area.width) * scale).rounded()), "the screenshot is \(shot.width) px wide")
        let measured = Self.sharpness(shot, rows: top..<bottom)
        #expect(measured.share >= 0.45, "the title is soft: \(measured.share) of its dark pixels are black (sway at 1.5: 0.53)")

        let dismissed = try shell.run([windowBannerExecutable(), "dismiss", "--all", "--quit"])
        #expect(dismissed.status == 0, "\(dismissed.error)")
        #expect(shell.awaitWorkAreas { $0 == before } == before, "the space is given back")
    }
}
