// `window-banner run` from a script's point of view: the banner takes its space while the
// process lives, and every way the process ends (signal, timeout, command) gives that space
// back exactly and exits with the documented status.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

/// Every CLI test runs the real executable against its own Xvfb; one at a time, so timing on a
/// small machine stays honest.
@Suite(.serialized)
struct WindowBannerCLITests {}

extension WindowBannerCLITests {
    @Suite("run: showing and ending")
    struct RunLifecycleTests {
        @Test func sigtermDismissesExitsZeroAndRestoresWorkAreaExactly() throws {
            try showThenStop(with: SIGTERM)
        }

        @Test func sigintDismissesExitsZeroAndRestoresWorkAreaExactly() throws {
            try showThenStop(with: SIGINT)
        }

        private func showThenStop(with signal: Int32) throws {
            let fixture = try Fixture()
            #expect(fixture.originalWorkAreas.count >= 1)
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never"])
            #expect(fixture.waitForBanner(height: 80))
            #expect(fixture.observer.workAreas() == fixture.workAreas(shrunkBy: 80))
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
            banner.signal(signal)
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError == "")
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
            #expect(fixture.observer.windows(named: "window-banner").isEmpty)
            #expect(fixture.observer.windows(named: "window-banner-reservation").isEmpty)
        }

        @Test func lowContrastWarnsAndStrictContrastRefusesBeforeAnythingShows() throws {
            let fixture = try Fixture()
            let warned = try fixture.launch(["run", "--title", "T", "--background", "systemYellow", "--timeout", "0.1"])
            #expect(warned.waitForExit() == 0)
            #expect(warned.standardError.hasPrefix("window-banner: warning: low contrast: text '#ffffff' on background 'systemYellow' is 1.51:1"))
            fixture.startRecordingMaps()
            let refused = try fixture.launch(["run", "--title", "T", "--strict-contrast"])
            #expect(refused.waitForExit() == 64)
            #expect(refused.standardError == "window-banner: low contrast: text '#ffffff' on background '#34c759' is 2.21:1; WCAG asks at least 4.5:1 for text under 24 pt (18.7 pt bold)\n")
            #expect(fixture.mappedWindows().isEmpty)
        }

        @Test func losingTheXServerEndsRunAndItsCommandWithSixtyNine() throws {
            let fixture = try Fixture()
            let marker = "/tmp/wb-run-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--", "sh", "-c", "echo $$ > \(marker); exec sleep 600"])
            #expect(fixture.waitForBanner(height: 80))
            defer { unlink(marker) }
            // Have the command's pid before the server goes.
            let child = awaitPID(writtenTo: marker)
            #expect(child > 0)
            fixture.observer.close()
            fixture.desktop.stop()
            #expect(banner.waitForExit(timeout: 2) == 69)
            #expect(banner.standardError.contains("lost the connection to the X display"))
            // The command does not outlive it.
            let deadline = monotonicSeconds() + 5
            while kill(child, 0) == 0, monotonicSeconds() < deadline { poll(nil, 0, 10) }
            #expect(kill(child, 0) != 0, "the command was left running")
        }

        @Test func timeoutDismissesByItselfAndRestoresWorkArea() throws {
            let fixture = try Fixture()
            fixture.startRecordingMaps()
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--timeout", "0.5"])
            #expect(banner.waitForExit() == 0)
            // It was shown: the maps are recorded as events, so a banner that came and went
            // between two looks is not missed.
            #expect(!fixture.mappedWindows().isEmpty)
            #expect(banner.standardError == "")
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func commandStatusBecomesTheExitStatus() throws {
            let fixture = try Fixture()
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--", "sh", "-c", "read line; exit 3"])
            #expect(fixture.waitForReservation(height: 80))
            banner.writeToStandardInput("go\n")
            #expect(banner.waitForExit() == 3)
            #expect(banner.standardError == "")
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func commandKilledBySignalExitsWith128PlusTheSignal() throws {
            let fixture = try Fixture()
            let banner = try fixture.launch(["run", "--title", "T", "--compact", "never", "--", "sh", "-c", "read line; kill -KILL $$"])
            #expect(fixture.waitForReservation(height: 80))
            banner.writeToStandardInput("go\n")
            #expect(banner.waitForExit() == 128 + SIGKILL)
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func missingCommandExits127AndRestoresWorkArea() throws {
            let fixture = try Fixture()
            let banner = try fixture.launch(["run", "--title", "T", "--", "/nonexistent/cmd"])
            #expect(banner.waitForExit() == 127)
            #expect(banner.standardError == "window-banner: command not found: /nonexistent/cmd\n")
            #expect(fixture.waitForRestoredDesktop())
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func unknownFontFamilyWarnsAndStillShows() throws {
            let fixture = try Fixture()
            fixture.startRecordingMaps()
            let banner = try fixture.launch(["run", "--title", "T", "--font", "No Such Family:size=12", "--timeout", "0.3"])
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError.hasPrefix("window-banner: warning: font family 'No Such Family' not found; using '"))
            #expect(!fixture.mappedWindows().isEmpty)
            #expect(fixture.waitForRestoredDesktop())
        }

        @Test func invalidUTF8TitleIsShownWithoutComplaint() throws {
            let fixture = try Fixture()
            fixture.startRecordingMaps()
            let banner = try fixture.launch(rawArguments: [
                Array("run".utf8), Array("--title".utf8), [0x42, 0xFF, 0xFE, 0x43], Array("--timeout".utf8), Array("0.3".utf8),
            ])
            #expect(banner.waitForExit() == 0)
            #expect(banner.standardError == "")
            #expect(!fixture.mappedWindows().isEmpty)
            #expect(fixture.waitForRestoredDesktop())
        }
    }
}
