// Wayland at the scales laptops run (issue 54): sway and labwc from Debian 13 and unstable
// (scripts/debian-chroot.sh's @wlroots) with a 1920×1200 output at 1.25, 1.5 and 2, waybar at
// the top and a maximized foot, the banner shown through `window-banner`. At each scale the
// banner's buffer must be drawn at the output's own pixels and shown one to one: its height a
// whole number of them (compact 18 pt is 22.5 px at 1.25: the banner takes 25, 20 logical
// px, BannerLayout.heightStep), its text as sharp as a native client's. Oracles: foot's
// configure events (what a maximized window loses and gets back) and grim's screenshot at the
// output's pixels (the banner's rows, and the share of the title's dark pixels that is the pure
// text colour, which a buffer the compositor scales rarely reaches). Then two outputs at their
// own scales with `--monitor all`, and a scale changed under a banner.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Wayland at fractional scales", .serialized, .needsRoot("running a newer Debian's compositors from a chroot"))
struct FractionalScaleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let desktop: NewestCompositorsTests.Desktop
        let scale: Double
        var testDescription: String { "\(desktop.testDescription) at \(scale)" }
    }

    static let cases = NewestCompositorsTests.desktops.flatMap { desktop in [1.25, 1.5, 2].map { Case(desktop: desktop, scale: $0) } }

    /// Compact 18 pt at each scale: the device pixels the banner is tall and the logical ones
    /// it reserves (rounded up to a whole number of both).
    static let compact: [Double: (pixels: Int, logical: Int)] = [1.25: (25, 20), 1.5: (27, 18), 2: (36, 18)]
    static let white: UInt32 = 0xFFFFFF
    /// The least share of a title's dark pixels that is pure black for it to count as sharp:
    /// drawn at the output's pixels, compact 14 pt measures 0.53 at 1.25, 0.60 at 1.5, 0.68 at
    /// 2, and 17 pt 0.44 at 1 and 0.69 at 1.5; drawn at 1× and scaled by a compositor or shell,
    /// 0.05 to 0.10.
    static let sharp = 0.40
    static let show = ["show", "--title", "Maintenance tonight at 18:00 — save your work", "--background", "#ffffff",
                       "--text-color", "#000000", "--compact", "always"]

    /// The rows of column `x` in `shot` that are the banner's white.
    static func whiteRows(_ shot: WaylandTestSupport.Screenshot, x: Int = 200, below: Int = 200) -> [Int] {
        (0..<min(below, shot.height)).filter { shot.pixel(x, $0) == white }
    }

    @Test(arguments: Self.cases) func theBannerIsDrawnAtTheOutputsPixelsAndTakesWholePixels(scaled: Case) throws {
        let session = try NewestCompositorsTests.Session(scaled.desktop, width: 1920, height: 1200, scale: scaled.scale)
        try session.startWaybar()
        let expected = try #require(Self.compact[scaled.scale])
        let shown = try session.run(Self.show)
        #expect(shown.status == 0, "show: \(shown.error)")
        #expect(try session.reserved() == expected.logical)
        let barHeight = NewestCompositorsTests.barHeight
        try session.foot.awaitConfiguredSize { $0.height == session.full.height - barHeight - expected.logical }

        // wlroots rounds each edge of a surface to the output's pixels: the banner's top is the
        // bar's bottom, rounded, and it is exactly `pixels` rows tall.
        let top = Int((Double(barHeight) * scaled.scale).rounded())
        let shot = try session.awaitScreenshot {
            Self.whiteRows($0) == Array(top..<(top + expected.pixels))
                && GnomeScaleTests.sharpness($0, rows: top..<(top + expected.pixels)).dark > 0
        }
        #expect(shot.width == 1920, "the screenshot is \(shot.width) px wide")
        #expect(Self.whiteRows(shot) == Array(top..<(top + expected.pixels)), "the banner's rows: \(Self.whiteRows(shot))")
        let measured = GnomeScaleTests.sharpness(shot, rows: top..<(top + expected.pixels))
        #expect(measured.share >= Self.sharp, "the title is soft: \(measured.share) of its \(measured.dark) dark pixels are black")

        let dismissed = try session.run(["dismiss"])
        #expect(dismissed.status == 0, "dismiss: \(dismissed.error)")
        try session.foot.awaitConfiguredSize { $0.height == session.full.height - barHeight }
    }

    /// A laptop at 1.5 beside a screen at 1, a banner on each (`--monitor all`): each drawn at
    /// its output's pixels and reserving its logical height there (sway's workspaces, which
    /// are each output's usable area). Then the laptop goes to 2 under the banner: its
    /// workspace keeps exactly the banner's 40 px, and a window there is laid out once.
    @Test(arguments: ["trixie", "sid"]) func twoOutputsAtTheirOwnScalesAndAScaleChangedUnderTheBanner(suite: String) throws {
        let chroot = try DebianChroot.prepared(suite: suite, packages: ["@wlroots"])
        let sway = try TestSway(width: 1920, height: 1200, scale: 1.5, from: chroot)
        try sway.swaymsg(["create_output"])
        try sway.swaymsg(["output HEADLESS-2 resolution 1280x720 scale 1 position 1280 0"])
        try sway.swaymsg(["output HEADLESS-1 position 0 0"])
        try sway.swaymsg(["focus output HEADLESS-1"])
        let foot = try sway.startFoot()
        let script = try WaylandScript(socketPath: sway.socketPath)
        defer { _ = try? script.run(["dismiss", "--all", "--quit"]) }
        let full = try foot.awaitConfiguredSize { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 800) }

        let shown = try script.run(["show", "--monitor", "all", "--title", "Call in progress", "--background", "#ffffff",
                                    "--text-color", "#000000", "--height", "40", "--compact", "never"])
        #expect(shown.status == 0, "show: \(shown.error)")
        let reserved = ["HEADLESS-1": SwayRect(x: 0, y: 40, width: 1280, height: 760), "HEADLESS-2": SwayRect(x: 1280, y: 40, width: 1280, height: 680)]
        #expect(try Self.awaitWorkspaces(sway) { $0 == reserved } == reserved)
        for (output, pixels) in [("HEADLESS-1", 60), ("HEADLESS-2", 40)] {
            let shot = try Screenshot.await(timeout: 20, taking: { try sway.screenshot(output: output) }) {
                Self.whiteRows($0) == Array(0..<pixels) && GnomeScaleTests.sharpness($0, rows: 0..<pixels).dark > 0
            }
            #expect(Self.whiteRows(shot) == Array(0..<pixels), "\(output): the banner's rows: \(Self.whiteRows(shot))")
            let measured = GnomeScaleTests.sharpness(shot, rows: 0..<pixels)
            #expect(measured.share >= Self.sharp, "\(output): the title is soft: \(measured.share) of its dark pixels are black")
        }
        try foot.awaitConfiguredSize { $0.height == full.height - 40 }

        // The laptop's scale goes to 2 (its logical size to 960×600): the banner is drawn again
        // at 80 px, still 40 logical, and foot is given its new size once.
        let configuresBefore = foot.configures()
        try sway.swaymsg(["output HEADLESS-1 scale 2"])
        let rescaled = ["HEADLESS-1": SwayRect(x: 0, y: 40, width: 960, height: 560), "HEADLESS-2": reserved["HEADLESS-2"]]
        #expect(try Self.awaitWorkspaces(sway) { $0 == rescaled } == rescaled)
        let shot = try Screenshot.await(timeout: 20, taking: { try sway.screenshot(output: "HEADLESS-1") }) { Self.whiteRows($0) == Array(0..<80) }
        #expect(Self.whiteRows(shot) == Array(0..<80), "the banner's rows at 2: \(Self.whiteRows(shot))")
        try foot.awaitConfiguredSize { $0 == SwayRect(x: 0, y: 0, width: 960, height: 560) }
        #expect(foot.configures() - configuresBefore == 1, "foot was laid out \(foot.configures() - configuresBefore) times for one scale change")
        let status = try JSONSerialization.jsonObject(with: Data(try script.run(["status", "--json"]).output.utf8)) as? [String: Any]
        let reservations = (status?["monitors"] as? [[String: Any]] ?? []).compactMap { $0["reserved"] as? Int }
        #expect(reservations == [40, 40], "status --json: \(String(describing: status))")
    }

    /// Each output's workspace rectangle (sway's usable area of that output), awaited.
    static func awaitWorkspaces(
        _ sway: TestSway, timeout: Double = 20, _ isWanted: ([String: SwayRect]) -> Bool
    ) throws -> [String: SwayRect] {
        let deadline = monotonicSeconds() + timeout
        var last: [String: SwayRect] = [:]
        while monotonicSeconds() < deadline {
            let list = try JSONSerialization.jsonObject(with: Data(try sway.swaymsg(["-r", "-t", "get_workspaces"]).utf8)) as? [[String: Any]] ?? []
            last = [:]
            for workspace in list {
                guard let output = workspace["output"] as? String, let rect = workspace["rect"] as? [String: Any] else { continue }
                last[output] = SwayRect(x: rect["x"] as? Int ?? 0, y: rect["y"] as? Int ?? 0, width: rect["width"] as? Int ?? 0,
                                        height: rect["height"] as? Int ?? 0)
            }
            if isWanted(last) { return last }
            poll(nil, 0, 50)
        }
        return last
    }
}
