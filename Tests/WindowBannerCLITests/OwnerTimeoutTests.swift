// A caller never hangs on a stalled owner: with the owner stopped (SIGSTOP), or its X server
// stopped, `show`, `dismiss`, `status` and `stats` give up after `--owner-timeout` (or
// $WINDOW_BANNER_OWNER_TIMEOUT, else 5 s) with exit 75 and one line naming the owner's pid and
// the request it did not answer; once the process continues, the owner serves again.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("bounded waits on a stalled owner")
    struct OwnerTimeoutTests {
        /// Far above every bound used here, far below "hangs": the deadline for a command to end.
        static let generous = 25.0

        /// The owner's pid, from `status`.
        static func ownerPID(_ owner: OwnerFixture) throws -> Int {
            try #require(try owner.status().owner?.pid)
        }

        @Test func aStoppedOwnerCostsEachCommandItsBoundAndExit75NamingIt() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Before the stall", "--compact", "never"])
            let pid = try Self.ownerPID(owner)
            kill(pid_t(pid), SIGSTOP)
            defer { kill(pid_t(pid), SIGCONT) }

            // The owner reads what the given-up commands sent once it runs again, in no set order
            // among them and the next commands: the stalled show queues under an id of its own and
            // the stalled dismiss names nothing, so neither can undo what follows.
            let commands: [(arguments: [String], request: String)] = [
                (["show", "--title", "During the stall", "--id", "stalled", "--enqueue", "--owner-timeout", "1"], "show"),
                (["status", "--owner-timeout", "1"], "status"),
                (["dismiss", "--id", "nothing-shown", "--owner-timeout", "1.5"], "dismiss"),
                (["stats", "--owner-timeout", "1"], "stats"),
                // The default bound, a few seconds, with no flag at all.
                (["status", "--json"], "status"),
            ]
            for (arguments, request) in commands {
                let outcome = try owner.run(arguments, timeout: Self.generous)
                #expect(outcome.status == 75, "\(arguments) exited \(outcome.status.map(String.init) ?? "late (it hung)")")
                #expect(outcome.error.hasPrefix("window-banner: the owner for \(owner.fixture.desktop.displayName) (pid \(pid)) did not answer the \(request) request within "), "\(arguments): \(outcome.error)")
                #expect(outcome.error.split(separator: "\n").count == 1)
                #expect(outcome.output.isEmpty)
            }

            // The variable bounds what has no flag; the flag wins over it.
            owner.fixture.extraEnvironment["WINDOW_BANNER_OWNER_TIMEOUT"] = "0.5"
            let byVariable = try owner.run(["status"], timeout: Self.generous)
            #expect(byVariable.status == 75)
            #expect(byVariable.error.contains("within 0.5 s"), "\(byVariable.error)")
            let byFlag = try owner.run(["status", "--owner-timeout", "1.5"], timeout: Self.generous)
            #expect(byFlag.error.contains("within 1.5 s"), "\(byFlag.error)")
            owner.fixture.extraEnvironment["WINDOW_BANNER_OWNER_TIMEOUT"] = nil

            // Continued, the same owner serves again.
            kill(pid_t(pid), SIGCONT)
            try owner.show(["--title", "After the stall", "--compact", "never"])
            let status = try owner.status()
            #expect(status.owner?.pid == pid)
            #expect(status.title == "After the stall")
            #expect(try owner.run(["dismiss", "--all"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func showWaitNoticesAnOwnerStoppedWhileTheBannerIsUp() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Warm-up", "--compact", "never"])
            let pid = try Self.ownerPID(owner)
            let waiting = try owner.fixture.launch(["show", "--title", "Waiting", "--wait", "--owner-timeout", "1"])
            #expect(owner.fixture.observer.wait { (try? owner.status().title) == "Waiting" })
            kill(pid_t(pid), SIGSTOP)
            defer { kill(pid_t(pid), SIGCONT) }
            // Keepalives stop with the owner: the waiting `show` gives up instead of hanging.
            #expect(waiting.waitForExit(timeout: Self.generous) == 75)
            #expect(waiting.standardError.hasPrefix("window-banner: the owner for \(owner.fixture.desktop.displayName) (pid \(pid)) stopped answering while show --wait waited for the banner to end"), "\(waiting.standardError)")
            kill(pid_t(pid), SIGCONT)
            #expect(try owner.status().title == "Waiting")
        }

        @Test func showWaitOutlastsTheBoundWhileTheOwnerKeepsAlive() throws {
            let owner = try OwnerFixture()
            // Up three times as long as the bound: the keepalives say the owner is still there.
            let outcome = try owner.run(["show", "--title", "Long", "--timeout", "3", "--wait", "--owner-timeout", "1"], timeout: Self.generous)
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(outcome.output == "timeout\n")
        }

        @Test func aStoppedXServerCostsShowItsBoundAndTheOwnerRecovers() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Before", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let pid = try Self.ownerPID(owner)
            let server = owner.fixture.desktop.serverPID
            kill(server, SIGSTOP)
            defer { kill(server, SIGCONT) }

            // The owner is stuck in its X connection once it draws: `show` gives up, naming it.
            let shown = try owner.run(["show", "--title", "While X is stopped", "--owner-timeout", "2"], timeout: Self.generous)
            #expect(shown.status == 75, "show exited \(shown.status.map(String.init) ?? "late (it hung)"): \(shown.error)")
            #expect(shown.error.hasPrefix("window-banner: the owner for \(owner.fixture.desktop.displayName) (pid \(pid)) did not answer the show request within 2 s"), "\(shown.error)")
            // Whatever the owner is doing, status and dismiss are bounded the same way. The
            // dismiss names a banner that is not there: a request its client gave up on may
            // still be carried out once the server continues, and must not take the next
            // banner with it.
            for arguments in [["status", "--owner-timeout", "1"], ["dismiss", "--id", "nothing-shown", "--owner-timeout", "1"]] {
                let outcome = try owner.run(arguments, timeout: Self.generous)
                #expect(outcome.status == 0 || outcome.status == 75, "\(arguments) exited \(outcome.status.map(String.init) ?? "late (it hung)")")
                if outcome.status == 75 { #expect(outcome.error.contains("(pid \(pid))"), "\(outcome.error)") }
            }

            // The server continues: the owner catches up and serves again.
            kill(server, SIGCONT)
            try owner.show(["--title", "After", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let status = try owner.status()
            #expect(status.owner?.pid == pid)
            #expect(status.title == "After")
        }

        @Test func badOwnerTimeoutIsOneLineAndExit64() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Untouched", "--compact", "never"])
            for arguments in [["status", "--owner-timeout", "0"], ["dismiss", "--owner-timeout", "soon"], ["show", "--title", "X", "--owner-timeout", "-1"]] {
                let outcome = try owner.run(arguments)
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.error.hasPrefix("window-banner: bad --owner-timeout '"), "\(arguments): \(outcome.error)")
                #expect(outcome.error.split(separator: "\n").count == 1)
            }
            owner.fixture.extraEnvironment["WINDOW_BANNER_OWNER_TIMEOUT"] = "never"
            let outcome = try owner.run(["status"])
            #expect(outcome.status == 64)
            #expect(outcome.error == "window-banner: bad WINDOW_BANNER_OWNER_TIMEOUT 'never' (seconds, greater than 0 and at most 86400)\n")
            owner.fixture.extraEnvironment["WINDOW_BANNER_OWNER_TIMEOUT"] = nil
            #expect(try owner.status().title == "Untouched")
        }
    }
}
