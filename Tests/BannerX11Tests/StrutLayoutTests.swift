// Where the X11 banner goes among panels and docks, and the strut it reserves: StrutLayout,
// pure, with no server.

import BannerCore
import BannerX11
import Testing

@Suite("Struts and panels")
struct StrutLayoutTests {
    @Test func onlyAMonitorOverlappingTheStripAboveMakesTheBannerClipAtTheEdge() {
        let bottom = MonitorGeometry(x: 0, y: 800, width: 1280, height: 800)
        let above = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let aside = MonitorGeometry(x: 1280, y: 0, width: 1280, height: 800)
        let farAbove = MonitorGeometry(x: 0, y: 0, width: 1280, height: 700)
        let overlapsOneColumn = MonitorGeometry(x: 1279, y: 0, width: 100, height: 800)
        let top = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        #expect(StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 80, among: [above, bottom]))
        #expect(StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 80, among: [overlapsOneColumn, bottom]))
        #expect(!StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 80, among: [aside, bottom]))
        // 100 px between the monitors: an 80 px banner's hidden rows fall in the gap, a 120 px one's do not.
        #expect(!StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 80, among: [farAbove, bottom]))
        #expect(StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 120, among: [farAbove, bottom]))
        // The top of the layout, alone or beside others, and a mirror of itself.
        #expect(!StrutLayout.clipsAtTopEdge(of: top, on: top, bannerHeight: 80, among: [top, aside, bottom]))
        #expect(!StrutLayout.clipsAtTopEdge(of: top, on: top, bannerHeight: 80, among: [top, top]))
        #expect(!StrutLayout.clipsAtTopEdge(of: bottom, on: bottom, bannerHeight: 0, among: [above, bottom]))
    }

    @Test func aBannerUnderPanelsAlwaysClipsAtTheirBottomEdge() {
        let top = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let underPanel = StrutLayout.bannerArea(on: top, panelInset: 30)
        #expect(underPanel == MonitorGeometry(x: 0, y: 30, width: 1280, height: 770))
        #expect(StrutLayout.clipsAtTopEdge(of: underPanel, on: top, bannerHeight: 80, among: [top]))
    }

    @Test func theBannerSitsUnderTheDeepestPanelReachingIntoItsMonitor() {
        let left = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let right = MonitorGeometry(x: 1280, y: 0, width: 1280, height: 800)
        let lower = MonitorGeometry(x: 0, y: 800, width: 1280, height: 800)
        let bar = TopStrut(top: 30, startX: 0, endX: 1279)
        let tallBarOnTheRight = TopStrut(top: 44, startX: 1280, endX: 2559)
        let acrossBoth = TopStrut(top: 20, startX: 0, endX: 2559)
        func inset(_ monitor: MonitorGeometry, _ panels: [TopStrut], _ placement: EdgePlacement = .belowPanels) -> Int {
            StrutLayout.panelInset(of: monitor, panels: panels, placement: placement, bannerHeight: 80)
        }
        #expect(inset(left, []) == 0)
        #expect(inset(left, [bar, tallBarOnTheRight]) == 30)
        #expect(inset(right, [bar, tallBarOnTheRight]) == 44)
        #expect(inset(right, [bar, acrossBoth]) == 20)
        // Struts count from the screen's edge: a bar on the monitor above reaches no lower one,
        // and a bar on the lower monitor is as deep as it reaches below that monitor's top.
        #expect(inset(lower, [bar]) == 0)
        #expect(inset(lower, [TopStrut(top: 830, startX: 0, endX: 1279)]) == 30)
        // Over the panels when asked, and never pushed off the monitor.
        #expect(inset(left, [bar], .screenEdge) == 0)
        #expect(inset(left, [TopStrut(top: 790, startX: 0, endX: 1279)]) == 720)
    }

    @Test func theBannerStartsRightOfALeftPanelAndEndsLeftOfARightOne() {
        let left = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let right = MonitorGeometry(x: 1280, y: 0, width: 1280, height: 800)
        let dockOnTheLeft = SideStrut(edge: .left, startX: 0, endX: 47, startY: 0, endY: 799)
        let dockOnTheRight = SideStrut(edge: .right, startX: 2496, endX: 2559, startY: 0, endY: 799)
        func sides(_ monitor: MonitorGeometry, _ panels: [SideStrut], inset: Int = 0, _ placement: EdgePlacement = .belowPanels) -> SideInsets {
            StrutLayout.sideInsets(of: monitor, panels: panels, placement: placement, panelInset: inset, bannerHeight: 80)
        }
        #expect(sides(left, []) == SideInsets())
        #expect(sides(left, [dockOnTheLeft, dockOnTheRight]) == SideInsets(left: 48, right: 0))
        #expect(sides(right, [dockOnTheLeft, dockOnTheRight]) == SideInsets(left: 0, right: 64))
        #expect(StrutLayout.bannerArea(on: right, panelInset: 30, sides: SideInsets(left: 0, right: 64))
            == MonitorGeometry(x: 1280, y: 30, width: 1216, height: 770))
        // Only a strut over the banner's rows counts: a panel that starts below it does not,
        // one whose top rows reach the banner's last row does.
        let lowDock = SideStrut(edge: .left, startX: 0, endX: 47, startY: 110, endY: 799)
        #expect(sides(left, [lowDock], inset: 30) == SideInsets())
        #expect(sides(left, [lowDock], inset: 31) == SideInsets(left: 48, right: 0))
        // A left panel as wide as the left monitor reaches into the right one's columns.
        #expect(sides(right, [SideStrut(edge: .left, startX: 0, endX: 1299, startY: 0, endY: 799)]) == SideInsets(left: 20, right: 0))
        // Over the panels when asked, and never narrower than half the monitor.
        #expect(sides(left, [dockOnTheLeft], .screenEdge) == SideInsets())
        let wide = SideStrut(edge: .left, startX: 0, endX: 899, startY: 0, endY: 799)
        let alsoWide = SideStrut(edge: .right, startX: 900, endX: 1279, startY: 0, endY: 799)
        #expect(sides(left, [wide, alsoWide]) == SideInsets(left: 640, right: 0))
        #expect(sides(left, [dockOnTheLeft, alsoWide]) == SideInsets(left: 48, right: 380))
    }

    @Test func theReservationKeepsToTheBannersColumns() {
        let monitor = MonitorGeometry(x: 1280, y: 0, width: 1280, height: 800)
        let strut = StrutLayout.topStrut(monitor: monitor, reservedHeight: 110, sides: SideInsets(left: 48, right: 64))
        #expect(strut == TopStrut(top: 110, startX: 1328, endX: 2495))
    }

    @Test func aDockTheWindowManagerKeepsElsewhereTakesTheBannerWithIt() {
        let lower = MonitorGeometry(x: 0, y: 800, width: 1280, height: 800)
        #expect(StrutLayout.dockInset(dockY: 800, on: lower, bannerHeight: 80) == 0)
        #expect(StrutLayout.dockInset(dockY: 850, on: lower, bannerHeight: 80) == 50)
        #expect(StrutLayout.dockInset(dockY: 10, on: lower, bannerHeight: 80) == 0)
        #expect(StrutLayout.dockInset(dockY: 1590, on: lower, bannerHeight: 80) == 720)
    }

    @Test func strutOfMonitorAtTheTopSpansItsColumns() {
        let monitor = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let strut = StrutLayout.topStrut(monitor: monitor, reservedHeight: 80)
        #expect(strut == TopStrut(top: 80, startX: 0, endX: 1279))
    }

    @Test func strutOfMonitorBelowAnotherIsInRootCoordinatesAndKeptToItsColumns() {
        let monitor = MonitorGeometry(x: 128, y: 800, width: 1024, height: 600)
        let strut = StrutLayout.topStrut(monitor: monitor, reservedHeight: 80)
        #expect(strut == TopStrut(top: 880, startX: 128, endX: 1151))
    }

    @Test func nothingReservedIsAnAllZeroStrut() {
        let monitor = MonitorGeometry(x: 128, y: 800, width: 1024, height: 600)
        let strut = StrutLayout.topStrut(monitor: monitor, reservedHeight: 0)
        #expect(strut.top == 0)
    }
}
