// `show`, `dismiss` and `status`: one short command each for scripts. They hand the request to
// the display's owner process (starting it for `show`) and turn its answer into output and an
// exit code; the owner keeps the banner after they return.

import ArgumentParser
import BannerConfig
import BannerCore
import OwnerProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            locale: locale.isEmpty ? nil : locale, keepalive: keepalive))
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

package struct DismissCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Slide the visible banner away (the next queued one, if any, takes its place).",
        discussion: """
        Without options: the visible banner on every monitor. Exits 0 also when there was \
        nothing to dismiss or no owner runs. Exit codes: 64 bad usage; 75 owner not reachable; \
        76 protocol version mismatch.
        """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Only this monitor: a RandR monitor name, 'primary' or 'all'.", valueName: "name"))
    package var monitor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only banners shown with --id KEY, visible or queued.", valueName: "key"))
    package var id: String?

    @Flag(help: "Also clear the queue.")
    package var all = false

    @Flag(help: "Dismiss everything and stop the owner process.")
    package var quit = false

    @OptionGroup package var connection: ConnectionOptions

    package func run() throws {
        let fields = DismissRequest(monitor: monitor, id: id, all: all || quit)
        let request = OwnerRequest(quit ? .quit(fields) : .dismiss(fields))
        do {
            guard let exchange = try connection.client().exchange(request, start: false, configPath: nil) else { return }
            exchange.close()
            if let error = exchange.response.error { throw OwnerClient.failure(error) }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }
}

package struct StatusCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print what the owner shows: banner, monitor, height, mode, remaining time, queue.",
        discussion: """
        Does not start an owner: with none running it reports no banner. The top-level JSON \
        fields describe the primary monitor's banner (or the first monitor showing one); \
        `monitors` lists each. --follow keeps running for a status bar: one line now, one per \
        change, and across owners that stop and start (docs/status-bars.md); --waybar prints \
        what waybar's custom module reads. Exit codes: 0 \
        (also when nothing shows, and for --follow on SIGINT, SIGTERM or a closed output); 64 \
        bad --format, or --waybar with --json or --format; 75 owner not reachable or silent; \
        76 protocol version mismatch.
        """
    )

    @Flag(help: "Print JSON instead of text.")
    package var json = false

    @Flag(help: "Keep running: a line now and one whenever the banner changes; never starts an owner, waits for the next one.")
    package var follow = false

    @Option(parsing: .unconditional, help: ArgumentHelp("One line from a template: {title} {subtitle} {style} {id} {remaining} {queue} {progress} {hidden}; empty when nothing shows.", valueName: "template"))
    package var format: String?

    @Flag(help: "Print waybar's JSON (a custom module with \"return-type\": \"json\"): text, tooltip, class, alt, percentage; markup-escaped.")
    package var waybar = false

    @OptionGroup package var connection: ConnectionOptions

    package func validate() throws {
        if json, format != nil { throw ValidationError("--format cannot be combined with --json") }
        if waybar, json || format != nil { throw ValidationError("--waybar cannot be combined with --\(json ? "json" : "format")") }
        if let format {
            do {
                _ = try StatusFormat(format)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    package func run() throws {
        do {
            let template = try format.map(StatusFormat.init)
            if follow {
                let line: (OwnerStatus?) -> String = waybar ? { WaybarStatus($0).line } : json ? { StatusReport($0).jsonLine } : { (template ?? .title).line(for: $0) }
                let code = try StatusFollower(paths: try OwnerPaths.forDisplay(connection.display), timeout: try connection.replyTimeout(environment: processEnvironment()), line: line).run()
                throw ExitCode(code)
            }
            let status: OwnerStatus?
            let exchange = try connection.client().exchange(.status, start: false, configPath: nil)
            exchange?.close()
            if let error = exchange?.response.error { throw OwnerClient.failure(error) }
            status = exchange?.response.status
            if let template {
                print(template.line(for: status))
                return
            }
            if waybar {
                print(WaybarStatus(status).line)
                return
            }
            output(StatusReport(status))
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    private func output(_ report: StatusReport) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}

package struct StatsCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print how often each banner key was shown and how its banners ended.",
        discussion: """
        A banner counts under its --id, else its --style, else "-". Counts survive owner \
        restarts ($XDG_STATE_HOME/window-banner/stats.json); with no owner running the file is \
        read directly. The \(BannerStats.maximumKeys) keys used most recently are kept. Columns: \
        shown, then one per way a banner ends (clicked, closed, swiped, action, \
        secondary-action, timeout, dismissed, replaced). Exit codes: 0; 75 owner not reachable; \
        76 protocol version mismatch.
        """
    )

    @Flag(help: "Print JSON instead of a table.")
    package var json = false

    @OptionGroup package var connection: ConnectionOptions

    package func run() throws {
        var keys: [String: BannerCounts] = [:]
        do {
            // Page by page, each the keys after the last one of the page before: the history
            // may hold more than one reply can carry.
            let client = try connection.client()
            var after: String?
            var asking = true
            var answered = false
            while asking, let exchange = try client.exchange(.stats(after: after), start: false, configPath: nil) {
                exchange.close()
                answered = true
                if let error = exchange.response.error { throw OwnerClient.failure(error) }
                let page = exchange.response.stats?.keys ?? [:]
                keys.merge(page) { $1 }
                after = page.keys.max()
                asking = exchange.response.more && after != nil
            }
            if !answered, let directory = OwnerState.defaultDirectory(environment: processEnvironment()) {
                switch OwnerState.stats(in: directory) {
                case .success(let stats): keys = stats.keys
                case .failure(let problem): Terminal.warning("\(directory)/stats.json is \(problem); the next owner keeps it aside")
                }
            }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
        let stats = BannerStats(keys: keys)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: (try? encoder.encode(stats)) ?? Data("{}".utf8), as: UTF8.self))
            return
        }
        let reasons: [BannerEndReason] = [.clicked, .closed, .swiped, .action, .secondaryAction, .timeout, .dismissed, .replaced]
        let header = ["key", "shown"] + reasons.map(\.rawValue)
        let rows = stats.keys.sorted { $0.key < $1.key }.map { key, counts in
            [key.printable, String(counts.impressions)] + reasons.map { String(counts.count($0)) }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            print(row.enumerated().map { column, text in
                column == 0 ? text.padding(toLength: widths[column]) : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  "))
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String { self + String(repeating: " ", count: max(0, length - count)) }
}

/// `status --json`: the headline banner at the top level, every monitor below.
package struct StatusReport: Encodable {
    package struct Owner: Encodable {
        var pid: Int
        var display: String
    }

    package var presented: Bool
    package var title: String?
    package var subtitle: String?
    package var id: String?
    package var monitor: String?
    package var height: Int?
    package var compact: Bool?
    package var mode: String?
    package var remaining: Double?
    /// Why the headline banner is not on screen (`locked`); nil when it shows.
    package var hidden: String?
    /// The headline banner's `--style`.
    package var style: String?
    /// The headline banner's progress bar, 0...1.
    package var progress: Double?
    /// The headline banner's action buttons' labels, the primary first.
    package var actions: [String]?
    /// Banners waiting, all monitors together.
    package var queue: Int
    package var owner: Owner?
    package var monitors: [MonitorStatus]

    package init(_ status: OwnerStatus?) {
        let monitors = status?.monitors ?? []
        let headline = monitors.first { $0.primary && $0.title != nil } ?? monitors.first { $0.title != nil }
        presented = headline?.presented ?? false
        title = headline?.title
        subtitle = headline?.subtitle
        id = headline?.id
        monitor = headline?.monitor
        height = headline?.height
        compact = headline?.compact
        mode = headline?.mode
        remaining = headline?.remaining
        hidden = headline?.hidden
        style = headline?.style
        progress = headline?.progress
        actions = headline?.actions
        queue = monitors.reduce(0) { $0 + $1.queue }
        owner = status.map { Owner(pid: $0.pid, display: $0.display) }
        self.monitors = monitors
    }

    /// The report as one compact JSON line (`status --follow --json`).
    package var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    package var text: String {
        guard let owner else { return "no banner (no owner running)" }
        var lines = ["owner: pid \(owner.pid) on \(owner.display)"]
        for monitor in monitors {
            let name = monitor.monitor + (monitor.primary ? " (primary)" : "")
            guard let title = monitor.title else {
                lines.append("\(name): no banner")
                continue
            }
            var details = [monitor.mode ?? "sticky"]
            if let remaining = monitor.remaining { details.append("\(BannerFont.format(remaining)) s left") }
            if let height = monitor.height { details.append("\(height) px") }
            if monitor.compact == true { details.append("compact") }
            if monitor.hidden == "locked" { details.append("hidden: the screen is locked") }
            if let id = monitor.id { details.append("id \(id.printable)") }
            if let actions = monitor.actions { details.append("actions " + actions.map { "\"\($0.printable)\"" }.joined(separator: " / ")) }
            details.append("queue \(monitor.queue)")
            let text = monitor.subtitle.map { "\"\(title.printable)\" / \"\($0.printable)\"" } ?? "\"\(title.printable)\""
            lines.append("\(name): \(text) — \(details.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}

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
