// A banner with two actions on a real X server: both buttons drawn (boxes, labels, the space
// between them), each clicked through XTEST (xdotool) as a real mouse would, each calling its
// own builder handler and reaching `onDismiss` with its own reason — left to right and mirrored
// — and `activate(_:)` doing what a click does without the pointer.

import BannerCore
@testable import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Two actions")
    struct TwoActionsTests {
        typealias Dismissal = UserDismissalTests

        static let red = Pixel(hex: 0xFF3B30)
        static let box = red.blended(with: Pixel(hex: 0xFFFFFF), fraction: BannerLayout.actionButtonFillOpacity)

        /// Presents "Join" (primary) and "Decline" (secondary) laid out `direction`, their
        /// handlers appending to `handled`.
        static func present(_ direction: LayoutDirection, on fixture: Fixture, handled: Handled) throws -> Dismissal.Reports {
            try Dismissal.present(on: fixture) { builder in
                builder.closeButton().layoutDirection(direction)
                    .action("Join") { handled.names.append("join") }
                    .secondaryAction("Decline") { handled.names.append("decline") }
            }
        }

        final class Handled {
            var names: [String] = []
        }

        @Test(arguments: [LayoutDirection.leftToRight, .rightToLeft])
        func bothActionsAreDrawnAndEachClickCallsItsOwnHandler(_ direction: LayoutDirection) throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let handled = Handled()
            var reports = try Self.present(direction, on: fixture, handled: handled)
            let areas = try #require(fixture.drawnHitAreas)
            let primary = try #require(areas.actionButton)
            let secondary = try #require(areas.secondaryActionButton)
            let close = try #require(areas.closeButton)
            // Primary next to the ✕, secondary beyond it: their hit areas meet in the space
            // between the boxes. Mirrored, the whole row runs from the left edge.
            let boundary: Int
            let outerPrimary: Int
            let outerSecondary: Int
            if direction == .leftToRight {
                #expect(close.x == 1240 && primary.x + primary.width == close.x)
                #expect(secondary.x + secondary.width == primary.x)
                (boundary, outerPrimary, outerSecondary) = (primary.x, primary.x + primary.width - 2, secondary.x + 2)
            } else {
                #expect(close.x == 0 && primary.x == close.width)
                #expect(secondary.x == primary.x + primary.width)
                (boundary, outerPrimary, outerSecondary) = (secondary.x, primary.x + 2, secondary.x + secondary.width - 3)
            }
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            #expect(shot.pixel(x: outerPrimary, y: 50).distance(to: Self.box) <= 2, "primary box \(shot.pixel(x: outerPrimary, y: 50))")
            #expect(shot.pixel(x: outerSecondary, y: 50).distance(to: Self.box) <= 2, "secondary box \(shot.pixel(x: outerSecondary, y: 50))")
            #expect(shot.pixel(x: boundary, y: 50).distance(to: Self.red) <= 1, "the space between the boxes is background")
            // Each label in the text colour inside its own button.
            let white = Pixel(hex: 0xFFFFFF)
            let labelColumns = shot.columns(matching: white, tolerance: 60)
            #expect(labelColumns.contains { primary.contains(x: $0, y: 40) }, "no label in the primary button")
            #expect(labelColumns.contains { secondary.contains(x: $0, y: 40) }, "no label in the secondary button")

            try Dismissal.xdotool(fixture, "mousemove", "\(secondary.x + secondary.width / 2)", "50", "click", "1")
            #expect(Dismissal.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.secondaryAction])
            #expect(handled.names == ["decline"])

            reports = try Self.present(direction, on: fixture, handled: handled)
            try Dismissal.xdotool(fixture, "mousemove", "\(primary.x + primary.width / 2)", "50", "click", "1")
            #expect(Dismissal.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.action])
            #expect(handled.names == ["decline", "join"])
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func activateDoesWhatAClickDoesWithoutThePointer() throws {
            let fixture = try Fixture()
            let before = fixture.observer.workAreas()
            let handled = Handled()
            let reports = try Self.present(.leftToRight, on: fixture, handled: handled)
            #expect(fixture.host.activate(.secondaryAction))
            // Already going: a second activation changes nothing and reports nothing.
            #expect(!fixture.host.activate(.action))
            #expect(Dismissal.waitUntilGone(fixture, restoring: before))
            #expect(reports.reasons == [.secondaryAction])
            #expect(handled.names == ["decline"])
            #expect(!fixture.host.activate(.action), "nothing presented")

            // A banner without a ✕ or a secondary action has nothing for those to click.
            _ = try Dismissal.present(on: fixture) { $0.action("Undo") }
            #expect(!fixture.host.activate(.secondaryAction))
            #expect(!fixture.host.activate(.closed))
            #expect(fixture.host.phase == .presented)
            // The old handlers went with their banner: this one's action has none.
            #expect(fixture.host.activate(.action))
            #expect(Dismissal.waitUntilGone(fixture, restoring: before))
            #expect(handled.names == ["decline"])
        }
    }
}
