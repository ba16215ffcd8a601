// X11's host held to the controller's one frame path (`frameOrderProblems`, which the fake
// monitors and the Wayland and GNOME hosts are held to too): each frame drawn before the
// milestone it reaches, a cross-fade between two heights under a reservation that grows once.

import BannerCore
import EmbeddedTestSupport
import Testing

extension BannerX11Tests {
    @Suite("One frame order, on X11")
    struct FrameOrderTests {
        @Test func framesComeBeforeTheirMilestonesAndACrossFadeIsBetweenTheTwoLooks() throws {
            // A 1 s fade: frames land part-way through it however slow the machine.
            let fixture = try Fixture(timing: BannerTiming(crossFadeDuration: 1))
            let problems = try frameOrderProblems(on: fixture.host) { condition in fixture.run(until: condition) }
            #expect(problems == [])
        }
    }
}
