// One banner, two display servers: the same `window-banner show` on an X display (Xvfb +
// openbox, drawn with Xft) and on a Wayland compositor (headless sway, drawn with FreeType and
// pixman) gives the same picture — the same layout, the same shaped glyphs in the same places
// (Latin, Arabic, an emoji) — within a small tolerance for the two rasterisers' anti-aliasing.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("The same banner on X11 and Wayland", .serialized, .needsProgram("/usr/bin/sway", package: "sway"), .needsProgram("/usr/bin/foot", package: "foot"))
struct BackendParityTests {
    static let height = 64
    static let background = 0x1F6FEB
    static let arguments = [
        "show", "--title", "No Internet Connection — لا يوجد اتصال 📡", "--subtitle", "Reconnecting…",
        "--background", "#1f6feb", "--height", "\(height)", "--compact", "never",
    ]

    @Test func bothBackendsDrawTheSamePixels() throws {
        let width = 1280
        // X11.
        let owner = try OwnerFixture()
        try owner.show(Array(Self.arguments.dropFirst()))
        try #require(owner.fixture.waitForBanner(height: Self.height), "the X11 banner never came fully in")
        let x11 = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: width, height: Self.height)))

        // Wayland.
        let session = try WaylandCLITests.Session()
        let shown = try session.run(Self.arguments)
        try #require(shown.status == 0, "show on sway: \(shown.error)")
        // Fully in once its bottom row shows (the rows below a sliding banner are transparent).
        let wayland = try session.sway.awaitScreenshot { $0.pixel(640, Self.height - 1) == UInt32(Self.background) }
        try #require(wayland.pixel(640, Self.height - 1) == UInt32(Self.background), "the Wayland banner never came fully in")

        var differing = 0
        var total = 0
        var inked = 0
        for y in 0..<Self.height {
            for x in 0..<width {
                let a = x11.pixel(x: x, y: y)
                let packed = wayland.pixel(x, y)
                let b = Pixel(red: Int(packed >> 16 & 0xFF), green: Int(packed >> 8 & 0xFF), blue: Int(packed & 0xFF))
                let distance = a.distance(to: b)
                total += distance
                if distance > 96 { differing += 1 }
                if a.distance(to: Pixel(hex: Self.background)) > 96 { inked += 1 }
            }
        }
        let pixels = width * Self.height
        // Text was drawn (the comparison is not of two empty banners), and nearly every pixel
        // agrees: the glyphs are in the same places; only anti-aliased edges differ a little.
        #expect(inked > 1500, "\(inked) text pixels on X11")
        // Measured: 80,831 of 81,920 pixels identical, 8 differing by more than 96, mean 0.19.
        #expect(differing * 100 < inked * 2, "\(differing) of \(inked) text pixels differ by more than 96")
        #expect(Double(total) / Double(pixels) < 1, "mean difference \(Double(total) / Double(pixels)) per pixel")
    }
}
