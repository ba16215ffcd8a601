// `window-banner monitor`: the original's network banners, driven by the kernel's own view of
// the network and, since a default route is not the internet, by a connectivity source
// (`--connectivity`): NetworkManager's `Connectivity` property over the system bus
// (NetworkManagerBus, sd-bus), or the monitor's own HTTP check (NetworkPath's HTTPCheck, libcurl).
// NetworkPath's rtnetlink monitor says whether there is a route, BannerCore's
// ConnectivityCheck rules turn route + source into offline / portal / online, its
// ConnectivityBannerPolicy decides which banner shows and when the "Back Online" one goes, and
// the display's owner process shows them — the monitor holds no display connection, so its
// banners queue, replace and report like any `show --id window-banner-monitor`, and it ends
// with the display when the owner says the display went away (while a banner of ours is up). One poll loop serves
// the netlink socket, the bus, the check's sockets and timer, the timers, signals, and the owner
// connection that says when someone else took our banner away. Nothing is polled.
// Start reading at `MonitorCommand.run()`, then `NetworkBannerMonitor.networkChanged(to:)`.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerMonitor
import BannerProcess
import BannerRuntime
import CMalloc
import Glibc
import NetworkPath
import OwnerIPC
import OwnerProtocol
import PipeWireCalls
import Reactor
import ShowArguments
import WindowBannerClient

struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Show the offline banner while there is no internet path, and \"Back Online\" when it returns.",
        discussion: """
        Watches links, addresses and default routes over rtnetlink (no polling). Offline: the \
        offline banner, until the network is back. Back online while the offline banner shows: \
        the restored banner for --hide-delay seconds. Nothing shows at start-up when online. The \
        banners are shown by the display's owner process (started if needed) with --id \
        \(NetworkBannerMonitor.bannerID), so the monitor only ever replaces or dismisses its own; \
        if the owner cannot be reached it warns on stderr and tries again at the next change.
        Connectivity (--connectivity): with a route, `networkmanager` asks NetworkManager and \
        `http` fetches --check-url at each route change and every --check-interval seconds; \
        none, limited, no answer or an answer that breaks HTTP or a limit (one warning on \
        stderr) show the offline banner, a captive portal the portal banner \
        ("Sign in to Network"; a click opens the portal with xdg-open). `auto` uses \
        NetworkManager when it is on the system bus, else `routes` (a default route is online).
        Each banner's look: the built-in defaults, the config file's [defaults], its style \
        (--offline-style, --restored-style, --portal-style), then its flags; [monitor] in the \
        config file sets connectivity, check-url, check-expect, check-interval, check-timeout.
        Output: one line per event on stdout, flushed at once: an ISO 8601 UTC timestamp with \
        milliseconds, a space, then one of: `connectivity from SOURCE [(why)]` (first), \
        `online via IFACE [ipv4] [ipv6] [expensive]`, `offline`, `connectivity LEVEL (why)` \
        (none, portal, limited, full or unknown), `offline banner shown`, `portal banner shown`, \
        `restored banner shown`, `restored banner hidden`, \
        `offline banner hidden`, `BANNER banner dismissed by another client`, `BANNER banner \
        dismissed by the user (clicked|closed|swiped|action)`, `BANNER banner replaced by \
        another client`, `BANNER banner gone: the owner exited`, `stopped (SIGNAL)`. \
        The first line is the state at start-up.
        Calls (--calls, or calls = true under [monitor]; --no-network for calls alone): \
        "Call in progress" with the apps as its subtitle while an app captures a microphone or \
        camera through PipeWire, with --id \(CallBannerMonitor.bannerID), queued behind any \
        banner on screen; it prints `calls from PipeWire`, `call banner shown (APPS)`, `call \
        banner hidden`, `waiting for PipeWire (why)`, `PipeWire is back`, `lost PipeWire: why` \
        (see docs/calls.md).
        Screen sharing (--sharing, or sharing = true; on with --calls unless --no-sharing): \
        "You are sharing your screen" with the apps as its subtitle while an app reads a screen \
        cast, with --id \(CallBannerMonitor.sharingBannerID); during a call the call banner says \
        it instead. It prints `screen shared by APPS`, `screen sharing ended`, `sharing banner \
        shown (APPS)`, `sharing banner hidden`.
        Exit codes: 0 stopped by SIGTERM, SIGINT or SIGHUP (its banner dismissed first); 64 bad \
        value or unknown style; 69 no display; 70 internal error; 71 the network monitor failed \
        (rtnetlink, the system bus or NetworkManager with --connectivity networkmanager, or \
        libcurl with --connectivity http), or with --calls --no-network libpipewire cannot be \
        loaded; 78 broken config file.
        """
    )

    @OptionGroup(title: "Offline banner")
    var offline: MonitorBannerOptions<OfflineBanner>

    @OptionGroup(title: "Restored banner")
    var restored: MonitorBannerOptions<RestoredBanner>

    @OptionGroup(title: "Portal banner")
    var portal: MonitorBannerOptions<PortalBanner>

    @OptionGroup(title: "Connectivity")
    var connectivity: ConnectivityOptions

    @OptionGroup(title: "Calls")
    var calls: CallOptions

    @OptionGroup(title: "Call banner")
    var call: MonitorBannerOptions<CallBanner>

    @OptionGroup(title: "Sharing banner")
    var sharing: MonitorBannerOptions<SharingBanner>

    @Option(name: .customLong("hide-delay"), parsing: .unconditional, help: ArgumentHelp("Seconds the restored banner stays. Default: \(BannerFont.format(ConnectivityBannerPolicy.defaultHideDelay)).", valueName: "seconds"))
    var hideDelay: String?

    @Option(help: ArgumentHelp("Monitor to show on: a RandR monitor name, 'primary' or 'all'. Default: all.", valueName: "name"))
    var monitor: String?

    @Option(help: ArgumentHelp("Where both banners go: below-panels (under the status bars at the monitor's top edge) or screen-edge (over them); --offline-placement and --restored-placement win. Default: the style's, else below-panels.", valueName: "below-panels|screen-edge"))
    var placement: String?

    @Flag(name: .customLong("no-system"), help: "No system notices: neither a shutdown or restart that logind has scheduled nor \"Restart required\" after an update. Default: shown.")
    var noSystem = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        do {
            // Values first: a bad flag is reported as such even without a display.
            let config = try loadConfig()
            let fileSettings = config.monitor ?? MonitorSettings()
            let callSettings = try calls.settings(fileSettings)
            let requests = try showRequests(config)
            let hideDelay = try hideDelaySeconds()
            let settings = try connectivity.settings(fileSettings, environment: processEnvironment())
            let callRequest = try callSettings.watch ? watcherShowRequest(config, role: call, id: CallBannerMonitor.bannerID) : nil
            let sharingRequest = try callSettings.sharing ? watcherShowRequest(config, role: sharing, id: CallBannerMonitor.sharingBannerID) : nil
            // Short waits: while the monitor waits on the owner it hears no network or call change.
            var owner = try connection.client()
            owner.startTimeout = 5
            owner.replyTimeout = 2
            let loop = EventLoop()
            var callMonitor: CallBannerMonitor?
            if callRequest != nil || sharingRequest != nil {
                let what = callRequest == nil ? "screen sharing" : "calls"
                if let reason = CallBannerMonitor.unavailableReason {
                    // Calls alone and nothing to watch them with: nothing to do at all.
                    guard !calls.noNetwork else {
                        throw CommandFailure("cannot watch \(what): cannot load libpipewire: \(reason)", code: ExitStatus.networkMonitorFailed)
                    }
                    Terminal.warning("\(what) \(callRequest == nil ? "is" : "are") not watched: cannot load libpipewire: \(reason)")
                } else {
                    callMonitor = CallBannerMonitor(
                        loop: loop, calls: callRequest, sharing: sharingRequest,
                        rule: CallRule(ignoring: callSettings.ignored, ignoringSharing: callSettings.sharingIgnored, ownPID: getpid()),
                        hideDelay: callSettings.hideDelay, banners: OwnerBanners(owner: owner, configPath: connection.configPath, loop: loop),
                        environment: processEnvironment(),
                        log: { Terminal.output(NetworkBannerMonitor.timestamp() + " " + $0) })
                }
            }
            // Going idle after start-up (PipeWire's graph heard, or waited for) and after each
            // change of the call banner, the heap's free pages and the code that work touched
            // (libpipewire's, the owner client's) leave the resident set, as the owner's do: the
            // next change maps what it uses again from the page cache. Never a wakeup of its own.
            var releaseWhenIdle = true
            callMonitor?.onBannerChanged = { releaseWhenIdle = true }
            loop.beforeSleep {
                guard releaseWhenIdle, callMonitor?.hasStarted ?? true else { return }
                releaseWhenIdle = false
                _ = malloc_trim(0)
                _ = wb_release_file_pages()
            }
            // The admin's broadcasts and the system's notices: one monitor per session shows them.
            let notices = try sessionNotices(config: config, owner: owner, loop: loop)
            notices.onBannerChanged = { releaseWhenIdle = true }
            if calls.noNetwork {
                guard callMonitor != nil || !notices.isEmpty else {
                    if notices.heldElsewhere {
                        Terminal.output(NetworkBannerMonitor.timestamp() + " another monitor shows this session's notices: nothing to do")
                        return
                    }
                    throw CommandFailure("--no-network leaves nothing to watch: add --calls or --sharing (or calls = true under [monitor]), or drop --no-system", code: ExitStatus.usage)
                }
                throw ExitCode(try Self.serveAlone(start: { callMonitor?.start(); notices.start() }, stop: { callMonitor?.stop(); notices.stop() }, loop: loop))
            }
            let monitor = try NetworkBannerMonitor(
                requests: requests, hideDelay: hideDelay, connectivity: settings, owner: owner, configPath: connection.configPath, loop: loop)
            monitor.onStop = { callMonitor?.stop(); notices.stop() }
            callMonitor?.start()
            notices.start()
            throw ExitCode(try monitor.run())
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    /// `--no-network`: the call watcher and the session's notices on `loop`, until a signal.
    private static func serveAlone(start: () -> Void, stop: @escaping () -> Void, loop: EventLoop) throws(CommandFailure) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) else {
            throw CommandFailure("cannot set up signal handling", code: ExitStatus.internalError)
        }
        var stopped = false
        loop.watch(fd: signals.readEnd) {
            _ = signals.drain()
            stop()
            stopped = true
            loop.stop()
        }
        start()
        loop.run { stopped }
        return 0
    }

    /// The broadcasts and system notices this monitor shows, unless another monitor of the
    /// session already does (SessionNotices' lock) or `--no-system` turns the system's off.
    private func sessionNotices(config: BannerConfig, owner: OwnerClient, loop: EventLoop) throws(CommandFailure) -> SessionNotices {
        let locale = UserLocale.variables(in: processEnvironment())
        let base = ShowRequest(
            settings: AppearanceSettings(placement: placement), configPath: connection.configPath, sticky: true,
            monitor: monitor ?? "all", enqueue: true, wait: true, locale: locale.isEmpty ? nil : locale)
        return SessionNotices(
            system: !noSystem, display: owner.paths.display, base: base, banners: OwnerBanners(owner: owner, configPath: connection.configPath, loop: loop),
            loop: loop, environment: processEnvironment(), readShutdown: SystemNoticeWatcher.askLogind,
            log: { Terminal.output(NetworkBannerMonitor.timestamp() + " " + $0) })
    }

    /// The call or sharing banner's request: the role's style (`call`, `sharing`, or
    /// `--call-style`…) with its flags on top, sticky, its own id; the subtitle (the apps) is
    /// set for each call or share.
    private func watcherShowRequest<Role>(_ config: BannerConfig, role: MonitorBannerOptions<Role>, id: String) throws(CommandFailure) -> ShowRequest {
        do throws(ConfigError) {
            _ = try config.resolve(style: role.styleName)
        } catch {
            throw CommandFailure("\(error)", code: error.isUnknownStyle ? ExitStatus.usage : ExitStatus.config)
        }
        let settings = AppearanceSettings(placement: placement).overlaid(by: role.settings)
        do throws(BannerValueError) {
            try settings.validate()
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        let locale = UserLocale.variables(in: processEnvironment())
        // Queued: a banner on screen (the offline banner, a script's) is not replaced by it.
        return ShowRequest(
            settings: settings, style: role.styleName, configPath: connection.configPath, sticky: true,
            monitor: monitor ?? "all", id: id, enqueue: true, wait: true, locale: locale.isEmpty ? nil : locale)
    }

    private func hideDelaySeconds() throws(CommandFailure) -> Double {
        guard let hideDelay else { return ConnectivityBannerPolicy.defaultHideDelay }
        do {
            return try seconds(hideDelay)
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
    }

    /// The config file, or the built-in one with `--no-config`.
    private func loadConfig() throws(CommandFailure) -> BannerConfig {
        do throws(ConfigError) {
            return try connection.configPath.map { path throws(ConfigError) in try BannerConfig.load(path: path) } ?? .builtIn
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.config)
        }
    }

    /// The three banners' requests, every value checked now rather than at the first network
    /// change (only X11 colour names wait for the owner's server to judge them).
    private func showRequests(_ config: BannerConfig) throws(CommandFailure) -> [NetworkBannerMonitor.Banner: ShowRequest] {
        do throws(ConfigError) {
            _ = try config.resolve(style: offline.styleName)
            _ = try config.resolve(style: restored.styleName)
            _ = try config.resolve(style: portal.styleName)
        } catch {
            throw CommandFailure("\(error)", code: error.isUnknownStyle ? ExitStatus.usage : ExitStatus.config)
        }
        let shared = AppearanceSettings(placement: placement)
        let offlineSettings = shared.overlaid(by: offline.settings)
        let restoredSettings = shared.overlaid(by: restored.settings)
        let portalSettings = shared.overlaid(by: portal.settings)
        do throws(BannerValueError) {
            try offlineSettings.validate()
            try restoredSettings.validate()
            try portalSettings.validate()
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        // Sticky, both: the policy owns the timing, and the monitor dismisses the restored
        // banner itself when the hide delay is up (a built-in `online` style would otherwise
        // time out on its own schedule).
        let locale = UserLocale.variables(in: processEnvironment())
        func request(_ settings: AppearanceSettings, style: String) -> ShowRequest {
            ShowRequest(
                settings: settings, style: style, configPath: connection.configPath, sticky: true,
                monitor: monitor ?? "all", id: NetworkBannerMonitor.bannerID, wait: true,
                locale: locale.isEmpty ? nil : locale)
        }
        return [
            .offline: request(offlineSettings, style: offline.styleName),
            .restored: request(restoredSettings, style: restored.styleName),
            .portal: request(portalSettings, style: portal.styleName),
        ]
    }
}

/// `--calls` and its flags, as written; the config file's `[monitor]` keys fill what they leave out.
struct CallOptions: ParsableArguments {
    @Flag(name: .customLong("calls"), help: "Also show the call banner while an app captures a microphone or camera (PipeWire). Default: the config file's `calls`, else off.")
    var watch = false

    @Flag(name: .customLong("no-network"), help: "No network banners: only the broadcasts, the system's notices and, with --calls or --sharing, calls and screen sharing (what the session's own monitor, window-banner-notices, runs).")
    var noNetwork = false

    @Option(name: .customLong("calls-ignore"), parsing: .unconditionalSingleValue, help: ArgumentHelp("An app whose captures are no call, matched against its name, binary and Flatpak id (repeatable). Default: the config file's `calls-ignore`.", valueName: "name"))
    var ignore: [String] = []

    @Option(name: .customLong("calls-hide-delay"), parsing: .unconditional, help: ArgumentHelp("Seconds the call or sharing banner stays after the last capture stops, 0 to 3600. Default: the config file's, else \(BannerFont.format(CallBannerPolicy.defaultHideDelay)).", valueName: "seconds"))
    var hideDelay: String?

    @Flag(name: .customLong("sharing"), inversion: .prefixedNo, help: "Show the sharing banner while an app shares the screen (PipeWire). Default: the config file's `sharing`, else on with --calls.")
    var sharing: Bool?

    @Option(name: .customLong("sharing-ignore"), parsing: .unconditionalSingleValue, help: ArgumentHelp("An app whose screen casts are not sharing (a recorder such as OBS), matched as --calls-ignore (repeatable). Default: the config file's `sharing-ignore`.", valueName: "name"))
    var sharingIgnore: [String] = []

    /// What the flags and the config file's `[monitor]` say together.
    func settings(_ file: MonitorSettings) throws(CommandFailure) -> (watch: Bool, sharing: Bool, ignored: [String], sharingIgnored: [String], hideDelay: Double) {
        var delay = file.callsHideDelay ?? CallBannerPolicy.defaultHideDelay
        if let hideDelay {
            guard let seconds = Double(hideDelay), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw CommandFailure("bad --calls-hide-delay '\(hideDelay.printable)' (seconds, 0 to 3600)", code: ExitStatus.usage)
            }
            delay = seconds
        }
        for name in ignore where name.isEmpty || name.count > 256 {
            throw CommandFailure("bad --calls-ignore '\(name.printable)' (an app name of 1 to 256 characters)", code: ExitStatus.usage)
        }
        for name in sharingIgnore where name.isEmpty || name.count > 256 {
            throw CommandFailure("bad --sharing-ignore '\(name.printable)' (an app name of 1 to 256 characters)", code: ExitStatus.usage)
        }
        let calls = watch || file.calls == true
        // --calls brings sharing with it: a call is when screens are shared.
        let sharing = self.sharing ?? file.sharing ?? calls
        return (calls, sharing, ignore + (file.callsIgnore ?? []), sharingIgnore + (file.sharingIgnore ?? []), delay)
    }
}

/// `--connectivity` and the HTTP check's flags, as written; the config file's `[monitor]`
/// keys fill what they leave out.
struct ConnectivityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where the monitor learns whether the internet answers: auto (NetworkManager when it is on the system bus, else routes), networkmanager, http (its own check of --check-url) or routes (a default route counts as online). Default: the config file's, else auto.", valueName: "auto|networkmanager|http|routes"))
    var connectivity: String?

    @Option(name: .customLong("check-url"), help: ArgumentHelp("URL of the HTTP check (http://, which a portal can redirect; https:// behind a portal reads as limited), and the sign-in page a click on the portal banner opens when no redirect named one. Default: the config file's, else \(CheckURL.default).", valueName: "url"))
    var checkURL: String?

    @Option(name: .customLong("check-expect"), parsing: .unconditional, help: ArgumentHelp("Text the check's answer must start with (HTTP 2xx) to count as online. Default: the config file's, else none: HTTP 204 counts.", valueName: "text"))
    var checkExpect: String?

    @Option(name: .customLong("check-interval"), parsing: .unconditional, help: ArgumentHelp("Seconds between HTTP checks while a route exists (each route change checks at once), 1 to 604800. Default: the config file's, else \(BannerFont.format(HTTPCheckRule.defaultInterval)).", valueName: "seconds"))
    var checkInterval: String?

    @Option(name: .customLong("check-timeout"), parsing: .unconditional, help: ArgumentHelp("Seconds one HTTP check may take, from the name lookup to the answer, 0.1 to 300; no answer by then counts as limited. Default: the config file's, else \(BannerFont.format(HTTPCheckRule.defaultTimeout)).", valueName: "seconds"))
    var checkTimeout: String?

    /// Every value checked, flags over `file` over the defaults.
    func settings(_ file: MonitorSettings, environment: [String: String]) throws(CommandFailure) -> ConnectivitySettings {
        let settings: ConnectivitySettings
        do throws(BannerValueError) {
            let source = try connectivity.map { text throws(BannerValueError) in try ConnectivitySource(parsing: text) } ?? file.connectivity ?? .default
            let url = try CheckURL(checkURL ?? file.checkURL ?? CheckURL.default)
            let interval = try checkInterval.map { text throws(BannerValueError) in try HTTPCheckRule.intervalRange.parse(text) }
                ?? file.checkInterval ?? HTTPCheckRule.defaultInterval
            let timeout = try checkTimeout.map { text throws(BannerValueError) in try HTTPCheckRule.timeoutRange.parse(text) }
                ?? file.checkTimeout ?? HTTPCheckRule.defaultTimeout
            settings = ConnectivitySettings(
                source: source, rule: HTTPCheckRule(url: url, expectedBody: checkExpect ?? file.checkExpect),
                interval: interval, timeout: timeout, localOnly: environment[ConnectivitySettings.localOnlyVariable] == "1")
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        // The check itself goes out only with `http`; other sources find out later whether
        // they would use the URL (NetworkManager's portal opens it).
        if settings.source == .http { try settings.refuseUnlessAllowed() }
        return settings
    }
}

/// One of the monitor's two banners: the prefix of its flags and the style it uses by default.
protocol MonitorBannerRole {
    /// `offline` or `restored`: flags are `--offline-title` and so on.
    static var name: String { get }
    /// The config style used without `--NAME-style`.
    static var defaultStyle: String { get }
}

/// The banner shown while offline.
enum OfflineBanner: MonitorBannerRole {
    static let name = "offline"
    static let defaultStyle = "offline"
}

/// The banner shown when the network comes back ("Back Online").
enum RestoredBanner: MonitorBannerRole {
    static let name = "restored"
    static let defaultStyle = "online"
}

/// The banner shown behind a captive portal ("Sign in to Network"); a click opens the portal.
enum PortalBanner: MonitorBannerRole {
    static let name = "portal"
    static let defaultStyle = "portal"
}

/// The banner shown while an app captures a microphone or camera (`--calls`).
enum CallBanner: MonitorBannerRole {
    static let name = "call"
    static let defaultStyle = "call"
}

/// The banner shown while an app shares the screen (`--sharing`).
enum SharingBanner: MonitorBannerRole {
    static let name = "sharing"
    static let defaultStyle = "sharing"
}

/// `--offline-…` or `--restored-…`: a style and every appearance field, as written.
struct MonitorBannerOptions<Role: MonitorBannerRole>: ParsableArguments {
    @Option(name: .customLong("\(Role.name)-style"), help: ArgumentHelp("Config file style of the \(Role.name) banner; the flags below go on top. Default: \(Role.defaultStyle) (built in: \(MonitorHelp.builtInLook(of: Role.defaultStyle))).", valueName: "name"))
    var style: String?

    @Option(name: .customLong("\(Role.name)-title"), parsing: .unconditional, help: AppearanceField.monitorHelp("title", role: Role.name))
    var title: String?

    @Option(name: .customLong("\(Role.name)-background"), help: AppearanceField.monitorHelp("background", role: Role.name))
    var background: String?

    @Option(name: .customLong("\(Role.name)-text-color"), help: AppearanceField.monitorHelp("text-color", role: Role.name))
    var textColor: String?

    @Option(name: .customLong("\(Role.name)-height"), parsing: .unconditional, help: AppearanceField.monitorHelp("height", role: Role.name))
    var height: String?

    @Option(name: .customLong("\(Role.name)-title-top-inset"), parsing: .unconditional, help: AppearanceField.monitorHelp("title-top-inset", role: Role.name))
    var titleTopInset: String?

    @Option(name: .customLong("\(Role.name)-font"), help: AppearanceField.monitorHelp("font", role: Role.name))
    var font: String?

    @Option(name: .customLong("\(Role.name)-subtitle"), parsing: .unconditional, help: AppearanceField.monitorHelp("subtitle", role: Role.name))
    var subtitle: String?

    @Option(name: .customLong("\(Role.name)-subtitle-font"), help: AppearanceField.monitorHelp("subtitle-font", role: Role.name))
    var subtitleFont: String?

    @Option(name: .customLong("\(Role.name)-compact"), help: AppearanceField.monitorHelp("compact", role: Role.name))
    var compact: String?

    @Option(name: .customLong("\(Role.name)-placement"), help: AppearanceField.monitorHelp("placement", role: Role.name))
    var placement: String?

    /// `--NAME-style`, or the role's default style.
    var styleName: String { style ?? Role.defaultStyle }

    /// The flags as one layer of settings, exactly as written; the owner lays it over the style.
    var settings: AppearanceSettings {
        AppearanceSettings(
            title: title, background: background, textColor: textColor, height: height,
            titleTopInset: titleTopInset, font: font, compact: compact, subtitle: subtitle, subtitleFont: subtitleFont,
            placement: placement)
    }
}

/// Help text drawn from the built-in styles, so it cannot drift from them.
enum MonitorHelp {
    static func builtInLook(of style: String) -> String {
        guard let look = BannerConfig.builtIn.styles[style]?.appearance else { return "none" }
        return "\"\(look.title ?? "")\" on \(look.background ?? "the default background")"
    }
}

