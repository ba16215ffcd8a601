// Rounded bottom corners as the user sees them: cut from the banner with XShape, so the
// desktop shows in the corners (the dock under the banner is cut the same way) while the middle
// of the bottom edge is the banner's colour; the cut follows the bottom edge as the banner slides
// and as its height changes; clicks in a cut corner go past the banner.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Rounded corners")
    struct RoundedCornerTests {
        static let desktop = Pixel(hex: 0x123456)
        static let red = Pixel(hex: 0xFF3B30)

        /// A desktop whose background is one known colour: what a cut corner must show.
        static func fixture(timing: BannerTiming = .standard) throws -> Fixture {
            let fixture = try Fixture(timing: timing)
            try fixture.desktop.run(["xsetroot", "-solid", "#123456"])
            fixture.host.compactPolicy = .never
            return fixture
        }

        /// Each row's covered columns as runs (`x…x`), so outlines compare however the server
        /// bands and merges their rectangles.
        static func coverage(_ rects: [Rect], height: Int) -> [String] {
            (0..<height).map { row in
                var runs: [ClosedRange<Int>] = []
                for rect in rects.filter({ $0.y <= row && row < $0.y + $0.height }).sorted(by: { $0.x < $1.x }) where rect.width > 0 {
                    let run = rect.x...(rect.x + rect.width - 1)
                    if let last = runs.last, last.upperBound + 1 >= run.lowerBound {
                        runs[runs.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
                    } else {
                        runs.append(run)
                    }
                }
                return "\(row): " + runs.map { "\($0.lowerBound)…\($0.upperBound)" }.joined(separator: " ")
            }
        }

        static func outline(height: Int, visible: Int, radius: Int) -> [Rect] {
            BannerLayout.roundedBottomShape(width: 1280, bannerHeight: height, visibleHeight: visible, radius: radius)
                .map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        }

        @Test func cornersShowTheDesktopAndTheBottomEdgeIsTheBanners() throws {
            let fixture = try Self.fixture()
            let observer = fixture.observer
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Rounded").backgroundColor(.systemRed).cornerRadius(16) })
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            for (x, y) in [(0, 79), (1279, 79), (2, 77), (11, 79), (1268, 79)] {
                #expect(shot.pixel(x: x, y: y) == Self.desktop, "(\(x), \(y)) is \(shot.pixel(x: x, y: y))")
            }
            for (x, y) in [(640, 79), (12, 79), (1267, 79), (0, 0), (1279, 0), (0, 63), (1279, 63)] {
                #expect(shot.pixel(x: x, y: y) == Self.red, "(\(x), \(y)) is \(shot.pixel(x: x, y: y))")
            }
            // The banner's bounding and input shapes are the outline; the dock under it is cut
            // the same way (the desktop shows through the corners) and takes no input.
            let expected = Self.coverage(Self.outline(height: 80, visible: 80, radius: 16), height: 80)
            let banner = Window(fixture.host.bannerWindowID)
            #expect(Self.coverage(observer.boundingShape(of: banner), height: 80) == expected)
            #expect(Self.coverage(observer.inputShape(of: banner), height: 80) == expected)
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            #expect(Self.coverage(observer.boundingShape(of: dock), height: 80) == expected)
            #expect(observer.inputShape(of: dock).isEmpty)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func withoutARadiusTheBannerIsAPlainRectangle() throws {
            let fixture = try Self.fixture()
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Square").backgroundColor(.systemRed) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: 0, y: 79) == Self.red && shot.pixel(x: 1279, y: 79) == Self.red)
            #expect(fixture.observer.boundingShape(of: Window(fixture.host.bannerWindowID)) == [Rect(x: 0, y: 0, width: 1280, height: 80)])
        }

        @Test func theCutFollowsTheBottomEdgeWhileSlidingAndWhenTheHeightChanges() throws {
            let fixture = try Self.fixture(timing: BannerTiming(slideDuration: 0.8, crossFadeDuration: 0.5))
            var checked: [Int] = []
            var wrong: [String] = []
            // Every frame: the banner's window carries the outline of its current height, its
            // bottom edge where the frame puts it (under it lies the dock, in the banner's colour).
            fixture.host.onFrame = { [unowned fixture] frame in
                let observer = fixture.observer
                guard frame.visibleHeight >= 2, case let banner = Window(fixture.host.bannerWindowID),
                      let rect = observer.geometry(of: banner) else { return }
                let expected = Self.coverage(Self.outline(height: frame.bannerHeight, visible: frame.bannerHeight, radius: 16), height: frame.bannerHeight)
                if Self.coverage(observer.boundingShape(of: banner), height: frame.bannerHeight) != expected || rect.y + rect.height != frame.visibleHeight {
                    wrong.append("\(frame.visibleHeight) px: window \(rect)")
                }
                checked.append(frame.visibleHeight)
            }
            try fixture.host.presentTopBanner { $0.title("Sliding").backgroundColor(.systemRed).cornerRadius(16) }
            #expect(fixture.run { fixture.host.phase == .presented })
            // However many frames the machine's speed allows: some part-way down.
            #expect(checked.contains { $0 < 80 }, "frames checked at \(checked)")
            #expect(wrong.isEmpty, "\(wrong)")
            let settled = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(settled.pixel(x: 0, y: 79) == Self.desktop)
            #expect(settled.pixel(x: 640, y: 79) == Self.red)

            // Taller: the cut moves down with the bottom edge, frame by frame.
            checked.removeAll()
            try fixture.host.presentTopBanner { $0.title("Sliding").backgroundColor(.systemRed).cornerRadius(16).height(120) }
            #expect(fixture.run { fixture.host.reservedHeight == 120 && !fixture.display.hosts.contains { $0.frameDeadline != nil } })
            fixture.host.onFrame = nil
            #expect(checked.contains { $0 > 80 && $0 < 120 }, "frames checked at \(checked)")
            #expect(wrong.isEmpty, "\(wrong)")
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 120)))
            #expect(shot.pixel(x: 0, y: 119) == Self.desktop)
            #expect(shot.pixel(x: 0, y: 79) == Self.red, "the old corner is banner again")
            #expect(shot.pixel(x: 640, y: 119) == Self.red)
        }

        @Test func aRadiusOverHalfTheHeightRoundsByHalfTheHeight() throws {
            let fixture = try Self.fixture()
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Pill").backgroundColor(.systemRed).cornerRadius(500) })
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: 0, y: 39) == Self.red)
            #expect(shot.pixel(x: 0, y: 60) == Self.desktop)
            #expect(shot.pixel(x: 640, y: 79) == Self.red)
            #expect(Self.coverage(fixture.observer.boundingShape(of: Window(fixture.host.bannerWindowID)), height: 80)
                == Self.coverage(Self.outline(height: 80, visible: 80, radius: 40), height: 80))
        }

        @Test func clicksInACutCornerDoNotReachTheBanner() throws {
            let fixture = try Self.fixture()
            let before = fixture.observer.workAreas()
            var reasons: [BannerDismissReason] = []
            fixture.host.onDismiss = { reasons.append($0) }
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Corners").backgroundColor(.systemRed).cornerRadius(16).closeButton() })
            // Both bottom corners, then the ✕: a click that reached the banner would be `clicked`.
            try fixture.desktop.run(["xdotool", "mousemove", "2", "77", "click", "1", "mousemove", "1277", "78", "click", "1",
                                     "mousemove", "1260", "40", "click", "1"])
            #expect(fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas() == before })
            #expect(reasons == [.closed])
        }
    }
}
