// Screen sharing as the desktop itself says it (GNOME's extension: Mutter's remote-access
// handles), on the owner's embedded loop with a fake display that says it: private banners held
// with no monitor, "Stop sharing" on the sharing banner only where the desktop can stop a share,
// and the owner still exiting idle (the next one asks the desktop again).

import BannerCore
import BannerOwner
import OwnerProtocol
import Testing

/// The sharing banner's request, as `monitor --sharing` sends it.
func sharingBannerShow() -> OwnerRequest {
    var settings = AppearanceSettings()
    settings.title = "You are sharing your screen"
    var request = ShowRequest(settings: settings, sticky: true, id: "window-banner-sharing", enqueue: true, wait: true)
    request.stopsSharing = true
    return OwnerRequest(request)
}

@Suite("Screen sharing as the desktop says it, on an embedded loop")
struct DesktopSharingTests {
    @Test func theDesktopSayingTheScreenIsSharedHoldsPrivateBannersWithNoMonitor() throws {
        let harness = try OwnerHarness()
        harness.display.desktopSays(sharing: true)
        let (_, reply) = try harness.ask(privateShow("Salary review", id: "hr"))
        #expect(reply.shown?.state == .held)
        #expect(reply.warnings == nil, "the desktop watches: no warning")
        harness.display.desktopSays(sharing: false)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "Salary review")
    }

    @Test func theSharingBannerGetsStopSharingWhereTheDesktopCanAndItStopsTheShares() throws {
        let harness = try OwnerHarness()
        harness.display.desktopSays(sharing: true)
        let (client, _) = try harness.ask(sharingBannerShow())
        harness.embedded.advance(by: 1)
        #expect(try harness.status().monitors.first?.actions == ["Stop sharing"])
        let (_, pressed) = try harness.ask(OwnerRequest(ActionRequest(id: "window-banner-sharing")))
        #expect(pressed.error == nil, "\(pressed)")
        #expect(harness.display.sharesStopped == 1)
        harness.embedded.advance(by: 1)
        #expect(try client.next().ended == .action)
    }

    @Test func whereTheDesktopCannotStopASharingTheBannerHasNoButton() throws {
        let harness = try OwnerHarness()
        _ = try harness.ask(sharingBannerShow())
        harness.embedded.advance(by: 1)
        #expect(try harness.status().monitors.first?.actions == nil)
        #expect(harness.display.sharesStopped == 0)
    }

    @Test func theDesktopWatchingDoesNotKeepTheOwnerFromExitingIdle() throws {
        let harness = try OwnerHarness(idleExit: 5)
        harness.display.desktopSays(sharing: false)
        harness.embedded.advance(by: 6)
        #expect(harness.owner.finished)
    }
}
