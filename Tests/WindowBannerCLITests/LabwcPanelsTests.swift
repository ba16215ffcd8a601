// The Wayland desktops built on labwc (issue 54): Xfce 4.20 and LXQt 2 take labwc as their
// Wayland compositor, with their own panels as layer-shell surfaces. xfce4-panel (Debian 13) and
// lxqt-panel (Debian 13 and unstable) run on the suite's labwc (scripts/debian-chroot.sh's
// @labwcpanels), at the top and at the bottom, beside a maximized foot; the banner is shown by
// the `window-banner` built here. The checks are sway's: the banner sits at the top edge or
// right under a top panel, a maximized window loses exactly its height and gets it back (foot's
// configure events), the panel stays on screen (grim), a click on the banner ends `--wait` as a
// click, and swaylock covers it.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Panels on labwc and wayfire", .serialized, .needsRoot("running a newer Debian's labwc and panels from a chroot"))
struct LabwcPanelsTests {
    struct Setup: Sendable, CustomTestStringConvertible {
        enum Panel: String, Sendable { case xfce = "xfce4-panel", lxqt = "lxqt-panel" }
        let panel: Panel
        let suite: String
        let atTop: Bool
        var testDescription: String {
            "\(panel.rawValue) at the \(atTop ? "top" : "bottom") of labwc from Debian \(suite == "trixie" ? "13" : "unstable")"
        }
        /// The chroot's packages (unstable's also holds wayfire, `wayfireUnderItsOwnPanel`).
        var packages: [String] { suite == "sid" ? ["@labwcpanels", "wayfire", "wf-shell"] : ["@labwcpanels"] }
    }

    static let setups = [
        Setup(panel: .xfce, suite: "trixie", atTop: true), Setup(panel: .xfce, suite: "trixie", atTop: false),
        Setup(panel: .lxqt, suite: "trixie", atTop: true), Setup(panel: .lxqt, suite: "trixie", atTop: false),
        Setup(panel: .lxqt, suite: "sid", atTop: true), Setup(panel: .lxqt, suite: "sid", atTop: false),
    ]
    static let banner: UInt32 = 0xCC3311

    /// labwc with a maximized foot and the panel, which foot has made room for.
    final class Running {
        let session: NewestCompositorsTests.Session
        let labwc: TestLabwc
        /// The panel's height, from what foot lost to it.
        let panelHeight: Int
        /// foot's size under the panel.
        let underPanel: SwayRect

        init(_ setup: Setup) throws {
            session = try NewestCompositorsTests.Session(.init(compositor: .labwc, suite: setup.suite), packages: setup.packages)
            labwc = try #require(session.labwc)
            let config = labwc.directory + "/home/.config"
            switch setup.panel {
            case .xfce:
                // Its default panel (Debian's default.xml) is at the top; a user moves it to the
                // bottom in its preferences, which write this xfconf property.
                try labwc.startClient(["xfce4-panel"], environment: ["GDK_BACKEND": "wayland", "XDG_CURRENT_DESKTOP": "XFCE"],
                                      log: "panel.log")
                if !setup.atTop {
                    try Self.awaitPanel(session, lost: { $0 > 0 })
                    let moved = try Self.run(labwc, ["xfconf-query", "-c", "xfce4-panel", "-p", "/panels/panel-1/position", "-s", "p=8;x=0;y=0"])
                    guard moved.status == 0 else { throw TestFailure("xfconf-query: \(moved.error)") }
                }
            case .lxqt:
                // LXQt's panel on Wayland: its own config, at the top or the bottom (its default).
                mkdir(config, 0o700)
                mkdir(config + "/lxqt", 0o700)
                try TestSway.write("""
                    [General]
                    panels=panel1

                    [panel1]
                    position=\(setup.atTop ? "Top" : "Bottom")
                    plugins=mainmenu, taskbar, worldclock

                    """, to: config + "/lxqt/panel.conf")
                if geteuid() == 0 {
                    chown(config, TestSway.unprivilegedUser, TestSway.unprivilegedUser)
                    chown(config + "/lxqt", TestSway.unprivilegedUser, TestSway.unprivilegedUser)
                    chown(config + "/lxqt/panel.conf", TestSway.unprivilegedUser, TestSway.unprivilegedUser)
                }
                try labwc.startClient(["lxqt-panel"], environment: ["QT_QPA_PLATFORM": "wayland", "XDG_CURRENT_DESKTOP": "LXQt:wlroots"],
                                      log: "panel.log")
            }
            underPanel = try Self.awaitPanel(session, lost: { $0 > 0 })
            panelHeight = session.full.height - underPanel.height
        }

        /// foot's size once it has lost to the panel what `isWanted` accepts, and kept it for a
        /// second (a panel may settle its height in steps).
        @discardableResult
        static func awaitPanel(_ session: NewestCompositorsTests.Session, lost isWanted: (Int) -> Bool) throws -> SwayRect {
            var last: SwayRect?
            var heldSince = monotonicSeconds()
            let deadline = monotonicSeconds() + 60
            while monotonicSeconds() < deadline {
                if let size = session.foot.lastConfiguredSize(), isWanted(session.full.height - size.height) {
                    if size != last { last = size; heldSince = monotonicSeconds() }
                    if monotonicSeconds() - heldSince > 1 { return size }
                }
                poll(nil, 0, 50)
            }
            throw TestFailure("foot never made room for the panel (last \(String(describing: session.foot.lastConfiguredSize()))): \(session.labwc?.logs ?? "")")
        }

        static func run(_ labwc: TestLabwc, _ command: [String]) throws -> (status: Int32?, error: String) {
            let process = try labwc.startClient(command)
            process.closeStandardInput()
            return (process.waitForExit(timeout: 20), process.standardError)
        }
    }

    @Test(arguments: Self.setups) func theBannerTakesExactlyItsHeightBesideThePanelAndGivesItBack(setup: Setup) throws {
        let running = try Running(setup)
        let session = running.session
        let shown = try session.run(NewestCompositorsTests.show)
        #expect(shown.status == 0, "show: \(shown.error)")
        #expect(try session.reserved() == 40)
        try session.foot.awaitConfiguredSize { $0.height == running.underPanel.height - 40 }
        // At the top edge, or right under a top panel; the panel's rows keep none of its colour.
        let top = setup.atTop ? running.panelHeight : 0
        let shot = try session.awaitScreenshot { $0.pixel(4, top + 1) == Self.banner && $0.pixel(640, top + 38) == Self.banner }
        #expect(shot.pixel(4, top + 1) == Self.banner && shot.pixel(640, top + 38) == Self.banner, "the banner is not at row \(top)")
        let panelRows = setup.atTop ? 0..<running.panelHeight : (shot.height - running.panelHeight)..<shot.height
        #expect(!panelRows.contains { y in stride(from: 0, to: shot.width, by: 8).contains { shot.pixel($0, y) == Self.banner } },
                "the banner covers the panel")
        #expect(shot.pixel(4, top + 40) != Self.banner, "the banner is taller than 40 px")

        let dismissed = try session.run(["dismiss"])
        #expect(dismissed.status == 0, "dismiss: \(dismissed.error)")
        try session.foot.awaitConfiguredSize { $0 == running.underPanel }
    }

    /// wayfire 0.10 (Debian unstable) under its own panel, wf-panel, at the top (its default):
    /// the banner right under it, a maximized foot losing exactly its height and getting it back.
    /// wf-panel's widgets are the clock alone: its network, battery and volume widgets ask for a
    /// system bus, which a test session has not.
    @Test func wayfireUnderItsOwnPanel() throws {
        let session = try NewestCompositorsTests.Session(.init(compositor: .wayfire, suite: "sid"),
                                                         packages: Setup(panel: .lxqt, suite: "sid", atTop: true).packages)
        let wayfire = try #require(session.labwc)
        let config = wayfire.directory + "/home/.config"
        mkdir(config, 0o700)
        if geteuid() == 0 { chown(config, TestSway.unprivilegedUser, TestSway.unprivilegedUser) }
        try TestSway.write("[panel]\nwidgets_left = spacing4\nwidgets_center = clock\nwidgets_right = spacing4\nposition = top\n",
                           to: config + "/wf-shell.ini")
        try wayfire.startClient(["wf-panel"], environment: ["GSK_RENDERER": "cairo"],
                                log: "panel.log")
        let underPanel = try Running.awaitPanel(session, lost: { $0 > 0 })
        let panelHeight = session.full.height - underPanel.height
        let shown = try session.run(NewestCompositorsTests.show)
        #expect(shown.status == 0, "show: \(shown.error)")
        try session.foot.awaitConfiguredSize { $0.height == underPanel.height - 40 }
        let shot = try session.awaitScreenshot { $0.pixel(4, panelHeight + 1) == Self.banner && $0.pixel(640, panelHeight + 38) == Self.banner }
        #expect(shot.pixel(4, panelHeight + 1) == Self.banner, "the banner is not right under wf-panel (\(panelHeight) px)")
        #expect(shot.pixel(4, panelHeight - 1) != Self.banner && shot.pixel(4, panelHeight + 40) != Self.banner)
        #expect(try session.run(["dismiss"]).status == 0)
        try session.foot.awaitConfiguredSize { $0 == underPanel }
    }

    /// With each panel at its default place (xfce4-panel at the top, lxqt-panel at the bottom).
    @Test(arguments: Self.setups.filter { $0.atTop == ($0.panel == .xfce) })
    func aClickEndsWaitAndSwaylockCoversTheBanner(setup: Setup) throws {
        let running = try Running(setup)
        let session = running.session
        let top = setup.atTop ? running.panelHeight : 0
        let waiting = try session.script.start(NewestCompositorsTests.show + ["--wait"])
        let shot = try session.awaitScreenshot { $0.pixel(640, top + 38) == Self.banner }
        try #require(shot.pixel(640, top + 38) == Self.banner, "the banner never showed")
        let pointer = try VirtualPointer(socketPath: session.socketPath)
        for _ in 0..<3 {
            try pointer.click(x: 640, y: top + 20, width: 1280, height: 720)
            if waiting.hasEnded(within: 7) { break }
        }
        #expect(waiting.waitForExit(timeout: 10) == 12, "\(waiting.standardError)")
        try session.foot.awaitConfiguredSize { $0 == running.underPanel }

        #expect(try session.run(NewestCompositorsTests.show).status == 0)
        _ = try session.awaitScreenshot { $0.pixel(640, top + 38) == Self.banner }
        try session.startClient(["swaylock", "--color", "000000"])
        let locked = try session.awaitScreenshot { $0.pixel(640, 400) == 0x000000 && $0.pixel(640, top + 38) == 0x000000 }
        #expect(locked.pixel(640, top + 38) == 0x000000, "the banner shows on the locked screen")
    }
}
