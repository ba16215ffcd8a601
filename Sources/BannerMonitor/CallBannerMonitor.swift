// `window-banner monitor --calls`: the call banner from PipeWire. It keeps one connection to
// PipeWire on the monitor's event loop (PipeWireWatch), asks CallRule who is in a call after
// every change PipeWire reports, and CallBannerPolicy when the banner shows, changes and goes;
// the banner is shown by the display's owner with an id of its own, so it never replaces the
// network banners or a script's. Without PipeWire it waits quietly: a PathWatch (inotify) on the
// socket says when PipeWire's socket appears (no polling); when PipeWire goes away it
// reconnects, after a short backoff while the socket is there but refuses, and derives the
// state afresh. Start reading at `start()`.

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

    private let loop: EventLoop
    private let request: ShowRequest
    private let rule: CallRule
    private var policy: CallBannerPolicy
    /// The apps sharing the screen, as last said in the log.
    private var sharingSaid: [String] = []
    private let banners: any WatcherBanners
    private let log: (String) -> Void
    private var watch: PipeWireWatch?
    private var watchToken: EventLoop.Token?
    private let policyTimer: LoopTimer
    private let retryTimer: LoopTimer
    private var retryDelay = 0.1
    private var socketWatch: PathWatch?
    private var waitingSaid = false
    private var onScreen: (any ShownBannerHandle)?
    private var stopped = false

    /// PipeWire's socket: `PIPEWIRE_REMOTE` (a name or a path), else `pipewire-0`, in
    /// `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`.
    private let socketDirectory: String
    private let socketName: String

    package init(
        loop: EventLoop, request: ShowRequest, rule: CallRule, hideDelay: Double, banners: any WatcherBanners,
        environment: [String: String], log: @escaping (String) -> Void
    ) {
        self.loop = loop
        policyTimer = LoopTimer(on: loop)
        retryTimer = LoopTimer(on: loop)
        self.request = request
        self.rule = rule
        policy = CallBannerPolicy(hideDelay: hideDelay)
        self.banners = banners
        self.log = log
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if remote.hasPrefix("/") {
            socketDirectory = String(remote[..<(remote.lastIndex(of: "/") ?? remote.startIndex)])
            socketName = String(remote[remote.index(after: remote.lastIndex(of: "/") ?? remote.startIndex)...])
        } else {
            socketDirectory = environment["PIPEWIRE_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
            socketName = remote
        }
    }

    /// Called after the call banner was shown, changed or hidden.
    package var onBannerChanged: (() -> Void)?

    /// Whether start-up is over: PipeWire's graph heard once, or PipeWire waited for.
    package var hasStarted: Bool { watch?.isSynced == true || waitingSaid || stopped }

    /// Why calls cannot be watched at all (libpipewire missing); nil when they can.
    package static var unavailableReason: String? { PipeWireWatch.unavailableReason }

    /// Connects to PipeWire, or waits for it.
    package func start() {
        log("calls from PipeWire")
        connect()
    }

    /// Takes the call banner away and lets PipeWire go.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        disconnect()
        retryTimer.cancel()
        socketWatch = nil
        policyTimer.cancel()
        if policy.shown != nil || onScreen != nil { dismiss() }
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

    // MARK: The banner

    /// Who is in a call now, as PipeWire's graph says after every change it reports (tests
    /// say it themselves, with no PipeWire).
    package func observe(_ state: CallState) {
        // Screen sharing is told apart from a camera (docs/calls.md) and said in the log; it is
        // not a call.
        if state.sharing != sharingSaid {
            log(state.sharing.isEmpty ? "screen sharing ended" : "screen shared by \(state.sharing.map { $0.isEmpty ? "an app" : $0 }.joined(separator: ", "))")
            sharingSaid = state.sharing
        }
        var call = state
        call.sharing = []
        carryOut(policy.observe(call, at: loop.now))
    }

    private func carryOut(_ actions: [CallBannerPolicy.Action]) {
        for action in actions {
            switch action {
            case .show(let call): show(call)
            case .hide: dismiss()
            }
        }
        if !actions.isEmpty { onBannerChanged?() }
        policyTimer.set(at: stopped ? nil : policy.nextDeadline) { [unowned self] in
            carryOut(policy.advance(to: loop.now))
        }
    }

    /// The subtitle: the apps, and the camera when one is captured.
    package static func subtitle(of call: CallState, locale: [String: String]) -> String {
        let words = BannerConfig.callSubtitleWords
        let names = call.apps.isEmpty ? [""] : call.apps
        let apps = names.map { $0.isEmpty ? Translations.text(words[1], locale: locale) : $0 }.joined(separator: ", ")
        return call.camera ? apps + " · " + Translations.text(words[0], locale: locale) : apps
    }

    private func show(_ call: CallState) {
        var showing = request
        showing.settings.subtitle = Self.subtitle(of: call, locale: request.locale ?? [:])
        // A click raises the calling app's window where the display server allows it.
        showing.raise = call.pids.isEmpty ? nil : call.pids
        forgetOnScreen()
        do throws(CommandFailure) {
            onScreen = try banners.show(showing) { [unowned self] in bannerEnded($0) }
            log("call banner shown (\(call.apps.joined(separator: ", "))\(call.camera ? ", camera" : ""))")
        } catch {
            Terminal.warning("cannot show the call banner: \(error.message); trying again at the next change")
            policy.bannerWasDismissed()
        }
    }

    private func dismiss() {
        forgetOnScreen()
        do throws(CommandFailure) {
            if try banners.dismiss(id: Self.bannerID) { log("call banner hidden") }
        } catch {
            Terminal.warning("cannot dismiss the call banner: \(error.message)")
        }
    }

    /// The call banner ended without us. The user's ✕ or click hides it for this call; another
    /// client or the owner's end, until the next change.
    private func bannerEnded(_ ended: BannerEndReason?) {
        onScreen = nil
        switch ended {
        case .clicked?, .closed?, .swiped?, .action?, .secondaryAction?:
            policy.userDismissed()
            log("call banner dismissed by the user (\(ended.map(\.rawValue) ?? "")): hidden until this call ends")
        case .replaced?:
            // Another banner took the screen (the offline banner, a script's): the call banner
            // waits behind it in the owner's queue and comes back when it goes.
            policy.bannerWasDismissed()
            log("call banner waits behind another banner")
            if policy.state.isCall { carryOut(policy.observe(policy.state, at: loop.now)) }
        case .dismissed?, .timeout?:
            policy.bannerWasDismissed()
            log("call banner dismissed by another client")
        case nil:
            policy.bannerWasDismissed()
            log("call banner gone: the owner exited")
        }
    }

    private func forgetOnScreen() {
        onScreen?.close()
        onScreen = nil
    }
}
