// What happened to the banners of each key — shown how often, and how each one ended — so a
// script can ask "did anyone click the update banner?" (`window-banner stats`). A banner counts
// under its `--id`, else its `--style`, else "-".
// The history is bounded, so that a pipeline naming every step's banner cannot grow it without
// end: the `maximumKeys` keys used most recently are kept, and a key is counted under its first
// `maximumKeyLength` bytes.

import BannerCore

/// Counts for one key.
public struct BannerCounts: Sendable, Hashable, Codable {
    /// Times a banner of this key came on screen.
    public var impressions = 0
    /// How the banners of this key ended, by reason (`clicked`, `closed`, `timeout`, …).
    public var ended: [String: Int] = [:]
    /// When a banner of this key last came on screen or ended, seconds since 1970 (nil in a
    /// file written before the history was bounded: such keys go first).
    public var last: Double?

    public init() {}

    /// Banners of this key that ended with `reason`.
    public func count(_ reason: BannerEndReason) -> Int { ended[reason.rawValue, default: 0] }
}

/// Counts per key, as the owner keeps them across restarts.
public struct BannerStats: Sendable, Hashable, Codable {
    /// Keys kept: when a new key would make one more, the least recently used one goes.
    public static let maximumKeys = 1000
    /// Longer keys are counted under their first this many bytes of UTF-8.
    public static let maximumKeyLength = 256

    public private(set) var keys: [String: BannerCounts] = [:]

    public init() {}

    /// Keys as a page of stats holds them (`window-banner stats` asks page by page).
    public init(keys: [String: BannerCounts]) {
        self.keys = keys
    }

    /// The key a banner counts under.
    public static func key(id: String?, style: String?) -> String { bounded(id ?? style ?? "-") }

    /// `key` cut to `maximumKeyLength` bytes, at a character boundary.
    public static func bounded(_ key: String) -> String {
        guard key.utf8.count > maximumKeyLength else { return key }
        var cut = ""
        for character in key {
            guard cut.utf8.count + String(character).utf8.count <= maximumKeyLength else { break }
            cut.append(character)
        }
        return cut
    }

    /// A banner of `key` came on screen at `now` (seconds since 1970).
    public mutating func recordImpression(_ key: String, at now: Double) {
        keys[key, default: BannerCounts()].impressions += 1
        keys[key]?.last = now
        trim()
    }

    /// A banner of `key` ended with `reason` at `now`.
    public mutating func recordEnd(_ key: String, reason: BannerEndReason, at now: Double) {
        keys[key, default: BannerCounts()].ended[reason.rawValue, default: 0] += 1
        keys[key]?.last = now
        trim()
    }

    /// The keys after `after` in name order, as many as fit in `budget` by `size` (at least
    /// one), and whether more follow: one page of `window-banner stats`.
    public func page(after: String?, budget: Int, size: (String, BannerCounts) -> Int) -> (page: BannerStats, more: Bool) {
        var page = BannerStats()
        var used = 0
        for key in keys.keys.sorted() where after.map({ key > $0 }) ?? true {
            guard let counts = keys[key] else { continue }
            let cost = size(key, counts)
            if !page.keys.isEmpty, used + cost > budget { return (page, true) }
            page.keys[key] = counts
            used += cost
        }
        return (page, false)
    }

    /// Keeps the `maximumKeys` most recently used keys (ties: by name, so the result does not
    /// depend on dictionary order). Also applied to a file read from disk.
    public mutating func trim() {
        guard keys.count > Self.maximumKeys else { return }
        let oldest = keys.sorted { ($0.value.last ?? 0, $0.key) < ($1.value.last ?? 0, $1.key) }
        for (key, _) in oldest.prefix(keys.count - Self.maximumKeys) { keys[key] = nil }
    }
}
