// One process may open and close banner displays again and again (a daemon reconnecting, these
// tests): nothing a closed display leaves behind in Xlib's extension libraries may reach the
// next one.

import BannerCore
import BannerX11
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Display lifecycle")
    struct DisplayLifecycleTests {
        @Test func displaysOpenedOneAfterAnotherAllDraw() throws {
            let desktop = try TestDesktop(windowManager: .none)
            defer { desktop.stop() }
            let observer = try XObserver(displayName: desktop.displayName)
            defer { observer.close() }
            // Closing a display whose fonts Xft still cached left a stale Render record for its
            // address; the next display malloc placed there sent garbage requests. A handful of
            // rounds lands on a reused address.
            for round in 0..<6 {
                let display = try X11Display(name: desktop.displayName)
                let host = display.primaryHost
                host.compactPolicy = .never
                try host.presentTopBanner { $0.title("Round \(round)").backgroundColor(.systemRed) }
                #expect(display.runUntilIdle(), "round \(round)")
                // The loop only flushes the last frame: the server shows it in its own time.
                func corner() -> Pixel? { observer.screenshot(Rect(x: 2, y: 2, width: 1, height: 1))?.pixel(x: 2, y: 2) }
                #expect(observer.wait { corner() == Pixel(hex: 0xFF3B30) }, "round \(round): \(String(describing: corner()))")
                #expect(display.protocolErrorCount == 0, "round \(round)")
                display.close()
            }
        }
    }
}
