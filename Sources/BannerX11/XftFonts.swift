// The X11 backend's fonts: BannerRuntime's font stacks open each matched font with Xft, which
// draws it (Canvas.text); HarfBuzz shapes with the FreeType face Xft opened.

import BannerRuntime
import CText
import CX11

/// Opens fonts with Xft on one connection.
final class XftFontOpener: FontOpener {
    private unowned let connection: XConnection

    init(connection: XConnection) { self.connection = connection }

    func substituteDefaults(_ request: OpaquePointer) {
        XftDefaultSubstitute(connection.display, connection.screen, request)
    }

    func open(_ pattern: OpaquePointer) -> (any OpenFont)? {
        // XftFontOpenPattern owns `pattern` from here on, on success.
        guard let handle = XftFontOpenPattern(connection.display, pattern) else { return nil }
        return XftOpenFont(handle: handle, connection: connection)
    }

    /// Xft keeps closed fonts in a cache and destroys what is left there from its own
    /// XCloseDisplay hook, which runs after libXrender's. Freeing their glyph sets at that point
    /// registers the dying display with libXrender again, and a display opened later at the same
    /// address inherits that stale record: its Render requests go out with an opcode read from
    /// freed memory (hung replies, "extra reply data" aborts, nothing drawn). With the cache
    /// turned off, each font dies as it is closed, while Render's record of the display is sound.
    func willCloseAll() {
        guard let noCache = FcPatternCreate() else { return }
        FcPatternAddInteger(noCache, XFT_MAX_UNREF_FONTS, 0)
        // Xft owns the pattern from here on. It replaces the display's Xft defaults, which
        // nothing reads again once the fonts are gone.
        XftDefaultSet(connection.display, noCache)
    }
}

/// An open Xft font.
final class XftOpenFont: OpenFont {
    let handle: UnsafeMutablePointer<XftFont>
    private unowned let connection: XConnection

    init(handle: UnsafeMutablePointer<XftFont>, connection: XConnection) {
        self.handle = handle
        self.connection = connection
    }

    var pattern: OpaquePointer { handle.pointee.pattern }
    var ascent: Int { Int(handle.pointee.ascent) }
    var descent: Int { Int(handle.pointee.descent) }

    func withFace<Result>(_ body: (FT_Face) -> Result) -> Result? {
        guard let face = XftLockFace(handle) else { return nil }
        defer { XftUnlockFace(handle) }
        return body(face)
    }

    func close() {
        XftFontClose(connection.display, handle)
    }
}

extension PlacedGlyph {
    /// The Xft font that draws the glyph (every font of an X11 display's stacks is one).
    var xftFont: UnsafeMutablePointer<XftFont>? { (font.opened as? XftOpenFont)?.handle }
}
