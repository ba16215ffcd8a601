// The owner's services beside show and dismiss, on the embedded loop (OwnerHarness): `stats`
// page by page, `status --follow` subscriptions, the handover to a newer owner, and `--once`
// kept across a restart. Each was tested only end to end through the CLI on real X servers;
// here they run in milliseconds.

import BannerCore
import BannerOwner
import OwnerProtocol
import Testing

@Suite("The owner's stats, subscriptions, handover and --once, on an embedded loop")
struct OwnerServicesTests {
    /// A banner id of `length` bytes, unique by `number`.
    static func id(_ number: Int, length: Int = 250) -> String {
        let prefix = "banner-\(number)-"
        return prefix + String(repeating: "x", count: length - prefix.utf8.count)
    }

    @Test func statsComeInPagesThatFitAFrameAndTogetherHoldEveryKey() throws {
        let harness = try OwnerHarness()
        // 400 keys of 250 bytes: more than one 64 KiB frame holds.
        let count = 400
        for number in 0..<count {
            let (client, reply) = try harness.ask(show("Banner \(number)", sticky: true, id: Self.id(number)))
            client.close()
            guard case .shown = reply.message else { Issue.record("show \(number) answered \(reply)"); return }
        }
        var keys: [String] = []
        var after: String?
        var pages = 0
        while true {
            let (client, reply) = try harness.ask(OwnerRequest(.stats(StatsRequest(after: after))))
            client.close()
            guard case .stats(let page, let more) = reply.message else { Issue.record("stats answered \(reply)"); return }
            pages += 1
            let names = page.keys.keys.sorted()
            #expect(!names.isEmpty)
            // Each page continues in name order after the last key of the one before.
            if let after { #expect(names.allSatisfy { $0 > after }) }
            keys += names
            guard more, let last = names.last, pages < 100 else { break }
            after = last
        }
        #expect(pages > 1, "\(count) keys of 250 bytes came in one page")
        #expect(keys == (0..<count).map { Self.id($0) }.sorted())
        #expect(Set(keys).count == keys.count)
    }

    @Test func aSubscriberHearsTheStatusNowThenEachChange() throws {
        let harness = try OwnerHarness()
        let follower = try harness.connect()
        follower.send(OwnerRequest(SubscribeRequest()))
        func nextStatus() throws -> OwnerStatus {
            guard case .status(let status) = try follower.next().message else { throw TestFailure("a frame that is no status") }
            return status
        }
        var status = try nextStatus()
        #expect(status.monitors.first?.presented == false)
        _ = try harness.ask(show("No Internet Connection", sticky: true))
        repeat { status = try nextStatus() } while status.monitors.first?.title != "No Internet Connection"
        // Once it is all in, a sticky banner changes nothing more: no news for 10 s.
        harness.embedded.advance(by: 1)
        var turns = 0
        while !follower.isQuiet(), turns < 100 { turns += 1 }
        harness.embedded.advance(by: 10)
        #expect(follower.isQuiet())
        _ = try harness.ask(OwnerRequest(DismissRequest()))
        repeat { status = try nextStatus() } while status.monitors.first?.presented == true
        #expect(status.monitors.first?.presented == false)
    }

    @Test func aHandoverGivesEveryBannerVisibleFirstThenTheQueueAndTheOwnerEnds() throws {
        let harness = try OwnerHarness()
        _ = try harness.ask(show("No Internet Connection", sticky: true, id: "offline"))
        _ = try harness.ask(show("Call in progress", sticky: true, id: "call", enqueue: true))
        harness.embedded.advance(by: 1)
        let (_, reply) = try harness.ask(OwnerRequest(.handover))
        guard case .handover(let handover) = reply.message else { Issue.record("handover answered \(reply)"); return }
        #expect(handover.banners.count == 2)
        let arguments = handover.banners.map { $0.arguments.joined(separator: " ") }
        #expect(arguments.first?.contains("No Internet Connection") == true, "\(arguments)")
        #expect(arguments.last?.contains("Call in progress") == true, "\(arguments)")
        #expect(arguments.last?.contains("--enqueue") == true, "\(arguments)")
        // It slides its banners away and ends, giving the space back.
        harness.embedded.advance(by: 2)
        #expect(harness.owner.finished)
        #expect(harness.monitor.reservedHeight == 0)
    }

    /// `--once KEY`: shown the first time; skipped (nothing drawn) while the key is known, by
    /// this owner and by the next one started on the same state directory; another key shows.
    @Test func aOnceKeyShowsOnceAcrossARestartAndAnotherKeyStillShows() throws {
        func once(_ title: String, _ key: String) -> OwnerRequest {
            guard case .show(var request) = show(title, sticky: true).message else { return show(title) }
            request.once = key
            return OwnerRequest(request)
        }
        func state(_ harness: OwnerHarness, _ request: OwnerRequest) throws -> ShownReply.State? {
            let (client, reply) = try harness.ask(request)
            client.close()
            guard case .shown(let shown, _) = reply.message else { Issue.record("answered \(reply)"); return nil }
            return shown.state
        }
        let first = try OwnerHarness()
        #expect(try state(first, once("Welcome", "welcome")) == .presented)
        _ = try first.ask(OwnerRequest(DismissRequest()))
        first.embedded.advance(by: 2)
        let framesBefore = first.monitor.frames.count
        #expect(try state(first, once("Welcome again", "welcome")) == .skipped)
        first.embedded.advance(by: 2)
        #expect(first.monitor.frames.count == framesBefore, "a skipped banner was drawn")
        #expect(try first.status().monitors.first?.presented == false)
        // Once nothing moves, the owner keeps the key on disk; a new owner reads it there.
        first.owner.shutDown()
        first.embedded.advance(by: 2)
        let second = try OwnerHarness(in: first.directory)
        #expect(try state(second, once("Welcome", "welcome")) == .skipped)
        #expect(try state(second, once("Tip", "tip")) == .presented)
    }
}
