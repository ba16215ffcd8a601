// Direction, the part of bidirectional text that decides layout: which way a paragraph reads
// (`--direction`), the order its runs of one embedding level are shown in (the last step of the
// Unicode bidi algorithm, rule L2), and which way the whole banner is laid out (mirrored under a
// right-to-left locale). The levels themselves come from FriBidi, in the X11 layer.

/// The base direction of a title or subtitle (`--direction`, config key `direction`).
public enum TextDirection: String, Sendable, CaseIterable, Codable, SettingWord {
    /// From the first strong character (rule P2 of the bidi algorithm); left to right when
    /// there is none.
    case auto
    /// Left to right whatever the text: a Hebrew title in an English sentence's order.
    case ltr
    /// Right to left whatever the text.
    case rtl

    /// `auto`, `ltr` or `rtl`, in any case.
    public static func badValue(_ text: String) -> BannerValueError { .direction(text) }
}

/// Which way the banner is laid out: its icon on the side where reading starts, its buttons
/// on the other.
public enum LayoutDirection: String, Sendable, CaseIterable, Codable {
    /// Icon left of the text, action and ✕ at the right edge, progress filling from the left.
    case leftToRight
    /// The mirror image, as a right-to-left locale (Arabic, Hebrew, Persian, Urdu…) expects.
    case rightToLeft

    /// The layout a user of `locale` reads: mirrored when their first language is written
    /// right to left.
    public init(locale: UserLocale) {
        self = locale.isRightToLeft ? .rightToLeft : .leftToRight
    }
}

public enum BidiOrder {
    /// The order in which runs are shown, left to right, given each run's embedding level in
    /// logical order (rule L2): from the highest level down to the lowest odd one, every
    /// maximal sequence of runs at that level or higher is reversed. Returns indices into
    /// `levels`.
    public static func visualOrder(levels: [Int]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var start: Int?
            for position in 0...order.count {
                let inside = position < order.count && levels[order[position]] >= level
                if inside, start == nil { start = position }
                if !inside, let first = start {
                    order[first..<position].reverse()
                    start = nil
                }
            }
            level -= 1
        }
        return order
    }
}

extension BannerLayout {
    /// `rect` reflected about the vertical centre line of a banner `width` px wide: where a
    /// left-to-right layout's button, icon or bar goes in a right-to-left one.
    public static func mirrored(_ rect: PixelRect, width: Int) -> PixelRect {
        PixelRect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The left edge of something `extent` px wide that starts at `x` in a left-to-right layout,
    /// in the mirrored layout.
    public static func mirroredX(_ x: Int, extent: Int, width: Int) -> Int {
        width - x - extent
    }
}

extension BannerHitAreas {
    /// The same buttons in a layout mirrored across a banner `width` px wide.
    public func mirrored(width: Int) -> BannerHitAreas {
        BannerHitAreas(
            closeButton: closeButton.map { BannerLayout.mirrored($0, width: width) },
            actionButton: actionButton.map { BannerLayout.mirrored($0, width: width) },
            secondaryActionButton: secondaryActionButton.map { BannerLayout.mirrored($0, width: width) })
    }
}
