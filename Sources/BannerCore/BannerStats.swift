// What happened to the banners of each key — shown how often, and how each one ended — so a
// script can ask "did anyone click the update banner?" (`window-banner stats`). A banner counts
// under its `--id`, else its `--style`, else "-".

/// Counts for one key.
public struct BannerCounts: Sendable, Hashable, Codable {
    /// Times a banner of this key came on screen.
    public var impressions = 0
    /// How the banners of this key ended, by reason (`clicked`, `closed`, `timeout`, …).
    public var ended: [String: Int] = [:]

    public init() {}

    /// Banners of this key that ended with `reason`.
    public func count(_ reason: BannerEndReason) -> Int { ended[reason.rawValue, default: 0] }
}

/// Counts per key, as the owner keeps them across restarts.
public struct BannerStats: Sendable, Hashable, Codable {
    public private(set) var keys: [String: BannerCounts] = [:]

    public init() {}

    /// The key a banner counts under.
    public static func key(id: String?, style: String?) -> String { id ?? style ?? "-" }

    /// A banner of `key` came on screen.
    public mutating func recordImpression(_ key: String) {
        keys[key, default: BannerCounts()].impressions += 1
    }

    /// A banner of `key` ended with `reason`.
    public mutating func recordEnd(_ key: String, reason: BannerEndReason) {
        keys[key, default: BannerCounts()].ended[reason.rawValue, default: 0] += 1
    }
}
