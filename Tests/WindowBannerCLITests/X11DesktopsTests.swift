// Debian 13's big X11 desktops, as a new user starts them (issue 54): Cinnamon 6.4 (`cinnamon
// --replace`, its panel at the bottom as Linux Mint ships it, and moved to the top), Xfce 4.20
// (xfwm4 and xfce4-panel at the top), MATE (marco, mate-panel at the top and the bottom) and KDE
// Plasma 6.3 on X11 (kwin_x11 and plasmashell, its panel at the bottom), from a chroot
// (scripts/debian-chroot.sh's @x11desktops) on a private Xvfb, the banner shown by the
// `window-banner` built here. The reservation matrix runs on each: the banner sits by the
// desktop's top panel without covering it, the window manager's own `_NET_WORKAREA` shrinks by
// exactly its height (and by a taller one's, updated in place) and is given back; and under the
// desktop's own locker (cinnamon-screensaver, xfce4-screensaver, mate-screensaver) the banner
// hides, and shows again when the locker goes.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Debian 13's X11 desktops", .serialized, .needsRoot("running a newer Debian's desktops from a chroot"))
struct X11DesktopsTests {
    struct Desktop: Sendable, CustomTestStringConvertible {
        enum Kind: String, Sendable { case cinnamon = "Cinnamon", xfce = "Xfce", mate = "MATE", plasma = "KDE Plasma on X11" }
        let kind: Kind
        var panelAtTop = false
        var testDescription: String {
            kind == .cinnamon ? "Cinnamon, its panel at the \(panelAtTop ? "top" : "bottom")" : kind.rawValue
        }

        /// The session's programs, and what is set before they start.
        var session: (desktop: String, setup: [String], programs: [String]) {
            switch kind {
            case .cinnamon:
                return ("X-Cinnamon", panelAtTop ? [#"gsettings set org.cinnamon panels-enabled "['1:0:top']""#] : [],
                        ["cinnamon --replace", "cinnamon-screensaver"])
            case .xfce:
                return ("XFCE", [], ["xfwm4 --sm-client-disable", "xfce4-panel --sm-client-disable", "xfce4-screensaver"])
            case .mate:
                return ("MATE", [], ["marco --sm-disable", "mate-panel", "mate-screensaver"])
            case .plasma:
                return ("KDE", [], ["kwin_x11", "plasmashell --no-respawn"])
            }
        }

        /// The locker's command (`--lock`, `--exit`), where the desktop has one of its own.
        var locker: String? {
            switch kind {
            case .cinnamon: "cinnamon-screensaver-command"
            case .xfce: "xfce4-screensaver-command"
            case .mate: "mate-screensaver-command"
            case .plasma: nil
            }
        }

        /// Where the desktop's panels reserve space once it has started: the top (Xfce, MATE,
        /// Cinnamon moved there) or the bottom.
        var topPanel: Bool { kind == .xfce || kind == .mate || panelAtTop }
    }

    static let desktops = [
        Desktop(kind: .cinnamon), Desktop(kind: .cinnamon, panelAtTop: true), Desktop(kind: .xfce), Desktop(kind: .mate), Desktop(kind: .plasma),
    ]
    static let banner = Pixel(hex: 0xCC3311)
    static func show(height: Int) -> [String] {
        ["show", "--id", "call", "--title", "Call in progress", "--background", "#cc3311", "--height", String(height), "--compact", "never", "--sticky"]
    }

    /// The desktop running on a fresh Xvfb, its work area settled with its panels.
    final class Running {
        let fixture: Fixture
        let session: ChrootX11Session
        /// `_NET_WORKAREA`'s first rectangle once the panels hold their space.
        let before: Rect

        init(_ desktop: Desktop) throws {
            fixture = try Fixture(windowManager: .none)
            let chroot = try DebianChroot.prepared(suite: "trixie", packages: ["@x11desktops"])
            let parts = desktop.session
            session = try ChrootX11Session(from: chroot, display: fixture.desktop.displayName, desktop: parts.desktop, setup: parts.setup,
                                           programs: parts.programs)
            let observer = fixture.observer
            // The panel holds its edge, and the area has held for a second (a panel may grow
            // to its size in steps as its applets start).
            var settled: Rect?
            var heldSince = monotonicSeconds()
            let found = observer.wait(timeout: 120) {
                guard let area = observer.workAreas().first,
                      desktop.topPanel ? area.y > 0 : (area.y == 0 && area.height < 800) else { return false }
                if area != settled { settled = area; heldSince = monotonicSeconds() }
                return monotonicSeconds() - heldSince > 1
            }
            guard found, var settled else {
                throw TestFailure("\(desktop.testDescription): the panel never reserved its edge (work area \(observer.workAreas())): \(session.logs)")
            }
            // plasmashell shows its panel thinner first and grows it to its thickness later,
            // seconds after the area first held: the thickness is asked of plasmashell itself.
            if desktop.kind == .plasma {
                let asked = try session.run(["dbus-send", "--session", "--print-reply", "--dest=org.kde.plasmashell", "/PlasmaShell",
                                             "org.kde.PlasmaShell.evaluateScript", "string:print(panels()[0].height)"])
                let thickness = asked.output.split(separator: "\"").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.first
                guard asked.status == 0, let thickness else { throw TestFailure("plasmashell did not tell its panel's thickness: \(asked.output) \(asked.error)") }
                guard observer.wait(timeout: 60, until: { observer.workAreas().first?.height == 800 - thickness }), let area = observer.workAreas().first else {
                    throw TestFailure("the work area \(observer.workAreas()) never left plasmashell's \(thickness) px panel out")
                }
                settled = area
            }
            before = settled
        }

        deinit { _ = try? fixture.launch(["dismiss", "--all", "--quit"]).waitForExit(timeout: 20) }

        func run(_ arguments: [String]) throws -> (status: Int32?, error: String) {
            let process = try fixture.launch(arguments)
            process.closeStandardInput()
            let status = process.waitForExit(timeout: 30)
            return (status, process.standardError)
        }

        func reserved(_ height: Int) -> Rect {
            Rect(x: before.x, y: before.y + height, width: before.width, height: before.height - height)
        }

        /// Whether the banner's colour is on screen in the row `height / 2` below the panels.
        func bannerShows(height: Int = 40) -> Bool {
            let row = before.y + height / 2
            return fixture.observer.screenshot(Rect(x: 0, y: row, width: 1280, height: 1))
                .map { shot in [4, 640, 1275].contains { shot.pixel(x: $0, y: row) == X11DesktopsTests.banner } } ?? false
        }
    }

    @Test(arguments: Self.desktops) func theBannerSitsUnderThePanelReservesExactlyItsHeightAndGivesItBack(desktop: Desktop) throws {
        let running = try Running(desktop)
        let observer = running.fixture.observer
        let shown = try running.run(Self.show(height: 40))
        #expect(shown.status == 0, "show: \(shown.error)")
        #expect(observer.wait(timeout: 20) { observer.workAreas().first == running.reserved(40) },
                "\(desktop.testDescription): work area \(observer.workAreas()), expected \(running.reserved(40))")
        let top = running.before.y
        #expect(observer.wait(timeout: 20) { running.fixture.bannerGeometry == Rect(x: 0, y: top, width: 1280, height: 40) },
                "\(desktop.testDescription): banner at \(String(describing: running.fixture.bannerGeometry)): \(observer.describeStack())")
        #expect(observer.wait(timeout: 20) { running.bannerShows() }, "\(desktop.testDescription): the banner is not on screen: \(observer.describeStack())")
        // The panel's rows show none of the banner.
        if top > 0, let panel = observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: top)) {
            #expect(panel.count(matching: Self.banner, tolerance: 0) == 0, "\(desktop.testDescription): the banner covers the panel")
        }

        // Taller, in place: the reservation grows with it.
        #expect(try running.run(Self.show(height: 60)).status == 0)
        #expect(observer.wait(timeout: 20) { observer.workAreas().first == running.reserved(60) },
                "\(desktop.testDescription): work area \(observer.workAreas()), expected \(running.reserved(60))")

        #expect(try running.run(["dismiss", "--id", "call"]).status == 0)
        #expect(observer.wait(timeout: 20) { observer.workAreas().first == running.before },
                "\(desktop.testDescription): work area \(observer.workAreas()) after dismissal, expected \(running.before)")
    }

    @Test(arguments: Self.desktops.filter { $0.locker != nil && !$0.panelAtTop })
    func theDesktopsOwnLockerHidesTheBannerUntilItGoes(desktop: Desktop) throws {
        let running = try Running(desktop)
        let observer = running.fixture.observer
        let locker = try #require(desktop.locker)
        #expect(try running.run(Self.show(height: 40)).status == 0)
        #expect(observer.wait(timeout: 20) { running.bannerShows() }, "\(desktop.testDescription): the banner never showed")

        let locked = try running.session.run([locker, "--lock"])
        #expect(locked.status == 0, "\(locker) --lock: \(locked.error)")
        #expect(observer.wait(timeout: 30) { (try? running.status())?.contains("hidden: the screen is locked") == true && !running.bannerShows() },
                "\(desktop.testDescription): the banner is not hidden under the locker: \((try? running.status()) ?? "") \(observer.describeStack())")

        let ended = try running.session.run([locker, "--exit"])
        #expect(ended.status == 0, "\(locker) --exit: \(ended.error)")
        #expect(observer.wait(timeout: 30) { running.bannerShows() }, "\(desktop.testDescription): the banner did not come back: \(observer.describeStack())")
        #expect(observer.workAreas().first == running.reserved(40))
    }
}

extension X11DesktopsTests.Running {
    /// `window-banner status`'s output.
    func status() throws -> String {
        let process = try fixture.launch(["status"])
        process.closeStandardInput()
        _ = process.waitForExit(timeout: 20)
        return process.standardOutput
    }
}
