// The progress bar as the server shows it: 3 px along the bottom edge in the text colour, as
// wide as the value says, and moved — not cross-faded — by a new value, frame by frame.

import BannerCore
import BannerRuntime
import BannerX11
import CX11
import MonotonicClock
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Progress bar")
    struct ProgressBarTests {
        static let white = Pixel(hex: 0xFFFFFF)
        /// Around the centred title, away from the bar.
        static let titleArea = Rect(x: 440, y: 20, width: 400, height: 50)

        /// Pixels of row `y` (root) in the text colour.
        static func barWidth(_ observer: XObserver, row y: Int = 78) -> Int? {
            observer.screenshot(Rect(x: 0, y: y, width: 1280, height: 1))?.count(matching: white, tolerance: 8)
        }

        static func upload(_ progress: Double) -> (inout TopBannerConfigBuilder) -> Void {
            { $0.title("Uploading").backgroundColor(.systemRed).textColor(.white).progress(progress) }
        }

        @Test(arguments: [(0.25, 320), (0.0, 0), (1.0, 1280), (0.6, 768)])
        func barWidthInPixelsMatchesTheValue(progress: Double, pixels: Int) throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80, Self.upload(progress)))
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(fixture.observer.describeStack())")
            for row in 77...79 {
                let width = try #require(Self.barWidth(fixture.observer, row: row))
                #expect(abs(width - pixels) <= 2, "row \(row): \(width) px for \(progress)")
            }
            // 3 px thick: the row above is background and track only.
            #expect(Self.barWidth(fixture.observer, row: 76) == 0)
            // The rest of the bottom rows is the track: the text colour at 25 % over the background.
            if pixels < 1280 {
                let track = try #require(fixture.observer.screenshot(Rect(x: 1279, y: 78, width: 1, height: 1))).pixel(x: 1279, y: 78)
                #expect(track.distance(to: Pixel(hex: 0xFF3B30).blended(with: Self.white, fraction: 0.25)) <= 2, "track \(track)")
            }
        }

        @Test func newValueMovesTheBarSmoothlyWithoutCrossFading() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80, Self.upload(0.25)))
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(observer.describeStack())")
            let title = try #require(observer.screenshot(Self.titleArea))
            let workAreas = observer.workAreas()
            let banner = fixture.host.bannerWindowID
            observer.clearRecords()

            var frames: [RenderedFrame] = []
            var widths: [Int] = []
            var titleChanged: [Double] = []
            fixture.host.onFrame = { frame in
                frames.append(frame)
                widths.append(Self.barWidth(observer) ?? -1)
                if observer.screenshot(Self.titleArea) != title { titleChanged.append(frame.progress ?? -1) }
            }
            let start = monotonicNow()
            #expect(try fixture.host.presentTopBanner(TopBannerConfigBuilder().title("Uploading").backgroundColor(.systemRed).textColor(.white).progress(0.6).build()))
            #expect(fixture.run { frames.last?.progress == 0.6 })
            #expect(fixture.display.runUntilIdle())

            // Never a cross-fade: every frame fully the new look. However many frames the
            // machine's speed allows, the last is drawn at or after the 0.2 s move's end (it
            // starts one frame slot back, so the first frame drawn already changes pixels).
            let last = try #require(frames.last)
            #expect(last.time - start >= 0.2 - 1 / 60.0)
            #expect(frames.allSatisfy { $0.fadeProgress == 1 && $0.reveal == 1 && $0.bannerHeight == 80 })
            let values = frames.compactMap(\.progress)
            #expect(values.count == frames.count)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "progress \(values)")
            // The title's pixels never changed: nothing faded.
            #expect(titleChanged.isEmpty, "title redrawn differently at progress \(titleChanged)")
            // The server showed the bar in between, growing, and at 768 px at the end.
            #expect(widths.contains { $0 > 330 && $0 < 758 }, "bar widths \(widths)")
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 <= $1 }, "bar widths \(widths)")
            #expect(abs((widths.last ?? 0) - 768) <= 2)
            // Ease-out: past half-way by the middle of the move.
            let middle = try #require(frames.first { $0.time - start >= 0.1 })
            #expect((middle.progress ?? 0) > 0.425)
            // Same window, never unmapped or moved; the reservation untouched.
            #expect(fixture.host.bannerWindowID == banner)
            observer.drainEvents()
            #expect(!observer.unmaps.contains(banner))
            #expect(observer.configures.filter { $0.window == banner }.isEmpty)
            #expect(observer.workAreaHistory.isEmpty)
            #expect(observer.workAreas() == workAreas)
        }
    }
}
