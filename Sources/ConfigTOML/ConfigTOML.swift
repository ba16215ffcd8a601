// Reading a config file's TOML, in the process that asked: toml++ parses it in one pass, values
// with the lines of their keys (TOMLDocument, through CTomlPlusPlus), ConfigReader walks the
// result and checks every value with BannerCore's rules, and ConfigFile is the one place that
// makes system calls.
// Only `window-banner-config` and the tests link this module; everything else calls
// `BannerConfig.load(path:)`, which runs that helper.

import BannerConfig

extension BannerConfig {
    /// The config in the file at `path` merged over `builtIn`, parsed here; `builtIn` itself
    /// when there is no such file. A file that exists but cannot be read (permissions, a
    /// directory, over `maximumFileSize`, not UTF-8) is an error.
    public static func read(path: String) throws(ConfigError) -> BannerConfig {
        guard let bytes = try ConfigFile.read(path: path) else { return builtIn }
        return try parse(ConfigFile.decodeUTF8(bytes, file: path), file: path)
    }

    /// The config `text` describes merged over `builtIn`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> BannerConfig {
        try ConfigReader(text: text, file: file).read()
    }
}
