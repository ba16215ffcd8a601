// `window-banner monitor --calls` and `--sharing`: the call banner and the sharing banner from
// PipeWire. It keeps one connection to PipeWire on the monitor's event loop (PipeWireWatch),
// asks CallRule who is in a call and who shares the screen after every change PipeWire
// reports, and hands each to its banner (ActivityBanner: when it shows, changes and goes);
// during a call that shares the screen the two are one, the call banner. Each is shown by the
// display's owner with an id of its own, so it never replaces the network banners or a script's.
// Without PipeWire it waits quietly: a PathWatch (inotify) on the socket says when PipeWire's
// socket appears (no polling); when PipeWire goes away it reconnects, after a short backoff
// while the socket is there but refuses, and derives the state afresh. Start reading at `start()`.

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import Glibc
import OwnerIPC
import OwnerProtocol
import PipeWireCalls
import Reactor

package final class CallBannerMonitor {
    /// The `--id` of the call banner.
    package static let bannerID = "window-banner-calls"
    /// The `--id` of the sharing banner.
    package static let sharingBannerID = "window-banner-sharing"

    private let loop: EventLoop
    private let rule: CallRule
    /// The call banner, when calls are watched; the sharing banner, when sharing is.
    private let callBanner: ActivityBanner<CallState>?
    private let sharingBanner: ActivityBanner<SharingState>?
    /// The apps sharing the screen, as last said in the log.
    private var sharingSaid: [String] = []
    /// What the owner was last told of sharing (for its private banners); nil before the first report.
    private var sharingReported: Bool?
    /// A share's end is told the owner after the hide delay, as the banner goes: a stream that
    /// pauses for a moment (renegotiating its format) does not bring private banners back.
    private let endReportTimer: LoopTimer
    private let hideDelay: Double
    private let banners: any WatcherBanners
    private let log: (String) -> Void
    private var watch: PipeWireWatch?
    private var watchToken: EventLoop.Token?
    private let retryTimer: LoopTimer
    private var retryDelay = 0.1
    private var socketWatch: PathWatch?
    private var waitingSaid = false
    private var stopped = false

    /// PipeWire's socket: `PIPEWIRE_REMOTE` (a name or a path), else `pipewire-0`, in
    /// `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`.
    private let socketDirectory: String
    private let socketName: String

    /// Watches PipeWire for calls, shown with `calls` (the call banner's request: its subtitle
    /// and the windows a click raises are set for each call), and for screen sharing, shown with
    /// `sharing`; nil for what is not watched. Both have the same hide delay.
    package init(
        loop: EventLoop, calls: ShowRequest?, sharing: ShowRequest?, rule: CallRule, hideDelay: Double, banners: any WatcherBanners,
        environment: [String: String], log: @escaping (String) -> Void
    ) {
        self.loop = loop
        retryTimer = LoopTimer(on: loop)
        endReportTimer = LoopTimer(on: loop)
        self.hideDelay = hideDelay
        self.rule = rule
        self.log = log
        self.banners = banners
        let watchesSharing = sharing != nil
        callBanner = calls.map { request in
            ActivityBanner(
                noun: "call", activity: "call", id: Self.bannerID, hideDelay: hideDelay, loop: loop, banners: banners, log: log,
                request: { call in
                    var showing = request
                    showing.settings.subtitle = Self.subtitle(of: call, sharing: watchesSharing, locale: request.locale ?? [:])
                    // A click raises the calling app's window where the display server allows it.
                    showing.raise = call.pids.isEmpty ? nil : call.pids
                    // "Stop sharing" while the call shares the screen, where the desktop can stop it.
                    showing.stopsSharing = watchesSharing && !call.sharing.isEmpty ? true : nil
                    return showing
                },
                describe: { call in call.apps.joined(separator: ", ") + (call.camera ? ", camera" : "") + (watchesSharing && !call.sharing.isEmpty ? ", sharing" : "") })
        }
        sharingBanner = sharing.map { request in
            ActivityBanner(
                noun: "sharing", activity: "share", id: Self.sharingBannerID, hideDelay: hideDelay, loop: loop, banners: banners, log: log,
                request: { shared in
                    var showing = request
                    showing.settings.subtitle = Self.names(shared.apps, locale: request.locale ?? [:])
                    showing.raise = shared.pids.isEmpty ? nil : shared.pids
                    showing.stopsSharing = true
                    return showing
                },
                describe: { $0.apps.map { $0.isEmpty ? "an app" : $0 }.joined(separator: ", ") })
        }
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if remote.hasPrefix("/") {
            socketDirectory = String(remote[..<(remote.lastIndex(of: "/") ?? remote.startIndex)])
            socketName = String(remote[remote.index(after: remote.lastIndex(of: "/") ?? remote.startIndex)...])
        } else {
            socketDirectory = environment["PIPEWIRE_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
            socketName = remote
        }
        // During a call the call banner says the screen is shared: once it shows, the sharing
        // banner gives way at once.
        callBanner?.onShown = { [unowned self] call in if call.isCall { sharingBanner?.handOver() } }
        callBanner?.onChanged = { [unowned self] in onBannerChanged?() }
        sharingBanner?.onChanged = { [unowned self] in onBannerChanged?() }
    }

    /// Called after the call or sharing banner was shown, changed or hidden.
    package var onBannerChanged: (() -> Void)?

    /// Whether start-up is over: PipeWire's graph heard once, or PipeWire waited for.
    package var hasStarted: Bool { watch?.isSynced == true || waitingSaid || stopped }

    /// Why calls cannot be watched at all (libpipewire missing); nil when they can.
    package static var unavailableReason: String? { PipeWireWatch.unavailableReason }

    /// Connects to PipeWire, or waits for it.
    package func start() {
        // The owner learns at once that sharing is watched (before the first line says that it
        // is): a private banner is never shown to a shared screen by an owner that does not know.
        if sharingBanner != nil { report(sharing: false) }
        log(callBanner == nil ? "screen sharing from PipeWire" : "calls from PipeWire")
        connect()
    }

    /// Takes the banners away and lets PipeWire go.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        disconnect()
        retryTimer.cancel()
        endReportTimer.cancel()
        socketWatch = nil
        callBanner?.stop()
        sharingBanner?.stop()
    }

    // MARK: PipeWire

    private func connect() {
        guard !stopped, watch == nil else { return }
        do throws(PipeWireError) {
            let made = try PipeWireWatch(remote: socketDirectory + "/" + socketName)
            watch = made
            made.onChange = { [unowned self] in graphChanged() }
            watchToken = loop.serve(made) { [unowned self] error in lost(error) }
            retryDelay = 0.1
            if waitingSaid { log("PipeWire is back") }
            waitingSaid = false
        } catch {
            if !waitingSaid { log("waiting for PipeWire (\(error))") }
            waitingSaid = true
            waitForSocket()
        }
    }

    private func disconnect() {
        if let watchToken { loop.cancel(watchToken) }
        watchToken = nil
        watch = nil
    }

    private func graphChanged() {
        guard let watch, watch.isSynced else { return }
        observe(rule.state(of: watch.graph))
    }

    /// The loop stopped serving the watch: PipeWire went away.
    private func lost(_ error: any Error) {
        log("lost PipeWire: \(error)")
        watchToken = nil
        watch = nil
        // Nothing is known of calls without PipeWire: the banner goes as at a call's end.
        observe(.none)
        waitingSaid = true
        connect()
    }

    /// PipeWire's socket is not there or refuses: inotify says when it is (re)made; while it is
    /// there but refuses (PipeWire starting), try again after a backoff up to 5 s.
    private func waitForSocket() {
        if access(socketDirectory + "/" + socketName, F_OK) == 0 {
            retryTimer.set(after: retryDelay) { [unowned self] in connect() }
            retryDelay = min(retryDelay * 2, 5)
            return
        }
        guard socketWatch == nil else { return }
        guard let made = PathWatch(paths: [socketDirectory + "/" + socketName], loop: loop, onChange: { [unowned self] in socketDirectoryChanged() }) else {
            log("cannot watch \(socketDirectory) for PipeWire's socket: \(String(cString: strerror(errno)))")
            return
        }
        socketWatch = made
    }

    private func socketDirectoryChanged() {
        guard socketWatch != nil, access(socketDirectory + "/" + socketName, F_OK) == 0 else { return }
        // Not from inside its own callback: the watch goes once this turn of the loop is over.
        loop.after(seconds: 0) { [unowned self] in socketWatch = nil }
        retryDelay = 0.1
        connect()
    }

    // MARK: The banners

    /// Who is in a call and who shares the screen now, as PipeWire's graph says after every
    /// change it reports (tests say it themselves, with no PipeWire).
    package func observe(_ state: CallState) {
        // Screen sharing is told apart from a camera (docs/calls.md) and said in the log.
        if state.sharing != sharingSaid {
            log(state.sharing.isEmpty ? "screen sharing ended" : "screen shared by \(state.sharing.map { $0.isEmpty ? "an app" : $0 }.joined(separator: ", "))")
            sharingSaid = state.sharing
        }
        // Private banners go at once, without the banner's start delay: the first frame of a
        // share is as public as the rest. They come back the hide delay after its end.
        if sharingBanner != nil {
            if !state.sharing.isEmpty {
                endReportTimer.cancel()
                report(sharing: true)
            } else if sharingReported != false, !endReportTimer.isPending {
                endReportTimer.set(after: hideDelay) { [unowned self] in report(sharing: false) }
            }
        }
        var call = callBanner == nil ? CallState.none : state
        if sharingBanner == nil {
            call.sharing = []
            call.sharingPIDs = []
        }
        callBanner?.observe(call)
        // During a call, the call banner says it; the sharing banner is for sharing alone.
        sharingBanner?.observe(call.isCall ? .none : state.sharingState)
    }

    /// Tells the owner whether the screen is shared, when that changed (or a report failed).
    private func report(sharing: Bool) {
        guard sharing != sharingReported else { return }
        do throws(CommandFailure) {
            try banners.reportSharing(sharing)
            sharingReported = sharing
        } catch {
            sharingReported = nil
            Terminal.warning("cannot tell the owner that the screen is \(sharing ? "" : "no longer ")shared: \(error.message); trying again at the next change")
        }
    }

    /// The call banner's subtitle: the apps, the camera when one is captured, and the screen
    /// when it is shared too (with `sharing`: when sharing is watched).
    package static func subtitle(of call: CallState, sharing: Bool = false, locale: [String: String]) -> String {
        let words = BannerConfig.callSubtitleWords
        var parts = [names(call.apps, locale: locale)]
        if call.camera { parts.append(Translations.text(words[0], locale: locale)) }
        if sharing, !call.sharing.isEmpty { parts.append(Translations.text(BannerConfig.sharingSubtitleWords, locale: locale)) }
        return parts.joined(separator: " · ")
    }

    /// Apps' names as a banner lists them; one with no name is "an app" (translated).
    static func names(_ apps: [String], locale: [String: String]) -> String {
        let names = apps.isEmpty ? [""] : apps
        return names.map { $0.isEmpty ? Translations.text(BannerConfig.callSubtitleWords[1], locale: locale) : $0 }.joined(separator: ", ")
    }
}
