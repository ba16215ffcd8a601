// The owner's idle exit and its shutdown: state saved, banners taken down, memory given back.

import Accessibility
import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import CMalloc
import Glibc
import MonotonicClock
import OwnerIPC
import OwnerProtocol
import Reactor
import StartupTrace

extension Owner {
    // MARK: Idle exit and shutdown

    /// No banner showing or moving, none queued, and nobody waiting.
    var isIdle: Bool {
        schedules.values.allSatisfy(\.isIdle) && banners.hosts.allSatisfy { $0.phase == .hidden }
            && pendingReplies.isEmpty && requests.values.allSatisfy(\.waiters.isEmpty)
    }

    func updateIdle() {
        guard idleExit > 0, !finished else { return }
        if isIdle {
            guard !idleTimer.isPending else { return }
            idleTimer.set(after: idleExit) { [unowned self] in
                // A client may have connected just now: serve it before deciding.
                connections.accept()
                if isIdle {
                    log("idle for \(BannerFont.format(idleExit)) s: exiting")
                    shutDown()
                }
            }
        } else {
            idleTimer.cancel()
        }
    }

    /// Stops listening, ends every banner (waiting clients hear `dismissed`), slides them away
    /// and lets `run` return.
    package func shutDown() {
        guard !finished else { return }
        finished = true
        connections.stopListening()
        for name in Array(schedules.keys) {
            guard var schedule = schedules[name] else { continue }
            let change = schedule.clear()
            schedules[name] = schedule
            endAll(change, on: name)
        }
        for name in Array(hiding.keys) { finishHiding(on: name) }
        for id in connections.ids { connections.drop(id) }
        for host in banners.hosts where host.phase != .hidden { host.dismissTopBanner() }
        state.saveChanges()
        banners.loop.stop()
    }

    struct RequestState {
        var monitors: Set<String>
        var commands: ClickCommands
        /// What the stats count it under.
        var key: String
        var once: String?
        /// The `--style` it was shown with, for `status`.
        var style: String?
        /// Spoken by a screen reader at once (`--politeness`, the style's, the built-in default).
        var assertive: Bool
        /// Asked for on every monitor (`--monitor all`): a monitor added while it shows gets it.
        var everyMonitor: Bool
        /// Asked for with `--enqueue`: wherever it goes later, it waits behind what shows there.
        var enqueue: Bool
        /// On screen at least once (counted as an impression).
        var presented = false
        var waiters: Set<Int> = []
        /// The request as received, and the client's environment: what a `handover` describes.
        var show: ShowRequest
        var environment: [String: String]?
    }

    struct PendingReply {
        var client: Int
        var monitors: Set<String>
        var response: OwnerResponse
        var close: Bool
        var timer: EventLoop.Token
    }
}
