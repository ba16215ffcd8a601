// The options every command that talks to the owner shares: which display's owner, how long to
// wait for it, whether to read the config file, and the session options.

import ArgumentParser
import BannerConfig
import BannerCore
import OwnerIPC

/// `--display`, `--owner-timeout`, `--no-config` and the session options, shared by the
/// commands that talk to the owner.
package struct ConnectionOptions: ParsableArguments {
    package init() {}

    @Option(parsing: .unconditional, help: ArgumentHelp("Display whose owner to use: an X display or a Wayland socket. Default: $WAYLAND_DISPLAY, else $DISPLAY, else the display of this user's running owner or of their active graphical session (docs/scripts.md).", valueName: "display"))
    package var display: String?

    @Option(name: .customLong("owner-timeout"), parsing: .unconditional, help: ArgumentHelp("Give up (exit 75) when the owner does not answer within this many seconds. Default: $WINDOW_BANNER_OWNER_TIMEOUT, else 5.", valueName: "seconds"))
    package var ownerTimeout: String?

    @Flag(name: .customLong("no-config"), help: "Ignore the config file (built-in defaults and styles only).")
    package var noConfig = false

    // The three below are acted on before parsing (SessionSearch, SessionRouting): they choose
    // where the command runs, and each chosen session runs it without them.
    @Option(parsing: .unconditional, help: ArgumentHelp("Without a display: 'active' (the default) is the user's active graphical session from logind, 'all' every one, or a logind session id.", valueName: "session"))
    package var session: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("As root: in this user's session, running as that user.", valueName: "name"))
    package var user: String?

    @Flag(name: .customLong("all-users"), help: "As root: in the session of every user logged in graphically, each as that user.")
    package var allUsers = false

    /// The config file this client would read; the owner reads it on its behalf.
    package var configPath: String? {
        noConfig ? nil : BannerConfig.defaultPath(environment: processEnvironment())
    }

    package func client() throws(CommandFailure) -> OwnerClient {
        OwnerClient(paths: try OwnerPaths.forDisplay(display), replyTimeout: try replyTimeout(environment: processEnvironment()))
    }

    /// Seconds to wait for the owner: `--owner-timeout`, else `$WINDOW_BANNER_OWNER_TIMEOUT`, else 5.
    package func replyTimeout(environment: [String: String]) throws(CommandFailure) -> Double {
        try Self.replyTimeout(flag: ownerTimeout, environment: environment)
    }

    /// The same from a flag's value as written.
    package static func replyTimeout(flag: String?, environment: [String: String]) throws(CommandFailure) -> Double {
        let variable = OwnerClient.timeoutVariable
        let (text, name) = flag.map { ($0, "--owner-timeout") } ?? (environment[variable].flatMap { $0.isEmpty ? nil : $0 }.map { ($0, variable) } ?? (nil, ""))
        guard let text else { return OwnerClient.defaultReplyTimeout }
        guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
            throw CommandFailure("bad \(name) '\(text.printable)' (seconds, greater than 0 and at most 86400)", code: ExitStatus.usage)
        }
        return value
    }
}
