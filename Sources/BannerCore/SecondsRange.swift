// The ranges of the options that take seconds. A value outside one is a bad value like any
// other (one line naming it, exit 64), never a number that overflows later: 1e10 seconds
// would not fit the milliseconds libcurl counts in, nor a poll(2) timeout.

/// Seconds an option accepts: a finite number from ``minimum`` to ``maximum``.
public struct SecondsRange: Sendable, Hashable {
    /// How the error names the option: `check timeout`.
    public let name: String
    /// The smallest value accepted.
    public let minimum: Double
    /// The largest value accepted.
    public let maximum: Double

    /// A range named `name`.
    public init(name: String, minimum: Double, maximum: Double) {
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The longest duration any other option takes (a banner's `--timeout`, `--hide-delay`):
    /// a week. Longer than that is a sticky banner.
    public static let maximumDuration: Double = 604_800

    /// `text` as seconds in the range; throws naming it otherwise.
    public func parse(_ text: String) throws(BannerValueError) -> Double {
        guard let value = Double(text) else { throw .seconds(text, range: self) }
        return try check(value, written: text)
    }

    /// `value` when it is in the range; throws naming `written` (the value as the user wrote it)
    /// otherwise.
    public func check(_ value: Double, written: String) throws(BannerValueError) -> Double {
        guard value.isFinite, value >= minimum, value <= maximum else { throw .seconds(written, range: self) }
        return value
    }
}
