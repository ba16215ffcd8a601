// `--placement` and the config key `placement` as scripts use them on a desktop with a status
// bar: below the panel by default, over it with `screen-edge`, and a bad value refused with one
// line while the banner on screen stays.

import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: placement under a status bar")
    struct PlacementCLITests {
        /// An owner fixture with a 30 px stand-in panel whose strut the WM has applied.
        static func withPanel() throws -> (OwnerFixture, StandInPanel) {
            let owner = try OwnerFixture()
            let panel = try StandInPanel(displayName: owner.fixture.desktop.displayName, height: 30)
            #expect(owner.observer.wait { owner.observer.workAreas().first?.y == 30 })
            return (owner, panel)
        }

        @Test func showSitsUnderThePanelByDefaultAndOverItWithScreenEdge() throws {
            let (owner, panel) = try Self.withPanel()
            defer { panel.close() }
            try owner.show(["--title", "Under the bar", "--compact", "never"])
            #expect(owner.observer.wait {
                owner.fixture.bannerGeometry == Rect(x: 0, y: 30, width: 1280, height: 80) && owner.observer.workAreas().first?.y == 110
            }, "banner \(String(describing: owner.fixture.bannerGeometry)), work area \(owner.observer.workAreas())")

            try owner.show(["--title", "Over the bar", "--compact", "never", "--placement", "screen-edge"])
            #expect(owner.observer.wait {
                owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80) && owner.observer.workAreas().first?.y == 80
            }, "banner \(String(describing: owner.fixture.bannerGeometry)), work area \(owner.observer.workAreas())")

            // A bad value: one line, exit 64, the banner and its reservation untouched.
            let refused = try owner.run(["show", "--title", "Never", "--placement", "middle"])
            #expect(refused.status == 64)
            #expect(refused.error == "window-banner: bad placement 'middle' (below-panels or screen-edge)\n")
            #expect(owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
            #expect(try owner.status().title == "Over the bar")
        }

        @Test func theConfigFilesDefaultsChooseThePlacement() throws {
            let (owner, panel) = try Self.withPanel()
            defer { panel.close() }
            _ = try owner.writeConfig("[defaults]\nplacement = \"screen-edge\"\ncompact = \"never\"\n")
            try owner.show(["--title", "From the config"])
            #expect(owner.observer.wait {
                owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80) && owner.observer.workAreas().first?.y == 80
            }, "banner \(String(describing: owner.fixture.bannerGeometry))")
            // The flag wins over the file.
            try owner.show(["--title", "From the flag", "--placement", "below-panels"])
            #expect(owner.observer.wait {
                owner.fixture.bannerGeometry == Rect(x: 0, y: 30, width: 1280, height: 80) && owner.observer.workAreas().first?.y == 110
            }, "banner \(String(describing: owner.fixture.bannerGeometry))")
        }

        @Test func monitorRefusesABadPlacementBeforeWatchingAnything() throws {
            let owner = try OwnerFixture()
            let refused = try owner.run(["monitor", "--placement", "top"])
            #expect(refused.status == 64)
            #expect(refused.error == "window-banner: bad placement 'top' (below-panels or screen-edge)\n")
            #expect(owner.ownerProcesses().isEmpty)
        }
    }
}
