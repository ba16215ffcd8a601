// `show --private` on a real Xvfb and openbox, with the real `window-banner` and its owner:
// with nothing watching, one warning line and the banner shows; while a watcher (the monitor's
// OwnerBanners, here in the test's own process) says the screen is shared, the banner is held —
// `show` exits 0 at once, `status --json` lists it as held, the work area stays whole — and it
// comes down, reserving its space, once the watcher says sharing ended.

import BannerMonitor
import Foundation
import Glibc
import OwnerIPC
import ProcessTestSupport
import Reactor
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show --private: held while the screen is shared")
    struct PrivateBannerCLITests {
        /// The display's owner as the monitor reaches it, from this process.
        private func watcher(_ owner: OwnerFixture) -> OwnerBanners {
            let paths = OwnerPaths.forDisplay(owner.fixture.desktop.displayName, in: owner.runtimeDirectory + "/window-banner")
            return OwnerBanners(owner: OwnerClient(paths: paths), configPath: nil, loop: EventLoop())
        }

        @Test func withNothingWatchingAPrivateBannerShowsWithOneWarningLine() throws {
            let owner = try OwnerFixture()
            let outcome = try owner.run(["show", "--private", "--title", "Salary review", "--compact", "never"])
            #expect(outcome.status == 0)
            #expect(outcome.error == "window-banner: warning: nothing watches for screen sharing (run window-banner monitor --sharing); showing the private banner\n")
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func aPrivateBannerIsHeldWhileSharedAndComesDownWhenSharingEnds() throws {
            let owner = try OwnerFixture()
            // An owner running, with nothing on screen.
            try owner.show(["--title", "Starting", "--id", "start", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.run(["dismiss", "--id", "start"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())

            let banners = watcher(owner)
            try banners.reportSharing(true)
            let outcome = try owner.run(["show", "--private", "--title", "Salary review", "--id", "hr", "--compact", "never"])
            #expect(outcome.status == 0)
            #expect(outcome.error.isEmpty, "\(outcome.error)")
            let status = try owner.run(["status", "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
            #expect(report["presented"] as? Bool == false)
            let waiting = try #require(report["waiting"] as? [[String: Any]])
            #expect(waiting.count == 1)
            #expect(waiting.first?["held"] as? String == "sharing")
            #expect(waiting.first?["title"] as? String == "Salary review")
            #expect(waiting.first?["id"] as? String == "hr")
            #expect(try owner.run(["status"]).output.contains("held while the screen is shared: \"Salary review\", id hr"))
            // Nothing came down: the owner answered `held`, with no banner anywhere.
            #expect(owner.observer.workAreas() == owner.fixture.originalWorkAreas)
            #expect(owner.observer.windows(named: "window-banner").isEmpty)

            try banners.reportSharing(false)
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.status().title == "Salary review")
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }
    }
}
