// The network-monitoring rules of the original, with its drop-during-restore defect fixed,
// driven by a manual clock: each test reads as one user-visible story.

import BannerCore
import BannerMonitor
import MonotonicClock
import Testing

@Suite("Connectivity policy")
struct ConnectivityPolicyTests {
    @Test func restoredBannerNotShownAtStartup() {
        var policy = ConnectivityBannerPolicy()
        #expect(policy.connectivityChanged(isOnline: true, at: at(0)) == [])
        #expect(policy.phase == .idle)
        #expect(policy.nextDeadline == nil)
    }

    @Test func offlineAtStartupShowsOfflineBanner() {
        var policy = ConnectivityBannerPolicy()
        #expect(policy.connectivityChanged(isOnline: false, at: at(0)) == [.presentOffline])
        #expect(policy.phase == .offline)
    }

    @Test func offlineBannerIsPersistent() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: true, at: at(0))
        #expect(policy.connectivityChanged(isOnline: false, at: at(5)) == [.presentOffline])
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: at(3600)) == [])
        #expect(policy.phase == .offline)
    }

    @Test func backOnlineShowsRestoredThenDismissesAfterHideDelay() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(1))
        #expect(policy.connectivityChanged(isOnline: true, at: at(10)) == [.presentRestored])
        #expect(policy.nextDeadline == at(12))
        #expect(policy.advance(to: at(11.999)) == [])
        #expect(policy.advance(to: at(12)) == [.dismiss])
        #expect(policy.phase == .idle)
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: at(20)) == [])
    }

    @Test func defaultHideDelayIsTheOriginalsTwoSeconds() {
        #expect(ConnectivityBannerPolicy().hideDelay == 2.0)
        #expect(ConnectivityBannerPolicy.defaultHideDelay == 2.0)
    }

    @Test func customHideDelayIsHonoured() {
        var policy = ConnectivityBannerPolicy(hideDelay: 0.5)
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        _ = policy.connectivityChanged(isOnline: true, at: at(1))
        #expect(policy.nextDeadline == at(1.5))
        #expect(policy.advance(to: at(1.5)) == [.dismiss])
    }

    @Test func dropDuringRestoredWindowShowsOfflineAgain() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        _ = policy.connectivityChanged(isOnline: true, at: at(1))
        #expect(policy.connectivityChanged(isOnline: false, at: at(2)) == [.presentOffline])
        #expect(policy.phase == .offline)
        // The hide that was pending for t=3 is gone: the offline banner stays.
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: at(3)) == [])
        #expect(policy.advance(to: at(60)) == [])
    }

    @Test func anyChangeCancelsPendingHideAndRestartsIt() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        _ = policy.connectivityChanged(isOnline: true, at: at(1))
        _ = policy.connectivityChanged(isOnline: false, at: at(2))
        #expect(policy.connectivityChanged(isOnline: true, at: at(2.5)) == [.presentRestored])
        // The hide counts from the latest return, not the first.
        #expect(policy.nextDeadline == at(4.5))
        #expect(policy.advance(to: at(3)) == [])
        #expect(policy.advance(to: at(4.5)) == [.dismiss])
    }

    @Test func repeatedReportsAreNotChanges() {
        var policy = ConnectivityBannerPolicy()
        #expect(policy.connectivityChanged(isOnline: false, at: at(0)) == [.presentOffline])
        #expect(policy.connectivityChanged(isOnline: false, at: at(1)) == [])
        #expect(policy.connectivityChanged(isOnline: true, at: at(2)) == [.presentRestored])
        // A second "online" does not push the hide back.
        #expect(policy.connectivityChanged(isOnline: true, at: at(3)) == [])
        #expect(policy.nextDeadline == at(4))
    }

    @Test func changeAfterMissedDeadlineHidesFirst() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        _ = policy.connectivityChanged(isOnline: true, at: at(1))
        // Nobody advanced the clock at t=3; the drop at t=5 comes after the hide.
        #expect(policy.connectivityChanged(isOnline: false, at: at(5)) == [.dismiss, .presentOffline])
        #expect(policy.phase == .offline)
    }

    @Test func dismissedOfflineBannerIsNotFollowedByRestored() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        policy.bannerWasDismissed()
        #expect(policy.connectivityChanged(isOnline: true, at: at(1)) == [])
        #expect(policy.nextDeadline == nil)
        // Going offline again is a change: the offline banner comes back.
        #expect(policy.connectivityChanged(isOnline: false, at: at(2)) == [.presentOffline])
    }

    @Test func dismissedRestoredBannerCancelsItsHide() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        _ = policy.connectivityChanged(isOnline: true, at: at(1))
        policy.bannerWasDismissed()
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: at(3)) == [])
    }

    @Test func zeroHideDelayDismissesOnNextAdvance() {
        var policy = ConnectivityBannerPolicy(hideDelay: 0)
        _ = policy.connectivityChanged(isOnline: false, at: at(0))
        #expect(policy.connectivityChanged(isOnline: true, at: at(1)) == [.presentRestored])
        #expect(policy.advance(to: at(1)) == [.dismiss])
    }

    // MARK: Captive portals

    @Test func portalShowsThePortalBannerUntilTheInternetAnswers() {
        var policy = ConnectivityBannerPolicy()
        #expect(policy.connectivityChanged(to: .online, at: at(0)) == [])
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/"), at: at(1)) == [.presentPortal(signIn: "http://portal/")])
        #expect(policy.phase == .portal)
        #expect(policy.nextDeadline == nil)
        // Signed in: "Back Online" confirms it.
        #expect(policy.connectivityChanged(to: .online, at: at(5)) == [.presentRestored])
        #expect(policy.nextDeadline == at(7))
    }

    @Test func aPortalAtStartUpShowsAtOnce() {
        var policy = ConnectivityBannerPolicy()
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/"), at: at(0)) == [.presentPortal(signIn: "http://portal/")])
    }

    @Test func aNewSignInPageShowsThePortalBannerAgainTheSameOneDoesNot() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(to: .portal(signIn: "http://portal/a"), at: at(0))
        policy.bannerWasDismissed()
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/a"), at: at(1)) == [])
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/b"), at: at(2)) == [.presentPortal(signIn: "http://portal/b")])
    }

    @Test func portalAndOfflineReplaceEachOther() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(to: .offline, at: at(0))
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/"), at: at(1)) == [.presentPortal(signIn: "http://portal/")])
        #expect(policy.connectivityChanged(to: .offline, at: at(2)) == [.presentOffline])
        #expect(policy.isOnline == false)
    }

    @Test func aPortalDuringBackOnlineCancelsItsHide() {
        var policy = ConnectivityBannerPolicy()
        _ = policy.connectivityChanged(to: .offline, at: at(0))
        _ = policy.connectivityChanged(to: .online, at: at(1))
        #expect(policy.connectivityChanged(to: .portal(signIn: "http://portal/"), at: at(2)) == [.presentPortal(signIn: "http://portal/")])
        #expect(policy.nextDeadline == nil)
        #expect(policy.advance(to: at(10)) == [])
    }
}

/// A point on the manual clock these tests move by hand.
private func at(_ seconds: Double) -> MonotonicTime {
    MonotonicTime(seconds: seconds)
}
