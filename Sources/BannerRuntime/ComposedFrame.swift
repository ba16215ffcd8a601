// One frame as the controller decides it, the same for every backend: the looks (two during a
// cross-fade), the height and corner radius between them, the space reserved, where the banner
// stands in it, and the content to paint. A host only draws and submits it, and reports back
// what it asked the display server to show (RenderedFrame). Made by
// `BannerController.compose(_:at:)`; the order a frame's callbacks come in is
// `BannerController.renderFrame(at:)`'s.

import BannerCore
import MonotonicClock

/// What a backend's host draws at one frame.
public struct ComposedFrame {
    /// When the frame is for.
    public let time: MonotonicTime
    /// The presentation's frame: how far down, the fade, the progress bar.
    public let frame: BannerFrame
    /// The look presented, laid out at the surface's scale and width.
    public let new: Look
    /// During a cross-fade, the look fading out; nil otherwise.
    public let old: Look?
    /// The banner's height: the new look's, or between the two looks' during a cross-fade.
    public private(set) var height: Int
    /// The bottom corners' radius, between the two looks' during a cross-fade.
    public let cornerRadius: Int
    /// The space kept for the banner (the larger of the two looks' heights during a
    /// cross-fade, so other windows move once).
    public let reservedHeight: Int
    /// Where the banner stands in the space it has: `height` revealed by `frame.reveal`.
    public private(set) var placement: BannerPlacement
    /// What to paint: `width` × `height` pixels, one look or two blending.
    public private(set) var content: DrawnContent

    /// `frame` at `time` with its looks `new` and `old`, `width` pixels wide.
    init(time: MonotonicTime, frame: BannerFrame, new: Look, old: Look?, width: Int) {
        self.time = time
        self.frame = frame
        self.new = new
        self.old = old
        let fade = old == nil ? 1 : frame.fadeProgress
        func blend(_ from: Int?, _ to: Int) -> Int {
            from.map { Int((Double($0) + Double(to - $0) * fade).rounded()) } ?? to
        }
        height = blend(old?.height, new.height)
        cornerRadius = blend(old?.cornerRadius, new.cornerRadius)
        reservedHeight = BannerLayout.reservedHeight(settled: new.height, fadingFrom: old?.height)
        placement = BannerLayout.placement(bannerHeight: height, reveal: frame.reveal, reservedHeight: reservedHeight)
        content = DrawnContent(
            new: new, old: old, progress: fade, width: width, height: height, newBar: frame.progress, oldBar: frame.fadingFrom?.progress)
    }

    /// This frame on a surface only `surfaceHeight` pixels tall, the space it holds now (a
    /// Wayland surface whose resize to `reservedHeight` is not configured yet): the banner cut to
    /// that height, standing in it.
    public func fitted(toSurfaceHeight surfaceHeight: Int) -> ComposedFrame {
        var fitted = self
        fitted.height = min(height, surfaceHeight)
        fitted.content.height = fitted.height
        fitted.placement = BannerLayout.placement(bannerHeight: fitted.height, reveal: frame.reveal, reservedHeight: surfaceHeight)
        return fitted
    }

    /// The frame as the display server was asked to show it, under `panelInset` rows of panels.
    public func rendered(panelInset: Int) -> RenderedFrame {
        RenderedFrame(
            time: time, visibleHeight: placement.visibleHeight, contentOffset: placement.contentOffset, bannerHeight: height,
            reservedHeight: placement.reservedHeight, panelInset: panelInset, reveal: frame.reveal,
            fadeProgress: frame.fadeProgress, progress: frame.progress)
    }
}
