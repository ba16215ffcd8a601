// The Swift examples of README.md and docs/library.md, line for line (DocumentedExamplesTests in
// WindowBannerCLITests checks that they are still the same), compiled and run against a private
// desktop: the documentation's `X11Display()` opens $DISPLAY, these open the test's display.

import BannerCore
import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Documented Swift examples")
    struct DocumentedSwiftExamples {
        @Test func readmeExample() throws {
            let desktop = try TestDesktop()
            defer { desktop.stop() }
            try readme(desktop.displayName)
        }

        private func readme(_ displayName: String) throws {
            let display = try X11Display(name: displayName)        // $DISPLAY; one X11Host per RandR monitor
            let host = display.primaryHost

            try host.presentTopBanner { config in    // unset fields come from the defaults
                config.title("Network Connection Lost")
                      .backgroundColor(.systemRed)
                      .textColor(.white)
            }
            display.runUntilIdle()                   // serve the slide-in (0.25 s, ease-out)

            try host.presentTopBanner { config in    // presenting again updates in place: 0.2 s cross-fade
                config.title("Back Online").backgroundColor(.systemTeal)
            }
            display.runUntilIdle()
            host.dismissTopBanner()                  // slides out; the work area comes back
            display.runUntilIdle()
            #expect(!host.isBannerPresented)
            display.close()
        }

        @Test func libraryExample() throws {
            let desktop = try TestDesktop()
            defer { desktop.stop() }
            var restored = false
            try library(desktop.displayName) { restored = true }
            #expect(!restored, "nobody clicked Undo")
        }

        private func library(_ displayName: String, _ restoreMessage: @escaping () -> Void) throws {
            let display = try X11Display(name: displayName)        // $DISPLAY; one X11Host per RandR monitor
            let host = display.primaryHost           // or display.host(named: "HDMI-1")

            try host.presentTopBanner { config in    // unset fields come from the defaults
                config.title("Network Connection Lost")
                      .backgroundColor(.systemRed)
                      .textColor(.white)
            }
            display.runUntilIdle()                   // serve the slide-in (0.25 s, ease-out)
            print(host.isBannerPresented)            // true

            display.loop.run(timeout: 3)             // the banner's event loop: X events, frames, your timers

            try host.presentTopBanner { config in    // presenting again updates in place: 0.2 s cross-fade
                config.title("Back Online").subtitle("via wlan0").backgroundColor(.systemTeal)
            }
            display.loop.run(timeout: 2)
            host.dismissTopBanner()                  // slides out (ease-in); the work area comes back
            display.runUntilIdle()

            // The user's side: buttons, a progress bar, and why the banner went.
            host.onDismiss = { reason in             // .clicked, .closed (the ✕), .swiped, .action, .secondaryAction
                if reason == .action { restoreMessage() }
            }
            host.onMilestone = { milestone in        // .presentationFinished, .dismissalFinished
                if milestone == .dismissalFinished { print("gone, space given back") }
            }
            try host.presentTopBanner { $0.title("Message deleted").closeButton().action("Undo") }
            try host.presentTopBanner { config in    // two actions, each with a handler called before onDismiss
                config.title("Incoming call").action("Join") { print("joining") }.secondaryAction("Decline") { print("declined") }
            }
            try host.presentTopBanner { $0.title("Uploading").progress(0.25) }
            try host.presentTopBanner { $0.title("Uploading").progress(0.6) }   // the bar moves, no cross-fade

            // An icon (a PNG file, or a name in the icon theme) and rounded bottom corners.
            display.onWarning = { print("warning:", $0) }  // an icon that cannot be read: the banner shows without it
            try host.presentTopBanner { $0.title("Offline").icon(.named("network-offline")).cornerRadius(12) }
            try host.presentTopBanner { $0.title("Saved").icon(.file("/usr/share/pixmaps/backup.png")) }
            display.runUntilIdle()
            #expect(host.isBannerPresented)
            host.dismissTopBanner()
            display.runUntilIdle()
            display.close()
        }
    }
}
