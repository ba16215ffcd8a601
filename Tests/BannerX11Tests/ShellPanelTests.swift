// Where a shell's own top bar ends, learnt from the work area alone (GNOME Shell, Cinnamon): the
// rules that keep the banner right under it while the banner's own reservation hides it, and
// that keep status bars, other banners and a WM slow to give space back from counting as one.

import BannerCore
import BannerX11
import Testing

@Suite("A shell's own top bar, from the work area")
struct ShellPanelTests {
    let monitor = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)

    @Test func aWorkAreaNoStrutExplainsIsTheShellsBar() {
        #expect(ShellPanel.bottom(workAreaTop: 32, on: monitor, otherStrutTops: [], bannerStrutTops: [], previous: nil) == 32)
        // A status bar shorter than the shell's bar explains none of it.
        #expect(ShellPanel.bottom(workAreaTop: 32, on: monitor, otherStrutTops: [24], bannerStrutTops: [], previous: nil) == 32)
    }

    @Test func aWorkAreaAStatusBarExplainsIsNoShellBar() {
        #expect(ShellPanel.bottom(workAreaTop: 30, on: monitor, otherStrutTops: [30], bannerStrutTops: [], previous: nil) == nil)
        #expect(ShellPanel.bottom(workAreaTop: 30, on: monitor, otherStrutTops: [44], bannerStrutTops: [], previous: 30) == nil)
    }

    @Test func theBannersOwnReservationKeepsTheBarWhereItWas() {
        // Shown: the work area ends at the banner's strut (32 + 40), the bar is hidden under it.
        #expect(ShellPanel.bottom(workAreaTop: 72, on: monitor, otherStrutTops: [], bannerStrutTops: [72], previous: 32) == 32)
        // Dismissed, the WM not yet done giving the space back: still the bar's 32.
        #expect(ShellPanel.bottom(workAreaTop: 72, on: monitor, otherStrutTops: [], bannerStrutTops: [72, 112], previous: 32) == 32)
        // No bar at all (a WM without one, where the work area is only ours).
        #expect(ShellPanel.bottom(workAreaTop: 40, on: monitor, otherStrutTops: [], bannerStrutTops: [40], previous: nil) == nil)
    }

    @Test func noWorkAreaOrOneOutsideTheMonitorIsNoBar() {
        #expect(ShellPanel.bottom(workAreaTop: nil, on: monitor, otherStrutTops: [], bannerStrutTops: [], previous: 32) == nil)
        #expect(ShellPanel.bottom(workAreaTop: 0, on: monitor, otherStrutTops: [], bannerStrutTops: [], previous: 32) == nil)
        #expect(ShellPanel.bottom(workAreaTop: 900, on: monitor, otherStrutTops: [], bannerStrutTops: [], previous: nil) == nil)
        let lower = MonitorGeometry(x: 0, y: 800, width: 1280, height: 800)
        #expect(ShellPanel.bottom(workAreaTop: 32, on: lower, otherStrutTops: [], bannerStrutTops: [], previous: nil) == nil)
        #expect(ShellPanel.bottom(workAreaTop: 832, on: lower, otherStrutTops: [], bannerStrutTops: [], previous: nil) == 832)
    }

    @Test func theBannerSitsUnderTheBarAndReservesBoth() {
        let bar = ShellPanel.strut(bottom: 32, on: monitor)
        #expect(bar == TopStrut(top: 32, startX: 0, endX: 1279))
        let inset = StrutLayout.panelInset(of: monitor, panels: [bar], placement: .belowPanels, bannerHeight: 40)
        #expect(inset == 32)
        #expect(StrutLayout.topStrut(monitor: monitor, reservedHeight: inset + 40).top == 72)
        #expect(StrutLayout.panelInset(of: monitor, panels: [bar], placement: .screenEdge, bannerHeight: 40) == 0)
    }
}
