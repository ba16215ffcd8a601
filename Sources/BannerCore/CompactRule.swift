// When the banner uses its compact style: one pure function of the monitor's shape and the
// user's policy, re-evaluated by a backend on every monitor change (RandR, an output's mode).

/// A monitor's rectangle in root-window pixels (the rectangle a banner's own pixels use too).
public typealias MonitorGeometry = PixelRect

extension PixelRect {
    public var isLandscape: Bool { width > height }

    /// Whether `rect` covers this whole rectangle: what makes an override-redirect window a
    /// screen locker over a monitor.
    public func isCovered(by rect: PixelRect) -> Bool {
        rect.x <= x && rect.y <= y && rect.x + rect.width >= x + width && rect.y + rect.height >= y + height
    }
}

/// The user's choice (`--compact`): `auto` follows the monitor's orientation like the original.
public enum CompactPolicy: String, Sendable, CaseIterable, SettingWord {
    case auto, always, never

    /// `auto`, `always` or `never`, in any case.
    public static func badValue(_ text: String) -> BannerValueError { .compactPolicy(text) }
}

/// Regular or compact: the one place that decides.
public enum CompactRule {
    /// `auto` = landscape (width > height), as the original does; `always`/`never` force it.
    public static func isCompact(_ monitor: MonitorGeometry, policy: CompactPolicy) -> Bool {
        switch policy {
        case .always: true
        case .never: false
        case .auto: monitor.isLandscape
        }
    }

    /// The appearance to draw on `monitor`.
    public static func effectiveAppearance(
        _ appearance: TopBannerAppearance, on monitor: MonitorGeometry, policy: CompactPolicy
    ) -> TopBannerAppearance {
        isCompact(monitor, policy: policy) ? appearance.compact : appearance
    }
}
