// A banner's look: an appearance resolved against one display and one banner width — colours
// resolved, fonts open, text fitted and shaped, every part placed in pixels — and how a frame's
// content is painted. Both backends lay banners out and paint them with this file; they differ
// only in the canvas (Xft and XRender on X11, FreeType and pixman on Wayland) and in the surfaces
// that show it.

import BannerCore

/// What a look needs from its display.
public protocol LookResources: AnyObject {
    /// Pixels per typographic point (the display's DPI / 72).
    var pixelsPerPoint: Double { get }
    var fonts: FontLibrary { get }
    var icons: IconLibrary { get }
    /// A colour in pixels' terms (named colours as this display knows them).
    func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA
    /// The banner's height in pixels is rounded up to a multiple of this: 1 where pixels are
    /// the display's own (X11), more at a fractional output scale (ScaledResources).
    var heightStep: Int { get }
}

extension LookResources {
    public var heightStep: Int { 1 }

    /// Non-fatal problems worth a line in a log (a font family substituted, an icon that cannot
    /// be shown, GNOME's extension refusing a call): printed by the CLI, logged by the owner,
    /// ignored by default. The fonts' warnings are the same function.
    public var onWarning: (String) -> Void {
        get { fonts.warn }
        set { fonts.warn = newValue }
    }

    /// Where icon theme names (`.named("network-offline")`) are looked up: by default this
    /// process's `XDG_DATA_HOME`, `XDG_DATA_DIRS` and `~/.icons`.
    public var iconSearchPath: IconSearchPath {
        get { icons.searchPath }
        set { icons.searchPath = newValue }
    }

    /// The side in pixels of `appearance`'s icon: the height of its fonts' lines (the title's,
    /// and the subtitle's with the gap), whatever the text.
    public func iconSide(for appearance: TopBannerAppearance) throws(BannerValueError) -> Int {
        let title = try fonts.font(appearance.font, scale: pixelsPerPoint).primary
        var subtitleLine = 0
        if !appearance.subtitle.isEmpty {
            let subtitle = try fonts.font(appearance.effectiveSubtitleFont, scale: pixelsPerPoint).primary
            subtitleLine = subtitle.ascent + subtitle.descent
        }
        return BannerLayout.iconSide(titleLine: title.ascent + title.descent, subtitleLine: subtitleLine, scale: pixelsPerPoint)
    }

    /// Throws the first colour or font in `appearance` that cannot be used, without laying it out.
    public func check(_ appearance: TopBannerAppearance) throws(BannerValueError) {
        _ = try resolve(appearance.backgroundColor)
        _ = try resolve(appearance.textColor)
        _ = try fonts.font(appearance.font, scale: pixelsPerPoint)
        if !appearance.subtitle.isEmpty { _ = try fonts.font(appearance.effectiveSubtitleFont, scale: pixelsPerPoint) }
    }
}

/// A buffer the size of the banner that a backend shows: every frame is painted here whole.
public protocol BannerCanvas {
    /// Paints the whole buffer with `colour`, replacing what is there.
    func fill(_ colour: RGBA)
    /// Blends `colour` over `rect`.
    func fill(_ rect: PixelRect, with colour: RGBA)
    /// Draws `line` from `x` with its baseline at `baseline`, blended by `colour`'s alpha
    /// (colour glyphs keep their own colours, faded by that alpha).
    func text(_ line: ShapedLine, colour: RGBA, x: Int, baseline: Int)
    /// Composites `image` with its top-left corner at (`x`, `y`) at `opacity`.
    func image(_ image: IconBitmap, x: Int, y: Int, opacity: Double)
    /// Makes the two bottom corners round with anti-aliased edges, where the surface has alpha.
    func roundBottomCorners(radius: Int)
}

/// An appearance ready to draw: colours resolved, font open, title fitted, positions in pixels.
public struct Look: Equatable {
    public var title: ShapedLine
    public var background: RGBA
    public var text: RGBA
    public var font: FontStack
    public var height: Int
    public var baseline: Int
    public var titleX: Int
    public var subtitle: PlacedText?
    public var icon: PlacedIcon?
    public var closeButton: PlacedText?
    public var actionButton: ActionButtonLook?
    public var secondaryActionButton: ActionButtonLook?
    public var hitAreas: BannerHitAreas
    /// The bottom corners' radius in pixels, 0 for square ones.
    public var cornerRadius: Int
    /// Laid out right to left: icon right of the text, buttons at the left edge, the progress
    /// bar filling from the right.
    public var isMirrored: Bool

    /// The close button's glyph: MULTIPLICATION X, drawn like text in the title's font stack.
    static let closeGlyph = "\u{2715}"

    /// The same look mirrored across a banner `width` px wide (a right-to-left locale's layout):
    /// every line keeps its width and moves to the mirrored place, so lines that started at one
    /// edge beside the icon end at one edge beside it.
    public mutating func mirror(width: Int) {
        titleX = BannerLayout.mirroredX(titleX, extent: title.width, width: width)
        subtitle?.mirror(width: width)
        if let frame = icon?.frame { icon?.frame = BannerLayout.mirrored(frame, width: width) }
        closeButton?.mirror(width: width)
        actionButton?.mirror(width: width)
        secondaryActionButton?.mirror(width: width)
        hitAreas = hitAreas.mirrored(width: width)
        isMirrored = true
    }

    public static func == (a: Look, b: Look) -> Bool {
        a.title === b.title && a.background == b.background && a.text == b.text && a.font === b.font
            && a.height == b.height && a.baseline == b.baseline && a.titleX == b.titleX && a.subtitle == b.subtitle
            && a.icon == b.icon && a.closeButton == b.closeButton && a.actionButton == b.actionButton
            && a.secondaryActionButton == b.secondaryActionButton
            && a.hitAreas == b.hitAreas && a.cornerRadius == b.cornerRadius && a.isMirrored == b.isMirrored
    }
}

extension Look {
    /// `appearance` laid out on a banner `bannerWidth` pixels wide with `resources`' colours,
    /// fonts and icons: its text fitted and shaped, every part placed. Throws for a colour or
    /// font that cannot be used.
    public init(_ appearance: TopBannerAppearance, bannerWidth: Int, resources: some LookResources) throws(BannerValueError) {
        let context = resources
        let scale = context.pixelsPerPoint
        let background = try context.resolve(appearance.backgroundColor)
        let text = try context.resolve(appearance.textColor)
        let font = try context.fonts.font(appearance.font, scale: scale)
        let direction = appearance.textDirection
        /// `text` on one line, shaped, ellipsized at a cluster boundary to `maxWidth`.
        func fitted(_ text: String, _ stack: FontStack, maxWidth: Int) -> ShapedLine {
            let fitted = BannerLayout.ellipsize(BannerLayout.singleLine(text), maxWidth: maxWidth) { stack.width(of: $0, direction: direction) }
            return stack.shape(fitted, direction: direction)
        }
        let labelWidth = BannerLayout.maximumActionLabelWidth(monitorWidth: bannerWidth, scale: scale, count: appearance.actionLabels.count)
        let actionLabel = appearance.actionLabel.isEmpty ? nil : fitted(appearance.actionLabel, font, maxWidth: labelWidth)
        let secondaryActionLabel = appearance.secondaryActionLabel.isEmpty ? nil : fitted(appearance.secondaryActionLabel, font, maxWidth: labelWidth)
        let buttons = BannerLayout.trailingButtons(
            monitorWidth: bannerWidth, scale: scale, closeButton: appearance.closeButton,
            actionLabelWidth: actionLabel?.width, secondaryActionLabelWidth: secondaryActionLabel?.width)
        // The icon, loaded by presentTopBanner; one whose file went away since is left out.
        var iconSide = 0
        var iconBitmap: IconBitmap?
        if case .file(let path)? = appearance.icon?.source {
            iconSide = try context.iconSide(for: appearance)
            iconBitmap = try? context.icons.bitmap(atPath: path, side: iconSide)
        }
        let maximumWidth = BannerLayout.maximumTitleWidth(
            monitorWidth: bannerWidth, scale: scale, trailingWidth: buttons.width,
            leadingWidth: iconBitmap == nil ? 0 : BannerLayout.iconLeadingWidth(side: iconSide, scale: scale))
        let title = fitted(appearance.title, font, maxWidth: maximumWidth)
        let titleMetrics = BannerLayout.LineMetrics(ascent: title.ascent, descent: title.descent)
        var subtitle: PlacedText?
        var subtitleMetrics: BannerLayout.LineMetrics?
        if !appearance.subtitle.isEmpty {
            let line = fitted(appearance.subtitle, try context.fonts.font(appearance.effectiveSubtitleFont, scale: scale), maxWidth: maximumWidth)
            subtitleMetrics = BannerLayout.LineMetrics(ascent: line.ascent, descent: line.descent)
            subtitle = PlacedText(line: line, baseline: 0, x: BannerLayout.titleX(monitorWidth: bannerWidth, textWidth: line.width))
        }
        let height = BannerLayout.bannerHeight(appearance, scale: scale, step: context.heightStep)
        let baselines = BannerLayout.baselines(appearance, scale: scale, bannerHeight: height, title: titleMetrics, subtitle: subtitleMetrics)
        if let baseline = baselines.subtitle { subtitle?.baseline = baseline }
        var titleX = BannerLayout.titleX(monitorWidth: bannerWidth, textWidth: title.width)
        var icon: PlacedIcon?
        if let iconBitmap {
            // Icon and text centred together; both lines start beside the icon.
            let textWidth = max(title.width, subtitle?.line.width ?? 0)
            let columns = BannerLayout.leadingIcon(monitorWidth: bannerWidth, side: iconSide, textWidth: textWidth, scale: scale)
            titleX = columns.textX
            subtitle?.x = columns.textX
            let blockHeight = BannerLayout.iconSide(titleLine: titleMetrics.height, subtitleLine: subtitleMetrics?.height ?? 0, scale: scale)
            let top = BannerLayout.iconTop(blockTop: baselines.title - titleMetrics.ascent, blockHeight: blockHeight, side: iconSide)
            icon = PlacedIcon(bitmap: iconBitmap, frame: PixelRect(x: columns.iconX, y: top, width: iconSide, height: iconSide))
        }
        // The buttons' text sits on the title's baseline, so one line reads across the banner.
        let closeButton = buttons.close.map { columns in
            let glyph = font.shape(Self.closeGlyph)
            return PlacedText(line: glyph, baseline: baselines.title, x: columns.x + (columns.width - glyph.width) / 2)
        }
        func actionButton(_ columns: PixelRange?, _ label: ShapedLine?) -> ActionButtonLook? {
            guard let columns, let label else { return nil }
            return ActionButtonLook(
                box: BannerLayout.actionButtonFrame(columns, baseline: baselines.title, line: titleMetrics, bannerHeight: height, scale: scale),
                label: PlacedText(line: label, baseline: baselines.title,
                                  x: columns.x + BannerLayout.pixels(BannerLayout.actionButtonPadding, scale: scale)))
        }
        self.init(
            title: title, background: background, text: text, font: font, height: height,
            baseline: baselines.title, titleX: titleX,
            subtitle: subtitle, icon: icon, closeButton: closeButton,
            actionButton: actionButton(buttons.action, actionLabel),
            secondaryActionButton: actionButton(buttons.secondaryAction, secondaryActionLabel),
            hitAreas: BannerLayout.hitAreas(buttons, bannerHeight: height),
            cornerRadius: BannerLayout.cornerRadius(appearance.cornerRadius, scale: scale, bannerWidth: bannerWidth, bannerHeight: height),
            isMirrored: false
        )
        if appearance.layoutDirection == .rightToLeft { mirror(width: bannerWidth) }
    }
}

/// The icon, scaled to its square and placed left of the text.
public struct PlacedIcon: Equatable {
    public var bitmap: IconBitmap
    public var frame: PixelRect
}

/// One line of text, fitted, shaped and placed: the subtitle, the ✕, the action button's label.
public struct PlacedText: Equatable {
    public var line: ShapedLine
    public var baseline: Int
    public var x: Int

    public mutating func mirror(width: Int) {
        x = BannerLayout.mirroredX(x, extent: line.width, width: width)
    }

    public static func == (a: PlacedText, b: PlacedText) -> Bool {
        a.line === b.line && a.baseline == b.baseline && a.x == b.x
    }
}

/// An action button: a box tinted with the text colour, and its label.
public struct ActionButtonLook: Equatable {
    public var box: PixelRect
    public var label: PlacedText

    public mutating func mirror(width: Int) {
        box = BannerLayout.mirrored(box, width: width)
        label.mirror(width: width)
    }
}

/// One frame's content — one look, or two cross-fading — as a canvas holds it; equal contents
/// need no redrawing (frames that only move the banner).
public struct DrawnContent: Equatable {
    public var new: Look
    public var old: Look?
    public var progress: Double
    public var width: Int
    public var height: Int
    /// Where each look's progress bar stands; nil for none.
    public var newBar: Double?
    public var oldBar: Double?

    public init(new: Look, old: Look?, progress: Double, width: Int, height: Int, newBar: Double?, oldBar: Double?) {
        self.new = new
        self.old = old
        self.progress = progress
        self.width = width
        self.height = height
        self.newBar = newBar
        self.oldBar = oldBar
    }

    /// Paints the content over the whole canvas (`width` × `height`): the background (blended
    /// while fading), then each look's foreground at its share of the fade.
    public func draw(on canvas: some BannerCanvas, scale: Double) {
        let content = self
        let background = content.old.map { $0.background.blended(with: content.new.background, fraction: content.progress) }
            ?? content.new.background
        canvas.fill(background)
        if let old = content.old { drawForeground(of: old, bar: content.oldBar, opacity: 1 - content.progress, scale: scale, on: canvas) }
        drawForeground(of: content.new, bar: content.newBar, opacity: content.progress, scale: scale, on: canvas)
    }

    /// Everything drawn over the background: the bar at `bar`, the buttons, the title and
    /// subtitle in the text colour, and the icon.
    private func drawForeground(of look: Look, bar: Double?, opacity: Double, scale: Double, on canvas: some BannerCanvas) {
        func text(_ share: Double) -> RGBA {
            var colour = look.text
            colour.alpha *= share * opacity
            return colour
        }
        if let bar {
            var rects = BannerLayout.progressBar(bar, monitorWidth: width, bannerHeight: look.height, scale: scale)
            if look.isMirrored {
                rects = (BannerLayout.mirrored(rects.filled, width: width), BannerLayout.mirrored(rects.track, width: width))
            }
            canvas.fill(rects.track, with: text(BannerLayout.progressTrackOpacity))
            canvas.fill(rects.filled, with: text(1))
        }
        for action in [look.actionButton, look.secondaryActionButton].compactMap(\.self) {
            canvas.fill(action.box, with: text(BannerLayout.actionButtonFillOpacity))
            draw(action.label, colour: text(1), on: canvas)
        }
        if let close = look.closeButton { draw(close, colour: text(1), on: canvas) }
        canvas.text(look.title, colour: text(1), x: look.titleX, baseline: look.baseline)
        if let subtitle = look.subtitle { draw(subtitle, colour: text(1), on: canvas) }
        if let icon = look.icon { canvas.image(icon.bitmap, x: icon.frame.x, y: icon.frame.y, opacity: opacity) }
    }

    private func draw(_ placed: PlacedText, colour: RGBA, on canvas: some BannerCanvas) {
        canvas.text(placed.line, colour: colour, x: placed.x, baseline: placed.baseline)
    }
}

