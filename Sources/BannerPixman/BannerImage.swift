// A banner drawn off screen, for a backend that hands pixels to someone else to show: the GNOME
// Shell extension shows the image the owner drew here, so a banner on GNOME is the same pixels
// as on a layer-shell compositor (the same pixman drawing, FreeType glyphs and rounded corners).

import BannerCore
import BannerRuntime

/// One banner's content as premultiplied a8r8g8b8 pixels (little-endian: B, G, R, A in memory),
/// drawn again only when the content changes.
public final class BannerImage {
    private var back: BackBuffer?
    private let glyphs = GlyphCache()

    public init() {}

    /// Draws `content` (its width and height are the image's), its bottom corners rounded by
    /// `radius`, at `scale` pixels per point; false when the size is empty.
    public func draw(_ content: DrawnContent, radius: Int, scale: Double) -> Bool {
        if back?.width != content.width || back?.height != content.height {
            back = BackBuffer(width: content.width, height: content.height, glyphs: glyphs)
        }
        guard let back else { return false }
        back.canvas.fill(RGBA(red: 0, green: 0, blue: 0, alpha: 0))
        content.draw(on: back.canvas, scale: scale)
        back.canvas.roundBottomCorners(radius: radius)
        return true
    }

    /// The pixels last drawn, `height` rows of `stride` bytes, for the duration of `body`.
    public func withPixels<Result>(_ body: (_ bytes: UnsafeRawBufferPointer, _ width: Int, _ height: Int, _ stride: Int) -> Result) -> Result? {
        guard let back else { return nil }
        return back.withBytes { body($0, back.width, back.height, back.width * 4) }
    }
}
