// `window-banner monitor`: the original's network banners, driven by the kernel's own view of
// the network. NetworkPath's rtnetlink monitor says whether there is a path to the internet,
// BannerCore's ConnectivityBannerPolicy decides which banner shows and when the "Back Online"
// one goes, and the display's owner process shows them — the monitor holds no X connection, so
// its banners queue, replace and report like any `show --id window-banner-monitor`. One poll
// loop serves the netlink socket, the policy's hide timer, signals, and the owner connection
// that says when someone else took our banner away. Nothing is polled.
// Start reading at `MonitorCommand.run()`, then `NetworkBannerMonitor.networkChanged(to:)`.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerX11
import Glibc
import NetworkPath
import OwnerProtocol
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
        Each banner's look: the built-in defaults, the config file's [defaults], its style \
        (--offline-style, --restored-style), then its flags.
        Output: one line per event on stdout, flushed at once: an ISO 8601 UTC timestamp with \
        milliseconds, a space, then one of: `online via IFACE [ipv4] [ipv6] [expensive]`, \
        `offline`, `offline banner shown`, `restored banner shown`, `restored banner hidden`, \
        `offline banner hidden`, `BANNER banner dismissed by another client`, `BANNER banner \
        dismissed by the user (clicked|closed|swiped|action)`, `BANNER banner replaced by \
        another client`, `BANNER banner gone: the owner exited`, `stopped (SIGNAL)`. \
        The first line is the state at start-up.
        Exit codes: 0 stopped by SIGTERM, SIGINT or SIGHUP (its banner dismissed first); 64 bad \
        value or unknown style; 69 no display; 70 internal error; 71 the network monitor failed \
        (rtnetlink); 78 broken config file.
        """
    )

    @OptionGroup(title: "Offline banner")
    var offline: MonitorBannerOptions<OfflineBanner>

    @OptionGroup(title: "Restored banner")
    var restored: MonitorBannerOptions<RestoredBanner>

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
            let requests = try showRequests()
            let hideDelay = try hideDelaySeconds()
            // Short waits: while the monitor waits on the owner it hears no network change.
            var owner = try connection.client()
            owner.startTimeout = 5
            owner.replyTimeout = 2
            let monitor = try NetworkBannerMonitor(requests: requests, hideDelay: hideDelay, owner: owner, configPath: connection.configPath)
            throw ExitCode(monitor.run())
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    private func hideDelaySeconds() throws(CommandFailure) -> Double {
        guard let hideDelay else { return ConnectivityBannerPolicy.defaultHideDelay }
        do {
            return try seconds(hideDelay)
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
    }

    /// Both banners' requests, every value checked now rather than at the first network change
    /// (only X11 colour names wait for the owner's server to judge them).
    private func showRequests() throws(CommandFailure) -> [NetworkBannerMonitor.Banner: ShowRequest] {
        let config: BannerConfig
        do throws(ConfigError) {
            config = try connection.configPath.map { path throws(ConfigError) in try BannerConfig.load(path: path) } ?? .builtIn
            _ = try config.resolve(style: offline.styleName)
            _ = try config.resolve(style: restored.styleName)
        } catch {
            throw CommandFailure("\(error)", code: error.isUnknownStyle ? ExitStatus.usage : ExitStatus.config)
        }
        let shared = AppearanceSettings(placement: placement)
        let offlineSettings = shared.overlaid(by: offline.settings)
        let restoredSettings = shared.overlaid(by: restored.settings)
        do throws(BannerValueError) {
            try offlineSettings.validate()
            try restoredSettings.validate()
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
        ]
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
    /// `monitor`: the rtnetlink socket could not be opened or read (EX_OSERR).
    static let networkMonitorFailed: Int32 = 71
}

/// The running monitor: the network, the policy, and the banner of ours on screen. Every call
/// happens on the thread that runs `run()`.
final class NetworkBannerMonitor {
    enum Banner: String {
        case offline, restored
    }

    /// The `--id` of every banner the monitor shows, so that it only ever replaces or dismisses
    /// its own (the NetworkManager dispatcher script in Resources/ uses the same key).
    static let bannerID = "window-banner-monitor"

    private let loop = EventLoop()
    private let requests: [Banner: ShowRequest]
    private let owner: OwnerClient
    private let configPath: String?
    private let signals: SignalPipe
    private let network: PathMonitor
    private var policy: ConnectivityBannerPolicy
    private var onScreen: OnScreen?
    private var networkTimer: EventLoop.Token?
    private var hideTimer: EventLoop.Token?
    private var exitStatus: Int32?
    /// The banners' display, watched so the monitor ends with it (code 69) like any program
    /// showing something there; opened again at each banner while the display is unreachable.
    private var display: DisplayWatch?

    /// Our banner on screen, and the `show --wait` connection on which the owner will say when
    /// it ends, so a banner someone else dismissed is not "restored" later.
    private struct OnScreen {
        var banner: Banner
        var exchange: OwnerClient.Exchange
        var watch: EventLoop.Token
    }

    init(requests: [Banner: ShowRequest], hideDelay: Double, owner: OwnerClient, configPath: String?) throws(CommandFailure) {
        self.requests = requests
        self.owner = owner
        self.configPath = configPath
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

    /// Serves the network, the hide timer and signals until a signal or a network failure;
    /// returns the exit status.
    func run() -> Int32 {
        loop.watch(fd: network.fileDescriptor) { [unowned self] in networkReadable() }
        loop.watch(fd: signals.readEnd) { [unowned self] in
            if let number = signals.drain().first { stop(status: 0, reason: "stopped (\(Self.signalName(number)))") }
        }
        watchDisplay()
        networkChanged(to: network.currentStatus)
        loop.run { exitStatus != nil }
        return exitStatus ?? 0
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
        if status.isSatisfied {
            let tags = [status.supportsIPv4 ? "ipv4" : nil, status.supportsIPv6 ? "ipv6" : nil, status.isExpensive ? "expensive" : nil]
            log((["online via \(status.interfaceName ?? "?")"] + tags.compactMap { $0 }).joined(separator: " "))
        } else {
            log("offline")
        }
        carryOut(policy.connectivityChanged(isOnline: status.isSatisfied, at: monotonicNow()))
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

    private func watchDisplay() {
        guard display == nil, let watch = try? DisplayWatch(name: owner.paths.display) else { return }
        display = watch
        loop.watch(fd: watch.fileDescriptor) { watch.service() }
    }

    /// Shows `banner` in place of ours (same id: a cross-fade when one is visible). A banner
    /// that cannot be shown counts as not on screen, so the next change tries again.
    private func show(_ banner: Banner) {
        guard let request = requests[banner] else { return }
        watchDisplay()
        let previous = onScreen?.banner
        // Replacing our own banner is no news: stop listening for its end first.
        forgetOnScreen()
        do throws(CommandFailure) {
            guard let exchange = try owner.exchange(OwnerRequest(request), start: true, configPath: configPath) else {
                throw CommandFailure("no owner", code: ExitStatus.unreachable)
            }
            if let error = exchange.response.error {
                exchange.close()
                throw OwnerClient.failure(error)
            }
            let watch = loop.watch(fd: exchange.fd) { [unowned self] in ownerSpoke() }
            onScreen = OnScreen(banner: banner, exchange: exchange, watch: watch)
            log("\(banner.rawValue) banner shown")
        } catch {
            Terminal.warning("cannot show the \(banner.rawValue) banner: \(error.message); trying again at the next change")
            policy.bannerWasDismissed()
            // Online again: an offline banner still up must not stay.
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
            guard let exchange = try owner.exchange(OwnerRequest(DismissRequest(id: Self.bannerID)), start: false, configPath: nil) else { return true }
            exchange.close()
            if let error = exchange.response.error { throw OwnerClient.failure(error) }
            return true
        } catch {
            Terminal.warning("cannot dismiss the banner: \(error.message)")
            return false
        }
    }

    /// The owner wrote on the connection of our banner: it ended without us (another client
    /// dismissed or replaced it), or the owner went away and took it along.
    private func ownerSpoke() {
        guard var current = onScreen else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(current.exchange.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        var ended: BannerEndReason?
        if count > 0 {
            current.exchange.reader.append(buffer[0..<count])
            do throws(FrameError) {
                guard let body = try current.exchange.reader.nextFrame() else {
                    // The rest of the frame is on its way.
                    onScreen = current
                    return
                }
                ended = (try? OwnerClient.decode(body))?.ended
            } catch {
                // An unreadable stream says nothing more about our banner: count it as gone.
            }
        }
        forgetOnScreen()
        policy.bannerWasDismissed()
        scheduleHide()
        switch ended {
        case .dismissed?, .timeout?: log("\(current.banner.rawValue) banner dismissed by another client")
        case .replaced?: log("\(current.banner.rawValue) banner replaced by another client")
        case .clicked?, .closed?, .swiped?, .action?:
            log("\(current.banner.rawValue) banner dismissed by the user (\(ended.map(\.rawValue) ?? ""))")
        case nil: log("\(current.banner.rawValue) banner gone: the owner exited")
        }
    }

    private func forgetOnScreen() {
        guard let current = onScreen else { return }
        loop.cancel(current.watch)
        current.exchange.close()
        onScreen = nil
    }

    // MARK: Output and ending

    /// Dismisses our banner and ends `run()` with `status`.
    private func stop(status: Int32, reason: String?) {
        guard exitStatus == nil else { return }
        dismissOurBanner()
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
