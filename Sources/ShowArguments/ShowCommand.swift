// `show`: its options as swift-argument-parser reads them, the request they make, and how the
// owner's answer becomes output and an exit code. The client and the owner (`show-arguments`,
// through ShowParser) parse a command line with this one type.

import ArgumentParser
import BannerConfig
import BannerCore
import OwnerIPC
import OwnerProtocol

package struct ShowCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a banner (or update the visible one in place) and return once it is on screen.",
        discussion: """
        Sticky by default: it stays until `window-banner dismiss`. --timeout S (or --transient, \
        2.5 s or the style's timeout) makes it go by itself. A banner already visible on the \
        monitor is replaced in place with a cross-fade; with --enqueue the new one waits for its \
        turn instead (FIFO), and --id KEY replaces a visible or queued banner with the same key. \
        --private holds a banner back while the screen is shared (it returns at once, as with \
        --enqueue). \
        Values come from the built-in defaults, then the config file's [defaults], then \
        --style NAME, then these flags.
        The user dismisses a banner by clicking it, by its close button (--close-button) or \
        action buttons (--action), or by turning the wheel up or dragging upwards over it (a \
        swipe). --on-click -- COMMAND ARGS… (last on the line) runs COMMAND when the banner \
        is clicked; --action LABEL=COMMAND ARGS… draws a button that runs COMMAND (split at \
        spaces); a second --action adds a secondary button left of the first. Commands run \
        without a shell, in this command's environment and working directory, detached; one \
        that cannot start is a warning in the owner's log. `window-banner action` clicks an \
        action button without the pointer.
        With --wait: prints why the banner ended and exits 0 (timeout), 10 (dismissed), \
        11 (replaced), 12 (clicked), 13 (closed), 14 (swiped), 15 (action) or 16 \
        (secondary-action). Other exit codes: \
        64 bad value, unknown monitor or style; 69 no display; 75 owner not reachable (temporary); 76 protocol version mismatch; 78 broken config file.
        """
    )

    @OptionGroup package var appearance: AppearanceOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("A named style from the config file (built in: offline, online, call, portal).", valueName: "name"))
    package var style: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Transient: dismiss after this many seconds.", valueName: "seconds"))
    package var timeout: String?

    @Flag(help: "Transient with the style's timeout, or 2.5 s.")
    package var transient = false

    @Flag(help: "Stay until dismissed, even if the style has a timeout (the default).")
    package var sticky = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Monitor to show on: a RandR monitor name, 'primary' or 'all'. Default: primary.", valueName: "name"))
    package var monitor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A key: replaces a visible or queued banner with the same key; `dismiss --id` takes it away.", valueName: "key"))
    package var id: String?

    @Flag(help: "Wait for the visible banner to go instead of replacing it.")
    package var enqueue = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Show this banner at most once per KEY, ever (remembered in $XDG_STATE_HOME/window-banner across restarts); later calls exit 0 and show nothing (--wait prints skipped).", valueName: "key"))
    package var once: String?

    @Flag(help: "Block until this banner is gone; print why (timeout, dismissed, replaced, clicked, closed, swiped, action, secondary-action).")
    package var wait = false

    @Flag(name: .customLong("private"), help: "Words that must not reach a shared screen: held back while `window-banner monitor` says the screen is shared, shown when sharing ends (a warning when nothing watches).")
    package var isPrivate = false

    @Flag(name: .customLong("on-click"), help: "When the user clicks the banner, run the command given after -- (no shell; this environment and directory).")
    package var onClick = false

    @OptionGroup package var connection: ConnectionOptions

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command --on-click runs, with its arguments.", valueName: "command"))
    package var command: [String] = []

    package func validate() throws {
        if sticky, timeout != nil || transient {
            throw ValidationError("--sticky cannot be combined with --timeout or --transient")
        }
        if onClick, command.isEmpty {
            throw ValidationError("--on-click needs a command after --: --on-click -- COMMAND ARGS…")
        }
        if !onClick, !command.isEmpty {
            throw ValidationError("a command after -- needs --on-click")
        }
    }

    /// True when a click may run a command: the owner then needs this process's environment
    /// and working directory.
    private var runsCommands: Bool {
        onClick || appearance.action.contains { (try? ActionSetting(parsing: $0))?.command.isEmpty == false }
    }

    package func run() throws {
        do {
            let request = try request(environment: processEnvironment(), directory: currentDirectory())
            guard var exchange = try connection.client().exchange(request, start: true, configPath: connection.configPath) else {
                throw CommandFailure("cannot start the owner", code: ExitStatus.unreachable)
            }
            defer { exchange.close() }
            let status = try Self.conclude(&exchange, wait: wait)
            if status != 0 { throw ExitCode(status) }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    /// The `show` request these arguments make, for a client with `environment` in `directory`
    /// (the owner builds the same one from a `show-arguments` request).
    package func request(environment: [String: String], directory: String?) throws(CommandFailure) -> OwnerRequest {
        var duration: Double?
        do {
            try appearance.settings.validate()
            if let timeout { duration = try seconds(timeout) }
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        let configPath = connection.noConfig ? nil : BannerConfig.defaultPath(environment: environment)
        let locale = UserLocale.variables(in: environment)
        // A third of the time the client waits for its owner: a keepalive or two may be late.
        let replyTimeout = try connection.replyTimeout(environment: environment)
        let keepalive = wait ? replyTimeout / 3 : nil
        return OwnerRequest(ShowRequest(
            settings: appearance.settings, style: style, configPath: configPath,
            sticky: sticky, transient: transient, timeout: duration, monitor: monitor ?? "primary",
            id: id, enqueue: enqueue, wait: wait, onClick: onClick ? command : nil,
            environment: runsCommands ? environment : nil,
            directory: runsCommands || appearance.icon != nil ? directory : nil,
            strictContrast: appearance.strictContrast ? true : nil, once: once,
            dataDirectories: XDGBaseDirectories.data(environment: environment),
            locale: locale.isEmpty ? nil : locale, keepalive: keepalive, private: isPrivate ? true : nil))
    }

    /// Turns the owner's answer to a `show` into output and an exit status: its warnings, and
    /// with `wait`, why the banner ended (waiting for it).
    package static func conclude(_ exchange: inout OwnerClient.Exchange, wait: Bool) throws(CommandFailure) -> Int32 {
        if let error = exchange.response.error { throw OwnerClient.failure(error) }
        for warning in exchange.response.warnings ?? [] { Terminal.warning(warning) }
        if exchange.response.shown?.state == .skipped {
            if wait { print("skipped") }
            return 0
        }
        guard wait else { return 0 }
        let keepalive = exchange.response.shown?.keepalive != nil
        let next = try exchange.next(keepalive: keepalive, while: "while show --wait waited for the banner to end")
        if let error = next?.error { throw OwnerClient.failure(error) }
        guard let ended = next?.ended else {
            throw CommandFailure("the owner went away before the banner ended", code: ExitStatus.unreachable)
        }
        print(ended.rawValue)
        return ExitStatus.wait(ended)
    }
}
