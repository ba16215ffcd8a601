// The command line `show` starts a display's owner with, and its reading in the new owner.
// The two sit side by side so that every line `show` can write is one the owner reads without
// building the argument parser: that parser's first use costs a new process milliseconds on
// the way to the session's first banner (docs/performance.md, "The first banner of a session").

/// `daemon --display D --ready-fd 3`, then the config file the caller chose.
public struct OwnerStartLine: Equatable, Sendable {
    /// Which file the owner reads its [daemon] settings from.
    public enum ConfigFile: Equatable, Sendable {
        /// The default file ($XDG_CONFIG_HOME/window-banner/config.toml), read if it appears.
        case standard
        /// No file at all (`--no-config`).
        case none
        /// This file (`--config PATH`).
        case file(String)
    }

    public var display: String
    public var readyFD: Int32
    public var config: ConfigFile

    public init(display: String, readyFD: Int32 = 3, config: ConfigFile) {
        self.display = display
        self.readyFD = readyFD
        self.config = config
    }

    /// What `show` passes for `configPath` (nil: `--no-config`): a file that exists is named,
    /// one that does not yet leaves the owner to the default file.
    public init(display: String, configPath: String?, exists: (String) -> Bool) {
        let config: ConfigFile
        if let configPath {
            config = exists(configPath) ? .file(configPath) : .standard
        } else {
            config = .none
        }
        self.init(display: display, config: config)
    }

    /// The arguments after the program's path.
    public var arguments: [String] {
        let head = ["daemon", "--display", display, "--ready-fd", String(readyFD)]
        switch config {
        case .standard: return head
        case .none: return head + ["--no-config"]
        case .file(let path): return head + ["--config", path]
        }
    }

    /// Reads a line `arguments` wrote; any other command line is nil (the argument parser
    /// reads it, with its checks and messages).
    public init?(reading arguments: [String]) {
        guard arguments.count >= 5, arguments[0] == "daemon", arguments[1] == "--display", !arguments[2].hasPrefix("-"),
              arguments[3] == "--ready-fd", let fd = Int32(arguments[4]), fd >= 3 else { return nil }
        let rest = arguments[5...]
        let config: ConfigFile
        if rest.isEmpty {
            config = .standard
        } else if rest.count == 1, rest.first == "--no-config" {
            config = .none
        } else if rest.count == 2, rest.first == "--config", let path = rest.last, !path.hasPrefix("-") {
            config = .file(path)
        } else {
            return nil
        }
        self.init(display: arguments[2], readyFD: fd, config: config)
    }
}
