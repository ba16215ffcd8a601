// The one frame path: the controller composes every frame (looks, the height and radius between
// two looks during a cross-fade, the reservation, the placement) and reports it in one order —
// the surface draws, then `onFrame`, then the milestones reached at that frame. Here on a fake
// surface and on the embedded display's fake monitors (which the owner's and the monitor's unit
// tests run on); the X11, Wayland and GNOME suites hold the real hosts to the same scenario
// (`frameOrderProblems`).

import BannerCore
import BannerRuntime
import EmbeddedTestSupport
import MonotonicClock
import Testing

@Suite("One frame path, one order")
struct FrameOrderTests {
    @Test func theSurfaceDrawsThenOnFrameThenTheMilestone() throws {
        let clock = TestClock()
        let surface = FakeSurface()
        let controller = BannerController(surface: surface, timing: .standard, clock: { [clock] in clock.now })
        controller.compactPolicy = .never
        var heard: [String] = []
        controller.onFrame = { heard.append("frame \($0.reveal)") }
        controller.onMilestone = { heard.append("\($0)") }
        try controller.present(try TopBannerConfigBuilder().title("Call in progress").build())
        let start = controller.frameOrigin

        controller.renderFrame(at: start + 0.1)
        #expect(surface.calls == ["draw", "schedule"])
        controller.renderFrame(at: start + 0.25)
        // Fully down: drawn, nothing more scheduled, then heard — the frame before the milestone.
        #expect(surface.calls == ["draw", "schedule", "draw"])
        #expect(heard.suffix(2) == ["frame 1.0", "presentationFinished"])

        controller.dismiss()
        clock.advance(by: 1)
        controller.renderFrame(at: clock.now)
        #expect(surface.calls.last == "gone")
        #expect(heard.last == "dismissalFinished")
    }

    @Test func aCrossFadeIsComposedBetweenTheTwoLooks() throws {
        let clock = TestClock()
        let surface = FakeSurface()
        let controller = BannerController(surface: surface, timing: .standard, clock: { [clock] in clock.now })
        controller.compactPolicy = .never
        let short = try TopBannerConfigBuilder().title("Call in progress").height(40).cornerRadius(4).build()
        let tall = try TopBannerConfigBuilder().title("Call in progress").subtitle("Alex · 02:14").height(64).cornerRadius(16).build()
        try controller.present(short)
        controller.renderFrame(at: controller.frameOrigin + 1)
        try controller.present(tall)
        controller.renderFrame(at: controller.frameOrigin + 0.1)

        let halfway = try #require(surface.drawn.last)
        #expect(abs(halfway.frame.fadeProgress - 0.5) < 1e-9)
        #expect(halfway.old?.height == 40 && halfway.new.height == 64)
        #expect(halfway.height == 52)
        #expect(halfway.cornerRadius == 10)
        #expect(halfway.reservedHeight == 64)
        #expect(halfway.placement == BannerPlacement(visibleHeight: 52, contentOffset: 0, reservedHeight: 64))
        #expect(halfway.content.height == 52 && halfway.content.width == 1280)
        #expect(halfway.content.progress == halfway.frame.fadeProgress)
        // A surface not yet resized to the reservation holds what fits.
        let fitted = halfway.fitted(toSurfaceHeight: 40)
        #expect(fitted.height == 40 && fitted.content.height == 40)
        #expect(fitted.rendered(panelInset: 0).reservedHeight == 40)
    }

    @Test func theFakeMonitorKeepsTheOrderAndModelsCrossFades() throws {
        let embedded = EmbeddedLoop()
        let display = FakeDisplay(embedded: embedded)
        let host = try #require(display.preferredHost)
        let problems = try frameOrderProblems(on: host) { condition in embedded.run(for: 5, until: condition) }
        #expect(problems == [])
    }
}
