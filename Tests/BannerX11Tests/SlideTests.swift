// The slide: frame positions follow the ease-out curve down and the ease-in curve up, the
// server sees every position the host sent, and the banner ends exactly at the monitor's top
// edge. How many frames a slide gets depends on the machine's speed, so no test counts them:
// each asserts where the frames it saw lie.

import BannerCore
import BannerRuntime
import BannerX11
import CX11
import MonotonicClock
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Slide animation")
    struct SlideTests {
        @Test func slideInFollowsEaseOutAndEndsAtTheTopEdge() throws {
            let fixture = try Fixture()
            var frames: [RenderedFrame] = []
            var content: Window?
            fixture.host.onFrame = { [unowned fixture] frame in
                frames.append(frame)
                if content == nil { content = fixture.watchBannerContent() }
            }
            fixture.host.compactPolicy = .never
            fixture.observer.clearRecords()
            let before = monotonicNow()
            try fixture.host.presentTopBanner { $0.title("Sliding in") }
            let after = monotonicNow()
            #expect(fixture.run { fixture.host.phase == .presented })

            #expect(frames.contains { $0.visibleHeight > 0 && $0.visibleHeight < 80 }, "no frame part-way: \(frames.map(\.visibleHeight))")
            #expect(frames.last?.contentOffset == 0)
            #expect(frames.last?.visibleHeight == 80)
            #expect(frames.last?.reservedHeight == 80)
            // The slide starts one frame slot before the present call, so its first frame, drawn
            // at once, already shows the banner's first rows.
            let lead = FramePacer().interval
            #expect((frames.first?.visibleHeight ?? 0) > 0)
            for frame in frames {
                #expect(frame.bannerHeight == 80)
                #expect(frame.visibleHeight == Int((80 * frame.reveal).rounded()))
                #expect(frame.contentOffset == frame.visibleHeight - 80)
                let early = EasingCurve.easeOut.value(at: (frame.time - after + lead) / 0.25)
                let late = EasingCurve.easeOut.value(at: (frame.time - before + lead) / 0.25)
                #expect(frame.reveal >= early - 1e-9 && frame.reveal <= late + 1e-9, "reveal \(frame.reveal) off the curve")
            }
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.visibleHeight <= $1.visibleHeight })
            // Each frame a new moment (the pacing to 60 fps slots itself is FramePacer's, tested
            // on a manual clock in BannerCoreTests, and measured by `make bench`).
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time })
            // The last frame is drawn at or after the slide's end, never cut short.
            #expect(try #require(frames.last).time - before + lead >= 0.25)

            // The X server saw what the host sent. Nothing lies above this monitor, so the
            // whole banner moves down as one window (one request per frame): always 80 px tall,
            // its top edge at each frame's offset, and the content inside it never moved.
            let banner = fixture.host.bannerWindowID
            let window = fixture.observer.configures.filter { $0.window == banner }
            #expect(window.allSatisfy { $0.height == 80 })
            let sentOffsets = Set(frames.dropFirst().map(\.contentOffset))
            #expect(sentOffsets.isSubset(of: Set(window.map(\.y))), "offsets \(sentOffsets), seen \(window.map(\.y))")
            #expect(fixture.observer.configures.filter { $0.window == content }.isEmpty)
        }

        /// A monitor above: the banner slides in through a clip at its monitor's top edge, so
        /// the rows not yet shown never appear at the bottom of the monitor above.
        @Test func belowAnotherMonitorTheBannerIsClippedAtItsTopEdge() throws {
            let top = MonitorGeometry(x: 0, y: 0, width: 1280, height: 400)
            let bottom = MonitorGeometry(x: 0, y: 400, width: 1280, height: 400)
            let fixture = try Fixture(setup: [
                HotPlugTests.setMonitor("top", top, output: "screen"),
                HotPlugTests.setMonitor("bottom", bottom, output: "none"),
            ])
            let host = try fixture.display.host(named: "bottom")
            host.compactPolicy = .never
            var frames: [RenderedFrame] = []
            var content: Window?
            host.onFrame = { [unowned fixture, unowned host] frame in
                frames.append(frame)
                if content == nil {
                    content = fixture.observer.children(of: Window(host.bannerWindowID)).first
                    content.map(fixture.observer.watchStructure(of:))
                }
            }
            fixture.observer.clearRecords()
            try host.presentTopBanner { $0.title("Below").backgroundColor(.systemRed) }
            #expect(fixture.run { host.phase == .presented })
            #expect(frames.contains { $0.visibleHeight > 0 && $0.visibleHeight < 80 }, "no frame part-way: \(frames.map(\.visibleHeight))")

            let clip = fixture.observer.configures.filter { $0.window == host.bannerWindowID }
            #expect(clip.allSatisfy { $0.y == 400 })
            let sentHeights = Set(frames.dropFirst().map(\.visibleHeight))
            #expect(sentHeights.isSubset(of: Set(clip.map(\.height))), "heights \(sentHeights), seen \(clip.map(\.height))")
            let moved = fixture.observer.configures.filter { $0.window == content }
            let sentOffsets = Set(frames.dropFirst().map(\.contentOffset))
            #expect(sentOffsets.isSubset(of: Set(moved.map(\.y))), "offsets \(sentOffsets), seen \(moved.map(\.y))")
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func slideOutFollowsEaseInAndGivesTheSpaceBackAtTheEnd() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Sliding out") })
            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }
            let before = monotonicNow()
            fixture.host.dismissTopBanner()
            let after = monotonicNow()
            #expect(fixture.run { fixture.host.phase == .hidden })

            #expect(frames.contains { $0.visibleHeight > 0 && $0.visibleHeight < 80 }, "no frame part-way: \(frames.map(\.visibleHeight))")
            for frame in frames {
                let early = 1 - EasingCurve.easeIn.value(at: (frame.time - before) / 0.25)
                let late = 1 - EasingCurve.easeIn.value(at: (frame.time - after) / 0.25)
                #expect(frame.reveal >= early - 1e-9 && frame.reveal <= late + 1e-9, "reveal \(frame.reveal) off the curve")
                // The space stays reserved until the banner is gone: given back once, at the end.
                #expect(frame.reservedHeight == 80)
                #expect(frame.contentOffset == frame.visibleHeight - 80)
            }
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.visibleHeight >= $1.visibleHeight })
            #expect(fixture.host.reservedHeight == 0)
            #expect(fixture.host.bannerWindowID == 0)
        }

        @Test func dismissDuringSlideInReversesFromWhereTheBannerIs() throws {
            let fixture = try Fixture()
            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Changed my mind") }
            // The first frame, drawn at once, is part-way down: turn back there.
            #expect(fixture.run { !frames.isEmpty })
            fixture.host.dismissTopBanner()
            #expect(fixture.host.isBannerPresented == false)
            #expect(fixture.run { fixture.host.phase == .hidden })
            // Up then down without a jump: the turn is at the highest point, far from fully shown.
            let positions = frames.map(\.visibleHeight)
            let peak = try #require(positions.max())
            let turn = try #require(positions.firstIndex(of: peak))
            #expect(peak < 80)
            #expect(positions[..<turn].elementsEqual(positions[..<turn].sorted()))
            #expect(positions[turn...].elementsEqual(positions[turn...].sorted(by: >)))
        }
    }

    @Suite("Drawing")
    struct DrawingTests {
        static let red = Pixel(hex: 0xFF3B30)
        static let white = Pixel(hex: 0xFFFFFF)

        @Test func bannerShowsBackgroundColourAndCentredTitle() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("No Internet Connection").backgroundColor(.systemRed).textColor(.white) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            for (x, y) in [(0, 0), (1279, 0), (0, 79), (1279, 79), (640, 2)] {
                #expect(shot.pixel(x: x, y: y) == Self.red)
            }
            #expect(shot.count(matching: Self.white, tolerance: 40) > 100)
            let columns = shot.columns(matching: Self.white, tolerance: 40)
            let left = try #require(columns.first)
            let right = try #require(columns.last)
            #expect(abs((left + right) / 2 - 640) <= 3, "title spans \(left)...\(right)")
            // Below the 20 pt inset: no text pixels in the inset.
            let inset = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 20)))
            #expect(inset.count(matching: Self.white, tolerance: 40) == 0)
        }

        @Test func emptyTitleDrawsNoText() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.backgroundColor(.systemRed) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.count(matching: Self.red, tolerance: 0) == 1280 * 80)
        }

        @Test func titleWiderThanTheMonitorIsEllipsizedInsideThePadding() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let long = String(repeating: "Connection lost, retrying ", count: 20)
            #expect(try fixture.presentAndSettle(height: 80) { $0.title(long).backgroundColor(.systemRed) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            let columns = shot.columns(matching: Self.white, tolerance: 40)
            let left = try #require(columns.first)
            let right = try #require(columns.last)
            #expect(left >= 12 && right <= 1280 - 12, "title spans \(left)...\(right)")
            #expect(right - left > 1100, "an ellipsized title still fills the width")
        }

        @Test func x11ColourNamesAreResolvedByTheServer() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.backgroundColor(try! BannerColor(parsing: "SteelBlue")) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: 5, y: 5) == Pixel(hex: 0x4682B4))
        }
    }
}
