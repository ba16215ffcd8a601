// The owner's parts on their own, each behaviour its doc comment names: the replies owed until
// a banner is drawn (ReplyQueue) and the lane of one monitor (MonitorLane) on an embedded loop
// and a fake display, and the ledger of requests (RequestLedger) with a state directory of its
// own. The owner that routes between them is OwnerTests'.

import BannerCore
import BannerOwner
import BannerRuntime
import EmbeddedTestSupport
import Glibc
import OwnerProtocol
import Testing

@Suite("The owner's replies, until a banner is drawn")
struct ReplyQueueTests {
    let embedded = EmbeddedLoop()
    final class Sent { var replies: [(client: Int, close: Bool)] = [] }
    let sent = Sent()
    let queue: ReplyQueue

    init() {
        queue = ReplyQueue(loop: embedded.loop, timeout: 2) { [sent] _, client, close in sent.replies.append((client, close)) }
    }

    static let shown = OwnerResponse(shown: ShownReply(state: .presented, monitors: ["A", "B"]))

    @Test func aReplyGoesOnceEveryMonitorDrewAFrame() {
        queue.add(Self.shown, to: 7, closing: true, after: ["A", "B"])
        queue.frameDrawn(on: "A")
        #expect(sent.replies.isEmpty)
        #expect(queue.waits(for: "B") && !queue.waits(for: "A"))
        queue.frameDrawn(on: "B")
        #expect(sent.replies.map(\.client) == [7] && sent.replies.first?.close == true)
        #expect(queue.isEmpty)
    }

    @Test func eachReplyHasItsOwnTimer() {
        queue.add(Self.shown, to: 1, closing: true, after: ["A"])
        embedded.advance(by: 1.5)
        queue.add(Self.shown, to: 2, closing: false, after: ["A"])
        embedded.advance(by: 0.6)
        #expect(sent.replies.map(\.client) == [1])
        embedded.advance(by: 1.5)
        #expect(sent.replies.map(\.client) == [1, 2])
        #expect(sent.replies.last?.close == false)
    }

    @Test func aMonitorThatWentIsNoLongerWaitedFor() {
        queue.add(Self.shown, to: 3, closing: true, after: ["A", "B"])
        queue.frameDrawn(on: "A")
        queue.keep(monitors: ["A"])
        #expect(sent.replies.map(\.client) == [3])
    }

    @Test func aClientThatWentIsOwedNothing() {
        queue.add(Self.shown, to: 4, closing: true, after: ["A"])
        queue.drop(client: 4)
        embedded.advance(by: 5)
        queue.frameDrawn(on: "A")
        #expect(sent.replies.isEmpty && queue.isEmpty)
    }

    @Test func aBannerThatEndedFirstSendsItsReplyNowAndOnlyOnce() {
        queue.add(Self.shown, to: 5, closing: false, after: ["A"])
        queue.sendNow(to: 5)
        queue.sendNow(to: 6)
        embedded.advance(by: 5)
        #expect(sent.replies.map(\.client) == [5])
    }
}

@Suite("The owner's ledger of requests")
struct RequestLedgerTests {
    let directory: String

    init() throws {
        var template = Array("/tmp/wb-ledger-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
    }

    func request(monitors: Set<String>, once: String? = nil, id: String? = "key") -> RequestState {
        RequestState(
            monitors: monitors, commands: ClickCommands(ShowRequest(settings: AppearanceSettings())), key: id ?? "-", once: once, style: nil, assertive: false,
            everyMonitor: false, enqueue: false, show: ShowRequest(settings: AppearanceSettings()), environment: nil)
    }

    func cleanUp() {
        for name in ["once.json", "stats.json"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test func aRequestEndsWhenItsLastMonitorIsDoneAndItsEndIsCountedIfItShowed() {
        defer { cleanUp() }
        let ledger = RequestLedger(stateDirectory: directory)
        let shown = ledger.open(request(monitors: ["A", "B"]))
        let unseen = ledger.open(request(monitors: ["A"], id: "other"))
        #expect(unseen > shown)
        ledger.addWaiter(9, to: shown)
        #expect(ledger.hasWaiters)
        ledger.presented(shown)
        ledger.presented(shown)
        #expect(ledger.finish(shown, reason: .clicked, on: "A") == nil)
        let ended = ledger.finish(shown, reason: .clicked, on: "B")
        #expect(ended?.waiters == [9])
        #expect(ledger.finish(unseen, reason: .replaced, on: "A") != nil)
        #expect(ledger.isEmpty && !ledger.hasWaiters)
        #expect(ledger.stats.keys["key"]?.impressions == 1)
        #expect(ledger.stats.keys["key"]?.count(.clicked) == 1)
        #expect(ledger.stats.keys["other"] == nil)
    }

    @Test func aOnceKeyIsTakenFromTheMomentItsRequestOpensAndAcrossRestarts() {
        defer { cleanUp() }
        let ledger = RequestLedger(stateDirectory: directory)
        let token = ledger.open(request(monitors: ["A"], once: "welcome"))
        #expect(ledger.isTaken(once: "welcome"))
        #expect(!ledger.isTaken(once: "other"))
        ledger.presented(token)
        _ = ledger.finish(token, reason: .timeout, on: "A")
        #expect(ledger.isTaken(once: "welcome"))
        ledger.saveChanges()
        #expect(RequestLedger(stateDirectory: directory).isTaken(once: "welcome"))
    }

    @Test func aRequestMovesBetweenMonitorsWithoutEnding() {
        defer { cleanUp() }
        let ledger = RequestLedger(stateDirectory: nil)
        let token = ledger.open(request(monitors: ["A"]))
        ledger.remove(monitor: "A", from: token)
        ledger.add(monitor: "B", to: token)
        #expect(ledger[token]?.monitors == ["B"])
        ledger.removeWaiter(1, from: token)
        #expect(ledger.finish(token, reason: .dismissed, on: "B") != nil)
    }
}

@Suite("One monitor's lane", .serialized)
struct MonitorLaneTests {
    let embedded = EmbeddedLoop()
    let display: FakeDisplay
    final class Reports {
        var presented: [Int] = []
        var ended: [(Int, BannerEndReason)] = []
        var dismissed: [BannerDismissReason] = []
        var frames = 0
    }
    let reports = Reports()
    let lane: MonitorLane<FakeMonitor>

    init() {
        display = FakeDisplay(monitors: ["A"], embedded: embedded)
        let events = MonitorLane<FakeMonitor>.Events(
            presented: { [reports] in reports.presented.append($0) }, ended: { [reports] in reports.ended.append(($0, $1)) },
            userDismissed: { [reports] in reports.dismissed.append($0) }, frameDrawn: { [reports] in reports.frames += 1 },
            settled: {}, log: { _ in })
        lane = MonitorLane(name: "A", host: { [display] in display.hosts.first { $0.monitorName == "A" } }, events: events)
    }

    func banner(_ token: Int, _ title: String, mode: BannerMode = .sticky) throws -> ScheduledBanner {
        ScheduledBanner(
            token: token, id: nil, appearance: try TopBannerConfigBuilder().title(title).build(), compactPolicy: .never,
            placement: .belowPanels, fullscreen: .show, mode: mode)
    }

    @Test func aBannerShownIsPresentedWithItsPoliciesAndReported() throws {
        let (drawing, placement) = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        #expect(drawing && placement == .presented)
        #expect(reports.presented == [1])
        #expect(display.hosts[0].isBannerPresented && display.hosts[0].compactPolicy == .never)
        embedded.advance(by: 0.5)
        #expect(reports.frames >= 1)
    }

    @Test func aRequestThatEndsWhileItsBannerSlidesAwayEndsOnceItIsGone() throws {
        _ = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        embedded.advance(by: 0.5)
        #expect(lane.dismiss(id: nil, all: false, at: embedded.clock.now) == [1])
        #expect(reports.ended.isEmpty)
        #expect(display.hosts[0].phase == .dismissing)
        embedded.advance(by: 0.5)
        #expect(reports.ended.map(\.0) == [1] && reports.ended.first?.1 == .dismissed)
    }

    @Test func framesAreReportedOnlyWhileSomeoneWaitsForOne() throws {
        _ = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        lane.reportsFrames = false
        #expect(display.hosts[0].onFrame == nil)
        embedded.advance(by: 0.5)
        #expect(reports.frames == 0)
        lane.reportsFrames = true
        _ = lane.show(try banner(2, "Two"), enqueue: false, at: embedded.clock.now)
        embedded.advance(by: 0.5)
        #expect(reports.frames >= 1)
    }

    @Test func theUsersDismissalIsReportedAndTheNextBannerComes() throws {
        _ = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        _ = lane.show(try banner(2, "Two"), enqueue: true, at: embedded.clock.now)
        embedded.advance(by: 0.5)
        #expect(display.hosts[0].activate(.clicked))
        #expect(reports.dismissed == [.clicked])
        lane.userDismissed(.clicked, at: embedded.clock.now)
        embedded.advance(by: 1)
        #expect(reports.ended.map(\.0) == [1] && lane.current?.token == 2)
    }

    @Test func aTransientBannerTimesOutAtItsDeadline() throws {
        _ = lane.show(try banner(1, "One", mode: .transient(2)), enqueue: false, at: embedded.clock.now)
        let deadline = try #require(lane.deadline)
        embedded.advance(by: 1)
        lane.advance(to: embedded.clock.now)
        #expect(lane.current?.token == 1)
        embedded.clock.move(to: deadline)
        lane.advance(to: deadline)
        embedded.advance(by: 0.5)
        #expect(reports.ended.map(\.0) == [1] && reports.ended.first?.1 == .timeout)
    }

    @Test func aMonitorThatWentEndsWhatStaysAndHandsOverWhatMoves() throws {
        _ = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        _ = lane.show(try banner(2, "Two"), enqueue: true, at: embedded.clock.now)
        let moving = lane.close(moving: { $0.token == 2 }, at: embedded.clock.now)
        #expect(moving.map(\.token) == [2])
        #expect(reports.ended.map(\.0) == [1])
        #expect(lane.current == nil && lane.queue.isEmpty)
    }

    @Test func everythingEndsAtOnceWhenTheOwnerShutsDown() throws {
        _ = lane.show(try banner(1, "One"), enqueue: false, at: embedded.clock.now)
        _ = lane.show(try banner(2, "Two"), enqueue: true, at: embedded.clock.now)
        embedded.advance(by: 0.5)
        _ = lane.dismiss(id: nil, all: false, at: embedded.clock.now)
        lane.endEverything()
        #expect(Set(reports.ended.map(\.0)) == [1, 2])
    }
}
