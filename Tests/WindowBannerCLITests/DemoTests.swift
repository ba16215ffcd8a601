// `window-banner demo`: the offline → back online sequence, each stage printed as it is reached.

import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("demo")
    struct DemoTests {
        @Test func demoPrintsEveryStageInOrderAndGivesTheSpaceBack() throws {
            let fixture = try Fixture()
            let demo = try fixture.launch(["demo", "--hold", "0.1", "--compact", "never"])
            #expect(demo.readLine(timeout: 10) == "offline")
            // The demo prints once its banner is in; the window manager reserves the space in its own time.
            #expect(fixture.waitForReservation(height: 80), "work areas \(fixture.observer.workAreas())")
            #expect(demo.readLine(timeout: 10) == "mid-fade")
            #expect(demo.readLine(timeout: 10) == "online")
            #expect(demo.readLine(timeout: 10) == "dismissed")
            #expect(demo.waitForExit() == 0)
            #expect(fixture.waitForRestoredDesktop())
        }

        @Test(arguments: ["0", "0.5", "101", "slow"])
        func badSlowMotionFactorExitsSixtyFour(factor: String) throws {
            let fixture = try Fixture()
            let demo = try fixture.launch(["demo", "--slow-motion", factor])
            #expect(demo.waitForExit() == 64)
            #expect(demo.standardError.contains("'\(factor)'"))
            #expect(fixture.mappedWindows().isEmpty)
        }
    }
}
