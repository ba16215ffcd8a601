// Reduce motion on a real server: every frame shows the whole banner — no intermediate
// position on the way in or out — and the space is reserved in full from the first frame.

import BannerCore
@testable import BannerX11
import BannerRuntime
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Reduce motion drawing")
    struct ReduceMotionDrawingTests {
        @Test func everyFrameShowsTheWholeBannerAndTheSpaceIsReservedAtOnce() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            fixture.host.compactPolicy = .never
            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }
            try fixture.host.presentTopBanner { $0.title("Call in progress").reduceMotion() }
            #expect(fixture.run { fixture.host.phase == .presented && !frames.isEmpty })
            #expect(fixture.display.runUntilIdle())
            #expect(frames.first?.visibleHeight == 80)
            #expect(frames.first?.reservedHeight == 80)
            #expect(fixture.run { fixture.observer.workAreas() == Fixture.shrunk(before, by: 80) })

            let banner = fixture.host.bannerWindowID
            fixture.observer.clearRecords()
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            #expect(frames.allSatisfy { $0.visibleHeight == 80 }, "\(frames.map(\.visibleHeight))")
            // The banner window was never moved or resized on its way out.
            #expect(fixture.observer.configures.filter { $0.window == banner }.allSatisfy { $0.height == 80 })
            #expect(fixture.run { fixture.observer.workAreas() == before })
        }
    }
}
