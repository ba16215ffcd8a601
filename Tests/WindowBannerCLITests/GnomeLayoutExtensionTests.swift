// GNOME as people lay it out: Debian 13's GNOME Shell 48 with the layout extensions Debian
// packages — Dash to Panel (its default, one panel at the bottom and no top bar; and at the
// top, on every monitor) and Dash to Dock (fixed on the left, and fixed at the top). Whatever
// holds the top edge, the banner sits directly under it (or at the very edge where nothing
// does) and a maximized window loses exactly the banner's height; when another extension changes
// the layout while a banner shows, the banner follows. Oracles: the shell's own work area, a
// maximized foot's size, the shell's screenshot.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("GNOME 48 with Dash to Panel and Dash to Dock", .serialized, .needsRoot("running a newer Debian's GNOME Shell from a chroot"))
struct GnomeLayoutExtensionTests {
    static let show = GnomeShellExtensionTests.show
    static let blue: UInt32 = 0x2050d0

    @Test func dashToPanelAtItsDefaultLeavesTheTopEdgeToTheBanner() throws {
        let shell = try TestGnomeShell(release: .debian13, withExtension: .enabled, alsoEnabled: [TestGnomeShell.dashToPanel])
        let before = try Self.settledWorkArea(of: shell) { $0.y == 0 && $0.height < 800 }
        try Self.expectTheBannerTakesExactlyItsHeight(on: shell, under: before)
    }

    @Test func dashToPanelAtTheTopOfEveryMonitorHasTheBannerUnderEachPanel() throws {
        let shell = try TestGnomeShell(
            release: .debian13, more: [(1024, 768)], withExtension: .enabled, alsoEnabled: [TestGnomeShell.dashToPanel],
            settings: [["set", "org.gnome.shell.extensions.dash-to-panel", "panel-position", "TOP"]])
        let program = windowBannerExecutable()
        let before = shell.awaitWorkAreas { $0.count == 2 && $0.allSatisfy { $0.y > 0 } }
        #expect(before.count == 2 && before.allSatisfy { $0.y > 0 }, "a panel at the top of each monitor: \(before)")
        #expect(try shell.run([program] + Self.show + ["--monitor", "all"]).status == 0)
        let reserved = before.map { SwayRect(x: $0.x, y: $0.y + 80, width: $0.width, height: $0.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == reserved } == reserved)
        #expect(try shell.run([program, "dismiss", "--all", "--quit"]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == before } == before)
    }

    @Test func dashToDockFixedOnTheLeftLeavesTheBannerUnderTheTopBar() throws {
        let shell = try TestGnomeShell(
            release: .debian13, withExtension: .enabled, alsoEnabled: [TestGnomeShell.dashToDock],
            settings: [["set", "org.gnome.shell.extensions.dash-to-dock", "dock-position", "LEFT"],
                       ["set", "org.gnome.shell.extensions.dash-to-dock", "dock-fixed", "true"]])
        let before = try Self.settledWorkArea(of: shell) { $0.x > 0 && $0.y > 0 }
        try Self.expectTheBannerTakesExactlyItsHeight(on: shell, under: before)
    }

    @Test func dashToDockFixedAtTheTopHasTheBannerUnderTheDock() throws {
        let shell = try TestGnomeShell(
            release: .debian13, withExtension: .enabled, alsoEnabled: [TestGnomeShell.dashToDock],
            settings: [["set", "org.gnome.shell.extensions.dash-to-dock", "dock-position", "TOP"],
                       ["set", "org.gnome.shell.extensions.dash-to-dock", "dock-fixed", "true"]])
        let topBar = try shell.evaluate("Main.layoutManager.panelBox.height")
        let before = try Self.settledWorkArea(of: shell) { $0.y > (Int(TestGnomeShell.evaluated(topBar)) ?? 0) }
        try Self.expectTheBannerTakesExactlyItsHeight(on: shell, under: before)
    }

    /// Hide Top Bar keeping the top bar hidden (no intellihide): nothing holds the top edge.
    @Test func withTheTopBarHiddenTheBannerSitsAtTheEdge() throws {
        let shell = try TestGnomeShell(
            release: .debian13, withExtension: .enabled, alsoEnabled: [TestGnomeShell.hideTopBar],
            settings: [["--schemadir", TestGnomeShell.schemaDirectory(of: TestGnomeShell.hideTopBar), "set",
                        "org.gnome.shell.extensions.hidetopbar", "enable-intellihide", "false"]])
        let before = try Self.settledWorkArea(of: shell) { $0.y == 0 }
        try Self.expectTheBannerTakesExactlyItsHeight(on: shell, under: before)
    }

    /// A dock turned on at the top while the banner shows: the banner moves under it. Where the
    /// dock ends is read first, from the work area with the dock alone.
    @Test func theBannerMovesUnderADockTurnedOnAtTheTopWhileItShows() throws {
        let shell = try TestGnomeShell(
            release: .debian13, withExtension: .enabled,
            settings: [["set", "org.gnome.shell.extensions.dash-to-dock", "dock-position", "TOP"],
                       ["set", "org.gnome.shell.extensions.dash-to-dock", "dock-fixed", "true"]])
        let program = windowBannerExecutable()
        let before = try Self.settledWorkArea(of: shell) { $0.y > 0 }
        #expect(try shell.runInSession(["gnome-extensions", "enable", TestGnomeShell.dashToDock]).status == 0)
        let withDock = try Self.settledWorkArea(of: shell) { $0.y > before.y }
        #expect(try shell.runInSession(["gnome-extensions", "disable", TestGnomeShell.dashToDock]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == [before] } == [before])

        let foot = try shell.startMaximizedFoot()
        try foot.awaitFilling(windowHeight: before.height)
        #expect(try shell.run([program] + Self.show).status == 0)
        let underTheBar = SwayRect(x: before.x, y: before.y + 80, width: before.width, height: before.height - 80)
        #expect(shell.awaitWorkAreas { $0 == [underTheBar] } == [underTheBar])
        try foot.awaitFilling(windowHeight: underTheBar.height)
        let settled = foot.configures()
        #expect(try shell.runInSession(["gnome-extensions", "enable", TestGnomeShell.dashToDock]).status == 0)
        let underTheDock = SwayRect(x: withDock.x, y: withDock.y + 80, width: withDock.width, height: withDock.height - 80)
        #expect(shell.awaitWorkAreas { $0 == [underTheDock] } == [underTheDock])
        try foot.awaitFilling(windowHeight: underTheDock.height)
        // The dock and the banner's move are one re-layout: the window never stops between.
        #expect(foot.configures() == settled + 1, "foot was configured \(foot.configures() - settled) times")
        let shot = try GnomeShellExtensionTests.screen(of: shell, row: withDock.y + 40, showing: Self.blue, width: 1280)
        #expect(shot.pixel(640, withDock.y + 2) == Self.blue && shot.pixel(640, withDock.y + 77) == Self.blue, "the banner is right under the dock")
        #expect(shot.pixel(640, withDock.y - 1) != Self.blue)
        #expect(try shell.run([program, "dismiss", "--all", "--quit"]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == [withDock] } == [withDock])
    }

    /// Another extension changes the layout while the banner shows: Dash to Panel turned off
    /// gives the top bar back (the banner moves under it), turned on again takes it away (the
    /// banner moves back to the edge) — a maximized window keeps losing exactly the banner's height.
    @Test func theBannerFollowsWhenAPanelIsTurnedOffAndOnWhileItShows() throws {
        let shell = try TestGnomeShell(release: .debian13, withExtension: .enabled, alsoEnabled: [TestGnomeShell.dashToPanel])
        let program = windowBannerExecutable()
        let withPanel = try Self.settledWorkArea(of: shell) { $0.y == 0 && $0.height < 800 }
        let foot = try shell.startMaximizedFoot()
        try foot.awaitFilling(windowHeight: withPanel.height)
        #expect(try shell.run([program] + Self.show).status == 0)
        let shrunk = { (area: SwayRect) in SwayRect(x: area.x, y: area.y + 80, width: area.width, height: area.height - 80) }
        #expect(shell.awaitWorkAreas { $0 == [shrunk(withPanel)] } == [shrunk(withPanel)])

        #expect(try shell.runInSession(["gnome-extensions", "disable", TestGnomeShell.dashToPanel]).status == 0)
        let topBar = Int(TestGnomeShell.evaluated(try shell.evaluate("Main.layoutManager.panelBox.height"))) ?? 0
        #expect(topBar > 0)
        let underTheBar = SwayRect(x: 0, y: topBar + 80, width: 1280, height: 800 - topBar - 80)
        #expect(shell.awaitWorkAreas { $0 == [underTheBar] } == [underTheBar])
        try foot.awaitFilling(windowHeight: underTheBar.height)
        let shot = try GnomeShellExtensionTests.screen(of: shell, row: topBar + 40, showing: Self.blue, width: 1280)
        #expect(shot.pixel(640, topBar + 40) == Self.blue && shot.pixel(640, topBar - 1) != Self.blue, "the banner is right under the top bar")

        #expect(try shell.runInSession(["gnome-extensions", "enable", TestGnomeShell.dashToPanel]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == [shrunk(withPanel)] } == [shrunk(withPanel)])
        try foot.awaitFilling(windowHeight: withPanel.height - 80)
        #expect(try GnomeShellExtensionTests.screen(of: shell, row: 40, showing: Self.blue, width: 1280).pixel(640, 40) == Self.blue)
        #expect(try shell.run([program, "dismiss", "--all", "--quit"]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == [withPanel] } == [withPanel])
        try foot.awaitFilling(windowHeight: withPanel.height)
    }

    // MARK: Helpers

    /// The one monitor's work area once the layout extension has made it what `condition` says
    /// (extensions lay out after the shell starts), and has held it for a moment.
    static func settledWorkArea(of shell: TestGnomeShell, _ condition: (SwayRect) -> Bool) throws -> SwayRect {
        let areas = shell.awaitWorkAreas { $0.count == 1 && condition($0[0]) }
        let area = try #require(areas.first.flatMap { condition($0) ? $0 : nil }, "the layout extension did not lay out: \(areas) \(shell.log)")
        return area
    }

    /// Shows the banner and checks it sits at `before`'s top (directly under whatever holds the
    /// top edge, or at the edge) and that a maximized foot loses exactly its 80 px; then
    /// dismisses it and checks everything is given back.
    static func expectTheBannerTakesExactlyItsHeight(on shell: TestGnomeShell, under before: SwayRect) throws {
        let program = windowBannerExecutable()
        let foot = try shell.startMaximizedFoot()
        try foot.awaitFilling(windowHeight: before.height)
        let shown = try shell.run([program] + show)
        #expect(shown.status == 0, "\(shown.error)")
        let reserved = SwayRect(x: before.x, y: before.y + 80, width: before.width, height: before.height - 80)
        #expect(shell.awaitWorkAreas { $0 == [reserved] } == [reserved])
        try foot.awaitFilling(windowHeight: before.height - 80)
        let middle = before.x + before.width / 2
        let shot = try GnomeShellExtensionTests.screen(of: shell, row: before.y + 40, showing: blue, width: 1280)
        #expect(shot.pixel(middle, before.y + 2) == blue && shot.pixel(middle, before.y + 77) == blue, "the banner fills its 80 px under \(before.y)")
        if before.y > 0 {
            #expect(shot.pixel(middle, before.y - 1) != blue, "the banner starts right under what holds the top edge, not above it")
        }
        #expect(try shell.run([program, "dismiss", "--all", "--quit"]).status == 0)
        #expect(shell.awaitWorkAreas { $0 == [before] } == [before])
        try foot.awaitFilling(windowHeight: before.height)
    }
}
