// The value types BannerLayout works in: rectangles and ranges in a banner's own pixels, the
// buttons' places, where a banner sits on its monitor, the insets other clients reserve, and
// the struts that reserve space (how X11 encodes them is BannerX11's StrutProperties).

/// A rectangle in pixels: in a banner's own, origin at its top-left corner, or a monitor's in
/// root-window pixels (``MonitorGeometry``).
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A run of columns: from `x`, `width` px wide.
public struct PixelRange: Sendable, Hashable {
    public var x: Int
    public var width: Int

    public init(x: Int, width: Int) {
        self.x = x
        self.width = width
    }
}

/// The buttons at a banner's right edge, as columns (see ``BannerLayout/trailingButtons(monitorWidth:scale:closeButton:actionLabelWidth:secondaryActionLabelWidth:)``).
public struct TrailingButtons: Sendable, Hashable {
    /// The close button's columns; its ✕ is centred in them.
    public var close: PixelRange?
    /// The primary action button's box, left of the close button.
    public var action: PixelRange?
    /// The secondary action button's box, left of the primary one.
    public var secondaryAction: PixelRange?
    /// Columns the buttons take from the right edge; 0 without buttons.
    public var width = 0

    public init() {}
}

/// What shows of the banner in its area, and the space reserved for it.
public struct BannerPlacement: Sendable, Hashable {
    /// Rows of the banner on screen, counted down from the area's top edge; 0 when hidden.
    public var visibleHeight: Int
    /// The banner's top edge relative to the area's top edge: `visibleHeight − bannerHeight`,
    /// 0 or less — the rows above the edge are the ones cut off.
    public var contentOffset: Int
    /// Pixels reserved below the area's top edge: the whole banner from before its first frame
    /// to after its last (see ``BannerLayout/reservedHeight(settled:fadingFrom:)``).
    public var reservedHeight: Int

    /// A placement as ``BannerLayout/placement(bannerHeight:reveal:reservedHeight:)`` computes it.
    public init(visibleHeight: Int, contentOffset: Int, reservedHeight: Int) {
        self.visibleHeight = visibleHeight
        self.contentOffset = contentOffset
        self.reservedHeight = reservedHeight
    }
}

/// Columns side panels take from a monitor's edges at the banner's rows (see
/// BannerX11's `StrutLayout.sideInsets`).
public struct SideInsets: Sendable, Hashable {
    /// Columns from the monitor's left edge: a left panel's.
    public var left: Int
    /// Columns from the monitor's right edge: a right panel's.
    public var right: Int

    public init(left: Int = 0, right: Int = 0) {
        self.left = left
        self.right = right
    }
}

/// A left or right strut in root coordinates: another client (a vertical panel, a dock)
/// reserves columns `startX ... endX` over rows `startY ... endY`.
public struct SideStrut: Sendable, Hashable {
    /// The screen edge a strut counts from.
    public enum Edge: Sendable, Hashable { case left, right }

    public var edge: Edge
    /// First column reserved.
    public var startX: Int
    /// Last column reserved, inclusive.
    public var endX: Int
    /// First row reserved (`left_start_y` / `right_start_y`).
    public var startY: Int
    /// Last row reserved, inclusive (`left_end_y` / `right_end_y`).
    public var endY: Int

    public init(edge: Edge, startX: Int, endX: Int, startY: Int, endY: Int) {
        self.edge = edge
        self.startX = startX
        self.endX = endX
        self.startY = startY
        self.endY = endY
    }
}

/// A top strut in root coordinates: the reserved space runs from the screen's top down to `top`,
/// across columns `startX ... endX`.
public struct TopStrut: Sendable, Hashable {
    /// The reservation's bottom edge in root coordinates (`top` in EWMH terms); 0 for none.
    public var top: Int
    /// First column reserved (`top_start_x`).
    public var startX: Int
    /// Last column reserved, inclusive (`top_end_x`).
    public var endX: Int

    /// A strut as BannerX11's `StrutLayout.topStrut` computes it.
    public init(top: Int, startX: Int, endX: Int) {
        self.top = top
        self.startX = startX
        self.endX = endX
    }
}
