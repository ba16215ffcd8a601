// The Wayland Swift example of docs/library.md, line for line (DocumentedExamplesTests in
// WindowBannerCLITests checks that it is still the same), compiled and run on a headless sway:
// the documentation's `WaylandDisplay()` opens $WAYLAND_DISPLAY, this one the test's sway.

import BannerCore
@testable import BannerWayland
import Testing
import WaylandTestSupport

extension BannerWaylandTests {
    @Suite("Documented Wayland example")
    struct DocumentedWaylandExamples {
        @Test func libraryExample() throws {
            let sway = try TestSway()
            try library(sway.socketPath)
        }

        private func library(_ socketPath: String) throws {
            let display = try WaylandDisplay(name: socketPath)       // $WAYLAND_DISPLAY; one WaylandHost per output
            if let host = display.preferredHost {    // the first output, or display.hosts(named: "DP-2")
                try host.presentTopBanner { config in
                    config.title("Call in progress").backgroundColor(.systemGreen)
                }
                display.runUntilIdle()               // the slide-in, paced by the compositor's frame callbacks
                print(host.reservedHeight)           // the exclusive zone, in logical pixels
                host.dismissTopBanner()
                display.runUntilIdle()               // the zone is given back: windows move up once
            }
            #expect(display.preferredHost?.reservedHeight == 0)
            #expect(display.preferredHost?.isBannerPresented == false)
        }
    }
}
