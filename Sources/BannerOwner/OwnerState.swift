// What the owner remembers across restarts, in `$XDG_STATE_HOME/window-banner/` (else
// `~/.local/state/window-banner/`, 0700): the `--once` keys already shown and the per-key
// stats. Changes are kept in memory at once and written by `saveChanges()`, which the owner
// calls once nothing moves on screen: a file sync never delays a frame. Every save writes a
// temporary file, syncs it and renames it over the old one, so a crash leaves either the old
// file or the new one, never half of either.
// Both are bounded (`maximumOnceKeys`, `BannerStats.maximumKeys`), and so is what is read back:
// a file larger than `maximumFileSize`, or one that is not what this program writes, is renamed
// to `NAME.corrupt-TIMESTAMP` beside it and reported, never silently replaced.

import BannerCore
import Glibc
import OwnerIPC
import OwnerProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package struct OwnerState {
    /// `--once` keys remembered: when one more is shown, the one shown longest ago is forgotten.
    package static let maximumOnceKeys = 4096

    /// `--once` keys that have been shown, with when (seconds since 1970).
    private(set) var shownOnce: [String: Double] = [:]
    package private(set) var stats = BannerStats()
    package let directory: String?
    /// Files whose contents changed since they were last written.
    private var unsaved: Set<String> = []
    /// One line per state file that could not be read, for the owner's log.
    package private(set) var problems: [String] = []

    /// Whether `saveChanges()` has anything to write.
    package var hasUnsavedChanges: Bool { !unsaved.isEmpty }

    /// The state under `directory` (nil: keep nothing on disk), read now. A file that cannot be
    /// read is moved aside (see `problems`) and the state starts without it.
    package init(directory: String?) {
        self.directory = directory
        guard let directory else { return }
        switch OwnerStateFiles.load([String: Double].self, from: directory + "/once.json") {
        case .success(let keys):
            shownOnce = keys ?? [:]
            trimOnce()
        case .failure(let problem):
            problems.append(Self.keepAside(directory + "/once.json", because: problem, starting: "with no --once keys"))
        }
        switch OwnerStateFiles.load(BannerStats.self, from: directory + "/stats.json") {
        case .success(let stats):
            self.stats = stats ?? BannerStats()
            self.stats.trim()
        case .failure(let problem):
            problems.append(Self.keepAside(directory + "/stats.json", because: problem, starting: "with empty stats"))
        }
    }

    package func wasShown(once key: String) -> Bool { shownOnce[BannerStats.bounded(key)] != nil }

    package mutating func markShown(once key: String) {
        shownOnce[BannerStats.bounded(key)] = Self.now()
        trimOnce()
        unsaved.insert("once.json")
    }

    package mutating func recordImpression(_ key: String) {
        stats.recordImpression(key, at: Self.now())
        unsaved.insert("stats.json")
    }

    package mutating func recordEnd(_ key: String, reason: BannerEndReason) {
        stats.recordEnd(key, reason: reason, at: Self.now())
        unsaved.insert("stats.json")
    }

    /// Writes every file that changed.
    package mutating func saveChanges() {
        if unsaved.contains("once.json") { save(shownOnce, as: "once.json") }
        if unsaved.contains("stats.json") { save(stats, as: "stats.json") }
        unsaved.removeAll()
    }

    /// Forgets the keys shown longest ago beyond `maximumOnceKeys`.
    private mutating func trimOnce() {
        guard shownOnce.count > Self.maximumOnceKeys else { return }
        let oldest = shownOnce.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        for (key, _) in oldest.prefix(shownOnce.count - Self.maximumOnceKeys) { shownOnce[key] = nil }
    }

    private static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec)
    }

    private func save(_ value: some Encodable, as name: String) {
        guard let directory else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return }
        try? SmallFile.write(Array(data), to: "\(directory)/\(name)", mode: 0o600)
    }

    /// Renames the unreadable file at `path` to `path.corrupt-YYYYMMDDTHHMMSSZ`; the line to log.
    private static func keepAside(_ path: String, because problem: OwnerStateFiles.Problem, starting: String) -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let length = strftime(&text, text.count, "%Y%m%dT%H%M%SZ", &parts)
        let stamp = String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let aside = "\(path).corrupt-\(stamp)"
        guard rename(path, aside) == 0 else {
            return "state file \(path) is \(problem) and cannot be moved aside (\(String(cString: strerror(errno)))); starting \(starting)"
        }
        return "state file \(path) is \(problem): kept as \(aside); starting \(starting)"
    }
}
