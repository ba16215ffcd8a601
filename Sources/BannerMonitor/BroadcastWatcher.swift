// The admin broadcasts in one graphical session: `window-banner monitor` follows the spools
// (BroadcastSpool) with inotify (PathWatch) and shows, through the display's owner, each
// broadcast meant for its user that has not expired and that the user has not dismissed with
// the same words. A broadcast's banner has an id of its own namespace (`broadcast:ID`), queues
// behind what is on screen, and is updated in place when the admin changes it. The user's ✕,
// click, swipe or `dismiss` hides it for them alone, in every session of theirs, until its
// words change. After each change the session's fate of every broadcast is written where root's
// `broadcast list` reads it (BroadcastReport). Start reading at `rescan()`.

import BannerConfig
import BannerCore
import BannerRuntime
import Glibc
import OwnerIPC
import OwnerProtocol
import Reactor

package final class BroadcastWatcher {
    /// The most broadcasts on screen or in the owner's queue at once; the rest wait their turn.
    package static let maximumShown = 16

    private let loop: EventLoop
    private let spool: BroadcastSpool
    private let banners: any WatcherBanners
    private let user: String
    private let groups: [String]
    private let base: ShowRequest
    private let runtimeDirectory: String?
    private let wallClock: () -> Double
    private let log: (String) -> Void
    private var dismissed: DismissedBroadcasts
    private let stateDirectory: String?
    private var report: BroadcastReport
    private var watch: PathWatch?
    private let expiry: LoopTimer
    private let retry: LoopTimer
    /// What is shown now, by broadcast id.
    private var shown: [String: (broadcast: Broadcast, handle: any ShownBannerHandle)] = [:]
    /// The ids the spools held at the last scan: dismissals of others are forgotten.
    private var spooled: Set<String> = []
    /// Problems already logged: each spool problem is said once, not at every change.
    private var said: Set<String> = []
    private var stopped = false

    /// Called after a broadcast was shown, changed or hidden.
    package var onBannerChanged: (() -> Void)?

    /// A watcher for `user` (in `groups`) that shows broadcasts with `base`'s config file,
    /// locale and environment; `runtimeDirectory` is where its report goes (nil: none),
    /// `stateDirectory` where dismissals are kept; `wallClock` is seconds since 1970.
    package init(
        loop: EventLoop, spool: BroadcastSpool, banners: any WatcherBanners, user: String, groups: [String], base: ShowRequest,
        session: (display: String, id: String?), runtimeDirectory: String?, stateDirectory: String?,
        wallClock: @escaping () -> Double, log: @escaping (String) -> Void
    ) {
        self.loop = loop
        self.spool = spool
        self.banners = banners
        self.user = user
        self.groups = groups
        self.base = base
        self.runtimeDirectory = runtimeDirectory
        self.wallClock = wallClock
        self.log = log
        dismissed = DismissedBroadcasts(stateDirectory: stateDirectory)
        self.stateDirectory = stateDirectory
        report = BroadcastReport(pid: getpid(), display: session.display, session: session.id, user: user)
        expiry = LoopTimer(on: loop)
        retry = LoopTimer(on: loop)
    }

    /// Follows the spools and shows what they hold now.
    package func start() {
        // The user's dismissals too: one in another session of theirs hides it here as well.
        let paths = [spool.volatileDirectory, spool.persistentDirectory] + (stateDirectory.map { [$0 + "/" + DismissedBroadcasts.fileName] } ?? [])
        watch = PathWatch(paths: paths, loop: loop) { [unowned self] in rescan() }
        if watch == nil { log("cannot watch the broadcast spools: \(String(cString: strerror(errno)))") }
        rescan()
    }

    /// Takes every broadcast's banner away and removes the session's report.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        watch = nil
        expiry.cancel()
        retry.cancel()
        for id in shown.keys.sorted() { hide(id) }
        if let runtimeDirectory { report.remove(runtimeDirectory: runtimeDirectory) }
    }

    /// Reads the spools and brings the screen in line with them.
    package func rescan() {
        guard !stopped else { return }
        let contents = spool.read()
        spooled = Set(contents.broadcasts.map(\.id))
        for problem in contents.problems where said.insert(problem).inserted { log(problem) }
        let now = wallClock()
        let mine = contents.broadcasts.filter { $0.isFor(user: user, groups: groups) && !$0.hasExpired(at: now) }
        let ids = Set(mine.map(\.id))
        dismissed.reload()
        for id in shown.keys.sorted() where !ids.contains(id) { hide(id) }
        var entries: [String: BroadcastReport.Entry] = [:]
        for broadcast in mine {
            let revision = broadcast.wordsRevision
            if dismissed.contains(broadcast) {
                if shown[broadcast.id] != nil { hide(broadcast.id) }
                entries[broadcast.id] = .init(state: "dismissed", revision: revision)
                continue
            }
            if let current = shown[broadcast.id], current.broadcast == broadcast {
                entries[broadcast.id] = .init(state: "shown", revision: revision)
                continue
            }
            guard shown.count < Self.maximumShown || shown[broadcast.id] != nil else {
                entries[broadcast.id] = .init(state: "waiting", revision: revision, reason: "\(Self.maximumShown) other broadcasts are up")
                continue
            }
            entries[broadcast.id] = show(broadcast)
        }
        report.broadcasts = entries
        writeReport()
        let nextEnd = mine.compactMap(\.until).min()
        if let nextEnd {
            expiry.set(after: max(0, nextEnd - wallClock()) + 0.01) { [unowned self] in rescan() }
        } else {
            expiry.cancel()
        }
    }

    private func show(_ broadcast: Broadcast) -> BroadcastReport.Entry {
        var request = base
        // The monitor's own flags (its --placement) under the broadcast's.
        request.settings = base.settings.overlaid(by: broadcast.settings)
        request.style = broadcast.style
        request.monitor = broadcast.monitor
        request.id = broadcast.bannerID
        shown[broadcast.id]?.handle.close()
        do throws(CommandFailure) {
            let handle = try banners.show(request) { [unowned self] in ended(broadcast.id, $0) }
            let changed = shown[broadcast.id] != nil
            shown[broadcast.id] = (broadcast, handle)
            log("broadcast \(broadcast.id) \(changed ? "changed" : "shown")")
            onBannerChanged?()
            return .init(state: "shown", revision: broadcast.wordsRevision)
        } catch {
            shown[broadcast.id] = nil
            log("cannot show the broadcast \(broadcast.id): \(error.message)")
            retryLater()
            return .init(state: "failed", revision: broadcast.wordsRevision, reason: error.message)
        }
    }

    private func hide(_ id: String) {
        guard let current = shown.removeValue(forKey: id) else { return }
        current.handle.close()
        do throws(CommandFailure) {
            _ = try banners.dismiss(id: current.broadcast.bannerID)
            log("broadcast \(id) hidden")
        } catch {
            log("cannot hide the broadcast \(id): \(error.message)")
        }
        onBannerChanged?()
    }

    /// A broadcast's banner ended without us: the user's doing hides it for them until its words
    /// change; the owner gone, it is shown again a moment later.
    private func ended(_ id: String, _ reason: BannerEndReason?) {
        guard let current = shown[id] else { return }
        shown[id] = nil
        switch reason {
        case .clicked?, .closed?, .swiped?, .action?, .secondaryAction?, .dismissed?, .timeout?:
            dismissed.remember(current.broadcast, known: spooled)
            log("broadcast \(id) dismissed by the user (\(reason.map(\.rawValue) ?? ""))")
            report.broadcasts[id] = .init(state: "dismissed", revision: current.broadcast.wordsRevision)
            writeReport()
            rescan()
        case .replaced?:
            log("broadcast \(id) replaced by another client")
            retryLater()
        case nil:
            log("broadcast \(id) gone: the owner exited")
            report.broadcasts[id] = .init(state: "failed", revision: current.broadcast.wordsRevision, reason: "the owner exited")
            writeReport()
            retryLater()
        }
        onBannerChanged?()
    }

    private func retryLater() {
        guard !retry.isPending else { return }
        retry.set(after: 1) { [unowned self] in rescan() }
    }

    private func writeReport() {
        guard let runtimeDirectory else { return }
        // Only what is shown can be hidden by a locker: the owner is asked then alone.
        report.locked = report.broadcasts.values.contains { $0.state == "shown" } ? banners.screenIsLocked() : nil
        report.answered = spool.lastPing()
        do throws(SmallFile.WriteError) {
            try report.write(runtimeDirectory: runtimeDirectory)
        } catch {
            if said.insert(error.description).inserted { log("cannot write the broadcast report: \(error)") }
        }
    }
}
