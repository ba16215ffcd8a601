// Private banners while the screen is shared (issue 55, part 3), on the owner's embedded loop:
// a watcher's `sharing` report on a connection it keeps, `show --private` held and listed by
// `status`, a banner on screen taken away and brought back with its deadline kept, the watcher
// gone as sharing ended, and reports that are not one.

import BannerConfig
import BannerCore
import BannerOwner
import Glibc
import MonotonicClock
import OwnerIPC
import OwnerProtocol
import Testing

func privateShow(
    _ title: String, timeout: Double? = nil, id: String? = nil, wait: Bool = false, monitor: String = "primary"
) -> OwnerRequest {
    var settings = AppearanceSettings()
    settings.title = title
    return OwnerRequest(ShowRequest(
        settings: settings, sticky: timeout == nil, timeout: timeout, monitor: monitor, id: id, wait: wait, private: true))
}

extension OwnerHarness {
    /// A watcher's connection, its first report sent and answered.
    func watcher(sharing: Bool) throws -> TestClient {
        let (client, answer) = try ask(OwnerRequest(SharingReport(sharing: sharing)))
        guard answer.held != nil else { throw TestFailure("a sharing report answered \(answer)") }
        return client
    }
}

extension TestClient {
    /// Another report on this watcher's connection; how many banners the owner holds now.
    func report(sharing: Bool) throws -> Int {
        send(OwnerRequest(SharingReport(sharing: sharing)))
        guard let held = try next().held else { throw TestFailure("a sharing report was answered with something else") }
        return held
    }
}

@Suite("Private banners while the screen is shared, on an embedded loop")
struct PrivateBannerTests {
    @Test func aPrivateBannerIsHeldWhileSharedAndStatusSaysSo() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        let (_, reply) = try harness.ask(privateShow("Salary review", id: "hr"))
        #expect(reply.shown?.state == .held)
        #expect(reply.warnings == nil)
        harness.embedded.advance(by: 2)
        #expect(harness.monitor.frames.isEmpty)
        #expect(harness.monitor.reservedHeight == 0)
        let status = try harness.status()
        #expect(status.monitors.first?.presented == false)
        #expect(status.waiting == [HeldBannerStatus(held: "sharing", title: "Salary review", id: "hr", monitors: ["FAKE-1"])])
        #expect(try watcher.report(sharing: true) == 1)
    }

    @Test func waitReturnsOnlyOnceTheHeldBannerWasShownAndEnded() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        let (client, reply) = try harness.ask(privateShow("Salary review", timeout: 3, wait: true))
        #expect(reply.shown?.state == .held)
        #expect(reply.shown?.wait == true)
        harness.embedded.advance(by: 10)
        #expect(client.isQuiet())
        #expect(try watcher.report(sharing: false) == 0)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Salary review")
        #expect(try client.next(within: 3).ended == .timeout)
    }

    @Test func aBannerOnScreenSlidesAwayWhenSharingStartsAndComesBackWithItsTimeLeft() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: false)
        let start = harness.embedded.clock.now
        let (_, reply) = try harness.ask(privateShow("Salary review", timeout: 10))
        // A watcher is there: no warning.
        #expect(reply.shown?.state == .presented)
        #expect(reply.warnings == nil)
        harness.embedded.advance(by: 2)
        #expect(harness.monitor.shownTitle == "Salary review")
        #expect(try watcher.report(sharing: true) == 1)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == nil)
        #expect(harness.monitor.reservedHeight == 0)
        #expect(try harness.status().waiting?.map(\.title) == ["Salary review"])
        harness.embedded.advance(by: 2)
        // Shown at 0, held from 2 to 5: its 10 s run from its first showing, held or not.
        #expect(try watcher.report(sharing: false) == 0)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Salary review")
        let remaining = try #require(try harness.status().monitors.first?.remaining)
        #expect(abs(remaining - (10 - (harness.embedded.clock.now - start))) < 0.002)
    }

    @Test func aBannerWhoseTimeRunsOutWhileHeldEndsAndNeverComesBack() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: false)
        let (client, _) = try harness.ask(privateShow("Salary review", timeout: 4, wait: true))
        harness.embedded.advance(by: 1)
        #expect(try watcher.report(sharing: true) == 1)
        harness.embedded.advance(by: 2.5)
        #expect(client.isQuiet())
        #expect(try client.next(within: 1).ended == .timeout)
        #expect(try harness.status().waiting == nil)
        #expect(try watcher.report(sharing: false) == 0)
        harness.embedded.advance(by: 2)
        #expect(harness.monitor.shownTitle == nil)
    }

    @Test func theWatcherGoneReleasesTheHeldBanners() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        _ = try harness.ask(privateShow("Salary review"))
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == nil)
        watcher.close()
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Salary review")
        #expect(try harness.status().waiting == nil)
    }

    @Test func dismissByIdTakesAHeldBannerAwayAndAPlainDismissDoesNot() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        let (client, _) = try harness.ask(privateShow("Salary review", id: "hr", wait: true))
        _ = try harness.ask(privateShow("Bank statement", id: "bank"))
        #expect(try harness.ask(OwnerRequest(DismissRequest())).1.dismissed == 0)
        #expect(try harness.ask(OwnerRequest(DismissRequest(id: "hr"))).1.dismissed == 1)
        #expect(try client.next().ended == .dismissed)
        #expect(try harness.status().waiting?.map(\.id) == ["bank"])
        #expect(try watcher.report(sharing: false) == 0)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Bank statement")
    }

    @Test func aHeldBannerIsReplacedByTheNextShowWithItsId() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        let (client, _) = try harness.ask(privateShow("Salary review", id: "hr", wait: true))
        _ = try harness.ask(privateShow("Salary review (updated)", id: "hr"))
        #expect(try client.next().ended == .replaced)
        #expect(try harness.status().waiting?.map(\.title) == ["Salary review (updated)"])
        _ = watcher
    }

    @Test func otherBannersAndTheWatchersOwnAreNeverHeld() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        let (_, plain) = try harness.ask(show("Back Online", sticky: true))
        #expect(plain.shown?.state == .presented)
        for id in BannerConfig.watcherBannerIDs.sorted() {
            let (_, reply) = try harness.ask(privateShow("Screen shared", id: id))
            #expect(reply.shown?.state == .updated, "\(id)")
        }
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Screen shared")
        #expect(try harness.status().waiting == nil)
        #expect(try watcher.report(sharing: true) == 0)
    }

    @Test func withNoWatcherAPrivateBannerShowsWithOneWarning() throws {
        let harness = try OwnerHarness()
        let (_, reply) = try harness.ask(privateShow("Salary review"))
        #expect(reply.shown?.state == .presented)
        #expect(reply.warnings == [
            "nothing watches for screen sharing (run window-banner monitor --sharing); showing the private banner",
        ])
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Salary review")
    }

    @Test func aWatcherKeepsTheOwnerFromExitingIdle() throws {
        let harness = try OwnerHarness(idleExit: 5)
        let watcher = try harness.watcher(sharing: false)
        harness.embedded.advance(by: 30)
        #expect(!harness.owner.finished)
        watcher.close()
        harness.embedded.advance(by: 6)
        #expect(harness.owner.finished)
    }

    @Test func theOwnersParseOfAShowAsTypedKnowsPrivateAlsoWhenItRemembersTheArrangement() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        for title in ["Salary review", "Bank statement", "Medical results"] {
            let forwarded = ShowArgumentsRequest(arguments: ["--title", title, "--private", "--display", ":fake"], environment: [:], directory: "/")
            let (_, reply) = try harness.ask(OwnerRequest(forwarded))
            #expect(reply.shown?.state == .held, "\(title): \(reply)")
            // Nothing moves: the owner checks the arrangement and remembers it for the next call.
            harness.embedded.advance(by: 1)
        }
        #expect(try harness.status().waiting?.map(\.title) == ["Salary review", "Bank statement", "Medical results"])
        #expect(try watcher.report(sharing: true) == 3)
    }

    @Test func aReportOfAnotherShapeIsOneLineAndTheBannerStays() throws {
        let harness = try OwnerHarness()
        let watcher = try harness.watcher(sharing: true)
        _ = try harness.ask(show("Back Online", sticky: true))
        _ = try harness.ask(privateShow("Salary review"))
        let version = OwnerProtocol.version
        for (body, reason) in [
            (#"{"v":\#(version),"command":"sharing"}"#, "missing field 'sharing'"),
            (#"{"v":\#(version),"command":"sharing","sharing":{"sharing":"yes"}}"#, "wrong type at 'sharing.sharing'"),
            (#"{"v":\#(version),"command":"sharing","sharing":{}}"#, "missing field 'sharing'"),
            (#"{"v":\#(version),"command":"sharing","sharing":[true]}"#, "wrong type at 'sharing'"),
        ] {
            let client = try harness.connect()
            _ = UnixSocket.send(Frame.encode(Array(body.utf8)), to: client.fd)
            let answer = try client.next()
            #expect(answer.error?.kind == .protocol, "\(body)")
            #expect(answer.error?.message == "bad request: \(reason)", "\(body)")
        }
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Back Online")
        #expect(try harness.status().waiting?.map(\.title) == ["Salary review"])
        #expect(try watcher.report(sharing: true) == 1)
    }
}
