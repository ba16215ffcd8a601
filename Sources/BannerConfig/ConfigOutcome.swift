// What `window-banner-config PATH` answers on stdout, as one JSON object: the file's settings,
// or why it cannot be used. The helper encodes it (with ConfigTOML's reading); the programs
// that must not parse TOML themselves decode it (`BannerConfig.load`, ConfigLoading.swift).

/// What `window-banner-config` answers: the config, or why the file cannot be used.
public struct ConfigOutcome: Codable, Sendable, Equatable {
    /// The file's settings merged over the built-in ones; nil when the file cannot be used.
    public var config: BannerConfig?
    /// Why the file cannot be used (file, line, key, message); nil when it can.
    public var error: ConfigError?

    /// A file that could be used.
    public init(config: BannerConfig) {
        self.config = config
        error = nil
    }

    /// A file that could not.
    public init(error: ConfigError) {
        config = nil
        self.error = error
    }
}
