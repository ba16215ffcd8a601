// GNOME on Xorg, the real shell (`gnome-shell --x11` on Xvfb): its top bar is drawn by the
// compositor, so no X11 window carries it and only the work area shows it. The banner must sit
// directly under the bar (which stays on screen), and a maximized window must move down by
// exactly the banner's height while it is shown and get it back when it goes. Oracles: Mutter's
// own `_NET_WORKAREA`, a real client's geometry, the screen's pixels. (Mutter on X11 sees
// RandR outputs, not `xrandr --setmonitor` monitors, and Xvfb has one output: its per-monitor
// `_GTK_WORKAREAS_D0` is tested with one monitor only.)

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Under GNOME Shell's top bar (X11)")
    struct GnomeShellTests {
        @Test func theBannerSitsUnderTheTopBarAndAMaximizedWindowMovesByExactlyItsHeight() throws {
            let fixture = try Fixture(.gnomeShell)
            let observer = fixture.observer
            var before = Rect(x: 0, y: 0, width: 0, height: 0)
            #expect(fixture.run {
                before = observer.workAreas().first ?? before
                return before.y > 0
            }, "GNOME Shell reserved no top bar: \(observer.workAreas())")
            let bar = before.y
            // No X11 window carries the bar: nothing but the work area tells where it ends.
            #expect(observer.reservationStruts().isEmpty)
            let client = try #require(fixture.mapMaximizedClient(filling: before))
            let maximized = try #require(observer.geometry(of: client))
            let barBefore = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: bar)))

            fixture.host.compactPolicy = .never
            #expect(try fixture.presentAndSettle(height: 40) { $0.title("No Internet Connection").height(40).backgroundColor(.systemRed) })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: bar, width: 1280, height: 40))
            #expect(fixture.host.panelInset == bar)
            #expect(observer.workAreas().first == Rect(x: before.x, y: bar + 40, width: before.width, height: before.height - 40))
            #expect(fixture.run { observer.geometry(of: client) == Rect(x: maximized.x, y: maximized.y + 40, width: maximized.width, height: maximized.height - 40) },
                    "the maximized client is at \(String(describing: observer.geometry(of: client))), was \(maximized)")
            // The bar's pixels as they were (its clock aside), the banner's right under it. The
            // shell composites in its own time after the X state changed: await the banner's pixels.
            let red = Pixel(hex: 0xFF3B30)
            var shot = try #require(observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: bar + 40)))
            // The shell may show a frame of the slide first: await the settled banner, whole.
            #expect(fixture.run {
                shot = observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: bar + 40)) ?? shot
                return [bar, bar + 20, bar + 39].allSatisfy { shot.pixel(x: 5, y: $0).distance(to: red) <= 8 }
            }, "the banner's red never showed whole under the bar")
            #expect(shot.count(matching: red, tolerance: 8) >= 1280 * 40 / 2)
            for y in [0, bar / 2, bar - 1] {
                #expect(shot.pixel(x: 2, y: y) == barBefore.pixel(x: 2, y: y), "the top bar's row \(y) changed")
                #expect(shot.pixel(x: 1277, y: y) == barBefore.pixel(x: 1277, y: y), "the top bar's row \(y) changed")
            }
            for y in [bar, bar + 20, bar + 39] { #expect(shot.pixel(x: 5, y: y).distance(to: red) <= 8, "row \(y)") }

            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.workAreas().first == before })
            #expect(fixture.run { observer.geometry(of: client) == maximized })

            // And again: the bar's rows are remembered while the banner's reservation hides them.
            #expect(try fixture.presentAndSettle(height: 40) { $0.title("Back Online").height(40).backgroundColor(.systemGreen) })
            #expect(fixture.bannerGeometry == Rect(x: 0, y: bar, width: 1280, height: 40))
            fixture.host.dismissTopBanner()
            #expect(fixture.run { fixture.host.phase == .hidden && observer.workAreas().first == before })
        }
    }
}
