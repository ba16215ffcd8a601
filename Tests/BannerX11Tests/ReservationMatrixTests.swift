// The same desktop under every window manager Debian ships that honours docks, stacking and
// tiling, the big desktops' own among them: a top panel — the desktop's real one (xfce4-panel
// with xfwm4, mate-panel with marco, tint2 standing in for GNOME's and Cinnamon's shells with
// mutter and muffin), else a 30 px stand-in — then a banner that must sit next to the panel
// without covering it, reserve exactly its height (measured as the WM itself shows it:
// `_NET_WORKAREA` where it publishes one, else where it tiles a client), grow its reservation
// with a taller look during a cross-fade, and give the space back when it goes. WMs differ in what they do with a dock's
// strut — some read it only when they manage the dock, some honour only the legacy property,
// one never gives space back — and the banner's hints must work on all of them. On the big
// desktops' WMs the banner must also show over the WM's own windows (mutter's and muffin's
// full-screen guard window), hide under a real locker and wait for a full-screen window.

import BannerCore
@testable import BannerX11
import CX11
import Glibc
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Reservation on every window manager")
    struct ReservationMatrixTests {
        static let windowManagers: [TestDesktop.WindowManager] = [
            .openbox, .fluxbox, .icewm, .jwm, .pekwm, .i3, .awesome, .bspwm, .herbstluftwm,
            .xfwm4, .marco, .mutter, .muffin,
        ]

        @Test(arguments: windowManagers)
        func theBannerSitsByThePanelReservesItsHeightAndGivesItBack(windowManager: TestDesktop.WindowManager) throws {
            let fixture = try Fixture(windowManager)
            let observer = fixture.observer
            let standIn = windowManager.panel == nil ? try StandInPanel(displayName: fixture.desktop.displayName, height: 30) : nil
            defer { standIn?.close() }
            var panelWindow = standIn?.window ?? 0
            if let name = windowManager.panel {
                #expect(fixture.run {
                    panelWindow = Self.topPanel(named: name, in: observer) ?? 0
                    return panelWindow != 0
                }, "\(windowManager): \(name) showed no top panel: \(observer.describeStack())")
            }
            let panelHeight = observer.cardinals(panelWindow, "_NET_WM_STRUT_PARTIAL")?[2] ?? 30
            // Where the reservation shows: the WM's work area, or the top of a tiled client.
            let client = windowManager.tiles ? observer.mapClientWindow(maximized: false) : nil
            func reservedTop() -> Int? {
                if let client {
                    guard observer.isViewable(client), let rect = observer.geometry(of: client), rect.width >= 1200 else { return nil }
                    return rect.y
                }
                return observer.workAreas().first?.y
            }
            var base = 0
            #expect(fixture.run {
                guard let top = reservedTop(), top >= panelHeight else { return false }
                base = top
                return true
            }, "\(windowManager): the panel's \(panelHeight) px were never reserved: \(observer.describeStack())")
            // The rows the desktop's own panels reserve at the top edge now: a panel program lays
            // several panels out as it starts and may reserve more of the edge while the test
            // runs (mate-panel did once under load, 24 px more than its top panel). Elsewhere the
            // rows reserved before the banner came.
            func panelsTop() -> Int {
                guard let name = windowManager.panel else { return base }
                return observer.windows(named: name).compactMap { window in
                    observer.isViewable(window) ? observer.cardinals(window, "_NET_WM_STRUT_PARTIAL")?[2] : nil
                }.max() ?? base
            }
            let baseHeight = client.flatMap(observer.geometry(of:))?.height ?? 0

            fixture.host.compactPolicy = .never
            observer.clearRecords()
            try fixture.host.presentTopBanner { $0.title("Call in progress").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && reservedTop() == panelsTop() + 80 },
                    "\(windowManager): reserved top \(String(describing: reservedTop())), expected \(panelsTop() + 80)")
            #expect(fixture.waitUntilBannerIsOnTop())
            // Next to the panel, not over it: under it, or above it where the WM stacks its docks
            // in its own order (i3); the panel's pixels and the banner's both on screen.
            let banner = try #require(fixture.bannerGeometry)
            let panelRect = try #require(observer.geometry(of: panelWindow))
            #expect(banner.height == 80 && banner.width == 1280)
            #expect(banner.y + banner.height <= panelRect.y || panelRect.y + panelRect.height <= banner.y,
                    "\(windowManager): banner \(banner) over panel \(panelRect)")
            let panelsBottom = windowManager.panel == nil ? panelRect.height : max(panelRect.height, panelsTop())
            #expect(max(banner.y + banner.height, panelRect.y + panelRect.height) == panelsBottom + 80)
            // The banner's pixels, and the panel's: the stand-in's colour, or a real panel's (a
            // clock, a task list: drawn as the panel likes), none of them the banner's. A
            // compositing WM (xfwm4, marco, mutter, muffin) paints a frame or more after the X
            // state changes: awaited.
            var panelBesideBanner = try #require(observer.screenshot(panelRect))
            #expect(fixture.run {
                panelBesideBanner = observer.screenshot(panelRect) ?? panelBesideBanner
                return observer.screenshot(banner)?.pixel(x: 5, y: banner.y + 40) == Pixel(hex: 0xFF3B30)
                    && panelBesideBanner.count(matching: Pixel(hex: 0xFF3B30), tolerance: 0) == 0
            }, "\(windowManager): the banner is not on screen or over the panel: \(observer.describeStack())")
            if let standIn {
                #expect(panelBesideBanner.pixel(x: 640, y: panelRect.y + 15) == standIn.colour, "\(windowManager): \(observer.describeStack())")
            }
            // The tiled client went straight to its new height: no size in between (a WM may
            // repeat a size; the frame-by-frame reservation of old gave a dozen).
            if let client {
                let heights = RelayoutTests.layouts(of: client, in: observer)
                #expect(Set(heights).isSubset(of: [baseHeight, baseHeight - 80]), "\(windowManager): the tiled client was given \(heights)")
            }

            // Taller: a new dock carries the new strut, so WMs that read a strut only when they
            // manage a dock reserve it too.
            try fixture.host.presentTopBanner { $0.title("Call in progress").backgroundColor(.systemRed).height(120) }
            #expect(fixture.run { !fixture.host.isAnimating && reservedTop() == panelsTop() + 120 },
                    "\(windowManager): reserved top \(String(describing: reservedTop())), expected \(panelsTop() + 120)")

            observer.clearRecords()
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.windows(named: "window-banner-reservation").isEmpty })
            // bspwm never gives a strut back (bspwm#1382): only reserving is checked there.
            if windowManager != .bspwm {
                #expect(fixture.run { reservedTop() == panelsTop() }, "\(windowManager): reserved top \(String(describing: reservedTop())) after dismissal, expected \(panelsTop())")
                if let client {
                    let heights = RelayoutTests.layouts(of: client, in: observer)
                    #expect(Set(heights).isSubset(of: [baseHeight - 120, baseHeight]), "\(windowManager): the tiled client was given \(heights)")
                }
            }
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// On the big desktops' WMs, with their panels: the WM's own windows (mutter's and
        /// muffin's full-screen guard window at the bottom) hide no banner, a banner shown while
        /// a real locker (i3lock) is up never appears over it, and a focused full-screen window keeps it off under
        /// `fullscreen = delay` and lets it show over its top under `show`.
        @Test(arguments: windowManagers.filter { $0.panel != nil })
        func theBannerShowsOverTheWMsOwnWindowsAndHidesForALockerAndAFullScreenWindow(windowManager: TestDesktop.WindowManager) throws {
            let fixture = try Fixture(windowManager)
            let observer = fixture.observer
            let red = Pixel(hex: 0xFF3B30)
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            func bannerShows() -> Bool {
                guard observer.isViewable(Window(fixture.host.bannerWindowID)), let rect = fixture.bannerGeometry else { return false }
                return observer.screenshot(rect)?.pixel(x: 5, y: rect.y + 40) == red
            }
            #expect(fixture.run { fixture.host.phase == .presented && bannerShows() }, "\(windowManager): \(observer.describeStack())")
            #expect(!fixture.display.isScreenLocked)

            // Shown while i3lock is up: the banner's dock is mapped and managed, the banner never.
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            let lock = try fixture.desktop.start(["i3lock", "-n", "-c", "112233"])
            #expect(fixture.run {
                fixture.display.isScreenLocked
                    && observer.screenshot(Rect(x: 640, y: 400, width: 1, height: 1))?.pixel(x: 640, y: 400) == Pixel(hex: 0x112233)
            }, "\(windowManager): i3lock never showed: \(lock.standardError) \(observer.describeStack())")
            observer.clearRecords()
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            #expect(fixture.run {
                fixture.host.phase == .presented && observer.windows(named: "window-banner-reservation").contains { observer.isViewable($0) }
            })
            #expect(fixture.settle())
            observer.drainEvents()
            #expect(fixture.display.isScreenLocked && !observer.maps.contains(Window(fixture.host.bannerWindowID)),
                    "\(windowManager): the banner was mapped over i3lock: \(observer.describeStack())")
            #expect(observer.screenshot(Rect(x: 640, y: 40, width: 1, height: 1))?.pixel(x: 640, y: 40) == Pixel(hex: 0x112233))
            lock.signal(SIGTERM)
            _ = lock.waitForExit(timeout: 5)
            #expect(fixture.run { !fixture.display.isScreenLocked && bannerShows() }, "\(windowManager): no banner after unlocking: \(observer.describeStack())")

            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden })
            // Mapped, focused, then made full-screen (mutter and muffin give a window mapped
            // full-screen no frame extents to wait for).
            let client = observer.mapClientWindow(maximized: false)
            #expect(fixture.run { observer.isViewable(client) })
            observer.sendToRoot(client, "_NET_ACTIVE_WINDOW", [2, 0, 0])
            #expect(fixture.run { observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first == Int(client) },
                    "\(windowManager): the client never got the focus: \(observer.describeStack())")
            #expect(observer.requestFullscreen(client), "\(windowManager): the client never became full-screen")
            fixture.host.fullscreenPolicy = .delay
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented && fixture.host.isWaitingForFullscreen },
                    "\(windowManager): full-screen monitors \(fixture.display.fullscreenMonitors), client at \(String(describing: observer.geometry(of: client)))")
            #expect(!observer.isViewable(Window(fixture.host.bannerWindowID)))
            fixture.host.fullscreenPolicy = .show
            #expect(fixture.run { !fixture.host.isWaitingForFullscreen && bannerShows() },
                    "\(windowManager): the banner is not over the full-screen window: \(observer.describeStack())")
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// The mapped window called `name` (WM_CLASS instance) reserving the top edge, at any
        /// depth (a panel inside its WM frame), once it is where its strut says (mate-panel
        /// slides in and grows to its size).
        static func topPanel(named name: String, in observer: XObserver) -> Window? {
            observer.windows(named: name).first { window in
                guard observer.isViewable(window), let top = observer.cardinals(window, "_NET_WM_STRUT_PARTIAL")?[2], top > 0,
                      let rect = observer.geometry(of: window) else { return false }
                return rect.y == 0 && rect.height == top
            }
        }
    }
}
