// Always visible, never in the way: the banner stays above windows mapped and raised after
// it, never takes the focus, keeps its dock out of taskbars and pagers and out of the pointer's
// way, and follows monitors that come and go while it runs.

import BannerCore
import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Stacking, focus and hot-plug")
    struct StackingTests {
        static let red = Pixel(hex: 0xFF3B30)

        static func presentRedBanner(_ fixture: Fixture) throws -> Bool {
            fixture.host.compactPolicy = .never
            return try fixture.presentAndSettle(height: 80) { $0.title("On top").backgroundColor(.systemRed) }
        }

        @Test func raisedFullscreenClientEndsUpBelowTheBanner() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            #expect(try Self.presentRedBanner(fixture))
            let banner = Window(fixture.host.bannerWindowID)

            // Fullscreen: the WM puts it over the banner's rows, in its topmost layer.
            let client = observer.mapClientWindow(maximized: false, fullscreen: true)
            #expect(fixture.run { observer.topLevel(of: client) != client && observer.isViewable(client) })
            #expect(observer.requestFullscreen(client))
            let frame = observer.topLevel(of: client)
            XRaiseWindow(observer.display, frame)
            XRaiseWindow(observer.display, client)
            XSync(observer.display, 0)

            func stackIndex(_ window: Window) -> Int? { observer.children(of: observer.root).firstIndex(of: window) }
            #expect(fixture.run {
                guard let bannerIndex = stackIndex(banner), let frameIndex = stackIndex(frame),
                      let covered = observer.geometry(of: frame) else { return false }
                return covered.y < 80 && bannerIndex > frameIndex
            }, "stack: \(observer.describeStack())")
            let covered = try #require(observer.geometry(of: frame))
            // The WM handles the raise requests in its own time, and the banner goes back on top
            // each time it hears of a restack: it ends up showing over the frame.
            #expect(fixture.run {
                observer.screenshot(Rect(x: covered.x + 10, y: 2, width: 1, height: 1))?.pixel(x: covered.x + 10, y: 2) == Self.red
            }, "stack: \(observer.describeStack())")
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// A window the WM does not stack (a popup, another tool's overlay) lands on top of
        /// everything when mapped or raised: the banner goes back above it.
        @Test func overrideRedirectWindowMappedAndRaisedLaterEndsUpBelowTheBanner() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            #expect(try Self.presentRedBanner(fixture))
            let banner = Window(fixture.host.bannerWindowID)
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            attributes.background_pixel = 0x808080
            let popup = XCreateWindow(observer.display, observer.root, 0, 0, 400, 300, 0, Int32(CopyFromParent), UInt32(InputOutput),
                                      nil, UInt(CWOverrideRedirect | CWBackPixel), &attributes)
            defer { XDestroyWindow(observer.display, popup); XSync(observer.display, 0) }
            func bannerIsAbovePopup() -> Bool {
                let stack = observer.children(of: observer.root)
                guard let bannerIndex = stack.firstIndex(of: banner), let popupIndex = stack.firstIndex(of: popup) else { return false }
                return bannerIndex > popupIndex
            }
            XMapRaised(observer.display, popup)
            XSync(observer.display, 0)
            #expect(fixture.run { observer.isViewable(popup) && bannerIsAbovePopup() }, "stack: \(observer.describeStack())")
            XRaiseWindow(observer.display, popup)
            XSync(observer.display, 0)
            #expect(fixture.run { bannerIsAbovePopup() }, "stack: \(observer.describeStack())")
            let shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 400, height: 80)))
            #expect(shot.pixel(x: 10, y: 2) == Self.red)
        }

        @Test func bannerNeverTakesTheFocus() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            #expect(try Self.presentRedBanner(fixture))
            let banner = Window(fixture.host.bannerWindowID)
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            let ours = Set([banner, dock] + observer.children(of: banner))
            let active = observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first.map { Window($0) } ?? 0
            #expect(!ours.contains(active))
            #expect(!ours.contains(observer.inputFocus))
        }

        @Test func dockStaysOutOfTaskbarsAndPagersAndTakesNoClicks() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            #expect(try Self.presentRedBanner(fixture))
            let dock = try #require(observer.windows(named: "window-banner-reservation").first)
            let state = observer.atomNames(dock, "_NET_WM_STATE")
            #expect(state.contains("_NET_WM_STATE_SKIP_TASKBAR"), "state \(state)")
            #expect(state.contains("_NET_WM_STATE_SKIP_PAGER"), "state \(state)")
            #expect(observer.inputShape(of: dock).isEmpty)
        }
    }

    @Suite("Monitor hot-plug")
    struct HotPlugTests {
        static let left = MonitorGeometry(x: 0, y: 0, width: 640, height: 800)
        static let right = MonitorGeometry(x: 640, y: 0, width: 640, height: 800)

        static func setMonitor(_ name: String, _ geometry: MonitorGeometry, output: String) -> [String] {
            TestDesktop.setMonitor(name, Rect(x: geometry.x, y: geometry.y, width: geometry.width, height: geometry.height), output: output)
        }

        /// Runs `command` while serving the banner's loop, until `condition` holds.
        static func change(_ fixture: Fixture, _ command: [String], until condition: () -> Bool) throws -> Bool {
            let xrandr = try fixture.desktop.start(command)
            let seen = fixture.run(until: condition)
            try fixture.desktop.finish(xrandr, command)
            return seen
        }

        @Test func monitorsThatComeAndGoGainAndLoseTheirBanners() throws {
            let fixture = try Fixture(setup: [
                Self.setMonitor("left", Self.left, output: "screen"),
                Self.setMonitor("right", Self.right, output: "none"),
            ])
            let observer = fixture.observer
            let display = fixture.display
            #expect(display.hosts.map(\.monitorName) == ["left", "right"])
            let original = observer.workAreas()

            let host = try display.host(named: "right")
            host.compactPolicy = .never
            try host.presentTopBanner { $0.title("Right").backgroundColor(.systemRed) }
            #expect(fixture.run { host.phase == .presented && observer.workAreas() != original })
            #expect(fixture.run { fixture.bannerGeometry == Rect(x: 640, y: 0, width: 640, height: 80) },
                    "banner at \(fixture.bannerGeometry.map(\.description) ?? "nowhere")")

            // The monitor goes: its banner and its reservation go with it.
            #expect(try Self.change(fixture, ["xrandr", "--delmonitor", "right"]) {
                display.hosts.map(\.monitorName) == ["left"]
                    && observer.windows(named: "window-banner").isEmpty
                    && observer.windows(named: "window-banner-reservation").isEmpty
                    && observer.workAreas().allSatisfy { $0.y == 0 && $0.height == 800 }
            }, "hosts \(display.hosts.map(\.monitorName)), work areas \(observer.workAreas())")

            // A new monitor gets a host of its own.
            #expect(try Self.change(fixture, Self.setMonitor("extra", Self.right, output: "none")) {
                display.hosts.map(\.monitorName) == ["left", "extra"]
            }, "hosts \(display.hosts.map(\.monitorName))")
            let extra = try display.host(named: "extra")
            #expect(extra.monitor == Self.right)
            #expect(extra.phase == .hidden)
            #expect(display.protocolErrorCount == 0)
        }
    }
}
