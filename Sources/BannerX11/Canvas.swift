// The drawing layer, in the spirit of dmenu's drw.c: the banner asks for "fill", "text",
// "image", "present"; this file owns the back-buffer pixmap and its XftDraw and knows about
// XRenderColor's premultiplied alpha and XRender's compositing operators so nobody else has to.

import CX11
import BannerCore

/// A back buffer the size of the banner. Every frame is drawn here completely, then copied to
/// the window in one request, so the window never shows a half-drawn frame.
final class Canvas {
    private unowned let connection: XConnection
    private(set) var pixmap: Pixmap
    private var draw: OpaquePointer
    private(set) var width: Int
    private(set) var height: Int

    init(connection: XConnection, width: Int, height: Int) {
        self.connection = connection
        self.width = width
        self.height = height
        pixmap = XCreatePixmap(connection.display, connection.root, UInt32(width), UInt32(height), UInt32(connection.depth))
        draw = XftDrawCreate(connection.display, pixmap, connection.visual, connection.colormap)
    }

    /// Gives the buffer a new size; its contents are undefined until the next frame is drawn.
    func resize(width newWidth: Int, height newHeight: Int) {
        guard newWidth != width || newHeight != height else { return }
        release()
        width = newWidth
        height = newHeight
        pixmap = XCreatePixmap(connection.display, connection.root, UInt32(width), UInt32(height), UInt32(connection.depth))
        draw = XftDrawCreate(connection.display, pixmap, connection.visual, connection.colormap)
    }

    /// Paints the whole buffer with `colour` (opaque; a window without a compositor has no alpha).
    func fill(_ colour: RGBA) {
        var opaque = colour
        opaque.alpha = 1
        connection.withXftColour(opaque) { xft in
            XftDrawRect(draw, xft, 0, 0, UInt32(width), UInt32(height))
        }
    }

    /// Paints `rect` with `colour` blended over what is there by its alpha (XRender's Over;
    /// `XftDrawRect` would replace the pixels instead).
    func fill(_ rect: PixelRect, with colour: RGBA) {
        guard rect.width > 0, rect.height > 0, colour.alpha > 0 else { return }
        let picture = XftDrawPicture(draw)
        connection.withXftColour(colour) { xft in
            XRenderFillRectangle(connection.display, PictOpOver, picture, &xft.pointee.color,
                                 Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
        }
    }

    /// Draws `line` from `x` with its baseline at `baseline`, blended over what is there with
    /// `colour`'s alpha: all its glyphs, each in its own font, in one `XftDrawGlyphFontSpec`.
    /// Colour glyphs (emoji) keep their own colours.
    func text(_ line: ShapedLine, colour: RGBA, x: Int, baseline: Int) {
        guard !line.glyphs.isEmpty, colour.alpha > 0 else { return }
        var specs = line.glyphs.map { glyph in
            XftGlyphFontSpec(font: glyph.font, glyph: FT_UInt(glyph.glyph), x: Int16(clamping: x + glyph.x), y: Int16(clamping: baseline + glyph.y))
        }
        connection.withXftColour(colour) { xft in
            XftDrawGlyphFontSpec(draw, xft, &specs, Int32(specs.count))
        }
    }

    /// Composites `image` (premultiplied ARGB) with its top-left corner at (`x`, `y`), blended
    /// over what is there by its alpha times `opacity` (XRender's Over through a solid mask).
    /// The pixels go to the server in a 32-bit pixmap made for this call and freed after it.
    func image(_ image: IconBitmap, x: Int, y: Int, opacity: Double) {
        guard image.width > 0, image.height > 0, opacity > 0,
              let format = XRenderFindStandardFormat(connection.display, Int32(PictStandardARGB32)) else { return }
        let display = connection.display
        let pixmap = XCreatePixmap(display, connection.root, UInt32(image.width), UInt32(image.height), 32)
        defer { XFreePixmap(display, pixmap) }
        // Little-endian bytes, declared as such, so the server reads 0xAARRGGBB on any host.
        var bytes = [UInt8](repeating: 0, count: image.pixels.count * 4)
        for (index, pixel) in image.pixels.enumerated() {
            bytes[index * 4] = UInt8(pixel & 0xFF)
            bytes[index * 4 + 1] = UInt8(pixel >> 8 & 0xFF)
            bytes[index * 4 + 2] = UInt8(pixel >> 16 & 0xFF)
            bytes[index * 4 + 3] = UInt8(pixel >> 24)
        }
        bytes.withUnsafeMutableBytes { buffer in
            guard let upload = XCreateImage(
                display, connection.visual, 32, ZPixmap, 0, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                UInt32(image.width), UInt32(image.height), 32, Int32(image.width * 4)
            ) else { return }
            upload.pointee.byte_order = LSBFirst
            let gc = XCreateGC(display, pixmap, 0, nil)
            XPutImage(display, pixmap, gc, upload, 0, 0, 0, 0, UInt32(image.width), UInt32(image.height))
            XFreeGC(display, gc)
            // The pixels are Swift's: XDestroyImage must free only the XImage itself.
            upload.pointee.data = nil
            _ = wb_XDestroyImage(upload)
        }
        let source = XRenderCreatePicture(display, pixmap, format, 0, nil)
        defer { XRenderFreePicture(display, source) }
        var mask = Picture(None)
        if opacity < 1 {
            var alpha = XRenderColor(red: 0, green: 0, blue: 0, alpha: UInt16((min(opacity, 1) * 65535).rounded()))
            mask = XRenderCreateSolidFill(display, &alpha)
        }
        defer { if mask != Picture(None) { XRenderFreePicture(display, mask) } }
        XRenderComposite(display, PictOpOver, source, mask, XftDrawPicture(draw), 0, 0, 0, 0,
                         Int32(x), Int32(y), UInt32(image.width), UInt32(image.height))
    }

    /// Makes the buffer the window's background (so exposures repaint from it without a round
    /// trip) and has the server paint the window with it now: two requests, no GC. Set again
    /// every time, as X leaves undefined whether drawing into a pixmap after it became a
    /// background shows.
    func present(to window: Window) {
        XSetWindowBackgroundPixmap(connection.display, window, pixmap)
        XClearArea(connection.display, window, 0, 0, 0, 0, 0)
    }

    func release() {
        XftDrawDestroy(draw)
        XFreePixmap(connection.display, pixmap)
    }
}
