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

    /// No banner showing, moving, queued or held, nobody waiting, and no watcher watching for
    /// screen sharing (an owner started after it would not know whether the screen is shared);
    /// the desktop itself (GNOME's extension) does not count: the next owner asks it again.
    var isIdle: Bool {
        lanes.values.allSatisfy(\.isIdle) && banners.hosts.allSatisfy { $0.phase == .hidden }
            && replies.isEmpty && !ledger.hasWaiters && held.isEmpty && sharingWatchers.keys.allSatisfy { $0 == Self.desktopWatcher }
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
        endHeld(reason: .dismissed) { _ in true }
        for lane in Array(lanes.values) { lane.endEverything() }
        for id in connections.ids { connections.drop(id) }
        for host in banners.hosts where host.phase != .hidden { host.dismissTopBanner() }
        ledger.saveChanges()
        banners.loop.stop()
    }
}
