// A focused full-screen window (a video, a presentation): `fullscreen = show` puts the banner over
// its top, `delay` keeps it off the screen — presented, its space reserved — until the window
// leaves full-screen, and then it appears.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("A focused full-screen window")
    struct FullscreenPolicyTests {
        /// A full-screen client with the focus, as the WM says (`_NET_ACTIVE_WINDOW`).
        static func focusedFullscreenClient(_ fixture: Fixture) -> Window {
            let observer = fixture.observer
            let client = observer.mapClientWindow(maximized: false, fullscreen: true)
            #expect(fixture.run { observer.isViewable(client) && observer.cardinals(client, "_NET_FRAME_EXTENTS") != nil })
            observer.sendToRoot(client, "_NET_ACTIVE_WINDOW", [2, 0, 0])
            #expect(fixture.run { observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first == Int(client) },
                    "the client never got the focus: \(observer.describeStack())")
            #expect(observer.requestFullscreen(client), "the client never became full-screen: \(String(describing: observer.geometry(of: client)))")
            return client
        }

        @Test func delayKeepsTheBannerOffUntilTheWindowLeavesFullScreen() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let client = Self.focusedFullscreenClient(fixture)
            fixture.host.compactPolicy = .never
            fixture.host.fullscreenPolicy = .delay
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.host.isWaitingForFullscreen },
                    "full-screen monitors \(fixture.display.fullscreenMonitors), client state \(observer.atomNames(client, "_NET_WM_STATE")), at \(String(describing: observer.geometry(of: client)))")
            let banner = Window(fixture.host.bannerWindowID)
            #expect(!observer.isViewable(banner))

            // Out of full-screen (the user pressed F11 again): the banner appears.
            observer.sendToRoot(client, "_NET_WM_STATE", [0, Int(observer.atom("_NET_WM_STATE_FULLSCREEN")), 0, 1])
            #expect(fixture.run {
                observer.isViewable(banner) && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Pixel(hex: 0xFF3B30)
            }, "the banner did not appear: \(observer.describeStack())")
            #expect(!fixture.host.isWaitingForFullscreen)
        }

        @Test func showPutsTheBannerOverTheFullScreenWindow() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            _ = Self.focusedFullscreenClient(fixture)
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            #expect(fixture.run {
                fixture.host.phase == .presented
                    && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Pixel(hex: 0xFF3B30)
            }, "the banner is not over the full-screen window: \(observer.describeStack())")
            #expect(!fixture.host.isWaitingForFullscreen)
        }
    }
}
