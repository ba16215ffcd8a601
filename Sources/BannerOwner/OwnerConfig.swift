// The config file as the owner sees it: each request names the file its client would read, and
// the owner re-reads a file only when its size or modification time changed, so an edit takes
// effect with the next `show` without restarting anything.

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import OwnerIPC
import OwnerProtocol

struct ConfigCache {
    private var loaded: [String: (stamp: FileStamp?, config: BannerConfig)] = [:]

    /// The style layer for a request: the file's defaults overlaid by style `name` (built-in
    /// styles only, with `--no-config`), a built-in title in the language of `locale` (the
    /// caller's locale variables), in high-contrast colours under a high-contrast desktop theme.
    mutating func style(
        _ name: String?, configPath: String?, locale: [String: String], desktopTheme: String? = nil
    ) throws(OwnerError) -> BannerStyle {
        let config = try self.config(at: configPath)
        do {
            return try config.resolve(style: name, highContrast: HighContrastTheme(themeName: desktopTheme)) { Translations.text($0, locale: locale) }
        } catch {
            throw OwnerError(error.isUnknownStyle ? .usage : .config, "\(error)")
        }
    }

    /// Keeps `config`, read from `path` when it had `stamp` (taken before the read), as if this
    /// cache had read it: the owner's start-up read serves its first `show` too.
    mutating func remember(_ config: BannerConfig, at path: String, stamp: FileStamp?) {
        loaded[path] = (stamp, config)
    }

    private mutating func config(at path: String?) throws(OwnerError) -> BannerConfig {
        guard let path else { return .builtIn }
        // nil for a file that is not there (or not yet): creating it later counts as a change.
        let stamp = FileStamp(path: path)
        if let cached = loaded[path], cached.stamp == stamp { return cached.config }
        do {
            let config = try BannerConfig.load(path: path)
            if loaded.count > 8 { loaded.removeAll() }
            loaded[path] = (stamp, config)
            return config
        } catch {
            throw OwnerError(.config, "\(error)")
        }
    }
}

/// The config file the daemon read at start-up, handed to the owner so the first `show` naming
/// it needs no second read.
package struct OwnerStartupConfig {
    package var path: String
    package var stamp: FileStamp?
    package var config: BannerConfig

    package init(path: String, stamp: FileStamp?, config: BannerConfig) {
        self.path = path
        self.stamp = stamp
        self.config = config
    }
}
