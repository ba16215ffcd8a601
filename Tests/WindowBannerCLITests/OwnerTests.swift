// `show`, `dismiss` and `status` as a script uses them: separate short processes, one owner per
// display holding the banner in between. Everything is checked where the user sees it — the
// work area, the banner's window, the exit code and the printed status.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show/dismiss/status through the owner")
    struct OwnerTests {
        @Test func showReturnsWithTheBannerOnScreenAndReservesItsHeight() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "No Internet Connection", "--compact", "never"])
            // Already mapped when `show` returns: the owner answers after the first frame.
            #expect(!owner.observer.windows(named: "window-banner").isEmpty)
            #expect(owner.fixture.waitForBanner(height: 80))
            let status = try owner.status()
            #expect(status.presented)
            #expect(status.title == "No Internet Connection")
            #expect(status.height == 80)
            #expect(status.mode == "sticky")
            #expect(status.compact == false)
            #expect(status.queue == 0)
            #expect(status.monitors.first?.reserved == 80)
        }

        @Test func reduceMotionReservesTheWholeHeightFromTheFirstFrame() throws {
            let owner = try OwnerFixture()
            owner.fixture.startRecordingMaps()
            try owner.show(["--title", "Still", "--compact", "never", "--reduce-motion"])
            // `show` returns after the first frame: with no slide it is the whole banner.
            #expect(try owner.status().monitors.first?.reserved == 80)
            #expect(owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
            #expect(owner.fixture.waitForReservation(height: 80))
        }

        @Test func theDesktopsAnimationsSwitchTurnsTheSlideOff() throws {
            let owner = try OwnerFixture()
            let directory = owner.configHome + "/gtk-3.0"
            mkdir(directory, 0o700)
            try "[Settings]\ngtk-enable-animations=false\n".write(toFile: directory + "/settings.ini", atomically: true, encoding: .utf8)
            try owner.show(["--title", "Still", "--compact", "never"])
            #expect(try owner.status().monitors.first?.reserved == 80)
            #expect(owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
        }

        @Test func lowContrastColoursWarnAndStrictContrastRefuses() throws {
            let owner = try OwnerFixture()
            let warned = try owner.run(["show", "--title", "Saved", "--background", "systemYellow", "--compact", "never"])
            #expect(warned.status == 0)
            #expect(warned.error.hasPrefix("window-banner: warning: low contrast: text '#ffffff' on background 'systemYellow' is 1."))
            #expect(warned.error.split(separator: "\n").count == 1)
            #expect(try owner.status().title == "Saved")

            let refused = try owner.run(["show", "--title", "Strict", "--text-color", "white", "--background", "gold", "--strict-contrast"])
            #expect(refused.status == 64)
            #expect(refused.error.hasPrefix("window-banner: low contrast: text 'white' on background 'gold' is 1."))
            #expect(try owner.status().title == "Saved")

            // Readable pairs, and the built-in looks (the original's colours), say nothing.
            for arguments in [["--background", "#1c1c1e"], ["--style", "offline"], []] {
                let quiet = try owner.run(["show", "--title", "Fine"] + arguments)
                #expect(quiet.status == 0)
                #expect(quiet.error == "", "\(arguments): \(quiet.error)")
            }
            #expect(try owner.run(["show", "--title", "Default", "--strict-contrast"]).status == 64)
        }

        @Test func subtitleIsShownAndReported() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Incoming call", "--subtitle", "Anna · mobile", "--compact", "never"])
            let status = try owner.status()
            #expect(status.title == "Incoming call")
            #expect(status.subtitle == "Anna · mobile")
            let text = try owner.run(["status"]).output
            #expect(text.contains(#""Incoming call" / "Anna · mobile""#))
        }

        @Test func secondShowUpdatesTheSameWindowInPlace() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Offline", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let window = owner.observer.windows(named: "window-banner")
            owner.fixture.startRecordingMaps()
            try owner.show(["--title", "Back Online", "--background", "#1c1c1e", "--compact", "never"])
            #expect(try owner.status().title == "Back Online")
            #expect(owner.observer.windows(named: "window-banner") == window)
            #expect(owner.fixture.mappedWindows().isEmpty)
            #expect(owner.fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))
        }

        @Test func dismissSlidesAwayAndRestoresWorkAreaExactly() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let outcome = try owner.run(["dismiss"])
            #expect(outcome.status == 0)
            #expect(outcome.error == "")
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(owner.observer.workAreas() == owner.fixture.originalWorkAreas)
            #expect(try owner.status().presented == false)
        }

        @Test func transientBannerGoesByItselfAfterItsTimeout() throws {
            let owner = try OwnerFixture()
            // `--wait` hears from the owner how the banner ended: by its timeout, nobody else.
            let outcome = try owner.run(["show", "--title", "Saved", "--compact", "never", "--timeout", "0.6", "--wait"])
            #expect(outcome.status == 0)
            #expect(outcome.output == "timeout\n")
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(try owner.status().presented == false)
        }

        /// The time left as the owner reports it the moment it shows the banner, to a follower
        /// subscribed before: a later `status` could come after a short banner is gone.
        @Test(arguments: [(["--timeout", "0.6"], 0.6), (["--transient"], 2.5)])
        func transientBannerCountsDownFromItsTimeout(flags: [String], timeout: Double) throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Waiting", "--sticky", "--compact", "never"])
            let follow = try owner.fixture.launch(["status", "--follow", "--format", "{title} {remaining}"])
            #expect(follow.readLine(timeout: 20) == "Waiting ")
            try owner.show(["--title", "Saved", "--compact", "never"] + flags)
            let line = try #require(follow.readLine(timeout: 20), "stderr: \(follow.standardError)")
            #expect(line.hasPrefix("Saved "), "\(line)")
            let remaining = try #require(Double(line.dropFirst("Saved ".count)), "\(line)")
            // A time left at all: transient (a sticky banner has none).
            #expect(remaining > timeout / 2 && remaining <= timeout, "\(line)")
        }

        @Test func enqueuedBannersShowOneAtATimeInOrder() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "First", "--compact", "never"])
            try owner.show(["--title", "Second", "--compact", "never", "--enqueue"])
            try owner.show(["--title", "Third", "--compact", "never", "--enqueue"])
            var status = try owner.status()
            #expect(status.title == "First")
            #expect(status.queue == 2)
            var seen: [String?] = [status.title]
            for _ in 0..<2 {
                #expect(try owner.run(["dismiss"]).status == 0)
                status = try owner.status()
                seen.append(status.title)
            }
            #expect(seen == ["First", "Second", "Third"])
            #expect(status.queue == 0)
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func sameIdReplacesAQueuedOrVisibleBannerInsteadOfAddingOne() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Call 1", "--id", "call", "--compact", "never"])
            try owner.show(["--title", "Upload 10%", "--id", "upload", "--enqueue"])
            try owner.show(["--title", "Upload 50%", "--id", "upload", "--enqueue"])
            var status = try owner.status()
            #expect(status.queue == 1)
            try owner.show(["--title", "Call 2", "--id", "call", "--enqueue", "--compact", "never"])
            status = try owner.status()
            #expect(status.title == "Call 2")
            #expect(status.id == "call")
            #expect(status.queue == 1)
            #expect(try owner.run(["dismiss", "--id", "call"]).status == 0)
            #expect(try owner.status().title == "Upload 50%")
        }

        @Test func waitReportsTimeoutAfterTheSpaceIsGivenBack() throws {
            let owner = try OwnerFixture()
            let outcome = try owner.run(["show", "--title", "T", "--compact", "never", "--timeout", "0.4", "--wait"])
            #expect(outcome.status == 0)
            #expect(outcome.output == "timeout\n")
            // The owner answers once the banner and its dock are gone (it has the server carry
            // that out first); the window manager gives the space back in its own time.
            #expect(owner.observer.windows(named: "window-banner-reservation").isEmpty)
            #expect(owner.observer.wait { owner.observer.workAreas() == owner.fixture.originalWorkAreas },
                    "work areas \(owner.observer.workAreas())")
        }

        @Test func waitReportsDismissedWithItsExitCode() throws {
            let owner = try OwnerFixture()
            let waiting = try owner.fixture.launch(["show", "--title", "T", "--compact", "never", "--wait"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(waiting.waitForExit() == 10)
            #expect(waiting.standardOutput == "dismissed\n")
        }

        @Test func waitReportsReplacedWithItsExitCode() throws {
            let owner = try OwnerFixture()
            let waiting = try owner.fixture.launch(["show", "--title", "T", "--compact", "never", "--wait"])
            #expect(owner.fixture.waitForBanner(height: 80))
            try owner.show(["--title", "Other", "--compact", "never"])
            #expect(waiting.waitForExit() == 11)
            #expect(waiting.standardOutput == "replaced\n")
        }

        @Test func fiftySimultaneousFirstShowsStartExactlyOneOwner() throws {
            let owner = try OwnerFixture()
            let titles = (1...50).map { "Banner \($0)" }
            let processes = try titles.map { try owner.fixture.launch(["show", "--title", $0]) }
            for process in processes {
                #expect(process.waitForExit(timeout: 30) == 0)
                #expect(process.standardError == "")
            }
            #expect(owner.ownerProcesses().count == 1)
            let status = try owner.status()
            #expect(status.owner?.pid == owner.ownerProcesses().first.map(Int.init))
            #expect(titles.contains(status.title ?? ""))
        }

        @Test func killedOwnerLosesItsReservationAndNextShowStartsANewOne() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let first = try #require(try owner.status().owner?.pid)
            kill(pid_t(first), SIGKILL)
            // The X server destroys the windows of a dead client: the space comes back at once.
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(owner.waitForExit(of: pid_t(first)))
            try owner.show(["--title", "Again", "--compact", "never"])
            let status = try owner.status()
            #expect(status.title == "Again")
            #expect(status.owner?.pid != first)
            #expect(owner.fixture.waitForBanner(height: 80))
        }

        @Test func ownerExitsAfterItsIdlePeriodTakingNothingWithIt() throws {
            let owner = try OwnerFixture()
            try owner.writeConfig("[daemon]\nidle-exit = 0.3\n")
            try owner.show(["--title", "T", "--compact", "never", "--timeout", "0.2"])
            let pid = try #require(owner.ownerProcesses().first)
            #expect(owner.waitForExit(of: pid))
            // The window manager gives back the space of the last dock in its own time.
            #expect(owner.observer.wait { owner.observer.workAreas() == owner.fixture.originalWorkAreas },
                    "work areas \(owner.observer.workAreas())")
            #expect(try owner.status().owner == nil)
            #expect(!FileManager.default.fileExists(atPath: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).sock"))
        }

        @Test func ownerExitsAndRemovesItsSocketWhenTheXServerGoesAway() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T"])
            let pid = try #require(owner.ownerProcesses().first)
            // A script waiting on its banner hears why it will never end, and ends with 69 too.
            let waiting = try owner.fixture.launch(["show", "--wait", "--sticky", "--id", "waiting", "--title", "Waiting"])
            #expect(owner.observer.wait(timeout: 15) { (try? owner.status())?.title == "Waiting" })
            let socketPath = owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).sock"
            #expect(FileManager.default.fileExists(atPath: socketPath))
            owner.observer.close()
            owner.fixture.desktop.stop()
            #expect(owner.waitForExit(of: pid, timeout: 2))
            #expect(!FileManager.default.fileExists(atPath: socketPath))
            #expect(waiting.waitForExit(timeout: 10) == 69)
            #expect(waiting.standardError == "window-banner: lost the connection to the X display\n", "\(waiting.standardError)")
            let log = try String(contentsOfFile: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log", encoding: .utf8)
            #expect(log.contains("lost the connection to the X display"))
        }

        @Test func withoutXDGRuntimeDirTheOwnerLivesInAPrivateTmpDirectory() throws {
            let owner = try OwnerFixture()
            // Empty (or relative) counts as unset, as the XDG spec says.
            owner.fixture.extraEnvironment["XDG_RUNTIME_DIR"] = ""
            try owner.show(["--title", "T"])
            // /run/user/UID when the machine has it, as pam_systemd would have set the variable.
            var runtime = stat()
            let runUser = "/run/user/\(geteuid())"
            let directory = lstat(runUser, &runtime) == 0 && runtime.st_uid == geteuid() ? runUser + "/window-banner" : "/tmp/window-banner-\(geteuid())"
            var info = stat()
            #expect(lstat(directory, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700)
            #expect(info.st_uid == geteuid())
            let socketPath = directory + "/display\(owner.fixture.desktop.displayName).sock"
            #expect(FileManager.default.fileExists(atPath: socketPath))
            #expect(try owner.status().title == "T")
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
        }

        @Test func statusWithoutOwnerReportsNothingAndStartsNothing() throws {
            let owner = try OwnerFixture()
            let outcome = try owner.run(["status"])
            #expect(outcome.status == 0)
            #expect(outcome.output == "no banner (no owner running)\n")
            #expect(try owner.status().presented == false)
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(owner.ownerProcesses().isEmpty)
        }

        @Test func runtimeDirectoryAndSocketArePrivate() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T"])
            var info = stat()
            #expect(stat(owner.runtimeDirectory + "/window-banner", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700)
            #expect(stat(owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).sock", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    @Suite("show: config file and bad values")
    struct OwnerConfigTests {
        @Test func flagsOverrideStyleAndStyleOverridesDefaults() throws {
            let owner = try OwnerFixture()
            try owner.writeConfig("""
                [defaults]
                height = 50
                compact = "never"

                [style.alert]
                title = "Styled"
                height = 60
                """)
            try owner.show(["--title", "Plain"])
            #expect(try owner.status().height == 50)
            try owner.show(["--style", "alert"])
            var status = try owner.status()
            #expect(status.title == "Styled")
            #expect(status.height == 60)
            try owner.show(["--style", "alert", "--height", "70"])
            status = try owner.status()
            #expect(status.title == "Styled")
            #expect(status.height == 70)
            #expect(owner.fixture.waitForBanner(height: 70))
            try owner.show(["--no-config", "--title", "Built-in", "--compact", "never"])
            #expect(try owner.status().height == 80)
        }

        @Test func builtInStylesWorkWithoutAConfigFile() throws {
            let owner = try OwnerFixture()
            try owner.show(["--style", "offline", "--compact", "never"])
            #expect(try owner.status().title == "No Internet Connection")
            #expect(owner.fixture.waitForBanner(height: 80))
            // systemRed, as drawn.
            let shot = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            let pixel = shot.pixel(x: 5, y: 40)
            #expect(pixel.red == 0xFF && pixel.green == 0x3B && pixel.blue == 0x30)
        }

        @Test func brokenConfigNamesFileAndLineAndChangesNothing() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let path = try owner.writeConfig("[defaults]\nheight = 40\nbackground = \"#zz\"\n")
            let outcome = try owner.run(["show", "--title", "New"])
            #expect(outcome.status == 78)
            let lines = outcome.error.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(outcome.error.contains("\(path):3"))
            #expect(outcome.error.contains("defaults.background"))
            #expect(try owner.status().title == "Visible")
            try owner.show(["--no-config", "--title", "Fallback", "--compact", "never"])
            #expect(try owner.status().title == "Fallback")
        }

        @Test func badValuesAreRefusedAndTheVisibleBannerStays() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let cases: [(arguments: [String], status: Int32, mentions: String)] = [
                (["--background", "nosuchcolour"], 64, "'nosuchcolour'"),
                (["--height", "-3"], 64, "'-3'"),
                (["--timeout", "0"], 64, "'0'"),
                (["--monitor", "HDMI-9"], 64, "'HDMI-9'"),
                (["--style", "nope"], 64, "'nope'"),
                (["--sticky", "--timeout", "2"], 64, "--sticky"),
            ]
            for (arguments, status, mentions) in cases {
                let outcome = try owner.run(["show", "--title", "Bad"] + arguments)
                #expect(outcome.status == status, "\(arguments)")
                #expect(outcome.error.split(separator: "\n").count >= 1)
                #expect(outcome.error.contains(mentions), "\(arguments): \(outcome.error)")
            }
            #expect(try owner.status().title == "Visible")
            #expect(owner.fixture.waitForBanner(height: 80))
        }

        @Test func ownerOfAnotherProtocolVersionGetsAClearError() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T"])
            let socketPath = owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).sock"
            let reply = try rawExchange(socketPath, body: #"{"v":4,"command":"status"}"#)
            #expect(reply.contains(#""kind":"version""#))
            #expect(reply.contains("protocol 3"))
            let garbage = try rawExchange(socketPath, body: "not json at all")
            #expect(garbage.contains(#""kind":"protocol""#))
            // The owner keeps serving well-formed requests.
            #expect(try owner.status().title == "T")
        }
    }
}

/// Sends one frame with `body` to the owner socket and returns the reply's body as text.
private func rawExchange(_ path: String, body: String) throws -> String {
    let socket = try RawSocket(path)
    socket.write(frame(Array(body.utf8)))
    return String(socket.readAll().dropFirst(4))
}

extension WindowBannerCLITests {
    @Suite("daemon in the foreground (systemd)")
    struct ForegroundDaemonTests {
        @Test func foregroundDaemonServesShowAndSlidesAwayOnSigterm() throws {
            let owner = try OwnerFixture()
            let daemon = try owner.fixture.launch(["daemon", "--idle-exit", "0"])
            let announced = try #require(daemon.readLine(timeout: 10))
            #expect(announced.hasPrefix("window-banner: owner for \(owner.fixture.desktop.displayName) listening on "))
            try owner.show(["--title", "Served", "--compact", "never"])
            #expect(try owner.status().owner?.pid == Int(daemon.pid))
            #expect(owner.fixture.waitForBanner(height: 80))
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func secondForegroundDaemonRefusesWithSeventyFive() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "T"])
            let outcome = try owner.run(["daemon", "--idle-exit", "0"])
            #expect(outcome.status == 75)
            #expect(outcome.error == "window-banner: an owner is already running for \(owner.fixture.desktop.displayName)\n")
        }
    }
}
