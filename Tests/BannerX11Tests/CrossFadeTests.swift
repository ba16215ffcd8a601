// Presenting while a banner is visible updates it in place: a 0.2 s cross-fade with no slide,
// the background blending and one title always readable; a new height animates and the
// reservation follows it; the same look again changes nothing. Checked on the server's pixels,
// as properties of the frames drawn (how many there are depends on the machine's speed, and
// pacing is `make bench`'s and the core's manual-clock tests' business).

import BannerCore
import BannerRuntime
import BannerX11
import CX11
import MonotonicClock
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Cross-fade")
    struct CrossFadeTests {
        static let red = RGBA(hex: 0xFF3B30)
        static let blue = RGBA(hex: 0x007AFF)
        /// Around the centred titles, clear of the window's corners.
        static let titleArea = Rect(x: 440, y: 0, width: 400, height: 80)

        static func pixel(_ colour: RGBA) -> Pixel {
            func byte(_ value: Double) -> Int { Int((value * 255).rounded()) }
            return Pixel(red: byte(colour.red), green: byte(colour.green), blue: byte(colour.blue))
        }

        /// True when every channel of `pixel` lies strictly between those of `a` and `b` (or
        /// equals them where they agree).
        static func isStrictlyBetween(_ pixel: Pixel, _ a: Pixel, _ b: Pixel) -> Bool {
            func between(_ value: Int, _ x: Int, _ y: Int) -> Bool { x == y ? value == x : min(x, y) < value && value < max(x, y) }
            return between(pixel.red, a.red, b.red) && between(pixel.green, a.green, b.green) && between(pixel.blue, a.blue, b.blue)
        }

        @Test func updateInPlaceCrossFadesWithoutSlidingOrFlicker() throws {
            // A fade of 1 s rather than 0.2: the frames this test looks at (a screenshot each)
            // land part-way through it even where each takes long (AddressSanitizer, a loaded
            // machine); the 0.2 s itself is the core's business, on its manual clock.
            let duration = 1.0
            let fixture = try Fixture(timing: BannerTiming(crossFadeDuration: duration))
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Connecting…").backgroundColor(.systemRed) })
            let settledWorkAreas = observer.workAreas()
            let banner = fixture.host.bannerWindowID
            observer.clearRecords()

            var frames: [RenderedFrame] = []
            var windowIDs: Set<UInt> = []
            var withoutTitle: [Double] = []
            var backgrounds: [Pixel] = []
            fixture.host.onFrame = { [unowned fixture] frame in
                frames.append(frame)
                windowIDs.insert(fixture.host.bannerWindowID)
                guard let shot = observer.screenshot(Self.titleArea) else { return }
                // The area's left edge is far from both titles: pure background.
                let background = shot.pixel(x: Self.titleArea.x, y: 2)
                backgrounds.append(background)
                let text = Self.titleArea.width * Self.titleArea.height - shot.count(matching: background, tolerance: 40)
                if text < 50 { withoutTitle.append(frame.fadeProgress) }
            }
            let start = monotonicNow()
            try fixture.host.presentTopBanner { $0.title("Connected").backgroundColor(.systemBlue) }
            #expect(fixture.run { frames.last?.fadeProgress == 1 })
            #expect(fixture.display.runUntilIdle())

            // However fast the machine draws: frames fading forward, each at the top edge, fully
            // shown, never resized, and the first drawn at once already changing pixels (the fade
            // starts one frame slot back).
            #expect((frames.first?.fadeProgress ?? 0) > 0, "first frame at fade \(frames.first?.fadeProgress ?? 0)")
            #expect(frames.contains { $0.fadeProgress > 0 && $0.fadeProgress < 1 }, "no frame between the looks: \(frames.map(\.fadeProgress))")
            let last = try #require(frames.last)
            // Never cut short: the last frame is drawn at or after the fade's end.
            #expect(last.time - start >= duration - 1 / 60.0)
            for frame in frames {
                #expect(frame.reveal == 1)
                #expect(frame.contentOffset == 0)
                #expect(frame.visibleHeight == 80)
                #expect(frame.bannerHeight == 80)
                #expect(frame.reservedHeight == 80)
            }
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.fadeProgress <= $1.fadeProgress })
            // The same window all along, never unmapped, never moved.
            #expect(windowIDs == [banner])
            observer.drainEvents()
            #expect(!observer.unmaps.contains(banner))
            #expect(observer.configures.filter { $0.window == banner }.allSatisfy { $0.y == 0 && $0.height == 80 })
            #expect(observer.workAreas() == settledWorkAreas)

            // One of the titles is on screen in every frame.
            #expect(withoutTitle.isEmpty, "no title at fade progress \(withoutTitle)")

            // In between, the background is a blend of the two colours, the one each frame asked
            // for: the frame nearest half-way (wherever the machine's speed put the frames) is
            // strictly between the two.
            #expect(backgrounds.count == frames.count)
            let fading = zip(frames, backgrounds).filter { $0.0.fadeProgress < 1 }
            let (frame, background) = try #require(fading.min { abs($0.0.fadeProgress - 0.5) < abs($1.0.fadeProgress - 0.5) })
            #expect(Self.isStrictlyBetween(background, Self.pixel(Self.red), Self.pixel(Self.blue)), "background \(background) at \(frame.fadeProgress)")
            for (frame, background) in fading {
                let expected = Self.pixel(Self.red.blended(with: Self.blue, fraction: frame.fadeProgress))
                #expect(background.distance(to: expected) <= 2, "background \(background), expected \(expected) at \(frame.fadeProgress)")
            }

            // And it ends on the new look.
            let end = try #require(observer.screenshot(Self.titleArea))
            #expect(end.pixel(x: Self.titleArea.x, y: 2) == Self.pixel(Self.blue))
            #expect(end.count(matching: Pixel(hex: 0xFFFFFF), tolerance: 40) > 50)
        }

        @Test func heightChangeAnimatesAndTheReservationChangesOnce() throws {
            // 1 s, so that some frame lands part-way at any speed (see above).
            let fixture = try Fixture(timing: BannerTiming(crossFadeDuration: 1))
            let observer = fixture.observer
            let before = observer.workAreas()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call in progress") })
            let banner = fixture.host.bannerWindowID
            observer.clearRecords()

            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }
            try fixture.host.presentTopBanner { $0.title("Call in progress — 2 participants").height(120) }
            let taller = Fixture.shrunk(before, by: 120)
            #expect(fixture.run { frames.last?.fadeProgress == 1 && observer.workAreas() == taller })
            // Everything after the change, as far as this process goes: the reservation must stay put.
            #expect(fixture.settle())

            // The banner grows with the fade, always fully shown, into space reserved for its new
            // height from the fade's first frame.
            let heights = frames.map(\.bannerHeight)
            #expect(heights.first == 80)
            #expect(heights.last == 120)
            #expect(heights.contains { $0 > 80 && $0 < 120 }, "heights \(heights)")
            #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 <= $1 }, "heights \(heights)")
            for frame in frames {
                #expect(frame.contentOffset == 0)
                #expect(frame.visibleHeight == frame.bannerHeight)
                #expect(frame.reservedHeight == 120)
            }
            // The server saw the banner grow in place at the top edge.
            let clip = observer.configures.filter { $0.window == banner }
            #expect(clip.allSatisfy { $0.y == 0 })
            #expect(Set(heights).subtracting([80]).isSubset(of: Set(clip.map(\.height))))

            // The work area changed once, straight to the new height (a WM may publish the same
            // value again, never one in between).
            let history = observer.workAreaHistory
            let reservations = history.map { areas in (80...120).first { Fixture.shrunk(before, by: $0) == areas } }
            #expect(reservations.allSatisfy { $0 == 80 || $0 == 120 }, "work areas \(history)")
            let reserved = reservations.compactMap { $0 }
            #expect(zip(reserved, reserved.dropFirst()).allSatisfy { $0 <= $1 }, "reservations \(reserved)")
            #expect(observer.workAreas() == taller)
            #expect(fixture.host.reservedHeight == 120)
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            #expect(observer.cardinals(dock, "_NET_WM_STRUT_PARTIAL") == [0, 0, 120, 0, 0, 0, 0, 0, 0, 1279, 0, 0])
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 120))
        }

        @Test func presentingTheSameAppearanceAgainDoesNothing() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Unchanged").backgroundColor(.systemRed) })
            let banner = fixture.host.bannerWindowID
            observer.clearRecords()
            var frames = 0
            fixture.host.onFrame = { _ in frames += 1 }

            try fixture.host.presentTopBanner { $0.title("Unchanged").backgroundColor(.systemRed) }
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.settle())

            #expect(frames == 0)
            #expect(fixture.host.bannerWindowID == banner)
            #expect(observer.configures.filter { $0.window == banner }.isEmpty)
            #expect(observer.workAreaHistory.isEmpty)
        }
    }
}
