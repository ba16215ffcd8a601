// How urgently a screen reader should speak a banner: AT-SPI's `live` object attribute, the
// politeness of ARIA live regions. Losing the network or a call coming in interrupts what the
// user is hearing; a finished backup waits for a pause.

/// The user's choice (`--politeness`, config key `politeness`).
public enum Politeness: String, Sendable, CaseIterable, Codable, SettingWord {
    /// Interrupts whatever the screen reader is saying.
    case assertive
    /// Waits until the screen reader is done speaking.
    case polite

    /// `assertive` or `polite`, in any case.
    public static func badValue(_ text: String) -> BannerValueError { .politeness(text) }
}
