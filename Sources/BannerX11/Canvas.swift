// The drawing layer, in the spirit of dmenu's drw.c: the banner asks for "fill", "text",
// "present"; this file owns the back-buffer pixmap and its XftDraw and knows about
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

    /// Draws `text` from `x` with its baseline at `baseline`, blended over what is there with
    /// `colour`'s alpha: one `XftDrawStringUtf8` per run of `font`'s stack, each run starting
    /// where the previous one's advance ends.
    func text(_ text: String, font: FontStack, colour: RGBA, x: Int, baseline: Int) {
        guard !text.isEmpty, colour.alpha > 0 else { return }
        connection.withXftColour(colour) { xft in
            var penX = x
            for run in font.runs(of: text) {
                let bytes = Array(run.text.utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    XftDrawStringUtf8(draw, xft, run.font.handle, Int32(penX), Int32(baseline), buffer.baseAddress, Int32(buffer.count))
                }
                penX += run.font.width(of: run.text)
            }
        }
    }

    /// Makes the buffer the window's background (so exposures repaint from it without a round
    /// trip) and copies it onto the window now.
    func present(to window: Window) {
        XSetWindowBackgroundPixmap(connection.display, window, pixmap)
        let gc = XCreateGC(connection.display, window, 0, nil)
        XCopyArea(connection.display, pixmap, window, gc, 0, 0, UInt32(width), UInt32(height), 0, 0)
        XFreeGC(connection.display, gc)
    }

    func release() {
        XftDrawDestroy(draw)
        XFreePixmap(connection.display, pixmap)
    }
}
