// KDE Plasma 6 at the scales it picks for a laptop (issue 54): KWin's one 1920×1080 output at
// 1.25, 1.5 and 2 (set with kscreen-doctor, as Plasma's display settings do), drawn into an Xvfb
// at its own pixels, Plasma's panel at the bottom and a maximized foot. The banner must reserve a
// whole number of logical and device pixels (compact 18 pt: 20 logical, 25 device pixels at 1.25;
// 18 and 27 at 1.5; 18 and 36 at 2), which KWin's
// maximize area and foot's frame show, and be drawn at the output's pixels, its text as sharp
// as on sway (FractionalScaleTests): KWin shows a buffer with a viewport one to one when its
// size is the surface's times the scale.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

extension PlasmaTests {
    @Test(arguments: ["trixie", "sid"], [1.25, 1.5, 2])
    func atAFractionalScaleTheBannerIsSharpAndTakesWholePixels(suite: String, scale: Double) throws {
        let session = try Session(Setup(suite: suite, panelAtTop: false), showingPixels: true, scale: scale)
        let before = session.area
        let expected = try #require(FractionalScaleTests.compact[scale])
        #expect(try session.run(FractionalScaleTests.show).status == 0)
        let reserved = SwayRect(x: before.x, y: before.y + expected.logical, width: before.width, height: before.height - expected.logical)
        #expect(try session.plasma.awaitMaximizeArea { $0 == reserved } == reserved)
        #expect(try Session.await(session.plasma) { $0.y == reserved.y }.height == session.frame.height - expected.logical)

        let white = Pixel(hex: 0xFFFFFF)
        func whiteRows(_ shot: X11TestSupport.Screenshot) -> [Int] { (0..<100).filter { shot.pixel(x: 200, y: $0) == white } }
        let shot = try session.awaitScreenshot(rows: 100) { whiteRows($0) == Array(0..<expected.pixels) && Self.sharpness($0, rows: expected.pixels).dark > 0 }
        #expect(whiteRows(shot) == Array(0..<expected.pixels), "the banner's rows: \(whiteRows(shot))")
        let measured = Self.sharpness(shot, rows: expected.pixels)
        #expect(measured.share >= FractionalScaleTests.sharp, "the title is soft: \(measured.share) of its \(measured.dark) dark pixels are black")

        #expect(try session.run(["dismiss"]).status == 0)
        #expect(try session.plasma.awaitMaximizeArea { $0 == before } == before)
    }

    /// Of the dark pixels in the top `rows` rows of `shot`, the share that is pure black.
    static func sharpness(_ shot: X11TestSupport.Screenshot, rows: Int) -> (share: Double, dark: Int) {
        var dark = 0
        var pure = 0
        for y in 0..<rows {
            for x in 0..<shot.area.width {
                let pixel = shot.pixel(x: x, y: y)
                guard max(pixel.red, pixel.green, pixel.blue) < 128 else { continue }
                dark += 1
                if pixel == Pixel(hex: 0) { pure += 1 }
            }
        }
        return (dark == 0 ? 0 : Double(pure) / Double(dark), dark)
    }
}
