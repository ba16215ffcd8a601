// The drawing layer, in the spirit of dmenu's drw.c: the banner asks for "fill", "text",
// "image", "present"; this file owns the back-buffer pixmap and its XftDraw and knows about
// XRenderColor's premultiplied alpha and XRender's compositing operators so nobody else has to.

import CX11
import BannerCore
import BannerRuntime

/// A back buffer the size of the banner. Every frame is drawn here completely, then copied to
/// the window in one request, so the window never shows a half-drawn frame.
final class Canvas: BannerCanvas {
    private unowned let connection: XConnection
    /// Opaque, or ARGB while a compositor runs: then fills keep their alpha and the bottom
    /// corners are cut with anti-aliased edges.
    let surface: Surface
    private(set) var pixmap: Pixmap
    private var draw: OpaquePointer
    private(set) var width: Int
    private(set) var height: Int
    /// The A8 masks that cut the bottom corners on an ARGB surface, for one radius.
    private var cornerMasks: (radius: Int, left: Picture, right: Picture)?

    init(connection: XConnection, surface: Surface, width: Int, height: Int) {
        self.connection = connection
        self.surface = surface
        self.width = width
        self.height = height
        pixmap = XCreatePixmap(connection.display, connection.root, UInt32(width), UInt32(height), UInt32(surface.depth))
        draw = XftDrawCreate(connection.display, pixmap, surface.visual, surface.colormap)
    }

    /// Gives the buffer a new size; its contents are undefined until the next frame is drawn.
    func resize(width newWidth: Int, height newHeight: Int) {
        guard newWidth != width || newHeight != height else { return }
        release()
        width = newWidth
        height = newHeight
        pixmap = XCreatePixmap(connection.display, connection.root, UInt32(width), UInt32(height), UInt32(surface.depth))
        draw = XftDrawCreate(connection.display, pixmap, surface.visual, surface.colormap)
    }

    /// Paints the whole buffer with `colour`, replacing what is there: opaque on an opaque
    /// surface (a window without a compositor has no alpha), with its alpha on an ARGB one.
    func fill(_ colour: RGBA) {
        var shown = colour
        if !surface.hasAlpha { shown.alpha = 1 }
        connection.withXftColour(shown, on: surface) { xft in
            XftDrawRect(draw, xft, 0, 0, UInt32(width), UInt32(height))
        }
    }

    /// On an ARGB surface, makes the bottom corners round: every pixel of the two corner squares
    /// is scaled by how much of it lies inside the outline (`BannerLayout.cornerCoverage`), with
    /// XRender's OutReverse through an A8 mask of what lies outside. Nothing on an opaque surface
    /// (its window's shape cuts the corners).
    func roundBottomCorners(radius: Int) {
        guard surface.hasAlpha, radius > 0, radius <= width / 2, radius <= height else { return }
        let masks = cornerMasks(radius: radius)
        let picture = XftDrawPicture(draw)
        let side = UInt32(radius)
        XRenderComposite(connection.display, PictOpOutReverse, masks.left, Picture(None), picture, 0, 0, 0, 0,
                         0, Int32(height - radius), side, side)
        XRenderComposite(connection.display, PictOpOutReverse, masks.right, Picture(None), picture, 0, 0, 0, 0,
                         Int32(width - radius), Int32(height - radius), side, side)
    }

    /// The left and right corners' masks for `radius` (alpha = the share of each pixel outside
    /// the outline), uploaded once per radius.
    private func cornerMasks(radius: Int) -> (left: Picture, right: Picture) {
        if let masks = cornerMasks, masks.radius == radius { return (masks.left, masks.right) }
        releaseCornerMasks()
        let inside = BannerLayout.cornerCoverage(radius: radius)
        let left = inside.map { 255 - $0 }
        let right = (0..<radius).flatMap { row in left[row * radius..<(row + 1) * radius].reversed() }
        let masks = (radius: radius, left: alphaPicture(left, side: radius), right: alphaPicture(right, side: radius))
        cornerMasks = masks
        return (masks.left, masks.right)
    }

    /// An A8 picture `side` px square holding `alpha`, row by row.
    private func alphaPicture(_ alpha: [UInt8], side: Int) -> Picture {
        let display = connection.display
        let pixmap = XCreatePixmap(display, connection.root, UInt32(side), UInt32(side), 8)
        defer { XFreePixmap(display, pixmap) }
        // Rows padded to 4 bytes, as XPutImage's ZPixmap wants them here.
        let stride = (side + 3) & ~3
        var bytes = [UInt8](repeating: 0, count: stride * side)
        for row in 0..<side {
            for column in 0..<side { bytes[row * stride + column] = alpha[row * side + column] }
        }
        bytes.withUnsafeMutableBytes { buffer in
            guard let upload = XCreateImage(
                display, surface.visual, 8, ZPixmap, 0, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                UInt32(side), UInt32(side), 32, Int32(stride)
            ) else { return }
            let gc = XCreateGC(display, pixmap, 0, nil)
            XPutImage(display, pixmap, gc, upload, 0, 0, 0, 0, UInt32(side), UInt32(side))
            XFreeGC(display, gc)
            upload.pointee.data = nil
            _ = wb_XDestroyImage(upload)
        }
        return XRenderCreatePicture(display, pixmap, XRenderFindStandardFormat(display, Int32(PictStandardA8)), 0, nil)
    }

    private func releaseCornerMasks() {
        guard let masks = cornerMasks else { return }
        XRenderFreePicture(connection.display, masks.left)
        XRenderFreePicture(connection.display, masks.right)
        cornerMasks = nil
    }

    /// Paints `rect` with `colour` blended over what is there by its alpha (XRender's Over;
    /// `XftDrawRect` would replace the pixels instead).
    func fill(_ rect: PixelRect, with colour: RGBA) {
        guard rect.width > 0, rect.height > 0, colour.alpha > 0 else { return }
        let picture = XftDrawPicture(draw)
        connection.withXftColour(colour, on: surface) { xft in
            XRenderFillRectangle(connection.display, PictOpOver, picture, &xft.pointee.color,
                                 Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
        }
    }

    /// Draws `line` from `x` with its baseline at `baseline`, blended over what is there with
    /// `colour`'s alpha: all its glyphs, each in its own font, in one `XftDrawGlyphFontSpec`.
    /// Colour glyphs (emoji) keep their own colours; Xft draws them ignoring the text colour's
    /// alpha, so while text fades they go through a transparent buffer composited at that alpha.
    func text(_ line: ShapedLine, colour: RGBA, x: Int, baseline: Int) {
        guard !line.glyphs.isEmpty, colour.alpha > 0 else { return }
        let fading = colour.alpha < 1 && line.hasColourGlyphs
        var drawn = Self.specs(fading ? line.glyphs.filter { !line.isColour($0) } : line.glyphs, x: x, baseline: baseline)
        if !drawn.isEmpty {
            connection.withXftColour(colour, on: surface) { xft in
                XftDrawGlyphFontSpec(draw, xft, &drawn, Int32(drawn.count))
            }
        }
        if fading { fadedColourGlyphs(line, opacity: colour.alpha, x: x, baseline: baseline) }
    }

    /// Xft's specs for `glyphs` of a line drawn from `x` with its baseline at `baseline`.
    private static func specs(_ glyphs: [PlacedGlyph], x: Int, baseline: Int) -> [XftGlyphFontSpec] {
        glyphs.compactMap { glyph in
            glyph.xftFont.map { font in
                XftGlyphFontSpec(font: font, glyph: FT_UInt(glyph.glyph), x: Int16(clamping: x + glyph.x), y: Int16(clamping: baseline + glyph.y))
            }
        }
    }

    /// `line`'s colour glyphs drawn into a transparent ARGB buffer as wide as the line and as
    /// tall as the canvas, then composited over the canvas at `opacity` (XRender's Over through
    /// a solid mask).
    private func fadedColourGlyphs(_ line: ShapedLine, opacity: Double, x: Int, baseline: Int) {
        let display = connection.display
        guard let argb = connection.argbSurface, line.width > 0, height > 0 else { return }
        let width = line.width + 2 * height
        let left = x - height
        let buffer = XCreatePixmap(display, connection.root, UInt32(width), UInt32(height), 32)
        defer { XFreePixmap(display, buffer) }
        guard let bufferDraw = XftDrawCreate(display, buffer, argb.visual, argb.colormap) else { return }
        defer { XftDrawDestroy(bufferDraw) }
        let picture = XftDrawPicture(bufferDraw)
        var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
        XRenderFillRectangle(display, PictOpSrc, picture, &clear, 0, 0, UInt32(width), UInt32(height))
        var glyphs = Self.specs(line.glyphs.filter { line.isColour($0) }, x: x - left, baseline: baseline)
        connection.withXftColour(RGBA(red: 1, green: 1, blue: 1), on: argb) { xft in
            XftDrawGlyphFontSpec(bufferDraw, xft, &glyphs, Int32(glyphs.count))
        }
        var alpha = XRenderColor(red: 0, green: 0, blue: 0, alpha: UInt16((min(max(opacity, 0), 1) * 65535).rounded()))
        let mask = XRenderCreateSolidFill(display, &alpha)
        defer { XRenderFreePicture(display, mask) }
        XRenderComposite(display, PictOpOver, picture, mask, XftDrawPicture(draw), 0, 0, 0, 0,
                         Int32(left), 0, UInt32(width), UInt32(height))
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
        releaseCornerMasks()
        XftDrawDestroy(draw)
        XFreePixmap(connection.display, pixmap)
    }
}
