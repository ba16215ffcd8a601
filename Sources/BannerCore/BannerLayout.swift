// Where things go, in pixels: point → pixel scaling, the banner's height (exactly as configured),
// the title's baseline, the icon beside the text, ellipsizing, the buttons at the right edge (the
// ✕, the primary action, the secondary one), the progress bar, the rounded bottom corners, and
// how much of the banner shows at a given reveal and the space kept for it. The backends measure
// text and ask; these functions decide. Where the X11 banner sits among other clients' panels,
// and its strut, are BannerX11's (StrutLayout).

/// Pixel layout rules for one banner on one monitor.
public enum BannerLayout {
    /// Space kept free on each side of the title, in points.
    public static let horizontalPadding: Double = 12
    /// The DPI at which 1 pt = 1 px.
    public static let referenceDPI: Double = 96

    /// Pixels per point for an `Xft.dpi` value; 1 when unset or nonsense.
    public static func pixelsPerPoint(xftDPI: Double?) -> Double {
        guard let dpi = xftDPI, dpi.isFinite, dpi >= 24, dpi <= 960 else { return 1 }
        return dpi / referenceDPI
    }

    /// Converts points to whole pixels.
    public static func pixels(_ points: Double, scale: Double) -> Int {
        Int((points * scale).rounded())
    }

    /// Space between the title's line and the subtitle's, in points.
    public static let subtitleGap: Double = 2

    /// The banner's height in pixels: exactly the configured height scaled (at least 1 px),
    /// whatever the text. Text that does not fit is moved up and clipped by ``baselines(_:scale:bannerHeight:title:subtitle:)``,
    /// so what other windows make room for never depends on the title's glyphs.
    ///
    /// With a `step` above 1 the height is rounded up to a multiple of it (``heightStep(deviceScale:)``).
    public static func bannerHeight(_ appearance: TopBannerAppearance, scale: Double, step: Int = 1) -> Int {
        let height = max(pixels(appearance.height, scale: scale), 1)
        guard step > 1 else { return height }
        return (height + step - 1) / step * step
    }

    /// The device pixels a banner's height is a multiple of on an output at `deviceScale`, so
    /// that it is a whole number of logical pixels too: the compositor then shows its buffer one
    /// to one, and its top and bottom edges land on whole device pixels wherever the banner sits
    /// (wlroots rounds a surface's edges one by one). At a scale of n/120 (how
    /// `wp_fractional_scale_v1` gives it) a height of L logical pixels is L × n / 120 device
    /// pixels, whole when L is a multiple of 120 / gcd(n, 120): at 1.25 a multiple of 4
    /// logical pixels, so 5 device pixels (compact 18 pt, 22.5 px, becomes 25); at 1.5 3; at 1.75
    /// 7; at an integer scale the scale itself. A scale that needs more than 8 logical
    /// pixels per step (1.1 needs 10) gets 1: the height is then only rounded.
    public static func heightStep(deviceScale: Double) -> Int {
        let twelfths = (deviceScale * 120).rounded()
        guard deviceScale.isFinite, twelfths >= 120, twelfths <= 120 * 16, abs(twelfths / 120 - deviceScale) < 1e-4 else { return 1 }
        let n = Int(twelfths)
        var (a, b) = (n, 120)
        while b != 0 { (a, b) = (b, a % b) }
        let logicalStep = 120 / a
        return logicalStep <= 8 ? n * logicalStep / 120 : 1
    }

    /// The title's baseline, from the banner's top: its line is centred in the area below the inset.
    public static func baseline(
        _ appearance: TopBannerAppearance, scale: Double, bannerHeight: Int, ascent: Int, descent: Int
    ) -> Int {
        baselines(appearance, scale: scale, bannerHeight: bannerHeight, title: LineMetrics(ascent: ascent, descent: descent), subtitle: nil).title
    }

    /// Ascent and descent of one line of text, in pixels.
    public struct LineMetrics: Sendable, Hashable {
        public var ascent: Int
        public var descent: Int
        public init(ascent: Int, descent: Int) {
            self.ascent = ascent
            self.descent = descent
        }
        public var height: Int { ascent + descent }
    }

    /// Baselines of the title and the subtitle (nil without one), from the banner's top: the
    /// two lines, with ``subtitleGap`` between them, are centred as one block below the inset.
    /// A block taller than that area moves up into the inset, its bottom on the banner's bottom
    /// edge; one taller than the whole banner is centred on it, and the banner's edges clip it.
    public static func baselines(
        _ appearance: TopBannerAppearance, scale: Double, bannerHeight: Int, title: LineMetrics, subtitle: LineMetrics?
    ) -> (title: Int, subtitle: Int?) {
        let inset = pixels(appearance.titleTopInset, scale: scale)
        let block = textBlockHeight(title.height, subtitle?.height ?? 0, scale: scale)
        let blockTop: Int
        if block <= bannerHeight - inset {
            blockTop = inset + (bannerHeight - inset - block) / 2
        } else if block <= bannerHeight {
            blockTop = bannerHeight - block
        } else {
            blockTop = (bannerHeight - block) / 2
        }
        let titleBaseline = blockTop + title.ascent
        guard let subtitle else { return (titleBaseline, nil) }
        return (titleBaseline, titleBaseline + title.descent + pixels(subtitleGap, scale: scale) + subtitle.ascent)
    }

    private static func textBlockHeight(_ titleLine: Int, _ subtitleLine: Int, scale: Double) -> Int {
        subtitleLine > 0 ? titleLine + pixels(subtitleGap, scale: scale) + subtitleLine : titleLine
    }

    /// The title's left edge: centred on the monitor.
    public static func titleX(monitorWidth: Int, textWidth: Int) -> Int {
        (monitorWidth - textWidth) / 2
    }

    /// The widest a title may be on a monitor `monitorWidth` px wide, when buttons take
    /// `trailingWidth` px at the right edge: the centred title keeps clear of them, and of as
    /// much on the left. An icon beside the text takes `leadingWidth` px (its side and the
    /// spacing) of what is left.
    public static func maximumTitleWidth(monitorWidth: Int, scale: Double, trailingWidth: Int = 0, leadingWidth: Int = 0) -> Int {
        max(0, monitorWidth - 2 * (pixels(horizontalPadding, scale: scale) + trailingWidth) - leadingWidth)
    }

    // MARK: The icon

    /// Space between the icon and the text, in points.
    public static let iconSpacing: Double = 8

    /// The icon's side in pixels: as tall as the text block — the title's line (`titleLine` px)
    /// or the title's and the subtitle's with the gap between them.
    public static func iconSide(titleLine: Int, subtitleLine: Int = 0, scale: Double) -> Int {
        max(1, textBlockHeight(titleLine, subtitleLine, scale: scale))
    }

    /// Columns (and rows) taken by the icon and the spacing after it.
    public static func iconLeadingWidth(side: Int, scale: Double) -> Int {
        side + pixels(iconSpacing, scale: scale)
    }

    /// Where the icon and the text go when an icon leads: icon, spacing and text (`textWidth`
    /// px, the wider of title and subtitle) are centred together on the monitor, and the lines
    /// start at one left edge beside the icon.
    public static func leadingIcon(monitorWidth: Int, side: Int, textWidth: Int, scale: Double) -> (iconX: Int, textX: Int) {
        let leading = iconLeadingWidth(side: side, scale: scale)
        let iconX = (monitorWidth - leading - textWidth) / 2
        return (iconX, iconX + leading)
    }

    /// The icon's top row: centred on the text block that starts `blockTop` px down and is
    /// `blockHeight` px tall.
    public static func iconTop(blockTop: Int, blockHeight: Int, side: Int) -> Int {
        blockTop + (blockHeight - side) / 2
    }

    // MARK: Buttons and the progress bar

    /// The close button's width at the right edge, in points; it is as tall as the banner.
    public static let closeButtonWidth: Double = 40
    /// Space between the action button's label and its left and right edges, in points.
    public static let actionButtonPadding: Double = 10
    /// Space above and below the action button's label, in points.
    public static let actionButtonVerticalPadding: Double = 4
    /// The progress bar's thickness along the bottom edge, in points; it is drawn in the text
    /// colour, over a track of the text colour at ``progressTrackOpacity``.
    public static let progressBarThickness: Double = 3
    public static let progressTrackOpacity = 0.25
    /// The action button's box is the text colour at this opacity over the background.
    public static let actionButtonFillOpacity = 0.2

    /// Space between the primary and the secondary action buttons, in points.
    public static let actionButtonSpacing: Double = 8

    /// The widest each action button's label may be on a monitor `monitorWidth` px wide, with
    /// `count` (1 or 2) action buttons: together, with their padding and the space between
    /// them, they take at most a third of it, so the title keeps the middle.
    public static func maximumActionLabelWidth(monitorWidth: Int, scale: Double, count: Int = 1) -> Int {
        let buttons = max(count, 1)
        let chrome = buttons * 2 * pixels(actionButtonPadding, scale: scale) + (buttons - 1) * pixels(actionButtonSpacing, scale: scale)
        return max(0, (monitorWidth / 3 - chrome) / buttons)
    }

    /// The columns of the buttons at the right edge: the close button at the very edge, the
    /// primary action button (its label `actionLabelWidth` px wide; nil for none) left of it, or
    /// one padding in from the edge without a close button, and the secondary action button
    /// (`secondaryActionLabelWidth`) ``actionButtonSpacing`` left of the primary one — the
    /// primary action next to the edge, as a dialog's default button is. A secondary action
    /// without a primary one takes the primary's place. A right-to-left layout mirrors all of
    /// it (``BannerLayout/mirrored(_:width:)``).
    public static func trailingButtons(
        monitorWidth: Int, scale: Double, closeButton: Bool, actionLabelWidth: Int?, secondaryActionLabelWidth: Int? = nil
    ) -> TrailingButtons {
        var buttons = TrailingButtons()
        var edge = monitorWidth
        if closeButton {
            let width = pixels(closeButtonWidth, scale: scale)
            edge -= width
            buttons.close = PixelRange(x: edge, width: width)
        }
        let padding = pixels(actionButtonPadding, scale: scale)
        var right = closeButton ? edge : edge - pixels(horizontalPadding, scale: scale)
        if let actionLabelWidth {
            let width = actionLabelWidth + 2 * padding
            buttons.action = PixelRange(x: right - width, width: width)
            edge = right - width
            right = edge - pixels(actionButtonSpacing, scale: scale)
        }
        if let secondaryActionLabelWidth {
            let width = secondaryActionLabelWidth + 2 * padding
            buttons.secondaryAction = PixelRange(x: right - width, width: width)
            edge = right - width
        }
        buttons.width = monitorWidth - edge
        return buttons
    }

    /// The action button's box: its columns, and rows around the title's line (baseline
    /// `baseline`, `line` its ascent and descent) with ``actionButtonVerticalPadding``, inside
    /// the banner.
    public static func actionButtonFrame(_ columns: PixelRange, baseline: Int, line: LineMetrics, bannerHeight: Int, scale: Double) -> PixelRect {
        let padding = pixels(actionButtonVerticalPadding, scale: scale)
        let top = max(0, baseline - line.ascent - padding)
        let bottom = min(bannerHeight, baseline + line.descent + padding)
        return PixelRect(x: columns.x, y: top, width: columns.width, height: max(0, bottom - top))
    }

    /// Where a click counts as a button's: its columns, the banner's full height (a target as
    /// tall as the banner is easy to hit). The space between the two action buttons is split
    /// between them, so a click that just misses one lands on its neighbour, never on the banner.
    public static func hitAreas(_ buttons: TrailingButtons, bannerHeight: Int) -> BannerHitAreas {
        func fullHeight(_ columns: PixelRange) -> PixelRect {
            PixelRect(x: columns.x, y: 0, width: columns.width, height: bannerHeight)
        }
        var action = buttons.action
        var secondary = buttons.secondaryAction
        if let primary = action, let other = secondary {
            let middle = (other.x + other.width + primary.x) / 2
            action = PixelRange(x: middle, width: primary.x + primary.width - middle)
            secondary = PixelRange(x: other.x, width: middle - other.x)
        }
        return BannerHitAreas(
            closeButton: buttons.close.map(fullHeight),
            actionButton: action.map(fullHeight),
            secondaryActionButton: secondary.map(fullHeight)
        )
    }

    /// The progress bar along the bottom edge: the `filled` part (`progress` of the width, from
    /// the left) and the `track` it runs in, ``progressBarThickness`` tall (at least 1 px).
    public static func progressBar(_ progress: Double, monitorWidth: Int, bannerHeight: Int, scale: Double) -> (filled: PixelRect, track: PixelRect) {
        let thickness = min(bannerHeight, max(1, pixels(progressBarThickness, scale: scale)))
        let y = bannerHeight - thickness
        let filled = Int((Double(monitorWidth) * min(max(progress, 0), 1)).rounded())
        return (
            PixelRect(x: 0, y: y, width: filled, height: thickness),
            PixelRect(x: 0, y: y, width: monitorWidth, height: thickness)
        )
    }

    // MARK: Rounded corners

    /// The radius of the bottom corners in pixels: `points` scaled, at most half the banner's
    /// height and half its width (the corners meet, they never overlap).
    public static func cornerRadius(_ points: Double, scale: Double, bannerWidth: Int, bannerHeight: Int) -> Int {
        guard points.isFinite, points > 0 else { return 0 }
        return max(0, min(pixels(min(points, TopBannerAppearance.maximumHeight), scale: scale), bannerHeight / 2, bannerWidth / 2))
    }

    /// The outline of a banner `width`×`bannerHeight` px with its bottom corners rounded to
    /// `radius` px, as rectangles in the coordinates of the clip that shows its bottom
    /// `visibleHeight` rows (the banner's bottom edge is the clip's): one rectangle per row of
    /// the corners, one for the rows above them, banded top to bottom for XShape. Empty when
    /// nothing shows; the whole clip when `radius` is 0.
    ///
    /// A row's pixels are kept when their centres fall inside the circle of each corner.
    public static func roundedBottomShape(width: Int, bannerHeight: Int, visibleHeight: Int, radius: Int) -> [PixelRect] {
        let shown = min(visibleHeight, bannerHeight)
        guard shown > 0, width > 0 else { return [] }
        let r = min(radius, bannerHeight / 2, width / 2)
        guard r > 0 else { return [PixelRect(x: 0, y: 0, width: width, height: shown)] }
        // Clip row y shows banner row y + offset.
        let offset = bannerHeight - shown
        var rects: [PixelRect] = []
        let straightRows = max(0, bannerHeight - r - offset)
        if straightRows > 0 { rects.append(PixelRect(x: 0, y: 0, width: width, height: min(straightRows, shown))) }
        for row in max(bannerHeight - r, offset)..<bannerHeight {
            let inset = cornerInset(row: row - (bannerHeight - r), radius: r)
            guard inset * 2 < width else { continue }
            rects.append(PixelRect(x: inset, y: row - offset, width: width - 2 * inset, height: 1))
        }
        return rects
    }

    /// Columns cut off at each end of row `row` (0 = the first row of the corners) of a corner
    /// of radius `radius`: those whose pixel centres lie outside the circle.
    private static func cornerInset(row: Int, radius: Int) -> Int {
        let r = Double(radius)
        let dy = Double(row) + 0.5
        let half = (r * r - dy * dy).squareRoot()
        // Pixel column c (centre c + 0.5) is inside when r - (c + 0.5) <= half.
        return max(0, Int((r - half - 0.5).rounded(.up)))
    }

    /// How much of each pixel of the bottom-left corner's square (`radius` × `radius`, row by
    /// row from the top) lies inside the rounded outline, 0 (outside) to 255 (inside): 4 × 4
    /// samples per pixel against the circle of `radius` centred at the square's top-right
    /// corner. The bottom-right corner is its mirror image. What an ARGB banner's corners are
    /// blended with (anti-aliased, where XShape can only keep or drop a pixel).
    public static func cornerCoverage(radius: Int) -> [UInt8] {
        guard radius > 0 else { return [] }
        let r = Double(radius)
        var coverage = [UInt8](repeating: 0, count: radius * radius)
        for row in 0..<radius {
            for column in 0..<radius {
                var inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let dx = Double(column) + (Double(sx) + 0.5) / 4 - r
                        let dy = Double(row) + (Double(sy) + 0.5) / 4
                        if dx * dx + dy * dy <= r * r { inside += 1 }
                    }
                }
                coverage[row * radius + column] = UInt8((inside * 255 + 8) / 16)
            }
        }
        return coverage
    }

    /// `title` if it fits in `maxWidth`, else the longest prefix of whole characters (graphemes)
    /// followed by "…" that does. `measure` returns a string's advance width in pixels.
    public static func ellipsize(_ title: String, maxWidth: Int, measure: (String) -> Int) -> String {
        guard measure(title) > maxWidth else { return title }
        let characters = Array(title)
        var low = 0
        var high = characters.count - 1
        var best = ""
        while low <= high {
            let count = (low + high) / 2
            let candidate = Self.trimmedTrailingSpace(String(characters[0..<count])) + "…"
            if measure(candidate) <= maxWidth {
                best = candidate
                low = count + 1
            } else {
                high = count - 1
            }
        }
        return best
    }

    /// The title as one line: line breaks, tabs and other control characters become spaces.
    public static func singleLine(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }

    /// How much of a banner `bannerHeight` px tall shows when it is `reveal` (0...1) of the way
    /// down, and where its content sits, relative to the top edge of the area it slides into
    /// (the monitor's top edge, or the bottom of the panels there); `reservedHeight` is the space
    /// kept for it below that edge (see ``reservedHeight(settled:fadingFrom:)``).
    ///
    /// The banner never leaves its area: what shows is a strip along the area's top edge,
    /// `visibleHeight` rows tall, and the rows still "above" the edge are cut off, not drawn over
    /// a panel or on whatever monitor lies above.
    public static func placement(bannerHeight: Int, reveal: Double, reservedHeight: Int) -> BannerPlacement {
        let shown = Int((Double(bannerHeight) * min(max(reveal, 0), 1)).rounded())
        return BannerPlacement(visibleHeight: shown, contentOffset: shown - bannerHeight, reservedHeight: reservedHeight)
    }

    /// The space kept below the area's top edge while a banner is on screen, sliding or not:
    /// the height it settles at (`settled` px), or during a cross-fade from a banner `fadingFrom`
    /// px tall the larger of the two. The reservation is made once before the banner slides in
    /// and given back once after it has slid out, and a height change moves it once — growing
    /// when the fade starts, shrinking when it ends — so the window manager re-lays maximized
    /// windows out once per change instead of on every frame.
    public static func reservedHeight(settled: Int, fadingFrom: Int?) -> Int {
        max(settled, fadingFrom ?? 0)
    }

    private static func trimmedTrailingSpace(_ text: String) -> String {
        var result = text
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}

