// `status --follow` as a status bar runs it: started before any owner, kept running across
// owners that exit and start, one line per change read as the bar reads it. The modules in
// Resources/examples run as polybar (`custom/script`, `tail = true`: `sh -c` on its `exec`),
// i3blocks (the real i3blocks, `interval=persist`) and a shell would run them.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("status --follow")
    struct StatusFollowTests {
        /// How long a line may take to come: far above any real delay.
        static let lineDeadline = 20.0

        /// Reads lines until one satisfies `match`; the lines before it are returned too.
        static func awaitLine(_ process: Subprocess, _ what: String, _ match: (String) -> Bool) throws -> (line: String, skipped: [String]) {
            var skipped: [String] = []
            let giveUp = monotonicSeconds() + lineDeadline
            while monotonicSeconds() < giveUp {
                guard let line = process.readLine(timeout: giveUp - monotonicSeconds()) else { break }
                if match(line) { return (line, skipped) }
                skipped.append(line)
            }
            throw TestFailure("no line with \(what) (read \(skipped); stderr: \(process.standardError))")
        }

        /// The next line, which must come.
        static func nextLine(_ process: Subprocess) throws -> String {
            guard let line = process.readLine(timeout: lineDeadline) else {
                throw TestFailure("no line came (stderr: \(process.standardError))")
            }
            return line
        }

        /// The repository's Resources/examples.
        static var examples: String {
            var directory = #filePath
            for _ in 0..<3 { directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)]) }
            return directory + "/Resources/examples"
        }

        /// The environment a bar's commands get: `window-banner` found on PATH.
        static func barEnvironment(_ owner: OwnerFixture) -> [String: String] {
            var environment = owner.fixture.environment(.desktop)
            let binaries = String(windowBannerExecutable().dropLast("window-banner".count + 1))
            environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            return environment
        }

        @Test func startedBeforeAnyOwnerItFollowsOwnersAsTheyComeAndGo() throws {
            let owner = try OwnerFixture()
            let follow = try owner.fixture.launch(["status", "--follow"])
            defer { follow.signal(SIGKILL) }
            #expect(try Self.nextLine(follow) == "")
            #expect(owner.ownerProcesses().isEmpty, "--follow started an owner")

            // The first owner appears (started by a show): its socket, seen through inotify.
            try owner.show(["--title", "Offline", "--compact", "never"])
            #expect(try Self.nextLine(follow) == "Offline")
            try owner.show(["--title", "Back Online", "--timeout", "30"])
            #expect(try Self.nextLine(follow) == "Back Online")
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(try Self.nextLine(follow) == "")

            // The owner quits with a banner up: nothing shown, and the next owner is followed.
            try owner.show(["--title", "Again", "--compact", "never"])
            #expect(try Self.nextLine(follow) == "Again")
            let first = try #require(owner.ownerProcesses().first)
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            #expect(try Self.nextLine(follow) == "")
            #expect(owner.waitForExit(of: first))
            try owner.show(["--title", "Second owner", "--compact", "never"])
            #expect(try Self.nextLine(follow) == "Second owner")
            #expect(owner.ownerProcesses() != [first])

            // A killed owner leaves its socket file behind: the next one replaces it, and is followed.
            let second = try #require(owner.ownerProcesses().first)
            kill(second, SIGKILL)
            #expect(try Self.nextLine(follow) == "")
            #expect(owner.waitForExit(of: second))
            try owner.show(["--title", "Third owner", "--compact", "never"])
            #expect(try Self.nextLine(follow) == "Third owner")

            follow.signal(SIGTERM)
            #expect(follow.waitForExit(timeout: 10) == 0)
        }

        @Test func jsonLinesFollowShowUpdateProgressQueueAndDismissInOrder() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Syncing", "--id", "sync", "--progress", "0.2", "--style", "offline", "--compact", "never"])
            let follow = try owner.fixture.launch(["status", "--follow", "--json"])
            defer { follow.signal(SIGKILL) }
            func decode(_ line: String) throws -> StatusJSON { try JSONDecoder().decode(StatusJSON.self, from: Data(line.utf8)) }

            // The state at start: the same object `status --json` prints, on one line.
            let start = try decode(try Self.nextLine(follow))
            #expect(start.title == "Syncing")
            #expect(start.progress == 0.2)
            #expect(start.style == "offline")
            #expect(start.owner != nil)

            try owner.show(["--title", "Syncing", "--id", "sync", "--progress", "0.6", "--style", "offline", "--compact", "never"])
            let moved = try Self.awaitLine(follow, "progress 0.6") { (try? decode($0))?.progress == 0.6 }
            #expect(moved.skipped.allSatisfy { (try? decode($0))?.progress == 0.2 })

            try owner.show(["--title", "Next", "--enqueue", "--compact", "never"])
            let queued = try Self.awaitLine(follow, "a queue of 1") { (try? decode($0))?.queue == 1 }
            #expect(try decode(queued.line).title == "Syncing")

            try owner.show(["--title", "Updated", "--id", "sync", "--compact", "never"])
            let updated = try Self.awaitLine(follow, "the updated title") { (try? decode($0))?.title == "Updated" }
            #expect(updated.skipped.allSatisfy { (try? decode($0))?.title == "Syncing" })

            #expect(try owner.run(["dismiss"]).status == 0)
            let next = try Self.awaitLine(follow, "the queued banner") { (try? decode($0))?.title == "Next" }
            #expect(try decode(next.line).queue == 0)
            #expect(try owner.run(["dismiss"]).status == 0)
            let gone = try Self.awaitLine(follow, "nothing shown") { (try? decode($0)).map { $0.title == nil } == true }
            #expect(try decode(gone.line).owner != nil)
            #expect(gone.skipped.allSatisfy { (try? decode($0))?.title == "Next" })
        }

        @Test func aStoppedOwnerIsLikeNoOwnerUntilItContinues() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Up", "--compact", "never"])
            let follow = try owner.fixture.launch(["status", "--follow", "--owner-timeout", "1"])
            defer { follow.signal(SIGKILL) }
            #expect(try Self.nextLine(follow) == "Up")
            let pid = try #require(owner.ownerProcesses().first)
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            #expect(try Self.nextLine(follow) == "")
            kill(pid, SIGCONT)
            #expect(try Self.nextLine(follow) == "Up")
        }

        @Test func formatFillsThePlaceholdersAndNamesABadOne() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Call", "--subtitle", "Anna", "--style", "call", "--timeout", "60"])
            let line = try owner.run(["status", "--format", "{title} – {subtitle} [{style}] {queue} {remaining}"])
            #expect(line.status == 0)
            let text = line.output.trimmingCharacters(in: .newlines)
            #expect(text.hasPrefix("Call – Anna [call] 0 "), "\(text)")
            #expect(Double(text.split(separator: " ").last ?? "").map { $0 > 0 && $0 <= 60 } == true, "\(text)")

            let bad = try owner.run(["status", "--follow", "--format", "{title} {colour}"])
            #expect(bad.status == 64)
            #expect(bad.error.contains("unknown field '{colour}'"), "\(bad.error)")
            #expect(bad.error.split(separator: "\n").count == 1)
        }

        @Test func followEndsWithZeroWhenItsReaderCloses() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "First", "--compact", "never"])
            // `head -n 1` reads one line and closes the pipe; the next line meets a closed output.
            let pipeline = try Subprocess(
                executable: "/bin/sh",
                arguments: ["-c", "{ window-banner status --follow; echo \"follow exited $?\" >&2; } | head -n 1"],
                environment: Self.barEnvironment(owner))
            #expect(try Self.nextLine(pipeline) == "First")
            try owner.show(["--title", "Second", "--compact", "never"])
            #expect(pipeline.waitForExit(timeout: Self.lineDeadline) == 0)
            #expect(pipeline.standardError == "follow exited 0\n")

            let direct = try owner.fixture.launch(["status", "--follow"])
            #expect(try Self.nextLine(direct) == "Second")
            direct.signal(SIGINT)
            #expect(direct.waitForExit(timeout: 10) == 0)
        }

        /// A bar that goes away without a word: the follower ends (exit 0) although it has
        /// nothing to write, with no owner and with one that has nothing new to say.
        @Test(arguments: [false, true])
        func followEndsWhenItsReaderGoesAwayWithNothingToWrite(ownerRuns: Bool) throws {
            let owner = try OwnerFixture()
            if ownerRuns { try owner.show(["--title", "Up", "--sticky", "--compact", "never"]) }
            let follow = try owner.fixture.launch(["status", "--follow"])
            #expect(try Self.nextLine(follow) == (ownerRuns ? "Up" : ""))
            follow.closeStandardOutput()
            #expect(follow.waitForExit(timeout: Self.lineDeadline) == 0, "the follower outlived its reader")
            #expect(follow.standardError == "")
        }

        @Test func thePolybarModuleRunsAsPolybarRunsIt() throws {
            let owner = try OwnerFixture()
            // polybar's custom/script with tail = true: `sh -c EXEC`, each line shown as it comes.
            let module = try String(contentsOfFile: Self.examples + "/polybar-window-banner.ini", encoding: .utf8)
            let lines = module.split(separator: "\n")
            #expect(lines.contains("type = custom/script"))
            #expect(lines.contains("tail = true"))
            let exec = try #require(lines.first { $0.hasPrefix("exec = ") }).dropFirst("exec = ".count)
            let bar = try Subprocess(executable: "/bin/sh", arguments: ["-c", String(exec)], environment: Self.barEnvironment(owner))
            defer { bar.signal(SIGKILL) }
            #expect(try Self.nextLine(bar) == "")
            try owner.show(["--title", "No Internet Connection", "--compact", "never"])
            #expect(try Self.nextLine(bar) == "No Internet Connection")
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(try Self.nextLine(bar) == "")
        }

        @Test func theRealPolybarShowsTheTitleWhileABannerIsUpAndNothingOnceItIsGone() throws {
            let owner = try OwnerFixture()
            let observer = owner.observer
            // A bar along the top (a dock reserving 24 px) with the module from Resources/examples
            // as its only module, centred; the module paints its text on #d70015.
            let config = owner.configHome + "/polybar.ini"
            try """
                include-file = \(Self.examples)/polybar-window-banner.ini
                [bar/top]
                width = 100%
                height = 24
                modules-center = window-banner
                font-0 = DejaVu Sans:size=10
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let polybar = try Subprocess(executable: "/usr/bin/polybar", arguments: ["-c", config, "-q", "top"], environment: Self.barEnvironment(owner))
            defer { polybar.signal(SIGKILL) }
            #expect(observer.wait(timeout: 20) { observer.workAreas().first?.y == 24 }, "polybar never reserved its row: \(polybar.standardError)")
            let moduleColour = Pixel(hex: 0xD70015)
            func moduleColumns() -> [Int] {
                observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 24))?.columns(matching: moduleColour, tolerance: 8) ?? []
            }
            #expect(moduleColumns().isEmpty, "the module shows something before any banner")

            try owner.show(["--title", "Call from Anna", "--compact", "never"])
            // The module's block appears in the bar's middle, as wide as the title and its padding.
            #expect(observer.wait { moduleColumns().count > 40 }, "no title in the bar: \(moduleColumns().count) columns")
            let columns = moduleColumns()
            #expect((columns.min() ?? 0) > 500 && (columns.max() ?? 1280) < 780, "the block is not centred: \(columns.min() ?? -1)…\(columns.max() ?? -1)")
            // The banner itself sits under the bar.
            #expect(observer.wait { observer.workAreas().first?.y == 24 + 80 })

            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(observer.wait { moduleColumns().isEmpty }, "the title stayed in the bar")
            #expect(polybar.waitForExit(timeout: 0.1) == nil, "polybar ended: \(polybar.standardError)")
        }

        @Test(.needsProgram("/usr/bin/i3blocks", package: "i3blocks"))
        func theI3blocksBlockShowsTheTitleInTheRealI3blocks() throws {
            let owner = try OwnerFixture()
            // The real i3blocks, printing i3bar's protocol on its output as i3bar would read it.
            let bar = try Subprocess(executable: "/usr/bin/i3blocks", arguments: ["-c", Self.examples + "/i3blocks-window-banner.conf"], environment: Self.barEnvironment(owner))
            defer { bar.signal(SIGKILL) }
            try owner.show(["--title", "No Internet Connection", "--compact", "never"])
            _ = try Self.awaitLine(bar, "the title in a block") { $0.contains(#""full_text":"No Internet Connection""#) }
            #expect(try owner.run(["dismiss"]).status == 0)
            // i3blocks keeps a block's text over an empty line: the module sends a space.
            _ = try Self.awaitLine(bar, "the block without the title") { $0.contains(#""full_text":" ","#) && !$0.contains("No Internet Connection") }
        }

        @Test func thePlainShellLoopPrintsALinePerChange() throws {
            let owner = try OwnerFixture()
            let loop = try Subprocess(executable: Self.examples + "/status-follow-loop.sh", arguments: [], environment: Self.barEnvironment(owner))
            defer { loop.signal(SIGKILL) }
            #expect(try Self.nextLine(loop) == "no banner")
            try owner.show(["--title", "Offline", "--compact", "never"])
            #expect(try Self.nextLine(loop) == "banner: Offline")
            try owner.show(["--title", "Later", "--enqueue"])
            #expect(try Self.nextLine(loop) == "banner: Offline (1 queued)")
            #expect(try owner.run(["dismiss", "--all"]).status == 0)
            #expect(try Self.nextLine(loop) == "no banner")
        }
    }
}
