// What every Wayland suite shares: a headless sway (WaylandTestSupport), this process's own
// connection to it, and a way to serve that connection while waiting for something a user would
// see (a window's rectangle, a frame on screen). The suites run one at a time: each sway renders
// in software on a small machine.

import BannerCore
import BannerPixman
@testable import BannerWayland
import CWayland
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport

@Suite(.serialized, .needsProgram("/usr/bin/sway", package: "sway"))
struct BannerWaylandTests {}

/// A sway and a connection of this process's to it.
final class Fixture {
    let sway: TestSway
    let connection: WaylandConnection

    init(scale: Double = 1, extraConfig: String = "") throws {
        sway = try TestSway(scale: scale, extraConfig: extraConfig)
        connection = try WaylandConnection(displayName: sway.socketPath)
    }

    init(sway: TestSway, connection: WaylandConnection) {
        self.sway = sway
        self.connection = connection
    }

    /// Serves the connection until `condition` holds, checking it between events and every 20 ms
    /// (for what only sway's IPC can tell), for at most `timeout` seconds.
    @discardableResult
    func serve(timeout: Double = 10, until condition: () throws -> Bool) throws -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if try condition() { return true }
            try connection.dispatch(until: { false }, timeout: 0.02)
        }
        return try condition()
    }

    /// Takes screenshots, serving the connection between them, until one satisfies `isWanted`
    /// or `timeout` seconds pass; the last one taken.
    func awaitScreenshot(timeout: Double = 10, _ isWanted: (Screenshot) -> Bool) throws -> Screenshot {
        var shot = try sway.screenshot()
        _ = try serve(timeout: timeout) {
            shot = try sway.screenshot()
            return isWanted(shot)
        }
        return shot
    }

    /// Draws frames on `surface` with `draw` until `count` of them reached the screen: a frame
    /// counts once the compositor has asked for the one after it (its frame callback), which it
    /// does after showing it.
    func present(_ count: Int, on surface: LayerSurface, draw: @escaping (PixmanCanvas, Int) -> Void) throws {
        var drawn = 0
        func next() {
            surface.requestFrame { canvas in
                draw(canvas, min(drawn, count - 1))
                drawn += 1
                if drawn <= count { next() }
            }
        }
        next()
        let shown = try serve { drawn > count }
        #expect(shown, "\(drawn) of \(count) frames shown")
    }
}

/// A FreeType face of a font file, at `pixelSize` (or its first bitmap strike for a font
/// without outlines, such as Noto Color Emoji).
final class TestFace {
    private var library: FT_Library?
    let face: FT_Face

    init(path: String, pixelSize: UInt32) throws {
        guard FT_Init_FreeType(&library) == 0 else { throw TestFailure("FT_Init_FreeType failed") }
        var made: FT_Face?
        guard FT_New_Face(library, path, 0, &made) == 0, let made else { throw TestFailure("cannot open \(path)") }
        face = made
        if FT_Set_Pixel_Sizes(face, 0, pixelSize) != 0 {
            _ = FT_Select_Size(face, 0)
        }
    }

    /// The glyph of `character` in the face's character map.
    func glyph(_ character: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(character.value))
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }
}
