// `show --action A --action B`: two buttons, each clicked with the mouse (XTEST, xdotool) or
// with `window-banner action`, each ending `show --wait` with its own reason and exit code —
// left to right and under a right-to-left locale — `status --json` naming both, and the bad
// input (a third --action, an action nobody shows) refused with one line, the banner untouched.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: two actions")
    struct TwoActionsCLITests {
        /// The labels `status --json` lists, at the top level and per monitor.
        struct ActionsStatus: Decodable {
            struct Monitor: Decodable {
                var actions: [String]?
            }

            var title: String?
            var actions: [String]?
            var monitors: [Monitor]
        }

        static func status(_ owner: OwnerFixture) throws -> ActionsStatus {
            let outcome = try owner.run(["status", "--json"])
            return try JSONDecoder().decode(ActionsStatus.self, from: Data(outcome.output.utf8))
        }

        /// `show --wait` of a banner with no title (nothing but the buttons is drawn in the
        /// text colour) and the actions Join and Decline; returns once it is fully in.
        static func showJoinDecline(_ owner: OwnerFixture, extra: [String] = []) throws -> Subprocess {
            let waiting = try owner.fixture.launch(
                ["show", "--compact", "never", "--background", "#FF3B30", "--wait", "--action", "Join", "--action", "Decline"] + extra)
            guard owner.fixture.waitForBanner(height: 80) else { throw TestFailure("no banner: \(waiting.standardError)") }
            return waiting
        }

        /// The two button boxes as drawn, left to right: the runs of columns where the text
        /// colour at 20 % over the background shows. Nothing else is drawn in that colour
        /// (the banner has no title and no ✕, whose anti-aliased edges would pass through it).
        static func buttonBoxes(_ observer: XObserver) -> [ClosedRange<Int>] {
            // #FF3B30 with white at 20 % over it.
            let box = Pixel(red: 255, green: 98, blue: 89)
            let columns = observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80))?.columns(matching: box, tolerance: 3) ?? []
            var runs: [ClosedRange<Int>] = []
            for column in columns.sorted() {
                if let last = runs.last, column <= last.upperBound + 1 {
                    runs[runs.count - 1] = last.lowerBound...column
                } else {
                    runs.append(column...column)
                }
            }
            return runs
        }

        @Test(arguments: [nil, "ar_EG.UTF-8"])
        func clickingEachActionEndsWaitWithItsOwnReason(_ locale: String?) throws {
            let owner = try OwnerFixture()
            // The caller's locale decides the layout; it need not be installed.
            if let locale { owner.fixture.extraEnvironment["LANG"] = locale }
            var waiting = try Self.showJoinDecline(owner)
            var boxes: [ClosedRange<Int>] = []
            #expect(owner.observer.wait {
                boxes = Self.buttonBoxes(owner.observer)
                return boxes.count == 2
            }, "button boxes \(boxes)")
            try #require(boxes.count == 2)
            // Left to right: the secondary action, then the primary one next to the edge; a
            // right-to-left layout mirrors that, the primary at the left edge.
            let (primary, secondary) = locale == nil ? (boxes[1], boxes[0]) : (boxes[0], boxes[1])
            if locale == nil {
                #expect(primary.upperBound == 1280 - 12 - 1, "primary \(primary)")
            } else {
                #expect(primary.lowerBound == 12, "primary \(primary)")
            }
            let status = try Self.status(owner)
            #expect(status.actions == ["Join", "Decline"])
            #expect(status.monitors.first?.actions == ["Join", "Decline"])
            let text = try owner.run(["status"]).output
            #expect(text.contains("actions \"Join\" / \"Decline\""), "status: \(text)")

            try owner.fixture.desktop.run(["xdotool", "mousemove", "\((secondary.lowerBound + secondary.upperBound) / 2)", "40", "click", "1"])
            #expect(waiting.waitForExit() == 16)
            #expect(waiting.standardOutput == "secondary-action\n")
            #expect(owner.fixture.waitForRestoredDesktop())

            waiting = try Self.showJoinDecline(owner)
            try owner.fixture.desktop.run(["xdotool", "mousemove", "\((primary.lowerBound + primary.upperBound) / 2)", "40", "click", "1"])
            #expect(waiting.waitForExit() == 15)
            #expect(waiting.standardOutput == "action\n")
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(try Self.status(owner).actions == nil)
        }

        @Test func actionCommandClicksTheButtonWithoutThePointer() throws {
            let owner = try OwnerFixture()
            var template = Array("/tmp/wb-action-XXXXXX".utf8CString)
            let directory = String(cString: try #require(mkdtemp(&template)))
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }

            // By label: the secondary button, its command run as a click would run it.
            var waiting = try owner.fixture.launch(
                ["show", "--compact", "never", "--wait", "--id", "call", "--action", "Join", "--action", "Decline=touch \(directory)/declined"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let byLabel = try owner.run(["action", "Decline"])
            #expect(byLabel.status == 0, "\(byLabel.error)")
            #expect(byLabel.output.isEmpty && byLabel.error.isEmpty)
            #expect(waiting.waitForExit() == 16)
            #expect(waiting.standardOutput == "secondary-action\n")
            #expect(owner.observer.wait { FileManager.default.fileExists(atPath: directory + "/declined") })
            #expect(owner.fixture.waitForRestoredDesktop())

            // By place: --secondary, and the primary one without arguments (with the key it was shown with).
            waiting = try Self.showJoinDecline(owner)
            #expect(try owner.run(["action", "--secondary"]).status == 0)
            #expect(waiting.waitForExit() == 16)
            waiting = try Self.showJoinDecline(owner, extra: ["--id", "call"])
            #expect(try owner.run(["action", "--id", "call", "--monitor", "primary"]).status == 0)
            #expect(waiting.waitForExit() == 15)
            #expect(waiting.standardOutput == "action\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func runRunsTheCommandOfTheButtonClicked() throws {
            let fixture = try Fixture()
            var template = Array("/tmp/wb-run-XXXXXX".utf8CString)
            let directory = String(cString: try #require(mkdtemp(&template)))
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
            let run = try fixture.launch(["run", "--compact", "never", "--background", "#FF3B30",
                                          "--action", "Retry=touch \(directory)/retried", "--action", "Skip=touch \(directory)/skipped"])
            #expect(fixture.waitForBanner(height: 80))
            var boxes: [ClosedRange<Int>] = []
            #expect(fixture.observer.wait {
                boxes = Self.buttonBoxes(fixture.observer)
                return boxes.count == 2
            }, "button boxes \(boxes)")
            let secondary = try #require(boxes.first)
            try fixture.desktop.run(["xdotool", "mousemove", "\((secondary.lowerBound + secondary.upperBound) / 2)", "40", "click", "1"])
            #expect(run.waitForExit() == 0)
            #expect(fixture.waitForRestoredDesktop())
            let deadline = monotonicSeconds() + 10
            while monotonicSeconds() < deadline, !FileManager.default.fileExists(atPath: directory + "/skipped") { poll(nil, 0, 10) }
            #expect(FileManager.default.fileExists(atPath: directory + "/skipped"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/retried"))
        }

        @Test func badActionInputIsOneLineAndLeavesTheBannerAndOwner() throws {
            let owner = try OwnerFixture()
            // Nothing on screen, no owner: nothing to click, and no owner started for it.
            let early = try owner.run(["action"])
            #expect(early.status == 64)
            #expect(early.error == "window-banner: no banner on screen (no owner runs)\n")
            #expect(owner.ownerProcesses().isEmpty)

            try owner.show(["--title", "Incoming call", "--compact", "never", "--id", "call", "--action", "Join"])
            let pids = owner.ownerProcesses()
            #expect(pids.count == 1)
            let cases: [(arguments: [String], message: String)] = [
                (["show", "--title", "Three", "--action", "A", "--action", "B", "--action", "C"],
                 "--action given 3 times: a banner has at most two actions (the primary, then the secondary); the third is 'C'"),
                (["action", "Nope"], "no banner on screen has an action 'Nope'"),
                (["action", "--secondary"], "no banner on screen has a secondary action"),
                (["action", "--id", "other"], "no banner with id 'other' on screen has an action"),
                (["action", "Join", "--secondary"], "give a label ('Join') or --secondary, not both"),
                (["action", "--monitor", "HDMI-9"], "HDMI-9"),
            ]
            for (arguments, message) in cases {
                let outcome = try owner.run(arguments)
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.error.split(separator: "\n").count == 1, "\(arguments): \(outcome.error)")
                #expect(outcome.error.contains(message), "\(arguments): \(outcome.error)")
            }
            let status = try Self.status(owner)
            #expect(status.title == "Incoming call")
            #expect(status.actions == ["Join"])
            #expect(owner.ownerProcesses() == pids)
        }
    }
}
