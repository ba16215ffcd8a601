// `window-banner run` banners the user dismisses: the banner goes, the space comes back, run
// exits 0 — after its own command, if one still runs — and the --action button's command runs.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("run: dismissal by the user")
    struct RunInteractionTests {
        @Test func clickEndsRunAndGivesTheSpaceBack() throws {
            let fixture = try Fixture()
            let run = try fixture.launch(["run", "--title", "Tap me", "--compact", "never"])
            #expect(fixture.waitForBanner(height: 80))
            try fixture.desktop.run(["xdotool", "mousemove", "640", "40", "click", "1"])
            #expect(run.waitForExit() == 0)
            #expect(fixture.waitForRestoredDesktop())
        }

        @Test func actionButtonRunsItsCommandAndRunWaitsForItsOwn() throws {
            let fixture = try Fixture()
            var template = Array("/tmp/wb-run-XXXXXX".utf8CString)
            let directory = String(cString: try #require(mkdtemp(&template)))
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
            // run's own command waits on a pipe the test holds; the action touches a file.
            let run = try fixture.launch(["run", "--title", "Backing up", "--compact", "never", "--close-button",
                                          "--action", "Mark=touch \(directory)/marked", "--", "sh", "-c", "read line"])
            #expect(fixture.waitForBanner(height: 80))
            try fixture.desktop.run(["xdotool", "mousemove", "1230", "40", "click", "1"])
            // The banner goes at once; run stays for its command.
            #expect(fixture.waitForRestoredDesktop())
            let deadline = monotonicSeconds() + 10
            while monotonicSeconds() < deadline, !FileManager.default.fileExists(atPath: directory + "/marked") { poll(nil, 0, 10) }
            #expect(FileManager.default.fileExists(atPath: directory + "/marked"))
            let stat = try String(contentsOfFile: "/proc/\(run.pid)/stat", encoding: .utf8)
            let state = stat[stat.index(try #require(stat.lastIndex(of: ")")), offsetBy: 2)]
            #expect(state != "Z", "run must wait for its command")
            run.writeToStandardInput("done\n")
            #expect(run.waitForExit() == 0)
        }
    }
}
