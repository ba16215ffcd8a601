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
import BannerRuntime
import CMalloc
import Glibc
import NetworkManagerBus
import NetworkPath
import OwnerProtocol
import PipeWireCalls
import SDBus
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

    @Option(name: .customLong("hide-delay"), parsing: .unconditional, help: ArgumentHelp("Seconds the restored banner stays. Default: \(BannerFont.format(ConnectivityBannerPolicy.defaultHideDelay)).", valueName: "seconds"))
    var hideDelay: String?

    @Option(help: ArgumentHelp("Monitor to show on: a RandR monitor name, 'primary' or 'all'. Default: all.", valueName: "name"))
    var monitor: String?

    @Option(help: ArgumentHelp("Where both banners go: below-panels (under the status bars at the monitor's top edge) or screen-edge (over them); --offline-placement and --restored-placement win. Default: the style's, else below-panels.", valueName: "below-panels|screen-edge"))
    var placement: String?

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
            let callRequest = try callSettings.watch ? callShowRequest(config) : nil
            // Short waits: while the monitor waits on the owner it hears no network or call change.
            var owner = try connection.client()
            owner.startTimeout = 5
            owner.replyTimeout = 2
            let loop = EventLoop()
            var callMonitor: CallBannerMonitor?
            if let callRequest {
                if let reason = CallBannerMonitor.unavailableReason {
                    // Calls alone and nothing to watch them with: nothing to do at all.
                    guard !calls.noNetwork else {
                        throw CommandFailure("cannot watch calls: cannot load libpipewire: \(reason)", code: ExitStatus.networkMonitorFailed)
                    }
                    Terminal.warning("calls are not watched: cannot load libpipewire: \(reason)")
                } else {
                    callMonitor = CallBannerMonitor(
                        loop: loop, request: callRequest, rule: CallRule(ignoring: callSettings.ignored, ownPID: getpid()),
                        hideDelay: callSettings.hideDelay, owner: owner, configPath: connection.configPath, environment: processEnvironment(),
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
            if calls.noNetwork {
                guard let callMonitor else {
                    throw CommandFailure("--no-network watches calls alone: add --calls (or calls = true under [monitor])", code: ExitStatus.usage)
                }
                throw ExitCode(try Self.serveCallsAlone(callMonitor, loop: loop))
            }
            let monitor = try NetworkBannerMonitor(
                requests: requests, hideDelay: hideDelay, connectivity: settings, owner: owner, configPath: connection.configPath, loop: loop)
            monitor.onStop = { callMonitor?.stop() }
            callMonitor?.start()
            throw ExitCode(try monitor.run())
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    /// `--calls --no-network`: the call watcher alone on `loop`, until a signal.
    private static func serveCallsAlone(_ calls: CallBannerMonitor, loop: EventLoop) throws(CommandFailure) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) else {
            throw CommandFailure("cannot set up signal handling", code: ExitStatus.internalError)
        }
        var stopped = false
        loop.watch(fd: signals.readEnd) {
            _ = signals.drain()
            calls.stop()
            stopped = true
            loop.stop()
        }
        calls.start()
        loop.run { stopped }
        return 0
    }

    /// The call banner's request: the `call` style (or `--call-style`) with the `--call-…`
    /// flags on top, sticky, its own id; the subtitle (the apps) is set for each call.
    private func callShowRequest(_ config: BannerConfig) throws(CommandFailure) -> ShowRequest {
        do throws(ConfigError) {
            _ = try config.resolve(style: call.styleName)
        } catch {
            throw CommandFailure("\(error)", code: error.isUnknownStyle ? ExitStatus.usage : ExitStatus.config)
        }
        let settings = AppearanceSettings(placement: placement).overlaid(by: call.settings)
        do throws(BannerValueError) {
            try settings.validate()
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        let locale = UserLocale.variables(in: processEnvironment())
        // Queued: a banner on screen (the offline banner, a script's) is not replaced by it.
        return ShowRequest(
            settings: settings, style: call.styleName, configPath: connection.configPath, sticky: true,
            monitor: monitor ?? "all", id: CallBannerMonitor.bannerID, enqueue: true, wait: true, locale: locale.isEmpty ? nil : locale)
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

    @Flag(name: .customLong("no-network"), help: "Watch calls alone (with --calls): no network banners.")
    var noNetwork = false

    @Option(name: .customLong("calls-ignore"), parsing: .unconditionalSingleValue, help: ArgumentHelp("An app whose captures are no call, matched against its name, binary and Flatpak id (repeatable). Default: the config file's `calls-ignore`.", valueName: "name"))
    var ignore: [String] = []

    @Option(name: .customLong("calls-hide-delay"), parsing: .unconditional, help: ArgumentHelp("Seconds the call banner stays after the last capture stops, 0 to 3600. Default: the config file's, else \(BannerFont.format(CallBannerPolicy.defaultHideDelay)).", valueName: "seconds"))
    var hideDelay: String?

    /// What the flags and the config file's `[monitor]` say together.
    func settings(_ file: MonitorSettings) throws(CommandFailure) -> (watch: Bool, ignored: [String], hideDelay: Double) {
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
        return (watch || noNetwork || file.calls == true, ignore + (file.callsIgnore ?? []), delay)
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

    /// Test hook: with WINDOW_BANNER_TEST_LOCAL_ONLY=1 the monitor refuses a check URL whose
    /// host is not localhost or a literal loopback or private address, so no test can reach a
    /// public server (or a DNS server) by leaving --check-url out.
    static let localOnlyVariable = "WINDOW_BANNER_TEST_LOCAL_ONLY"

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
                interval: interval, timeout: timeout, localOnly: environment[Self.localOnlyVariable] == "1")
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        // The check itself goes out only with `http`; other sources find out later whether
        // they would use the URL (NetworkManager's portal opens it).
        if settings.source == .http { try settings.refuseUnlessAllowed() }
        return settings
    }
}

/// Where connectivity comes from and how the HTTP check runs, every value checked.
struct ConnectivitySettings {
    var source: ConnectivitySource
    var rule: HTTPCheckRule
    /// Seconds between checks while a route exists.
    var interval: Double
    /// Seconds one check may take.
    var timeout: Double
    /// The test hook is on: only local check URLs.
    var localOnly: Bool

    /// Under the test hook, a check URL that is not local is an error naming it.
    func refuseUnlessAllowed() throws(CommandFailure) {
        guard localOnly, !rule.url.isLocal else { return }
        throw CommandFailure(
            "check URL '\(rule.url.description.printable)' is not local (\(ConnectivityOptions.localOnlyVariable)=1: localhost, loopback and private addresses only)",
            code: ExitStatus.usage)
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

/// `--offline-…` or `--restored-…`: a style and every appearance field, as written.
struct MonitorBannerOptions<Role: MonitorBannerRole>: ParsableArguments {
    @Option(name: .customLong("\(Role.name)-style"), help: ArgumentHelp("Config file style of the \(Role.name) banner; the flags below go on top. Default: \(Role.defaultStyle) (built in: \(MonitorHelp.builtInLook(of: Role.defaultStyle))).", valueName: "name"))
    var style: String?

    @Option(name: .customLong("\(Role.name)-title"), parsing: .unconditional, help: ArgumentHelp("Title of the \(Role.name) banner. Default: the style's.", valueName: "text"))
    var title: String?

    @Option(name: .customLong("\(Role.name)-background"), help: ArgumentHelp("Background colour of the \(Role.name) banner (forms as for show). Default: the style's.", valueName: "colour"))
    var background: String?

    @Option(name: .customLong("\(Role.name)-text-color"), help: ArgumentHelp("Title colour of the \(Role.name) banner. Default: the style's, else white.", valueName: "colour"))
    var textColor: String?

    @Option(name: .customLong("\(Role.name)-height"), parsing: .unconditional, help: ArgumentHelp("Height of the \(Role.name) banner in points. Default: the style's, else 80, compact 18.", valueName: "pt"))
    var height: String?

    @Option(name: .customLong("\(Role.name)-title-top-inset"), parsing: .unconditional, help: ArgumentHelp("Space above the \(Role.name) banner's title, in points. Default: the style's, else 20, compact 0.", valueName: "pt"))
    var titleTopInset: String?

    @Option(name: .customLong("\(Role.name)-font"), help: ArgumentHelp("fontconfig pattern of the \(Role.name) banner. Default: the style's, else sans-serif:semibold:size=17, compact 14.", valueName: "pattern"))
    var font: String?

    @Option(name: .customLong("\(Role.name)-subtitle"), parsing: .unconditional, help: ArgumentHelp("A second, smaller line under the \(Role.name) banner's title. Default: the style's, else none.", valueName: "text"))
    var subtitle: String?

    @Option(name: .customLong("\(Role.name)-subtitle-font"), help: ArgumentHelp("fontconfig pattern of the \(Role.name) banner's subtitle. Default: the style's, else the title's family, regular, 13/17 of its size.", valueName: "pattern"))
    var subtitleFont: String?

    @Option(name: .customLong("\(Role.name)-compact"), help: ArgumentHelp("Compact style of the \(Role.name) banner: auto (landscape monitors), always, never. Default: the style's, else auto.", valueName: "auto|always|never"))
    var compact: String?

    @Option(name: .customLong("\(Role.name)-placement"), help: ArgumentHelp("Where the \(Role.name) banner goes: below-panels or screen-edge. Default: --placement, else the style's, else below-panels.", valueName: "below-panels|screen-edge"))
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

extension ExitStatus {
    /// `monitor`: the rtnetlink socket could not be opened or read, or (with `--connectivity
    /// networkmanager`) the system bus or NetworkManager is not there (EX_OSERR).
    static let networkMonitorFailed: Int32 = 71
}

/// The running monitor: the network, the policy, and the banner of ours on screen. Every call
/// happens on the thread that runs `run()`.
final class NetworkBannerMonitor {
    enum Banner: String {
        case offline, restored, portal
    }

    /// Where connectivity comes from, once `auto` has chosen.
    private enum Source {
        /// The route alone.
        case routes
        /// NetworkManager's property, watched on the system bus.
        case networkManager(NetworkManagerWatch, busWatch: EventLoop.Token?, busTimer: EventLoop.Token?)
        /// The monitor's own HTTP check.
        case http
    }

    /// The HTTP check in flight: libcurl's sockets and timer, armed before each sleep, and the
    /// monitor's own deadline, which gives up should libcurl's timeouts not.
    private struct CheckInFlight {
        var check: HTTPCheck
        var watches: [EventLoop.Token] = []
        var timer: EventLoop.Token?
        var deadline: EventLoop.Token
    }

    /// The `--id` of every banner the monitor shows, so that it only ever replaces or dismisses
    /// its own (the NetworkManager dispatcher script in Resources/ uses the same key).
    static let bannerID = "window-banner-monitor"

    private let loop: EventLoop
    /// Called as the monitor stops (a signal, a failure): the call watcher goes with it.
    var onStop: (() -> Void)?
    private let requests: [Banner: ShowRequest]
    private let owner: OwnerClient
    private let configPath: String?
    private let signals: SignalPipe
    private let network: PathMonitor
    private var policy: ConnectivityBannerPolicy
    private let connectivity: ConnectivitySettings
    private var source: Source = .routes
    /// The route as last reported; nil before the first report.
    private var route: PathStatus?
    /// The source's last report; nil when it has none (or, for the HTTP check, none since the
    /// route last changed).
    private var report: ConnectivityReport?
    /// The last report line printed, so a check that says the same again stays quiet.
    private var reportLine: String?
    private var checkInFlight: CheckInFlight?
    private var nextCheck: EventLoop.Token?
    private var onScreen: OnScreen?
    private var networkTimer: EventLoop.Token?
    private var hideTimer: EventLoop.Token?
    private var exitStatus: Int32?

    /// Our banner on screen, listening for its end, so a banner someone else dismissed is not
    /// "restored" later.
    private struct OnScreen {
        var banner: Banner
        var shown: ShownBanner
    }

    init(
        requests: [Banner: ShowRequest], hideDelay: Double, connectivity: ConnectivitySettings, owner: OwnerClient, configPath: String?,
        loop: EventLoop = EventLoop()
    ) throws(CommandFailure) {
        self.loop = loop
        self.requests = requests
        self.owner = owner
        self.configPath = configPath
        self.connectivity = connectivity
        policy = ConnectivityBannerPolicy(hideDelay: hideDelay)
        // A banner request writes to a socket whose owner may be gone; that is an error to
        // handle, not a reason to die.
        signal(SIGPIPE, SIG_IGN)
        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) else {
            throw CommandFailure("cannot set up signal handling", code: ExitStatus.internalError)
        }
        self.signals = signals
        do {
            network = try PathMonitor()
        } catch {
            throw CommandFailure("cannot watch the network: \(error)", code: ExitStatus.networkMonitorFailed)
        }
    }

    /// Chooses the connectivity source, then serves the network, the source, the hide timer
    /// and signals until a signal or a network failure; returns the exit status.
    func run() throws(CommandFailure) -> Int32 {
        let initial = try startSource()
        loop.watch(fd: network.fileDescriptor) { [unowned self] in networkReadable() }
        loop.watch(fd: signals.readEnd) { [unowned self] in
            if let number = signals.drain().first { stop(status: 0, reason: "stopped (\(Self.signalName(number)))") }
        }
        route = network.currentStatus
        logRoute(network.currentStatus)
        if let initial { reported(initial) }
        routeChanged()
        loop.run { exitStatus != nil }
        return exitStatus ?? 0
    }

    // MARK: Connectivity source

    /// Picks the source `--connectivity` asks for and prints it; for NetworkManager, returns
    /// its first report. Throws when an explicit `networkmanager` cannot be had.
    private func startSource() throws(CommandFailure) -> ConnectivityReport? {
        switch connectivity.source {
        case .routes:
            log("connectivity from routes")
        case .http:
            do throws(HTTPCheckError) {
                try HTTPCheck.loadLibrary()
            } catch {
                throw CommandFailure("cannot make HTTP checks: \(error)", code: ExitStatus.networkMonitorFailed)
            }
            source = .http
            loop.beforeSleep { [unowned self] in armCheck() }
            log("connectivity from \(connectivity.rule.url) every \(BannerFont.format(connectivity.interval)) s")
        case .networkmanager, .auto:
            let required = connectivity.source == .networkmanager
            let watch: NetworkManagerWatch
            let running: Bool
            do throws(BusError) {
                watch = try NetworkManagerWatch()
                running = try watch.serviceIsRunning()
            } catch {
                guard !required else { throw CommandFailure("\(error)", code: ExitStatus.networkMonitorFailed) }
                log("connectivity from routes (\(error))")
                return nil
            }
            guard running else {
                guard !required else { throw CommandFailure("NetworkManager is not on the system bus", code: ExitStatus.networkMonitorFailed) }
                log("connectivity from routes (NetworkManager is not on the system bus)")
                return nil
            }
            // NetworkManager's portal opens the check URL: under the test hook it must be local.
            try connectivity.refuseUnlessAllowed()
            let value: UInt32
            do throws(BusError) {
                value = try watch.start()
            } catch {
                guard !required else { throw CommandFailure("\(error)", code: ExitStatus.networkMonitorFailed) }
                log("connectivity from routes (\(error))")
                return nil
            }
            source = .networkManager(watch, busWatch: nil, busTimer: nil)
            loop.beforeSleep { [unowned self] in armBus() }
            log("connectivity from networkmanager")
            return networkManagerReport(value)
        }
        return nil
    }

    private func networkManagerReport(_ value: UInt32) -> ConnectivityReport {
        .networkManager(ConnectivityLevel(networkManagerValue: value) ?? .unknown, checkURL: connectivity.rule.url.description)
    }

    /// Before each sleep: watch the bus for what sd-bus wants now, and wake at its deadline.
    private func armBus() {
        guard case .networkManager(let watch, let busWatch, let busTimer) = source else { return }
        if let busWatch { loop.cancel(busWatch) }
        if let busTimer { loop.cancel(busTimer) }
        let newWatch = loop.watch(fd: watch.fileDescriptor, events: watch.pollEvents) { [unowned self] in busReady() }
        let newTimer = watch.deadline.map { deadline in
            loop.after(seconds: max(0, deadline - monotonicNow().seconds)) { [unowned self] in busReady() }
        }
        source = .networkManager(watch, busWatch: newWatch, busTimer: newTimer)
    }

    private func busReady() {
        guard case .networkManager(let watch, let busWatch, let busTimer) = source else { return }
        do throws(BusError) {
            for event in try watch.process() {
                switch event {
                case .connectivity(let value):
                    reported(networkManagerReport(value))
                case .gone:
                    reported(ConnectivityReport(level: .unknown, reason: "networkmanager left the system bus; routes decide"))
                }
                decide()
            }
        } catch {
            // Without the bus the routes still tell offline from online.
            Terminal.warning("lost NetworkManager: \(error); going on with routes")
            if let busWatch { loop.cancel(busWatch) }
            if let busTimer { loop.cancel(busTimer) }
            source = .routes
            reported(ConnectivityReport(level: .unknown, reason: "\(error); routes decide"))
            decide()
        }
    }

    /// A new report from the source: printed when it says something new.
    private func reported(_ new: ConnectivityReport) {
        report = new
        if new.line != reportLine { log(new.line) }
        reportLine = new.line
    }

    // MARK: HTTP check

    /// Starts a check now (the route changed, or the interval is up), dropping one in flight.
    private func startCheck() {
        cancelCheck()
        let url = connectivity.rule.url
        let request = HTTPCheck.Request(
            url: url.description, wantsBody: connectivity.rule.expectedBody != nil, maximumBody: HTTPCheckRule.maximumBody,
            timeout: connectivity.timeout)
        do throws(HTTPCheckError) {
            let check = try HTTPCheck(request)
            // libcurl keeps the same timeout; this one is in case it did not.
            let deadline = loop.after(seconds: connectivity.timeout + 1) { [unowned self] in
                checkFinished(connectivity.rule.report(noAnswer: "no answer within \(BannerFont.format(connectivity.timeout)) s at \(url)"))
            }
            checkInFlight = CheckInFlight(check: check, deadline: deadline)
        } catch {
            checkFinished(connectivity.rule.report(noAnswer: "cannot check: \(error)"))
        }
    }

    /// Before each sleep: watch the sockets libcurl wants now, and wake when it wants to be.
    private func armCheck() {
        guard var flight = checkInFlight else { return }
        flight.watches.forEach(loop.cancel)
        if let timer = flight.timer { loop.cancel(timer) }
        flight.watches = flight.check.sockets.map { socket, events in
            loop.watch(fd: socket, events: events) { [unowned self] in checkProgressed { $0.socketReady(socket) } }
        }
        flight.timer = flight.check.deadline.map { deadline in
            loop.after(seconds: max(0, deadline - monotonicNow().seconds)) { [unowned self] in checkProgressed { $0.deadlineReached() } }
        }
        checkInFlight = flight
    }

    /// Lets the check act on a socket or its timer, and reports its answer once there is one.
    private func checkProgressed(_ step: (HTTPCheck) -> Void) {
        guard let check = checkInFlight?.check else { return }
        step(check)
        guard let answer = check.answer else { return }
        let url = connectivity.rule.url
        switch answer {
        case .response(let status, let location, let body):
            checkFinished(connectivity.rule.report(status: status, location: location, body: body))
        case .failure(let reason):
            checkFinished(connectivity.rule.report(noAnswer: "\(Self.lowercasedFirst(reason)) at \(url)"))
        case .rejected(let reason):
            let report = connectivity.rule.report(noAnswer: "bad answer: \(reason) at \(url)")
            // Said once per change, like the report line: a portal or an attacker answering
            // the same every interval does not flood the journal.
            if report.line != reportLine { Terminal.warning("dropped the connectivity check's answer from \(url): \(reason)") }
            checkFinished(report)
        }
    }

    /// The check's report: it decides, and the next check is due an interval later.
    private func checkFinished(_ new: ConnectivityReport) {
        cancelCheck()
        guard route?.isSatisfied == true else { return }
        reported(new)
        decide()
        nextCheck = loop.after(seconds: connectivity.interval) { [unowned self] in
            nextCheck = nil
            startCheck()
        }
    }

    private func cancelCheck() {
        if let checkInFlight {
            checkInFlight.watches.forEach(loop.cancel)
            if let timer = checkInFlight.timer { loop.cancel(timer) }
            loop.cancel(checkInFlight.deadline)
        }
        checkInFlight = nil
        if let nextCheck { loop.cancel(nextCheck) }
        nextCheck = nil
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    // MARK: Decisions

    /// The route changed (or the monitor started): the HTTP check runs again, or stops while
    /// there is no route; the other sources decide at once.
    private func routeChanged() {
        guard case .http = source else { return decide() }
        cancelCheck()
        if route?.isSatisfied == true {
            // The banners stay as they are until the check says what this route leads to.
            startCheck()
        } else {
            report = nil
            reportLine = nil
            decide()
        }
    }

    /// Route and report together say offline, portal or online; the policy says what shows.
    private func decide() {
        let state = NetworkConnectivity.judge(routeExists: route?.isSatisfied == true, report: report)
        carryOut(policy.connectivityChanged(to: state, at: monotonicNow()))
    }

    // MARK: Network

    private func networkReadable() {
        do throws(PathMonitorError) {
            if let status = try network.handleReadable() { networkChanged(to: status) }
        } catch {
            networkFailed(error)
        }
        scheduleNetworkDeadline()
    }

    /// The monitor debounces bursts: wake when it wants to decide.
    private func scheduleNetworkDeadline() {
        if let networkTimer { loop.cancel(networkTimer) }
        networkTimer = nil
        guard let deadline = network.nextDeadline, exitStatus == nil else { return }
        networkTimer = loop.after(seconds: max(0, deadline - monotonicNow().seconds)) { [unowned self] in
            networkTimer = nil
            do throws(PathMonitorError) {
                if let status = try network.handleDeadline() { networkChanged(to: status) }
            } catch {
                networkFailed(error)
            }
            scheduleNetworkDeadline()
        }
    }

    private func networkChanged(to status: PathStatus) {
        logRoute(status)
        route = status
        routeChanged()
    }

    private func logRoute(_ status: PathStatus) {
        if status.isSatisfied {
            let tags = [status.supportsIPv4 ? "ipv4" : nil, status.supportsIPv6 ? "ipv6" : nil, status.isExpensive ? "expensive" : nil]
            log((["online via \(status.interfaceName ?? "?")"] + tags.compactMap { $0 }).joined(separator: " "))
        } else {
            log("offline")
        }
    }

    private func networkFailed(_ error: PathMonitorError) {
        Terminal.error("the network monitor failed: \(error)")
        stop(status: ExitStatus.networkMonitorFailed, reason: nil)
    }

    // MARK: Banners

    private func carryOut(_ actions: [ConnectivityBannerPolicy.Action]) {
        for action in actions {
            switch action {
            case .presentOffline: show(.offline)
            case .presentRestored: show(.restored)
            case .presentPortal(let signIn): show(.portal, onClick: ["xdg-open", signIn])
            case .dismiss: dismissOurBanner()
            }
        }
        scheduleHide()
    }

    /// The policy's hide deadline, if one is pending, as the loop's only other timer.
    private func scheduleHide() {
        if let hideTimer { loop.cancel(hideTimer) }
        hideTimer = nil
        guard let deadline = policy.nextDeadline, exitStatus == nil else { return }
        hideTimer = loop.after(seconds: max(0, deadline - monotonicNow())) { [unowned self] in
            hideTimer = nil
            carryOut(policy.advance(to: monotonicNow()))
        }
    }

    /// Shows `banner` in place of ours (same id: a cross-fade when one is visible); a click on
    /// it runs `onClick` in the monitor's environment and directory (the session's user runs
    /// the owner, and so the command). A banner that cannot be shown counts as not on screen,
    /// so the next change tries again.
    private func show(_ banner: Banner, onClick: [String]? = nil) {
        guard var request = requests[banner] else { return }
        if let onClick {
            request.onClick = onClick
            request.environment = processEnvironment()
            request.directory = currentDirectory()
        }
        let previous = onScreen?.banner
        // Replacing our own banner is no news: stop listening for its end first.
        forgetOnScreen()
        do throws(CommandFailure) {
            let shown = try ShownBanner(request, owner: owner, configPath: configPath, loop: loop) { [unowned self] in
                bannerEnded(banner, $0)
            }
            onScreen = OnScreen(banner: banner, shown: shown)
            log("\(banner.rawValue) banner shown")
        } catch {
            Terminal.warning("cannot show the \(banner.rawValue) banner: \(error.message); trying again at the next change")
            policy.bannerWasDismissed()
            // Online again: an offline or portal banner still up must not stay.
            if banner == .restored, sendDismiss(), let previous { log("\(previous.rawValue) banner hidden") }
        }
    }

    /// Takes our banner away, if one is up.
    private func dismissOurBanner() {
        let banner = onScreen?.banner
        forgetOnScreen()
        if sendDismiss(), let banner { log("\(banner.rawValue) banner hidden") }
    }

    /// `dismiss --id`: only ours, visible or queued, on every monitor. True when the owner
    /// answered (or none runs, so nothing shows).
    private func sendDismiss() -> Bool {
        do throws(CommandFailure) {
            _ = try owner.dismissBanner(id: Self.bannerID)
            return true
        } catch {
            Terminal.warning("cannot dismiss the banner: \(error.message)")
            return false
        }
    }

    /// Our banner ended without us (another client dismissed or replaced it), or the owner went
    /// away and took it along.
    private func bannerEnded(_ banner: Banner, _ ended: BannerEndReason?) {
        onScreen = nil
        policy.bannerWasDismissed()
        scheduleHide()
        switch ended {
        case .dismissed?, .timeout?: log("\(banner.rawValue) banner dismissed by another client")
        case .replaced?: log("\(banner.rawValue) banner replaced by another client")
        case .clicked?, .closed?, .swiped?, .action?, .secondaryAction?:
            log("\(banner.rawValue) banner dismissed by the user (\(ended.map(\.rawValue) ?? ""))")
        case nil: log("\(banner.rawValue) banner gone: the owner exited")
        }
    }

    private func forgetOnScreen() {
        onScreen?.shown.close()
        onScreen = nil
    }

    // MARK: Output and ending

    /// Dismisses our banner and ends `run()` with `status`.
    private func stop(status: Int32, reason: String?) {
        guard exitStatus == nil else { return }
        cancelCheck()
        dismissOurBanner()
        onStop?()
        if let reason { log(reason) }
        exitStatus = status
        loop.stop()
    }

    /// One event on stdout, written at once: a pipe or the journal sees it as it happens.
    private func log(_ event: String) {
        Terminal.output(Self.timestamp() + " " + event)
    }

    /// Now in UTC as ISO 8601 with milliseconds: `2026-11-22T03:10:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        gmtime_r(&now.tv_sec, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
        let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(now.tv_nsec / 1_000_000), 3))"
        return date + "T" + time + "Z"
    }

    private static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
