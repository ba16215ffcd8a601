// The user dismisses a banner with the pointer, driven through the XTEST extension (xdotool)
// as a real mouse would: a click, the ✕, the action button, the wheel turned up, a drag
// upwards. Each reaches `onDismiss` with its reason, the banner slides away, the space comes
// back, and the callbacks say when the slide in and out finished.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("User dismissal")
    struct UserDismissalTests {
        /// What the host reported, in order: dismissal reasons and milestones.
        final class Reports {
            var events: [String] = []
            var reasons: [BannerDismissReason] = []
        }

        /// Presents a regular 80 px banner and records what the host reports from then on.
        static func present(on fixture: Fixture, _ config: @escaping (inout TopBannerConfigBuilder) -> Void = { _ in }) throws -> Reports {
            let reports = Reports()
            fixture.host.compactPolicy = .never
            fixture.host.onMilestone = { reports.events.append("\($0)") }
            fixture.host.onDismiss = { reason in
                reports.reasons.append(reason)
                reports.events.append("dismiss \(reason.rawValue)")
            }
            #expect(try fixture.presentAndSettle(height: 80) { builder in
                builder.title("Tap me").backgroundColor(.systemRed)
                config(&builder)
            })
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(fixture.observer.describeStack())")
            return reports
        }

        /// Runs xdotool (XTEST) against the fixture's display.
        static func xdotool(_ fixture: Fixture, _ arguments: String...) throws {
            try fixture.desktop.run(["xdotool"] + arguments)
        }

        /// Serves the loop until the banner is gone and the work area whole again.
        static func waitUntilGone(_ fixture: Fixture, restoring before: [Rect]) -> Bool {
            fixture.run { fixture.host.phase == .hidden && fixture.observer.workAreas() == before }
        }

        @Test func clickDismissesAndReportsClickedThenTheEndOfTheSlide() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            #expect(reports.events == ["presentationFinished"])
            let ours = try #require(fixture.observer.clientBase(of: Window(fixture.host.bannerWindowID)))

            try Self.xdotool(fixture, "mousemove", "640", "40", "click", "1")
            // An override-redirect banner takes the click, never the focus (the window manager
            // may move the focus on a click, in its own time: what matters is never to ours).
            #expect(fixture.observer.clientBase(of: fixture.observer.inputFocus) != ours)
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.events == ["presentationFinished", "dismiss clicked", "dismissalFinished"])
            #expect(!fixture.host.isBannerPresented)
            #expect(fixture.observer.windows(named: "window-banner").isEmpty)
            // Once it is gone the window manager may focus what lies under the pointer; never
            // a window of ours.
            #expect(fixture.observer.clientBase(of: fixture.observer.inputFocus) != ours)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func closeButtonIsDrawnAtTheRightEdgeAndClickingItReportsClosed() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture) { $0.closeButton() }
            let white = Pixel(hex: 0xFFFFFF)
            // The ✕ in the text colour inside the last 40 px, centred in them.
            let edge = try #require(fixture.observer.screenshot(Rect(x: 1240, y: 0, width: 40, height: 80)))
            let columns = edge.columns(matching: white, tolerance: 60)
            #expect(columns.count >= 5, "no ✕ at the right edge")
            #expect((columns.first ?? 0) > 1245 && (columns.last ?? .max) < 1275, "✕ columns \(columns)")
            #expect(fixture.drawnHitAreas?.closeButton == PixelRect(x: 1240, y: 0, width: 40, height: 80))

            try Self.xdotool(fixture, "mousemove", "1260", "40", "click", "1")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.closed])
        }

        @Test func withoutCloseButtonTheRightEdgeIsPlainBackground() throws {
            let fixture = try Fixture()
            _ = try Self.present(on: fixture)
            let edge = try #require(fixture.observer.screenshot(Rect(x: 1240, y: 0, width: 40, height: 80)))
            #expect(edge.count(matching: Pixel(hex: 0xFF3B30), tolerance: 0) == 40 * 80)
            #expect(fixture.drawnHitAreas == BannerHitAreas())
        }

        @Test func actionButtonIsDrawnLeftOfTheCloseButtonAndReportsAction() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture) { $0.closeButton().action("Undo") }
            let action = try #require(fixture.drawnHitAreas?.actionButton)
            #expect(action.x + action.width == 1240)
            // Its box: the text colour at 20 % over the background, left and right of the label.
            let box = Pixel(hex: 0xFF3B30).blended(with: Pixel(hex: 0xFFFFFF), fraction: 0.2)
            let shot = try #require(fixture.observer.screenshot(Rect(x: action.x, y: 0, width: action.width, height: 80)))
            #expect(shot.pixel(x: action.x + 2, y: 50).distance(to: box) <= 2, "box \(shot.pixel(x: action.x + 2, y: 50)), expected \(box)")
            #expect(shot.pixel(x: action.x + 2, y: 2).distance(to: Pixel(hex: 0xFF3B30)) <= 1, "the box stays around the title's line")

            try Self.xdotool(fixture, "mousemove", "\(action.x + action.width / 2)", "50", "click", "1")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.action])
        }

        @Test func wheelUpSwipesTheBannerAway() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            try Self.xdotool(fixture, "mousemove", "640", "40", "click", "4")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.swiped])
        }

        @Test func wheelDownAndOtherButtonsDoNothing() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            // Events arrive in order: when the final left click has dismissed the banner (as
            // `clicked`), the ones before it were seen, and did nothing.
            try Self.xdotool(fixture, "mousemove", "640", "40", "click", "5", "click", "3", "click", "2", "click", "1")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.clicked])
        }

        @Test func dragUpwardsSwipesTheBannerAway() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            // 65 px up, ending above the banner where the screen's edge holds the pointer.
            try Self.xdotool(fixture, "mousemove", "500", "70", "mousedown", "1", "mousemove", "505", "40",
                             "mousemove", "510", "5", "mouseup", "1")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.swiped])
        }

        @Test func shortSidewaysAndDownwardDragsDoNothing() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture) { $0.closeButton() }
            // 10 px up, 200 px sideways, 40 px down: none is a click or a swipe; then the ✕.
            try Self.xdotool(fixture, "mousemove", "640", "60", "mousedown", "1", "mousemove", "640", "50", "mouseup", "1",
                             "mousemove", "300", "40", "mousedown", "1", "mousemove", "500", "40", "mouseup", "1",
                             "mousemove", "640", "20", "mousedown", "1", "mousemove", "640", "60", "mouseup", "1",
                             "mousemove", "1260", "40", "click", "1")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.closed])
        }

        @Test func clickBelowTheBannerReachesNothingOfOurs() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            // A click on the desktop under the reserved strip, then the wheel on the banner:
            // only the second one is ours.
            try Self.xdotool(fixture, "mousemove", "640", "200", "click", "1", "mousemove", "640", "40", "click", "4")
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.swiped])
        }

        @Test func programDismissalIsNotReportedAsTheUsers() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let reports = try Self.present(on: fixture)
            fixture.host.dismissTopBanner()
            #expect(Self.waitUntilGone(fixture, restoring: before))
            #expect(reports.events == ["presentationFinished", "dismissalFinished"])
        }
    }
}

extension Fixture {
    /// The buttons of the banner as drawn, in its pixels (root pixels once it is fully down).
    var drawnHitAreas: BannerHitAreas? { host.drawnHitAreas }
}

extension Pixel {
    /// `other` laid over this pixel at `fraction` opacity, rounded like an 8-bit blend.
    func blended(with other: Pixel, fraction: Double) -> Pixel {
        func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
        return Pixel(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
    }
}
