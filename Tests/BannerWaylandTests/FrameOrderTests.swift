// Wayland's host held to the controller's one frame path (`frameOrderProblems`, which the fake
// monitors and the X11 and GNOME hosts are held to too), on a headless sway: each frame drawn
// before the milestone it reaches — the milestones of a frame that releases the surface too —
// and a cross-fade between two heights under a zone that grows once.

import BannerCore
@testable import BannerWayland
import EmbeddedTestSupport
import Testing
import WaylandTestSupport

extension BannerWaylandTests {
    @Suite("One frame order, on Wayland")
    struct FrameOrderTests {
        @Test func framesComeBeforeTheirMilestonesAndACrossFadeIsBetweenTheTwoLooks() throws {
            let sway = try TestSway()
            // A 1 s fade: frames land part-way through it however slow the machine.
            let display = try WaylandDisplay(name: sway.socketPath, timing: BannerTiming(crossFadeDuration: 1))
            defer { display.close() }
            let host = try #require(display.preferredHost)
            let problems = try frameOrderProblems(on: host) { condition in try WaylandHostTests.serve(display, until: condition) }
            #expect(problems == [])
        }
    }
}
