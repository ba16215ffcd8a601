// One frame as a backend drew it, in the same terms on X11, Wayland and GNOME Shell.

import BannerCore
import MonotonicClock

/// What the display server was asked to show at one frame (for tests, benchmarks and curious users).
public struct RenderedFrame: Sendable, Hashable {
    public var time: MonotonicTime
    /// Rows of the banner showing below the top edge of its area (the monitor's top edge, or
    /// the bottom of the panels there: `panelInset`).
    public var visibleHeight: Int
    /// The banner's top edge relative to its area's top edge:
    /// `visibleHeight − bannerHeight`, so 0 once fully shown.
    public var contentOffset: Int
    /// The banner's full height in pixels (between two heights during a cross-fade).
    public var bannerHeight: Int
    /// Pixels reserved for the banner below its area's top edge: its whole height from the
    /// first frame to the last, the larger of two heights during a cross-fade.
    public var reservedHeight: Int
    /// Rows of other clients' panels between the monitor's top edge and the banner's area.
    public var panelInset: Int
    /// How far down the banner is, 0...1.
    public var reveal: Double
    /// Cross-fade progress, 0...1; 1 when not fading.
    public var fadeProgress: Double
    /// Where the progress bar stands, 0...1 (moving after a progress-only update); nil for none.
    public var progress: Double?

    public init(
        time: MonotonicTime, visibleHeight: Int, contentOffset: Int, bannerHeight: Int, reservedHeight: Int, panelInset: Int,
        reveal: Double, fadeProgress: Double, progress: Double?
    ) {
        self.time = time
        self.visibleHeight = visibleHeight
        self.contentOffset = contentOffset
        self.bannerHeight = bannerHeight
        self.reservedHeight = reservedHeight
        self.panelInset = panelInset
        self.reveal = reveal
        self.fadeProgress = fadeProgress
        self.progress = progress
    }
}
