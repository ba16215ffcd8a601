// `--once KEY` and `window-banner stats`: what the owner remembers across restarts, written
// atomically under $XDG_STATE_HOME/window-banner.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

/// What `stats --json` prints.
private struct StatsJSON: Decodable {
    struct Counts: Decodable {
        var impressions: Int
        var ended: [String: Int]
    }

    var keys: [String: Counts]
}

extension WindowBannerCLITests {
    @Suite("once-keys and stats")
    struct OnceAndStatsTests {
        private func stats(_ owner: OwnerFixture) throws -> StatsJSON {
            let outcome = try owner.run(["stats", "--json"])
            #expect(outcome.status == 0, "\(outcome.error)")
            return try JSONDecoder().decode(StatsJSON.self, from: Data(outcome.output.utf8))
        }

        private func quitOwner(_ owner: OwnerFixture) throws {
            let pid = owner.ownerProcesses().first
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            if let pid { #expect(owner.waitForExit(of: pid)) }
        }

        @Test func onceKeyShowsOnceEvenAcrossAnOwnerRestart() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Welcome", "--once", "welcome", "--compact", "never"])
            #expect(try owner.status().title == "Welcome")
            try owner.show(["--title", "Welcome again", "--once", "welcome"])
            #expect(try owner.status().title == "Welcome", "a second show with the key changes nothing")

            try quitOwner(owner)
            let again = try owner.run(["show", "--title", "Welcome", "--once", "welcome", "--wait"])
            #expect(again.status == 0)
            #expect(again.output == "skipped\n")
            #expect(try owner.status().presented == false)
            // Other keys are not affected.
            try owner.show(["--title", "Tip", "--once", "tip"])
            #expect(try owner.status().title == "Tip")
            var info = stat()
            #expect(stat(owner.stateHome + "/window-banner/once.json", &info) == 0)
            #expect(info.st_mode & 0o077 == 0)
        }

        /// The files are written once the banner has settled, not before its first frame: an
        /// owner killed after that (no chance to save on the way out) has lost nothing.
        @Test func aSettledBannerIsOnDiskEvenIfTheOwnerIsKilled() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Remembered", "--once", "remembered", "--id", "kept", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let onceFile = owner.stateHome + "/window-banner/once.json"
            let statsFile = owner.stateHome + "/window-banner/stats.json"
            #expect(owner.observer.wait {
                (try? String(contentsOfFile: onceFile, encoding: .utf8))?.contains("remembered") == true
                    && (try? String(contentsOfFile: statsFile, encoding: .utf8))?.contains("kept") == true
            })
            let pids = owner.ownerProcesses()
            #expect(!pids.isEmpty)
            for pid in pids { kill(pid, SIGKILL) }
            for pid in pids { #expect(owner.waitForExit(of: pid)) }
            #expect(owner.fixture.waitForRestoredDesktop())
            let again = try owner.run(["show", "--title", "Remembered", "--once", "remembered", "--wait"])
            #expect(again.output == "skipped\n")
            #expect(try stats(owner).keys["kept"]?.impressions == 1)
        }

        @Test func statsCountShowsAndEndingsPerKeyAndSurviveTheOwner() throws {
            let owner = try OwnerFixture()
            let timedOut = try owner.run(["show", "--id", "sync", "--title", "Syncing", "--timeout", "0.3", "--wait", "--compact", "never"])
            #expect(timedOut.status == 0)
            try owner.show(["--id", "sync", "--title", "Syncing again", "--compact", "never"])
            #expect(try owner.run(["dismiss"]).status == 0)
            let closing = try owner.fixture.launch(["show", "--style", "call", "--close-button", "--wait", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            try owner.fixture.desktop.run(["xdotool", "mousemove", "1260", "40", "click", "1"])
            #expect(closing.waitForExit() == 13)

            var counts = try stats(owner).keys
            #expect(counts["sync"]?.impressions == 2)
            #expect(counts["sync"]?.ended == ["timeout": 1, "dismissed": 1])
            #expect(counts["call"]?.impressions == 1)
            #expect(counts["call"]?.ended == ["closed": 1])

            try quitOwner(owner)
            counts = try stats(owner).keys
            #expect(counts["sync"]?.impressions == 2)
            #expect(counts["call"]?.ended == ["closed": 1])
            let table = try owner.run(["stats"]).output
            #expect(table.split(separator: "\n").first?.hasPrefix("key ") == true)
            #expect(table.contains("sync"))
        }
    }
}
