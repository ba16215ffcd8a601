// The EWMH strut properties as the banner writes its own and reads other clients' (panels,
// docks): the partial form's twelve cardinals and the legacy four, malformed ones ignored, and
// seeded random struts that never take the banner off its monitor.

@testable import BannerX11
import BannerCore
import BannerX11
import Glibc
import ProcessTestSupport
import Testing

private let iterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? 3000

@Suite("Strut properties")
struct StrutPropertiesTests {
    @Test func theBannersStrutIsWrittenInBothForms() {
        let reserved = TopStrut(top: 110, startX: 1328, endX: 2495)
        #expect(reserved.partial == [0, 0, 110, 0, 0, 0, 0, 0, 1328, 2495, 0, 0])
        #expect(reserved.legacy == [0, 0, 110, 0])
        let none = StrutLayout.topStrut(monitor: MonitorGeometry(x: 128, y: 800, width: 1024, height: 600), reservedHeight: 0)
        #expect(none.partial == Array(repeating: 0, count: 12))
        #expect(none.legacy == [0, 0, 0, 0])
    }

    @Test func otherClientsSideStrutsAreReadAsEWMHSays() {
        // left, right, top, bottom, left_start_y, left_end_y, right_start_y, right_end_y, …
        let partial = [48, 64, 0, 0, 24, 799, 100, 699, 0, 0, 0, 0]
        #expect(SideStrut.struts(partial: partial, legacy: [10, 10, 0, 0], screenWidth: 1280, screenHeight: 800) == [
            SideStrut(edge: .left, startX: 0, endX: 47, startY: 24, endY: 799),
            SideStrut(edge: .right, startX: 1216, endX: 1279, startY: 100, endY: 699),
        ])
        // The legacy form spans the screen's height.
        #expect(SideStrut.struts(partial: nil, legacy: [0, 64, 0, 0], screenWidth: 1280, screenHeight: 800)
            == [SideStrut(edge: .right, startX: 1216, endX: 1279, startY: 0, endY: 799)])
        // A top-only strut, nothing, a range upside down, a strut wider than the screen: no side panel.
        #expect(SideStrut.struts(partial: [0, 0, 30, 0, 0, 0, 0, 0, 0, 1279, 0, 0], legacy: nil, screenWidth: 1280, screenHeight: 800).isEmpty)
        #expect(SideStrut.struts(partial: nil, legacy: nil, screenWidth: 1280, screenHeight: 800).isEmpty)
        #expect(SideStrut.struts(partial: [48, 0, 0, 0, 799, 0, 0, 0, 0, 0, 0, 0], legacy: nil, screenWidth: 1280, screenHeight: 800).isEmpty)
        #expect(SideStrut.struts(partial: nil, legacy: [5000, 0, 0, 0], screenWidth: 1280, screenHeight: 800).isEmpty)
    }

    @Test func otherClientsStrutsAreReadAsEWMHSays() {
        // The partial form wins and keeps to its columns; the legacy one spans the screen.
        #expect(TopStrut(partial: [0, 0, 30, 0, 0, 0, 0, 0, 100, 899, 0, 0], legacy: [0, 0, 50, 0], screenWidth: 1280)
            == TopStrut(top: 30, startX: 100, endX: 899))
        #expect(TopStrut(partial: nil, legacy: [0, 0, 24, 0], screenWidth: 1280) == TopStrut(top: 24, startX: 0, endX: 1279))
        // Nothing at the top (a left or bottom panel), nothing at all, malformed values: no panel.
        #expect(TopStrut(partial: [40, 0, 0, 0, 0, 799, 0, 0, 0, 0, 0, 0], legacy: nil, screenWidth: 1280) == nil)
        #expect(TopStrut(partial: nil, legacy: nil, screenWidth: 1280) == nil)
        #expect(TopStrut(partial: [0, 0, 30], legacy: [0, 0], screenWidth: 1280) == nil)
        #expect(TopStrut(partial: [0, 0, 30, 0, 0, 0, 0, 0, 900, 100, 0, 0], legacy: nil, screenWidth: 1280) == nil)
    }
}

@Suite("Fuzz: other clients' struts")
struct StrutFuzzTests {
    /// Any client may set any strut: whatever it says, the banner keeps at least half its
    /// monitor's width and stays on it, and its own reservation keeps to its columns.
    @Test func anyStrutLeavesTheBannerOnItsMonitor() {
        var random = SplitMix64(seed: 22)
        let values = [0, 1, 24, 47, 48, 639, 640, 799, 800, 1279, 1280, 1281, 2560, 65535, 0xFFFF_FFFF]
        let monitors = [
            MonitorGeometry(x: 0, y: 0, width: 1280, height: 800), MonitorGeometry(x: 640, y: 0, width: 640, height: 800),
            MonitorGeometry(x: 128, y: 800, width: 1024, height: 600),
        ]
        for _ in 0..<iterations {
            func strut() -> [Int] {
                (0..<Int.random(in: 0...13, using: &random)).map { _ in
                    Bool.random(using: &random) ? values.randomElement(using: &random) ?? 0 : Int.random(in: 0...0xFFFF_FFFF, using: &random)
                }
            }
            let partial = Bool.random(using: &random) ? strut() : nil
            let legacy = Bool.random(using: &random) ? strut() : nil
            let sides = SideStrut.struts(partial: partial, legacy: legacy, screenWidth: 1280, screenHeight: 1400)
            let top = TopStrut(partial: partial, legacy: legacy, screenWidth: 1280)
            for monitor in monitors {
                let inset = StrutLayout.panelInset(of: monitor, panels: top.map { [$0] } ?? [], placement: .belowPanels, bannerHeight: 80)
                let insets = StrutLayout.sideInsets(of: monitor, panels: sides, placement: .belowPanels, panelInset: inset, bannerHeight: 80)
                let area = StrutLayout.bannerArea(on: monitor, panelInset: inset, sides: insets)
                #expect(insets.left >= 0 && insets.right >= 0, "\(String(describing: partial)) \(String(describing: legacy))")
                #expect(area.x >= monitor.x && area.x + area.width <= monitor.x + monitor.width && area.width >= monitor.width / 2)
                let reserved = StrutLayout.topStrut(monitor: monitor, reservedHeight: inset + 80, sides: insets)
                #expect(reserved.startX == area.x && reserved.endX == area.x + area.width - 1)
            }
        }
    }
}
