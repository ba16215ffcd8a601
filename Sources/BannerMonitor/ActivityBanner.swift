// One of the call watcher's two banners — the call banner, the sharing banner — on the
// monitor's loop: its policy (ActivityBannerPolicy: the start delay, the hide delay, the user's
// ✕), the policy's timer, and the banner the owner shows for it under its own id. The watcher
// (CallBannerMonitor) says what is going on; this shows, updates and takes away the banner, and
// hears when the user or another client ended it. Start reading at `observe(_:)`.

import BannerCore
import BannerRuntime
import OwnerIPC
import OwnerProtocol
import PipeWireCalls
import Reactor

final class ActivityBanner<State: BannerActivity> {
    /// How the log names this banner and what it is for: ("call", "call"), ("sharing", "share").
    private let noun: String
    private let activity: String
    private let id: String
    private var policy: ActivityBannerPolicy<State>
    private let timer: LoopTimer
    private let loop: EventLoop
    private let banners: any WatcherBanners
    private let log: (String) -> Void
    /// The request showing `State`, and how the log describes it.
    private let request: (State) -> ShowRequest
    private let describe: (State) -> String
    private var onScreen: (any ShownBannerHandle)?
    private var stopped = false
    /// The banner came back once after its owner died with it up, in this call or share.
    private var broughtBack = false

    /// Called after the banner was shown (with what it shows), changed or hidden.
    var onShown: ((State) -> Void)?
    var onChanged: (() -> Void)?

    init(
        noun: String, activity: String, id: String, hideDelay: Double, loop: EventLoop, banners: any WatcherBanners,
        log: @escaping (String) -> Void, request: @escaping (State) -> ShowRequest, describe: @escaping (State) -> String
    ) {
        self.noun = noun
        self.activity = activity
        self.id = id
        policy = ActivityBannerPolicy(hideDelay: hideDelay)
        timer = LoopTimer(on: loop)
        self.loop = loop
        self.banners = banners
        self.log = log
        self.request = request
        self.describe = describe
    }

    /// What is going on now.
    func observe(_ state: State) {
        if !state.isActive { broughtBack = false }
        carryOut(policy.observe(state, at: loop.now))
    }

    /// The other banner takes this one's place: it goes at once, without the hide delay.
    func handOver() {
        carryOut(policy.handOver(at: loop.now))
    }

    /// Takes the banner away for good.
    func stop() {
        guard !stopped else { return }
        stopped = true
        timer.cancel()
        if policy.shown != nil || onScreen != nil { dismiss() }
    }

    private func carryOut(_ actions: [ActivityBannerPolicy<State>.Action]) {
        for action in actions {
            switch action {
            case .show(let state): show(state)
            case .hide: dismiss()
            }
        }
        if !actions.isEmpty { onChanged?() }
        timer.set(at: stopped ? nil : policy.nextDeadline) { [unowned self] in
            carryOut(policy.advance(to: loop.now))
        }
    }

    private func show(_ state: State) {
        forgetOnScreen()
        do throws(CommandFailure) {
            onScreen = try banners.show(request(state)) { [unowned self] in ended($0) }
            log("\(noun) banner shown (\(describe(state)))")
            onShown?(state)
        } catch {
            Terminal.warning("cannot show the \(noun) banner: \(error.message); trying again at the next change")
            policy.bannerWasDismissed()
        }
    }

    private func dismiss() {
        forgetOnScreen()
        do throws(CommandFailure) {
            if try banners.dismiss(id: id) { log("\(noun) banner hidden") }
        } catch {
            Terminal.warning("cannot dismiss the \(noun) banner: \(error.message)")
        }
    }

    /// The banner ended without us. The user's ✕ or click hides it for this call or share;
    /// another client, until the next change; its owner dying, only until a new owner shows it
    /// again (once per call or share).
    private func ended(_ reason: BannerEndReason?) {
        onScreen = nil
        switch reason {
        case .clicked?, .closed?, .swiped?, .action?, .secondaryAction?:
            policy.userDismissed()
            log("\(noun) banner dismissed by the user (\(reason.map(\.rawValue) ?? "")): hidden until this \(activity) ends")
        case .replaced?:
            // Another banner took the screen (the offline banner, a script's): this one waits
            // behind it in the owner's queue and comes back when it goes.
            policy.bannerWasDismissed()
            log("\(noun) banner waits behind another banner")
            if policy.state.isActive { carryOut(policy.observe(policy.state, at: loop.now)) }
        case .dismissed?, .timeout?:
            policy.bannerWasDismissed()
            log("\(noun) banner dismissed by another client")
        case nil:
            policy.bannerWasDismissed()
            log("\(noun) banner gone: the owner exited")
            // Died with it up (a quit dismisses first, saying so): while this lasts the banner
            // comes back on the owner there is next, after the start delay — once, so that an
            // owner the banner itself brings down is not started over and over.
            if policy.state.isActive, !broughtBack {
                broughtBack = true
                carryOut(policy.observe(policy.state, at: loop.now))
            }
        }
    }

    private func forgetOnScreen() {
        onScreen?.close()
        onScreen = nil
    }
}
