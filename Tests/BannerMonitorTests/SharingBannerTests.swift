// The sharing banner (issue 55), unit-tested as the call banner is: the real CallBannerMonitor
// watching calls and screen sharing on an embedded loop, told who shares the screen as PipeWire's
// graph would say it, showing its banners through fake banners. The start delay (a portal's
// screenshot is no share), the hide delay, the user's ✕ and the call banner taking the sharing
// banner's place are asserted on the loop's clock.

import BannerMonitor
import EmbeddedTestSupport
import PipeWireCalls
import Testing

@Suite("The sharing banner, on an embedded loop with fake banners")
struct SharingBannerTests {
    let sharing = CallState(sharing: ["Zoom"], sharingPIDs: [4242])
    let zoomCall = CallState(apps: ["Zoom"], pids: [4242])
    let start = SharingBannerPolicy.defaultStartDelay

    @Test func aShareShowsTheSharingBannerAfterTheStartDelayAndItGoesAfterTheHideDelay() throws {
        let harness = CallHarness(hideDelay: 1, sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.turn()
        #expect(harness.banners.shown.isEmpty)
        harness.embedded.advance(by: start)
        let shown = try #require(harness.banners.shown.first)
        #expect(shown.request.id == CallBannerMonitor.sharingBannerID)
        #expect(shown.request.style == "sharing")
        #expect(shown.request.settings.subtitle == "Zoom")
        #expect(shown.request.raise == [4242], "a click raises the sharing app's window, as the call banner's does")
        #expect(shown.request.stopsSharing == true, "its action stops the share where the desktop can")
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 0.999)
        #expect(harness.banners.dismissed.isEmpty)
        harness.embedded.advance(by: 0.002)
        #expect(harness.banners.asked == ["show sharing", "dismiss \(CallBannerMonitor.sharingBannerID)"])
        #expect(harness.log == ["screen shared by Zoom", "sharing banner shown (Zoom)", "screen sharing ended", "sharing banner hidden"])
    }

    /// A portal's screenshot, or a cast that ends within the start delay, is not sharing.
    @Test func aCastShorterThanTheStartDelayShowsNothing() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: start / 2)
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 10)
        #expect(harness.banners.asked.isEmpty)
    }

    @Test func anAppWithNoNameSharesAsAnApp() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(CallState(sharing: [""]))
        harness.embedded.advance(by: 1)
        #expect(harness.subtitles == ["an app"])
    }

    /// During a call that shares the screen the two are one banner: the call's, under its id,
    /// whose subtitle says the screen is shared.
    @Test func aCallThatSharesTheScreenIsOneBannerTheCalls() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(CallState(apps: ["Zoom"], camera: true, pids: [4242], sharing: ["Zoom"], sharingPIDs: [4242]))
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show call"])
        #expect(harness.subtitles == ["Zoom · camera · sharing your screen"])
        // The share ends, the call goes on: the same banner, in place, without it.
        harness.watcher.observe(CallState(apps: ["Zoom"], camera: true, pids: [4242]))
        harness.embedded.advance(by: 5)
        #expect(harness.subtitles == ["Zoom · camera · sharing your screen", "Zoom · camera"])
        #expect(harness.banners.shown.map(\.request.stopsSharing) == [true, nil], "'Stop sharing' while the call shares the screen")
        #expect(harness.banners.asked == ["show call", "show call"])
    }

    /// Sharing first, then a call: the call banner takes the sharing banner's place at once
    /// (no hide delay, no two banners), and when the call ends while the share goes on, the
    /// sharing banner comes back.
    @Test func aCallJoiningAShareTakesItsPlaceAndGivesItBack() {
        let harness = CallHarness(hideDelay: 1, sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        harness.watcher.observe(CallState(apps: ["Zoom"], pids: [4242], sharing: ["Zoom"], sharingPIDs: [4242]))
        harness.embedded.advance(by: start)
        #expect(harness.banners.asked == ["show sharing", "show call", "dismiss \(CallBannerMonitor.sharingBannerID)"])
        #expect(harness.subtitles == ["Zoom", "Zoom · sharing your screen"])
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == [
            "show sharing", "show call", "dismiss \(CallBannerMonitor.sharingBannerID)", "show sharing", "dismiss \(CallBannerMonitor.bannerID)",
        ])
    }

    /// A call too short for its banner leaves the sharing banner where it was.
    @Test func aCallProbeDuringAShareLeavesTheSharingBanner() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        harness.watcher.observe(CallState(apps: ["Zoom"], pids: [4242], sharing: ["Zoom"], sharingPIDs: [4242]))
        harness.embedded.advance(by: start / 2)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show sharing"])
    }

    @Test func theUsersCloseHidesItUntilThisShareEndsAndANewShareShowsItAgain() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        harness.banners.shown[0].onEnd(.closed)
        harness.watcher.observe(CallState(sharing: ["Teams", "Zoom"], sharingPIDs: [5, 4242]))
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show sharing"])
        #expect(harness.log.contains("sharing banner dismissed by the user (closed): hidden until this share ends"))
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 5)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        #expect(harness.banners.asked == ["show sharing", "show sharing"])
    }

    /// Its owner dying with it up (a crash: no reason given) does not end the indicator: it
    /// comes back on the next owner after the start delay, once per share, so an owner the
    /// banner brings down is not started over and over; a new share may bring it back again.
    @Test func theSharingBannerComesBackOnceAfterItsOwnerDied() {
        let harness = CallHarness(sharing: true)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        harness.banners.shown[0].onEnd(nil)
        #expect(harness.log.contains("sharing banner gone: the owner exited"))
        harness.embedded.advance(by: start / 2)
        #expect(harness.banners.asked == ["show sharing"])
        harness.embedded.advance(by: start / 2)
        #expect(harness.banners.asked == ["show sharing", "show sharing"])
        harness.banners.shown[1].onEnd(nil)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show sharing", "show sharing"])
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 5)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 1)
        harness.banners.shown[2].onEnd(nil)
        harness.embedded.advance(by: 1)
        #expect(harness.banners.asked == ["show sharing", "show sharing", "show sharing", "show sharing"])
    }

    /// The owner hears of sharing at once, before the banner's start delay (its private banners
    /// must not reach the first frame of a share), and of its end the hide delay later (a stream
    /// pausing for a moment brings nothing back); a watcher of calls alone tells it nothing.
    @Test func theOwnerIsToldOfSharingAtOnceAndOfItsEndAfterTheHideDelay() {
        let harness = CallHarness(hideDelay: 1, sharing: true)
        harness.watcher.observe(sharing)
        #expect(harness.banners.sharingReports == [true])
        #expect(harness.banners.shown.isEmpty)
        harness.watcher.observe(CallState(sharing: ["Teams", "Zoom"]))
        // Paused for half a second, then running again: still shared, as the owner was told.
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 0.5)
        harness.watcher.observe(sharing)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.sharingReports == [true])
        harness.watcher.observe(.none)
        harness.embedded.advance(by: 0.999)
        #expect(harness.banners.sharingReports == [true])
        harness.embedded.advance(by: 0.002)
        #expect(harness.banners.sharingReports == [true, false])
        let callsAlone = CallHarness(sharing: false)
        callsAlone.watcher.observe(sharing)
        #expect(callsAlone.banners.sharingReports.isEmpty)
    }

    /// `--sharing` without `--calls`: a call shows nothing, and a call's share is a share.
    @Test func sharingAloneIgnoresCalls() {
        let harness = CallHarness(calls: false, sharing: true)
        harness.watcher.observe(zoomCall)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked.isEmpty)
        harness.watcher.observe(CallState(apps: ["Zoom"], pids: [4242], sharing: ["Zoom"], sharingPIDs: [4242]))
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show sharing"])
    }
}
