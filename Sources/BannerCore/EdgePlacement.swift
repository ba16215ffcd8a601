// Where the banner goes at the top of its monitor: under the status bars and other panels that
// already reserve space there (the desktop's "safe area"), or at the screen's edge over them.

/// A setting written as one of a few words (`--placement screen-edge`, `compact = "never"`):
/// any case is accepted, anything else is `badValue`'s error naming what was written.
public protocol SettingWord: RawRepresentable, CaseIterable where RawValue == String {
    /// The error for `text`, which is none of the words.
    static func badValue(_ text: String) -> BannerValueError
}

extension SettingWord {
    /// The word `text` names, in any case.
    public init(parsing text: String) throws(BannerValueError) {
        guard let value = Self(rawValue: text.lowercased()) else { throw Self.badValue(text) }
        self = value
    }
}

/// The user's choice (`--placement`, config key `placement`).
public enum EdgePlacement: String, Sendable, CaseIterable, Codable, SettingWord {
    /// Directly under what other clients reserve at the monitor's top edge (their struts); the
    /// banner reserves the panels' rows and its own, so the panels stay visible and clickable.
    case belowPanels = "below-panels"
    /// At the monitor's top edge, covering any panel there.
    case screenEdge = "screen-edge"

    /// `below-panels` or `screen-edge`, in any case.
    public static func badValue(_ text: String) -> BannerValueError { .placement(text) }
}

/// What a banner does on a monitor where a full-screen window has the focus (a video, a
/// presentation, a game): full-screen windows ignore struts, so a banner there covers their top.
public enum FullscreenPolicy: String, Sendable, CaseIterable, Codable, SettingWord {
    /// Show it anyway, over the top of the full-screen window (dunst's default).
    case show
    /// Keep it off the screen until the full-screen window ends or loses the focus; it stays
    /// presented meanwhile (a transient banner's timeout keeps running).
    case delay

    /// `show` or `delay`, in any case.
    public static func badValue(_ text: String) -> BannerValueError { .fullscreenPolicy(text) }
}
