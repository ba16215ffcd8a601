// `show` banners the user dismisses with the mouse (driven through XTEST by xdotool): the
// reason `--wait` prints with its exit code, the space given back, the next queued banner;
// the commands `--on-click` and `--action` run — in the caller's environment and directory,
// detached, reaped — and the progress bar, moved by a later `show --id` without a new window.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: dismissal by the user")
    struct ShowDismissalTests {
        /// Starts `show --wait` with `arguments`, waits until its banner is fully in, does
        /// `gesture` with xdotool, and returns the exit status and output of `show`.
        static func dismiss(_ owner: OwnerFixture, showing arguments: [String], with gesture: [String]) throws -> (status: Int32?, output: String) {
            let waiting = try owner.fixture.launch(["show", "--title", "Tap me", "--compact", "never", "--wait"] + arguments)
            #expect(owner.fixture.waitForBanner(height: 80))
            try owner.fixture.desktop.run(["xdotool"] + gesture)
            let status = waiting.waitForExit()
            return (status, waiting.standardOutput)
        }

        @Test func clickReportsClickedAfterTheSpaceIsGivenBack() throws {
            let owner = try OwnerFixture()
            let outcome = try Self.dismiss(owner, showing: [], with: ["mousemove", "640", "40", "click", "1"])
            #expect(outcome.status == 12)
            #expect(outcome.output == "clicked\n")
            // `--wait` answers once the banner is off screen and its dock gone (the owner has the
            // server carry that out first); the window manager gives the space back in its own time.
            #expect(owner.observer.windows(named: "window-banner").isEmpty)
            #expect(owner.observer.windows(named: "window-banner-reservation").isEmpty)
            #expect(owner.fixture.waitForRestoredDesktop(), "work areas \(owner.observer.workAreas())")
            #expect(try owner.status().presented == false)
        }

        @Test func closeButtonIsDrawnAtTheRightEdgeAndReportsClosed() throws {
            let owner = try OwnerFixture()
            let waiting = try owner.fixture.launch(["show", "--title", "Tap me", "--compact", "never", "--wait", "--close-button"])
            #expect(owner.fixture.waitForBanner(height: 80))
            // The owner puts the banner back above its dock once it hears the WM mapped the dock.
            func crossColumns() -> [Int] {
                owner.observer.screenshot(Rect(x: 1240, y: 0, width: 40, height: 80))?.columns(matching: Pixel(hex: 0xFFFFFF), tolerance: 60) ?? []
            }
            #expect(owner.observer.wait {
                let columns = crossColumns()
                return columns.count >= 5 && (columns.first ?? 0) > 1245 && (columns.last ?? .max) < 1275
            }, "✕ columns \(crossColumns())")
            try owner.fixture.desktop.run(["xdotool", "mousemove", "1260", "40", "click", "1"])
            #expect(waiting.waitForExit() == 13)
            #expect(waiting.standardOutput == "closed\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func underAnArabicLocaleTheCloseButtonIsAtTheLeftEdge() throws {
            let owner = try OwnerFixture()
            // The caller's locale decides the layout; it need not be installed (nothing is translated).
            owner.fixture.extraEnvironment["LANG"] = "ar_EG.UTF-8"
            let waiting = try owner.fixture.launch(["show", "--title", "مكالمة جارية", "--compact", "never", "--wait", "--close-button"])
            #expect(owner.fixture.waitForBanner(height: 80))
            func crossColumns() -> [Int] {
                owner.observer.screenshot(Rect(x: 0, y: 0, width: 40, height: 80))?.columns(matching: Pixel(hex: 0xFFFFFF), tolerance: 60) ?? []
            }
            #expect(owner.observer.wait {
                let columns = crossColumns()
                return columns.count >= 5 && (columns.first ?? 0) > 5 && (columns.last ?? .max) < 35
            }, "✕ columns \(crossColumns())")
            try owner.fixture.desktop.run(["xdotool", "mousemove", "20", "40", "click", "1"])
            #expect(waiting.waitForExit() == 13)
            #expect(waiting.standardOutput == "closed\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func wheelUpReportsSwiped() throws {
            let owner = try OwnerFixture()
            let outcome = try Self.dismiss(owner, showing: [], with: ["mousemove", "640", "40", "click", "4"])
            #expect(outcome.status == 14)
            #expect(outcome.output == "swiped\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func dragUpwardsReportsSwiped() throws {
            let owner = try OwnerFixture()
            let drag = ["mousemove", "640", "70", "mousedown", "1", "mousemove", "640", "30", "mousemove", "640", "0", "mouseup", "1"]
            let outcome = try Self.dismiss(owner, showing: [], with: drag)
            #expect(outcome.status == 14)
            #expect(outcome.output == "swiped\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func actionButtonReportsAction() throws {
            let owner = try OwnerFixture()
            // The action button ends where the ✕ begins (1240): 1230 is inside its box.
            let outcome = try Self.dismiss(owner, showing: ["--close-button", "--action", "Retry"], with: ["mousemove", "1230", "40", "click", "1"])
            #expect(outcome.status == 15)
            #expect(outcome.output == "action\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func userDismissalBringsTheNextQueuedBanner() throws {
            let owner = try OwnerFixture()
            let first = try owner.fixture.launch(["show", "--title", "First", "--compact", "never", "--wait"])
            #expect(owner.fixture.waitForBanner(height: 80))
            try owner.show(["--title", "Second", "--compact", "never", "--enqueue"])
            try owner.fixture.desktop.run(["xdotool", "mousemove", "640", "40", "click", "1"])
            #expect(first.waitForExit() == 12)
            let status = try owner.status()
            #expect(status.title == "Second")
            #expect(status.queue == 0)
            #expect(owner.fixture.waitForBanner(height: 80))
        }
    }

    @Suite("show: --on-click and --action commands")
    struct ClickCommandTests {
        /// A foreground owner (its environment and directory are the test's, without
        /// `WB_MARK`), a scratch directory, and a `show --wait` started from that directory
        /// with `WB_MARK=from-the-caller` in its environment.
        final class Scene {
            let owner: OwnerFixture
            let daemon: Subprocess
            let directory: String

            init() throws {
                owner = try OwnerFixture()
                daemon = try owner.fixture.launch(["daemon", "--idle-exit", "0"])
                guard daemon.readLine(timeout: 10)?.contains("listening on") == true else { throw TestFailure("the owner did not start") }
                var template = Array("/tmp/wb-click-XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
                directory = String(cString: made)
            }

            deinit {
                daemon.signal(SIGTERM)
                daemon.waitForExit()
                _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
            }

            /// `window-banner show --title Click --compact never --wait arguments…`, run from
            /// `directory` with `WB_MARK` set; returns once its banner is fully in.
            func show(_ arguments: [String]) throws -> Subprocess {
                var environment = owner.fixture.environment(.desktop)
                environment["WB_MARK"] = "from-the-caller"
                let process = try Subprocess(
                    executable: "/bin/sh",
                    arguments: ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, windowBannerExecutable(),
                                "show", "--title", "Click", "--compact", "never", "--wait"] + arguments,
                    environment: environment)
                guard owner.fixture.waitForBanner(height: 80) else { throw TestFailure("no banner: \(process.standardError)") }
                return process
            }

            func click(x: Int, y: Int = 40) throws {
                try owner.fixture.desktop.run(["xdotool", "mousemove", "\(x)", "\(y)", "click", "1"])
            }

            /// The contents of `name` in the scratch directory once it has some. Nothing
            /// announces that a detached command wrote a file, so this looks every 10 ms, for
            /// at most `timeout` seconds.
            func waitForFile(_ name: String, timeout: Double = 10) -> String? {
                let deadline = monotonicSeconds() + timeout
                while monotonicSeconds() < deadline {
                    if let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8), !text.isEmpty { return text }
                    poll(nil, 0, 10)
                }
                return nil
            }

            /// Waits (bounded, every 10 ms: no event says a process ended) until the owner has
            /// no child processes left: a command that finished and stayed a zombie would.
            func ownerHasNoChildren(timeout: Double = 10) -> Bool {
                let deadline = monotonicSeconds() + timeout
                while monotonicSeconds() < deadline {
                    if children(of: daemon.pid).isEmpty { return true }
                    poll(nil, 0, 10)
                }
                return false
            }

            /// The session id in a /proc/PID/stat line (the fourth field after the command name).
            static func session(inStat stat: String) -> Int? {
                guard let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                return fields.count > 3 ? Int(fields[3]) : nil
            }

            /// Processes whose parent is `pid`, with their state letter (`Z` for a zombie).
            func children(of pid: pid_t) -> [(pid: pid_t, state: Character)] {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
                return entries.compactMap { entry in
                    guard let child = pid_t(entry),
                          let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                          let close = stat.lastIndex(of: ")") else { return nil }
                    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                    guard fields.count > 1, pid_t(fields[1]) == pid, let state = fields[0].first else { return nil }
                    return (child, state)
                }
            }
        }

        @Test func onClickRunsTheCommandWithTheCallersEnvironmentAndDirectory() throws {
            let scene = try Scene()
            let command = ["sh", "-c", "printf '%s\\n' \"$WB_MARK\" \"$(pwd)\" > ran.partial && mv ran.partial ran"]
            let waiting = try scene.show(["--on-click", "--"] + command)
            try scene.click(x: 640)
            #expect(waiting.waitForExit() == 12)
            #expect(waiting.standardOutput == "clicked\n")
            let output = try #require(scene.waitForFile("ran"))
            #expect(output == "from-the-caller\n\(scene.directory)\n")
            // The owner itself has neither: the command got them from the request.
            let ownerEnvironment = try #require(FileManager.default.contents(atPath: "/proc/\(scene.daemon.pid)/environ"))
            #expect(!String(decoding: ownerEnvironment, as: UTF8.self).contains("WB_MARK"))
            #expect(scene.ownerHasNoChildren())
        }

        @Test func actionButtonRunsItsCommandAndClickingElsewhereDoesNot() throws {
            let scene = try Scene()
            let waiting = try scene.show(["--close-button", "--action", "Save=touch saved-by-action", "--on-click", "--", "touch", "clicked"])
            // Inside the action button's box, which ends where the ✕ begins.
            try scene.click(x: 1230)
            #expect(waiting.waitForExit() == 15)
            #expect(waiting.standardOutput == "action\n")
            let deadline = monotonicSeconds() + 10
            while monotonicSeconds() < deadline, !FileManager.default.fileExists(atPath: scene.directory + "/saved-by-action") {
                poll(nil, 0, 10)
            }
            #expect(FileManager.default.fileExists(atPath: scene.directory + "/saved-by-action"))
            #expect(scene.ownerHasNoChildren())
            // The on-click command was for a click on the banner itself: it never ran.
            #expect(!FileManager.default.fileExists(atPath: scene.directory + "/clicked"))
        }

        @Test func closingRunsNoCommand() throws {
            let scene = try Scene()
            let waiting = try scene.show(["--close-button", "--on-click", "--", "touch", "clicked"])
            try scene.click(x: 1260)
            #expect(waiting.waitForExit() == 13)
            #expect(scene.ownerHasNoChildren())
            #expect(!FileManager.default.fileExists(atPath: scene.directory + "/clicked"))
        }

        @Test func commandsRunDetachedInTheirOwnSession() throws {
            let scene = try Scene()
            let waiting = try scene.show(["--on-click", "--", "sh", "-c", "cat /proc/$$/stat > stat.partial && mv stat.partial stat"])
            try scene.click(x: 640)
            #expect(waiting.waitForExit() == 12)
            let command = try #require(scene.waitForFile("stat"))
            let owner = try String(contentsOfFile: "/proc/\(scene.daemon.pid)/stat", encoding: .utf8)
            // setsid: the command leads a session of its own, not the owner's.
            let session = try #require(Scene.session(inStat: command))
            #expect(session == Int(command.split(separator: " ")[0]))
            #expect(session != Scene.session(inStat: owner))
        }

        @Test func commandThatCannotStartIsAWarningInTheOwnersLog() throws {
            let owner = try OwnerFixture()
            let waiting = try owner.fixture.launch(["show", "--title", "Click", "--compact", "never", "--wait", "--on-click", "--", "no-such-command-wb", "x"])
            #expect(owner.fixture.waitForBanner(height: 80))
            try owner.fixture.desktop.run(["xdotool", "mousemove", "640", "40", "click", "1"])
            #expect(waiting.waitForExit() == 12)
            let log = try String(contentsOfFile: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log", encoding: .utf8)
            #expect(log.contains("window-banner: warning: the --on-click command did not run: command not found: no-such-command-wb"), "log: \(log)")
            // Still serving.
            try owner.show(["--title", "Still here", "--compact", "never"])
            #expect(try owner.status().title == "Still here")
        }

        @Test func badCommandUsageIsRefused() throws {
            let owner = try OwnerFixture()
            let cases: [(arguments: [String], mentions: String)] = [
                (["--on-click"], "--on-click needs a command after --"),
                (["--", "touch", "x"], "a command after -- needs --on-click"),
                (["--action", "=touch x"], "bad action '=touch x'"),
                (["--action", ""], "bad action ''"),
            ]
            for (arguments, mentions) in cases {
                let outcome = try owner.run(["show", "--title", "Bad"] + arguments)
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.error.split(separator: "\n").count == 1, "\(arguments): \(outcome.error)")
                #expect(outcome.error.contains(mentions), "\(arguments): \(outcome.error)")
            }
            #expect(owner.ownerProcesses().isEmpty)
        }
    }

    @Suite("show: --progress")
    struct ShowProgressTests {
        /// Pixels in the text colour (white) on row 78, inside the 3 px bar at the bottom edge.
        static func barWidth(_ observer: XObserver) -> Int? {
            observer.screenshot(Rect(x: 0, y: 78, width: 1280, height: 1))?.count(matching: Pixel(hex: 0xFFFFFF), tolerance: 8)
        }

        @Test func barWidthInPixelsMatchesTheValue() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Uploading", "--compact", "never", "--progress", "0.25"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(owner.observer.wait { abs((Self.barWidth(owner.observer) ?? 0) - 320) <= 2 }, "bar \(Self.barWidth(owner.observer) ?? -1) px")
        }

        @Test func laterShowWithTheSameIdMovesTheBarInTheSameWindow() throws {
            let owner = try OwnerFixture()
            let look = ["--title", "Uploading", "--compact", "never", "--id", "upload"]
            try owner.show(look + ["--progress", "0.25"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(owner.observer.wait { abs((Self.barWidth(owner.observer) ?? 0) - 320) <= 2 })
            let titleArea = Rect(x: 440, y: 20, width: 400, height: 50)
            let title = try #require(owner.observer.screenshot(titleArea))
            let window = owner.observer.windows(named: "window-banner")
            owner.fixture.startRecordingMaps()

            try owner.show(look + ["--progress", "0.6"])
            var titleChanged = false
            #expect(owner.observer.wait {
                if owner.observer.screenshot(titleArea) != title { titleChanged = true }
                return abs((Self.barWidth(owner.observer) ?? 0) - 768) <= 2
            }, "bar \(Self.barWidth(owner.observer) ?? -1) px")
            #expect(!titleChanged, "the title was redrawn: a cross-fade")
            #expect(owner.observer.windows(named: "window-banner") == window)
            #expect(owner.fixture.mappedWindows().isEmpty)
            #expect(owner.observer.unmaps.isEmpty)
            #expect(owner.observer.workAreas() == owner.fixture.workAreas(shrunkBy: 80))
        }

        @Test func badProgressValuesAreRefusedAndTheVisibleBannerStays() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            for value in ["nan", "-0.1", "1.5", "abc", "", "inf"] {
                let outcome = try owner.run(["show", "--title", "Bad", "--progress", value])
                #expect(outcome.status == 64, "\(value)")
                #expect(outcome.error == "window-banner: bad progress '\(value)' (a number from 0 to 1)\n", "\(value)")
            }
            #expect(try owner.status().title == "Visible")
        }
    }
}
