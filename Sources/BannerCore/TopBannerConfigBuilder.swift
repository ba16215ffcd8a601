// The chainable builder of the original: each call overrides one field, the rest come from
// the defaults when the appearance is built.

/// Collects per-call overrides; ``build(defaults:)`` fills every unset field from the defaults.
/// A class so that calls chain: each returns the same builder, not a copy.
///
/// ```swift
/// host.presentTopBanner { config in
///     config.title("Network Connection Lost").backgroundColor(.systemRed).textColor(.white)
/// }
/// ```
public final class TopBannerConfigBuilder {
    public private(set) var title: String?
    public private(set) var backgroundColor: BannerColor?
    public private(set) var textColor: BannerColor?
    public private(set) var height: Double?
    public private(set) var titleTopInset: Double?
    public private(set) var font: BannerFont?
    public private(set) var subtitle: String?
    public private(set) var subtitleFont: BannerFont?
    public private(set) var closeButton: Bool?
    public private(set) var actionLabel: String?
    public private(set) var secondaryActionLabel: String?
    /// Called when the user clicks the primary action button (or `X11Host.activate(.action)`
    /// stands in for the click), before `X11Host.onDismiss`.
    public private(set) var actionHandler: (() -> Void)?
    /// Called when the user clicks the secondary action button, before `X11Host.onDismiss`.
    public private(set) var secondaryActionHandler: (() -> Void)?
    public private(set) var progress: Double?
    public private(set) var reduceMotion: Bool?
    public private(set) var icon: BannerIcon?
    public private(set) var cornerRadius: Double?
    public private(set) var textDirection: TextDirection?
    public private(set) var layoutDirection: LayoutDirection?

    public init() {}

    @discardableResult public func title(_ value: String) -> Self { title = value; return self }
    @discardableResult public func backgroundColor(_ value: BannerColor) -> Self { backgroundColor = value; return self }
    @discardableResult public func textColor(_ value: BannerColor) -> Self { textColor = value; return self }
    /// Points; values outside 0 < h ≤ ``TopBannerAppearance/maximumHeight`` are refused by ``build(defaults:)``.
    @discardableResult public func height(_ value: Double) -> Self { height = value; return self }
    @discardableResult public func titleTopInset(_ value: Double) -> Self { titleTopInset = value; return self }
    @discardableResult public func font(_ value: BannerFont) -> Self { font = value; return self }
    /// A second, smaller line under the title.
    @discardableResult public func subtitle(_ value: String) -> Self { subtitle = value; return self }
    @discardableResult public func subtitleFont(_ value: BannerFont) -> Self { subtitleFont = value; return self }
    /// A close button ✕ at the right edge; clicking it dismisses the banner (reason `closed`).
    @discardableResult public func closeButton(_ value: Bool = true) -> Self { closeButton = value; return self }
    /// The primary action: a button labelled `label` at the right edge, left of the ✕; clicking
    /// it calls `handler` and dismisses the banner (reason `action`, also told to
    /// `X11Host.onDismiss`).
    @discardableResult public func action(_ label: String, handler: (() -> Void)? = nil) -> Self {
        actionLabel = label
        actionHandler = handler
        return self
    }
    /// The secondary action: a button labelled `label` left of the primary one (right of it in a
    /// right-to-left layout); clicking it calls `handler` and dismisses the banner (reason
    /// `secondaryAction`). It needs a primary action: ``build(defaults:)`` refuses it alone.
    @discardableResult public func secondaryAction(_ label: String, handler: (() -> Void)? = nil) -> Self {
        secondaryActionLabel = label
        secondaryActionHandler = handler
        return self
    }
    /// A bar along the bottom edge, `value` (0...1) of the way across; other values are refused
    /// by ``build(defaults:)``.
    @discardableResult public func progress(_ value: Double) -> Self { progress = value; return self }
    /// No slide: appears and goes at once (cross-fades stay).
    @discardableResult public func reduceMotion(_ value: Bool = true) -> Self { reduceMotion = value; return self }
    /// A square icon left of the text, as tall as the text: `.file("/path/to.png")` or
    /// `.named("network-offline")` (the icon theme). One that cannot be read is a warning
    /// (`X11Display.onWarning`) and the banner shows without it.
    @discardableResult public func icon(_ value: BannerIcon) -> Self { icon = value; return self }
    /// Rounds the bottom corners, in points (XShape: clicks there go through); values outside
    /// 0...``TopBannerAppearance/maximumHeight`` are refused by ``build(defaults:)``.
    @discardableResult public func cornerRadius(_ value: Double) -> Self { cornerRadius = value; return self }
    /// The text's base direction: `.auto` (from its first strong character), `.ltr` or `.rtl`.
    @discardableResult public func textDirection(_ value: TextDirection) -> Self { textDirection = value; return self }
    /// `.rightToLeft` mirrors the banner: icon right of the text, buttons at the left edge.
    @discardableResult public func layoutDirection(_ value: LayoutDirection) -> Self { layoutDirection = value; return self }

    /// The full appearance: overrides where set, `defaults` elsewhere.
    public func build(defaults: TopBannerAppearance = .default) throws(BannerValueError) -> TopBannerAppearance {
        let primary = actionLabel ?? defaults.actionLabel
        let secondary = secondaryActionLabel ?? defaults.secondaryActionLabel
        if primary.isEmpty, !secondary.isEmpty { throw .secondaryActionAlone(secondary) }
        return TopBannerAppearance(
            title: try TopBannerAppearance.validatedText(title ?? defaults.title, field: "title"),
            backgroundColor: backgroundColor ?? defaults.backgroundColor,
            textColor: textColor ?? defaults.textColor,
            height: try TopBannerAppearance.validatedHeight(height ?? defaults.height),
            titleTopInset: try TopBannerAppearance.validatedInset(titleTopInset ?? defaults.titleTopInset),
            font: font ?? defaults.font,
            subtitle: try TopBannerAppearance.validatedText(subtitle ?? defaults.subtitle, field: "subtitle"),
            subtitleFont: subtitleFont ?? defaults.subtitleFont,
            closeButton: closeButton ?? defaults.closeButton,
            actionLabel: try TopBannerAppearance.validatedText(primary, field: "action label"),
            secondaryActionLabel: try TopBannerAppearance.validatedText(secondary, field: "secondary action label"),
            progress: try (progress ?? defaults.progress).map { value throws(BannerValueError) in try TopBannerAppearance.validatedProgress(value) },
            reduceMotion: reduceMotion ?? defaults.reduceMotion,
            icon: icon ?? defaults.icon,
            cornerRadius: try TopBannerAppearance.validatedCornerRadius(cornerRadius ?? defaults.cornerRadius),
            textDirection: textDirection ?? defaults.textDirection,
            layoutDirection: layoutDirection ?? defaults.layoutDirection
        )
    }
}

extension TopBannerConfigBuilder {
    /// The handlers given to `action(_:handler:)` and `secondaryAction(_:handler:)`, by the
    /// dismissal their buttons cause.
    public var actionHandlers: [BannerDismissReason: () -> Void] {
        var handlers: [BannerDismissReason: () -> Void] = [:]
        handlers[.action] = actionHandler
        handlers[.secondaryAction] = secondaryActionHandler
        return handlers
    }
}
