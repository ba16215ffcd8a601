// What the owner remembers across restarts, in `$XDG_STATE_HOME/window-banner/` (else
// `~/.local/state/window-banner/`, 0700): the `--once` keys already shown and the per-key
// stats. Changes are kept in memory at once and written by `saveChanges()`, which the owner
// calls once nothing moves on screen: a file sync never delays a frame. Every save writes a
// temporary file, syncs it and renames it over the old one, so a crash leaves either the old
// file or the new one, never half of either.

import BannerCore
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package struct OwnerState {
    /// `--once` keys that have been shown, with when (seconds since 1970).
    private(set) var shownOnce: [String: Double] = [:]
    package private(set) var stats = BannerStats()
    package let directory: String?
    /// Files whose contents changed since they were last written.
    private var unsaved: Set<String> = []

    /// Whether `saveChanges()` has anything to write.
    package var hasUnsavedChanges: Bool { !unsaved.isEmpty }

    /// The state under `directory` (nil: keep nothing on disk), read now.
    package init(directory: String?) {
        self.directory = directory
        guard let directory else { return }
        if let data = Self.read(directory + "/once.json"), let keys = try? JSONDecoder().decode([String: Double].self, from: data) {
            shownOnce = keys
        }
        if let data = Self.read(directory + "/stats.json"), let stats = try? JSONDecoder().decode(BannerStats.self, from: data) {
            self.stats = stats
        }
    }

    /// The state directory for this environment, created if needed; nil when there is no home.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.local/state"
        } else {
            return nil
        }
        var path = ""
        for part in (base + "/window-banner").split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
        return path
    }

    package func wasShown(once key: String) -> Bool { shownOnce[key] != nil }

    package mutating func markShown(once key: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        shownOnce[key] = Double(now.tv_sec)
        unsaved.insert("once.json")
    }

    package mutating func recordImpression(_ key: String) {
        stats.recordImpression(key)
        unsaved.insert("stats.json")
    }

    package mutating func recordEnd(_ key: String, reason: BannerEndReason) {
        stats.recordEnd(key, reason: reason)
        unsaved.insert("stats.json")
    }

    /// Writes every file that changed.
    package mutating func saveChanges() {
        if unsaved.contains("once.json") { save(shownOnce, as: "once.json") }
        if unsaved.contains("stats.json") { save(stats, as: "stats.json") }
        unsaved.removeAll()
    }

    /// The stats file of `directory` without an owner (for `stats` when none runs).
    package static func stats(in directory: String) -> BannerStats {
        read(directory + "/stats.json").flatMap { try? JSONDecoder().decode(BannerStats.self, from: $0) } ?? BannerStats()
    }

    private func save(_ value: some Encodable, as name: String) {
        guard let directory else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return }
        let temporary = "\(directory)/.\(name).\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(data)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, "\(directory)/\(name)") == 0 else {
            unlink(temporary)
            return
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func read(_ path: String) -> Data? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < 16 << 20 {
            let count = fread(&buffer, 1, buffer.count, file)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return Data(bytes)
    }
}
