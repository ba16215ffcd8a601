// How a pointer on the banner becomes a dismissal, the desktop's form of tapping or swiping a
// phone's banner away. A backend hands over button presses and releases in the banner's own
// pixels; this decides — with no X11 in sight, so it is tested with plain numbers — whether
// that was a click on the banner, on one of its buttons, a wheel turned up, or a drag upwards.
// Start reading at `BannerGesture.release(_:x:y:)`.

/// Why the user dismissed a banner.
public enum BannerDismissReason: String, Sendable, Hashable, CaseIterable {
    /// A click on the banner itself, away from its buttons.
    case clicked
    /// A click on the close button ✕.
    case closed
    /// The wheel turned up over the banner, or a drag upwards: the phone's swipe up.
    case swiped
    /// A click on the (primary) action button.
    case action
    /// A click on the secondary action button.
    case secondaryAction = "secondary-action"
}

/// The pointer buttons a banner answers to.
public enum PointerButton: Sendable, Hashable {
    /// The primary (left) button: clicks and drags.
    case primary
    /// The wheel turned up one notch.
    case wheelUp
    /// Middle, right, wheel down, sideways: ignored.
    case other
}

/// Where a banner's buttons are, in its own pixels; a click anywhere else is on the banner.
public struct BannerHitAreas: Sendable, Hashable {
    public var closeButton: PixelRect?
    /// The primary action button's.
    public var actionButton: PixelRect?
    public var secondaryActionButton: PixelRect?

    public init(closeButton: PixelRect? = nil, actionButton: PixelRect? = nil, secondaryActionButton: PixelRect? = nil) {
        self.closeButton = closeButton
        self.actionButton = actionButton
        self.secondaryActionButton = secondaryActionButton
    }

    /// What a click at (`x`, `y`) means.
    public func reason(atX x: Int, y: Int) -> BannerDismissReason {
        if closeButton?.contains(x: x, y: y) == true { return .closed }
        if actionButton?.contains(x: x, y: y) == true { return .action }
        if secondaryActionButton?.contains(x: x, y: y) == true { return .secondaryAction }
        return .clicked
    }

    /// Whether a banner with these buttons has the one a dismissal by `reason` needs: the ✕
    /// or an action button; `clicked` and `swiped` need none.
    public func has(_ reason: BannerDismissReason) -> Bool {
        switch reason {
        case .clicked, .swiped: true
        case .closed: closeButton != nil
        case .action: actionButton != nil
        case .secondaryAction: secondaryActionButton != nil
        }
    }
}

/// One pointer over one banner, from a press of the primary button to its release.
///
/// A release close to the press is a click on whatever was under the press; a release at least
/// ``swipeDistance`` higher than the press, moving more up than sideways, is a swipe. Anything
/// in between means nothing, so a user who starts a drag can change their mind. The wheel turned
/// up is a swipe at once.
public struct BannerGesture: Sendable {
    /// Movement in points beyond which a press is no longer a click.
    public static let clickSlopPoints: Double = 4
    /// Upward movement in points that makes a drag a swipe, on banners at least three times as tall.
    public static let swipePoints: Double = 24

    /// Pixels the pointer may move between press and release of a click.
    public let clickSlop: Int
    /// Pixels the pointer must move up between press and release of a swipe.
    public let swipeDistance: Int
    private var pressed: (x: Int, y: Int, target: BannerDismissReason)?

    public init(clickSlop: Int, swipeDistance: Int) {
        self.clickSlop = clickSlop
        self.swipeDistance = swipeDistance
    }

    /// The thresholds for a banner `bannerHeight` px tall at `scale` pixels per point: a third
    /// of the banner's height, at most ``swipePoints``, so that a press in the middle of a
    /// compact strip can still be dragged far enough before the pointer meets the screen's edge.
    public init(scale: Double, bannerHeight: Int) {
        let slop = BannerLayout.pixels(Self.clickSlopPoints, scale: scale)
        let swipe = min(BannerLayout.pixels(Self.swipePoints, scale: scale), bannerHeight / 3)
        self.init(clickSlop: slop, swipeDistance: max(slop + 1, swipe))
    }

    /// True between a press of the primary button and its release.
    public var isTracking: Bool { pressed != nil }

    /// A button went down at (`x`, `y`); `areas` says what lies there. Returns a dismissal
    /// only for the wheel: a click or drag is decided on release.
    public mutating func press(_ button: PointerButton, x: Int, y: Int, on areas: BannerHitAreas) -> BannerDismissReason? {
        switch button {
        case .wheelUp:
            pressed = nil
            return .swiped
        case .primary:
            pressed = (x, y, areas.reason(atX: x, y: y))
            return nil
        case .other:
            return nil
        }
    }

    /// A button came up at (`x`, `y`), in the same coordinates as the press (the pointer may
    /// have left the banner meanwhile).
    public mutating func release(_ button: PointerButton, x: Int, y: Int) -> BannerDismissReason? {
        guard button == .primary, let start = pressed else { return nil }
        pressed = nil
        let dx = x - start.x
        let dy = y - start.y
        if abs(dx) <= clickSlop && abs(dy) <= clickSlop { return start.target }
        if -dy >= swipeDistance && -dy > abs(dx) { return .swiped }
        return nil
    }

    /// Forgets a press in progress (the banner is going away, or changed under the pointer).
    public mutating func cancel() {
        pressed = nil
    }
}
