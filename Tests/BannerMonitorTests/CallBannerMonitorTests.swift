// The call watcher's banner, unit-tested: the real CallBannerMonitor on an embedded loop whose
// clock only the test moves, told who is in a call as PipeWire's graph would say it after each
// change (no PipeWire here: PipeWireCallsTests and CallMonitorTests run the real one), showing
// its banner through fake banners. Its start and hide delays are asserted on that clock.

import BannerCore
import BannerMonitor
import EmbeddedTestSupport
import MonotonicClock
import OwnerProtocol
import PipeWireCalls
import Testing

final class CallHarness {
    let embedded = EmbeddedLoop()
    let banners = FakeBanners()
    let watcher: CallBannerMonitor

    /// A watcher of calls (`calls`) and screen sharing (`sharing`), as `monitor --calls
    /// [--no-sharing]` and `--sharing` make one.
    init(hideDelay: Double = 1, calls: Bool = true, sharing: Bool = false) {
        func request(_ style: String, title: String, id: String) -> ShowRequest {
            var settings = AppearanceSettings()
            settings.title = title
            return ShowRequest(settings: settings, style: style, sticky: true, monitor: "all", id: id, enqueue: true, wait: true)
        }
        let lines = LogLines()
        watcher = CallBannerMonitor(
            loop: embedded.loop, calls: calls ? request("call", title: "Call in progress", id: CallBannerMonitor.bannerID) : nil,
            sharing: sharing ? request("sharing", title: "You are sharing your screen", id: CallBannerMonitor.sharingBannerID) : nil,
            rule: CallRule(ignoring: [], ownPID: 1), hideDelay: hideDelay, banners: banners,
            environment: [:], log: { lines.all.append($0) })
        self.lines = lines
    }

    private let lines: LogLines
    /// What the watcher wrote to its log, in order.
    var log: [String] { lines.all }

    /// The subtitles of the banners shown, in order.
    var subtitles: [String?] { banners.shown.map(\.request.settings.subtitle) }
}

/// The log's lines, kept by the closure the watcher is given.
final class LogLines {
    var all: [String] = []
}

@Suite("The call watcher's banner, on an embedded loop with fake banners")
struct CallBannerMonitorTests {
    let zoom = CallState(apps: ["Zoom"], pids: [4242])

    /// Sharing the screen (issue 55) is no call: with `--no-sharing`, no banner, and the log says it.
    @Test func aScreenSharedIsSaidInTheLogAndShowsNoCallBanner() {
        let harness = CallHarness()
        harness.watcher.observe(CallState(sharing: ["Zoom"]))
        harness.embedded.advance(by: 10)
        #expect(harness.banners.asked.isEmpty)
        harness.watcher.observe(CallState(apps: ["Zoom"], pids: [4242], sharing: ["Zoom"]))
        harness.embedded.advance(by: CallBannerPolicy.defaultStartDelay)
        #expect(harness.subtitles == ["Zoom"], "a microphone call beside it says no camera")
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 10)
        #expect(harness.subtitles == ["Zoom"], "the sharing's end changes nothing of the call banner")
        #expect(harness.log == ["screen shared by Zoom", "call banner shown (Zoom)", "screen sharing ended"])
    }

    @Test func aCallShowsTheBannerAfterTheStartDelayWithTheAppAndItsProcessToRaise() throws {
        let harness = CallHarness()
        harness.watcher.observe(zoom)
        harness.embedded.turn()
        #expect(harness.banners.shown.isEmpty)
        harness.embedded.advance(by: CallBannerPolicy.defaultStartDelay)
        #expect(harness.subtitles == ["Zoom"])
        let shown = try #require(harness.banners.shown.first)
        #expect(shown.request.raise == [4242])
        #expect(shown.request.id == CallBannerMonitor.bannerID)
        #expect(shown.request.enqueue)
    }

    @Test func aCaptureShorterThanTheStartDelayShowsNothing() {
        let harness = CallHarness()
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: CallBannerPolicy.defaultStartDelay / 2)
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 10)
        #expect(harness.banners.asked.isEmpty)
    }

    @Test func theBannerGoesTheHideDelayAfterTheLastCaptureAndAMutedGapKeepsIt() {
        let harness = CallHarness(hideDelay: 1)
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 1)
        // Muted for half a second: the same banner stays.
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 0.5)
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show call"])
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 0.999)
        #expect(harness.banners.dismissed.isEmpty)
        harness.embedded.advance(by: 0.002)
        #expect(harness.banners.asked == ["show call", "dismiss \(CallBannerMonitor.bannerID)"])
    }

    @Test func aCameraJoiningChangesTheSubtitleInPlace() {
        let harness = CallHarness()
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 1)
        harness.watcher.observe(CallState(apps: ["Zoom", "Cheese"], camera: true, pids: [4242, 77]))
        harness.embedded.advance(by: 1)
        #expect(harness.subtitles == ["Zoom", "Zoom, Cheese · camera"])
        #expect(harness.banners.shown[0].closed)
    }

    @Test func theUsersCloseHidesItUntilThisCallEnds() {
        let harness = CallHarness()
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 1)
        harness.banners.shown[0].onEnd(.closed)
        harness.watcher.observe(CallState(apps: ["Zoom", "Teams"], pids: [4242, 5]))
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show call"])
        // The call ends; the next one shows again.
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 5)
        harness.watcher.observe(zoom)
        harness.embedded.advance(by: 1)
        #expect(harness.banners.asked.filter { $0 == "show call" }.count == 2)
    }
}
