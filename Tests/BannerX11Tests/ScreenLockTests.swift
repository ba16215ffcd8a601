// A locked screen shows nothing but the lock: with a locker up — a window that raises itself on
// every VisibilityNotify, i3lock, xsecurelock and xscreensaver from Debian's packages, or the X
// server's own screensaver — the banner is unmapped, stays presented (an update still takes),
// starts no raise war, and comes back once the screen is unlocked. A full-screen window under
// the clients (a WM's guard window, conky's desktop) is no lock: the banner shows over it, and a
// window that moves up or down the stack is judged again. Judged by the pixels on screen and by
// how often the locker had to raise itself.

import BannerCore
@testable import BannerX11
import CX11
import Glibc
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("On a locked screen")
    struct ScreenLockTests {
        static let red = Pixel(hex: 0xFF3B30)

        @Test func aSelfRaisingLockerStaysOnTopWithoutARaiseWarAndTheBannerComesBackAfter() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call from Anna").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)

            let locker = try SelfRaisingLocker(displayName: fixture.desktop.displayName)
            let watch = fixture.display.loop.watch(fd: locker.fileDescriptor) { locker.service() }
            #expect(fixture.run { !fixture.observer.isViewable(banner) }, "the banner stayed over the locker: \(fixture.observer.describeStack())")
            // An update while locked is taken, and shows nothing either.
            try fixture.host.presentTopBanner { $0.title("Call from Anna — 2 min").backgroundColor(.systemRed) }
            let raisesBefore = locker.raises
            #expect(fixture.settle(), "the banner never quieted under a locker that raises itself")
            #expect(locker.raises - raisesBefore <= 2, "the locker had to raise itself \(locker.raises - raisesBefore) times while the banner settled")
            #expect(fixture.host.isBannerPresented)
            #expect(!fixture.observer.isViewable(banner))
            let shot = try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 800)))
            #expect(shot.count(matching: locker.colour, tolerance: 0) == 1280 * 800, "the lock screen is not intact")

            fixture.display.loop.cancel(watch)
            locker.close()
            #expect(fixture.run {
                fixture.observer.isViewable(banner) && fixture.observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "the banner did not come back: \(fixture.observer.describeStack())")
        }

        @Test func aBannerShownWhileI3lockRunsAppearsOnlyOnceItIsGone() throws {
            let fixture = try Fixture()
            // i3lock: -n stays in the foreground, -c paints the lock screen one colour.
            let lock = try fixture.desktop.start(["i3lock", "-n", "-c", "112233"])
            let lockColour = Pixel(hex: 0x112233)
            let observer = fixture.observer
            func lockScreenShows() -> Bool {
                observer.children(of: observer.root).contains { window in
                    observer.isOverrideRedirect(window) && observer.isViewable(window)
                        && observer.geometry(of: window) == Rect(x: 0, y: 0, width: 1280, height: 800)
                } && observer.screenshot(Rect(x: 640, y: 40, width: 1, height: 1))?.pixel(x: 640, y: 40) == lockColour
            }
            #expect(fixture.run { lockScreenShows() }, "i3lock never showed: \(lock.standardError)")

            fixture.host.compactPolicy = .never
            observer.clearRecords()
            try fixture.host.presentTopBanner { $0.title("Call from Anna").backgroundColor(.systemRed) }
            #expect(fixture.run { fixture.host.phase == .presented })
            let banner = Window(fixture.host.bannerWindowID)
            #expect(!observer.isViewable(banner))
            #expect(fixture.settle())
            #expect(lockScreenShows())
            #expect(!observer.isViewable(banner))
            // Not even for a moment: the dock mapped for the banner's reservation is a managed
            // window, and the lock must stay above it.
            observer.drainEvents()
            #expect(!observer.maps.contains(banner), "the banner was mapped over the lock: \(observer.describeStack())")

            lock.signal(SIGTERM)
            _ = lock.waitForExit(timeout: 5)
            #expect(fixture.run {
                observer.isViewable(banner) && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "the banner did not come back: \(observer.describeStack())")
        }

        /// Mutter's and muffin's guard window: full-screen, override-redirect, lowered before
        /// it is mapped. Here it draws (theirs is InputOnly), so only its place in the stack
        /// tells it from a locker; raised over the clients it is one, lowered again it is not.
        @Test func aFullScreenWindowBelowTheClientsHidesNothingAndCountsOnceRaised() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            let client = observer.mapClientWindow(maximized: false)
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call from Anna").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)

            let guardWindow = try FullScreenOverlay(displayName: fixture.desktop.displayName)
            defer { guardWindow.close() }
            #expect(fixture.run { observer.isViewable(guardWindow.window) && observer.children(of: observer.root).first == guardWindow.window })
            #expect(fixture.settle())
            #expect(!fixture.display.isScreenLocked)
            #expect(observer.isViewable(banner) && observer.isViewable(client))
            #expect(observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red,
                    "the banner is not on screen: \(observer.describeStack())")

            guardWindow.raise()
            #expect(fixture.run { fixture.display.isScreenLocked && !observer.isViewable(banner) }, "a covering window on top is a locker")
            #expect(fixture.host.isBannerPresented)
            guardWindow.lower()
            #expect(fixture.run {
                !fixture.display.isScreenLocked && observer.isViewable(banner)
                    && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "the banner did not come back once the window went under the clients: \(observer.describeStack())")
        }

        /// conky with `own_window_type override` (Debian's conky-std): a full-screen window
        /// under every client, drawing the desktop where no window is. The banner shows.
        @Test func conkysFullScreenDesktopBelowTheClientsIsNoLocker() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call from Anna").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)
            let config = fixture.desktop.home + "/conky.conf"
            try writeFile(config, """
                conky.config = {
                    own_window = true, own_window_type = 'override', own_window_transparent = false,
                    own_window_argb_visual = false, own_window_colour = '3C3C64', background = false,
                    alignment = 'top_left', gap_x = 0, gap_y = 0, minimum_width = 1280, minimum_height = 800,
                    border_width = 0, border_inner_margin = 0, border_outer_margin = 0, draw_borders = false,
                    update_interval = 60, double_buffer = false, out_to_console = false, out_to_x = true,
                };
                conky.text = [[ ]];

                """)
            let conky = try fixture.desktop.start(["conky", "-c", config])
            defer {
                conky.signal(SIGTERM)
                _ = conky.waitForExit(timeout: 5)
            }
            let widgetColour = Pixel(hex: 0x3C3C64)
            #expect(fixture.run {
                observer.screenshot(Rect(x: 640, y: 400, width: 1, height: 1))?.pixel(x: 640, y: 400) == widgetColour
                    && observer.isViewable(banner)
                    && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "conky's desktop and the banner over it were not seen: \(conky.standardError) \(observer.describeStack())")
            #expect(fixture.settle())
            #expect(!fixture.display.isScreenLocked)
            #expect(observer.isViewable(banner))
        }

        /// xsecurelock draws in the compositing overlay window and keeps an "obscurer" window
        /// one pixel short of the screen on each side on top of the root's children.
        @Test func xsecurelockHidesTheBannerUntilItIsGone() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call from Anna").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)
            let lock = try fixture.desktop.start(["xsecurelock"])
            #expect(fixture.run { fixture.display.isScreenLocked && !observer.isViewable(banner) },
                    "the banner stayed over xsecurelock: \(lock.standardError) \(observer.describeStack())")
            #expect(fixture.host.isBannerPresented)
            lock.signal(SIGTERM)
            _ = lock.waitForExit(timeout: 5)
            #expect(fixture.run {
                observer.isViewable(banner) && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "the banner did not come back: \(observer.describeStack())")
        }

        /// xscreensaver blanking (its daemon told to by `xscreensaver-command -activate`, as its
        /// timeout would): a full-screen override-redirect window on top.
        @Test func xscreensaverBlankingHidesTheBannerUntilItStops() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Call from Anna").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)
            // Blank only (no hacks to burn the CPU), no lock dialog, no fades.
            try writeFile(fixture.desktop.home + "/.xscreensaver", "mode: blank\nlock: False\nsplash: False\nfade: False\nunfade: False\n")
            // The daemon and the helpers it starts form one process group (Subprocess's), killed whole.
            let daemon = try fixture.desktop.start(["xscreensaver", "-no-splash"])
            defer {
                kill(-daemon.pid, SIGTERM)
                _ = daemon.waitForExit(timeout: 5)
                kill(-daemon.pid, SIGKILL)
            }
            // The daemon takes commands once it has set up: asked until it answers.
            #expect(fixture.run { (try? fixture.desktop.run(["xscreensaver-command", "-activate"])) != nil },
                    "xscreensaver never answered: \(daemon.standardError)")
            #expect(fixture.run { fixture.display.isScreenLocked && !observer.isViewable(banner) },
                    "the banner stayed over xscreensaver: \(daemon.standardError) \(observer.describeStack())")
            #expect(fixture.host.isBannerPresented)
            // Told to stop as a key press would; told again while it has not (a command that
            // lands while it is still setting the blanking up is not always acted on).
            #expect(fixture.run {
                _ = try? fixture.desktop.run(["xscreensaver-command", "-deactivate"])
                return observer.isViewable(banner) && observer.screenshot(Rect(x: 5, y: 40, width: 1, height: 1))?.pixel(x: 5, y: 40) == Self.red
            }, "the banner did not come back: \(observer.describeStack())")
        }

        @Test func theServersScreensaverHidesTheBannerUntilItIsReset() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Saver").backgroundColor(.systemRed) })
            let banner = Window(fixture.host.bannerWindowID)
            try fixture.desktop.run(["xset", "s", "activate"])
            #expect(fixture.run { !fixture.observer.isViewable(banner) }, "the banner stayed over the screensaver")
            #expect(fixture.host.isBannerPresented)
            try fixture.desktop.run(["xset", "s", "reset"])
            #expect(fixture.run { fixture.observer.isViewable(banner) }, "the banner did not come back after the screensaver")
        }
    }
}
