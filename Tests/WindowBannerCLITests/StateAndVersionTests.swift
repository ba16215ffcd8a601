// What a session-long owner meets over weeks: a history of thousands of banner ids, state
// files broken by a crash or a full disk, and a package upgrade under it. Every owner here is
// the real one; an owner of another protocol version is the same program told to speak that
// number (WINDOW_BANNER_TEST_PROTOCOL_VERSION), so it parses, shows and hands over for real.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("bounded state and protocol versions")
    struct StateAndVersionTests {
        private struct StatsJSON: Decodable {
            var keys: [String: Counts]
            struct Counts: Decodable { var impressions: Int }
        }

        /// `window-banner arguments` speaking protocol `version` (nil: this build's own).
        private func run(_ owner: OwnerFixture, version: Int?, _ arguments: [String]) throws -> OwnerFixture.Outcome {
            var environment = owner.fixture.environment(.desktop)
            environment["WINDOW_BANNER_TEST_PROTOCOL_VERSION"] = version.map(String.init)
            let process = try Subprocess(executable: windowBannerExecutable(), arguments: arguments, environment: environment)
            let status = process.waitForExit(timeout: 20)
            return OwnerFixture.Outcome(status: status, output: process.standardOutput, error: process.standardError)
        }

        private func stateFile(_ owner: OwnerFixture, _ name: String) -> String {
            owner.stateHome + "/window-banner/" + name
        }

        private func ownerLog(_ owner: OwnerFixture) -> String {
            (try? String(contentsOfFile: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log", encoding: .utf8)) ?? ""
        }

        // MARK: Bounded state

        /// 1,500 distinct ids (a CI pipeline's steps): `stats` still answers — in pages, as the
        /// history no longer fits one reply — with the 1,000 keys used last.
        @Test func statsOfFifteenHundredIdsAnswersWithTheThousandUsedLast() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "start", "--compact", "never"])
            let pid = try #require(owner.ownerProcesses().first)
            var sent = 0
            while sent < 1500 {
                let sockets = try (sent..<sent + 20).map { index -> RawSocket in
                    let socket = try RawSocket(owner.socketPath)
                    let key = "pipeline-step-" + String(index + 10000).dropFirst()
                    let body = #"{"v":3,"command":"show","show":{"settings":{"title":"step \#(index)","compact":"never"},"id":"\#(key)","sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false}}"#
                    socket.write(frame(Array(body.utf8)))
                    return socket
                }
                for socket in sockets { #expect(socket.readAll().contains(#""shown""#)) }
                sent += 20
            }
            let outcome = try owner.run(["stats", "--json"])
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(outcome.error.isEmpty)
            let keys = try JSONDecoder().decode(StatsJSON.self, from: Data(outcome.output.utf8)).keys
            print("stats after 1,500 ids: \(keys.count) keys, \(outcome.output.utf8.count) bytes of JSON")
            #expect(keys.count == 1000)
            #expect(keys["pipeline-step-1499"]?.impressions == 1)
            #expect(keys["pipeline-step-0000"] == nil)
            // Requests in flight together may land in either order within the last second.
            #expect(keys.keys.allSatisfy { $0 >= "pipeline-step-0480" })
            let table = try owner.run(["stats"])
            #expect(table.status == 0)
            #expect(table.output.split(separator: "\n").count == 1001)
            #expect(owner.ownerProcesses() == [pid])

            // On disk the same bound: an owner that starts from the file finds the same keys.
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(owner.waitForExit(of: pid))
            let fromFile = try owner.run(["stats", "--json"])
            #expect(try JSONDecoder().decode(StatsJSON.self, from: Data(fromFile.output.utf8)).keys.count == 1000)
        }

        /// A state file that is not JSON, and one over the size limit: each is kept aside with a
        /// line in the owner's log, and the owner starts and shows as usual.
        @Test func aCorruptAndAnOversizedStateFileAreKeptAsideAndTheOwnerGoesOn() throws {
            let owner = try OwnerFixture()
            mkdir(owner.stateHome + "/window-banner", 0o700)
            let garbage = Data("{\"welcome\": 17".utf8)
            #expect(FileManager.default.createFile(atPath: stateFile(owner, "once.json"), contents: garbage))
            let oversized = Data(repeating: 0x20, count: 17 << 20)
            #expect(FileManager.default.createFile(atPath: stateFile(owner, "stats.json"), contents: oversized))

            try owner.show(["--title", "Welcome", "--once", "welcome", "--id", "welcome", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.status().title == "Welcome")

            let files = try FileManager.default.contentsOfDirectory(atPath: owner.stateHome + "/window-banner")
            let onceAside = try #require(files.first { $0.hasPrefix("once.json.corrupt-") })
            let statsAside = try #require(files.first { $0.hasPrefix("stats.json.corrupt-") })
            #expect(FileManager.default.contents(atPath: stateFile(owner, onceAside)) == garbage, "kept as it was")
            #expect(FileManager.default.contents(atPath: stateFile(owner, statsAside))?.count == oversized.count)
            let log = ownerLog(owner)
            #expect(log.contains("once.json is not a window-banner state file: kept as \(stateFile(owner, onceAside))"), "\(log)")
            #expect(log.contains("stats.json is larger than 16 MiB: kept as \(stateFile(owner, statsAside))"), "\(log)")

            // The owner goes on with fresh files, written once the banner has settled.
            #expect(owner.observer.wait {
                (try? String(contentsOfFile: stateFile(owner, "once.json"), encoding: .utf8))?.contains("welcome") == true
                    && (try? String(contentsOfFile: stateFile(owner, "stats.json"), encoding: .utf8))?.contains("welcome") == true
            })
            let again = try owner.run(["show", "--title", "Welcome", "--once", "welcome", "--wait"])
            #expect(again.output == "skipped\n")
        }

        /// `stats` with no owner reads the file itself: a broken one is a warning and an empty
        /// table, and the file stays where it is for the next owner to keep aside.
        @Test func statsWithoutAnOwnerWarnsAboutABrokenFile() throws {
            let owner = try OwnerFixture()
            mkdir(owner.stateHome + "/window-banner", 0o700)
            #expect(FileManager.default.createFile(atPath: stateFile(owner, "stats.json"), contents: Data("[1, 2".utf8)))
            let outcome = try owner.run(["stats"])
            #expect(outcome.status == 0)
            #expect(outcome.output.split(separator: "\n").count == 1, "the header only: \(outcome.output)")
            #expect(outcome.error == "window-banner: warning: \(stateFile(owner, "stats.json")) is not a window-banner state file; the next owner keeps it aside\n")
            #expect(FileManager.default.contents(atPath: stateFile(owner, "stats.json")) == Data("[1, 2".utf8))
            #expect(owner.ownerProcesses().isEmpty)
        }

        /// A status that would not fit in a frame (two monitors, each with a title and subtitle
        /// near their limits, quotes that JSON doubles) still answers, with the texts cut; no
        /// reply longer than a frame is ever sent.
        @Test func aStatusTooLongForAFrameComesWithItsTextsCut() throws {
            let owner = try OwnerFixture(setup: MonitorTests.twoMonitors)
            let shown = try owner.run([
                "show", "--title", String(repeating: "\"", count: 16_000), "--subtitle", String(repeating: "\"", count: 4_000),
                "--monitor", "all", "--compact", "never",
            ])
            #expect(shown.status == 0, "\(shown.error)")
            let outcome = try owner.run(["status", "--json"])
            #expect(outcome.status == 0, "\(outcome.error)")
            let status = try JSONDecoder().decode(StatusJSON.self, from: Data(outcome.output.utf8))
            #expect(status.monitors.count == 2)
            for monitor in status.monitors {
                #expect(monitor.title?.hasSuffix("…") == true)
                #expect((monitor.title?.count ?? 0) < 16_000)
            }
            try owner.show(["--title", "Short", "--monitor", "all"])
            #expect(try owner.status().title == "Short")
        }

        // MARK: Versions

        /// An upgrade under a running owner: the first command of the new version (here
        /// `status`) has the old owner hand its banners over and shows them again through a new
        /// owner — the visible one and the queue, same ids and look — then answers as usual.
        @Test func anOlderOwnerHandsItsBannersOverToTheNewVersion() throws {
            let owner = try OwnerFixture()
            let first = try run(owner, version: 1, ["show", "--title", "Call in progress", "--id", "call", "--background", "systemRed", "--compact", "never"])
            #expect(first.status == 0, "\(first.error)")
            let queued = try run(owner, version: 1, ["show", "--title", "Next up", "--id", "next", "--enqueue", "--timeout", "30"])
            #expect(queued.status == 0, "\(queued.error)")
            let old = try #require(owner.ownerProcesses().first)
            #expect(owner.fixture.waitForBanner(height: 80))

            let outcome = try owner.run(["status", "--json"])
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(outcome.error.isEmpty, "the user notices nothing: \(outcome.error)")
            let status = try JSONDecoder().decode(StatusJSON.self, from: Data(outcome.output.utf8))
            #expect(status.title == "Call in progress")
            #expect(status.id == "call")
            #expect(status.mode == "sticky")
            #expect(status.queue == 1)
            #expect(status.owner.map { pid_t($0.pid) } != old)
            #expect(owner.waitForExit(of: old))
            #expect(owner.ownerProcesses().count == 1)
            #expect(owner.fixture.waitForBanner(height: 80))
            // Its look came along: systemRed, not the default green.
            let systemRed = Pixel(hex: 0xFF3B30)
            #expect(owner.observer.wait {
                owner.observer.screenshot(Rect(x: 0, y: 70, width: 8, height: 8))?.pixel(x: 2, y: 76) == systemRed
            })

            // The queued banner kept its place and its look.
            #expect(try owner.run(["dismiss", "--id", "call"]).status == 0)
            #expect(owner.observer.wait { (try? owner.status().title) == "Next up" })
        }

        /// Every kind of flag survives the trip through the command line: a style, a subtitle,
        /// on/off flags, an action with its command, a progress bar, a click command, and a
        /// transient banner's remaining time.
        @Test func aRichBannerComesBackWithItsStyleSubtitleProgressAndTimeLeft() throws {
            let owner = try OwnerFixture()
            let shown = try run(owner, version: 1, [
                "show", "--style", "call", "--subtitle", "Alice", "--close-button", "--action", "Hang up=true", "--action", "Mute",
                "--progress", "0.5", "--corner-radius", "10", "--no-reduce-motion", "--placement", "screen-edge",
                "--timeout", "60", "--id", "call", "--compact", "never", "--on-click", "--", "true",
            ])
            #expect(shown.status == 0, "\(shown.error)")
            let old = try #require(owner.ownerProcesses().first)
            let outcome = try owner.run(["status", "--json"])
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(outcome.error.isEmpty, "\(outcome.error)")
            let status = try JSONDecoder().decode(StatusJSON.self, from: Data(outcome.output.utf8))
            #expect(status.owner.map { pid_t($0.pid) } != old)
            #expect(status.style == "call")
            #expect(status.subtitle == "Alice")
            #expect(status.progress == 0.5)
            #expect(outcome.output.contains(#""actions" : ["#) && outcome.output.contains("Hang up") && outcome.output.contains("Mute"), "both actions came back: \(outcome.output)")
            #expect(status.id == "call")
            #expect(status.mode == "transient")
            #expect((status.remaining ?? 0) > 0 && (status.remaining ?? 100) <= 60)
        }

        /// `show` meeting an older owner: its banner joins the ones handed over.
        @Test func showThroughAnOlderOwnerKeepsWhatItShowed() throws {
            let owner = try OwnerFixture()
            #expect(try run(owner, version: 1, ["show", "--title", "Old", "--id", "old", "--compact", "never"]).status == 0)
            let old = try #require(owner.ownerProcesses().first)
            let outcome = try owner.run(["show", "--title", "New", "--id", "new", "--enqueue"])
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(outcome.error.isEmpty, "\(outcome.error)")
            #expect(owner.waitForExit(of: old))
            let status = try owner.status()
            #expect(status.title == "Old")
            #expect(status.queue == 1)
        }

        /// A newer owner (an older window-banner run beside a newer one) is never replaced:
        /// one line naming it and the way out, exit 76, its banner untouched. `dismiss --all
        /// --quit` stops an owner of any version.
        @Test func aNewerOwnerIsNamedInOneLineAndQuitReachesIt() throws {
            let owner = try OwnerFixture()
            #expect(try run(owner, version: 4, ["show", "--title", "From the future", "--compact", "never"]).status == 0)
            let newer = try #require(owner.ownerProcesses().first)
            #expect(owner.fixture.waitForBanner(height: 80))

            for command in [["status"], ["stats"], ["dismiss"], ["show", "--title", "Now"]] {
                let outcome = try owner.run(command)
                #expect(outcome.status == 76, "\(command)")
                #expect(outcome.error.split(separator: "\n").count == 1, "\(command): \(outcome.error)")
                #expect(outcome.error.contains("is from a newer window-banner (protocol 4; this one speaks 3)"), "\(outcome.error)")
                #expect(outcome.error.contains("window-banner dismiss --all --quit"))
            }
            #expect(owner.ownerProcesses() == [newer])
            let status = try run(owner, version: 4, ["status", "--json"])
            #expect(status.output.contains("From the future"))

            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(owner.waitForExit(of: newer))
            #expect(owner.fixture.waitForRestoredDesktop())
        }
    }
}
