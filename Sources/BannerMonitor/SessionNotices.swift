// What reaches a graphical session from the machine rather than from its user: the admin's
// broadcasts (BroadcastWatcher) and the system's notices (SystemNoticeWatcher). Several monitors
// may run in one session (the one every session starts, docs/fleet.md, and a user's own), so the
// first to take the session's lock — `$XDG_RUNTIME_DIR/window-banner/notices-DISPLAY.lock`,
// held while it runs — shows them, and the others leave them alone.

import BannerCore
import BannerProcess
import BannerRuntime
import Glibc
import LoginSessions
import OwnerIPC
import OwnerProtocol
import Reactor
import SDBus

package final class SessionNotices {
    private var broadcasts: BroadcastWatcher?
    private var system: SystemNoticeWatcher?
    private var lock: Int32 = -1
    /// Another monitor of this session holds the lock and shows the notices.
    package private(set) var heldElsewhere = false

    /// Whether this monitor shows no notices at all.
    package var isEmpty: Bool { broadcasts == nil && system == nil }

    /// Called after a notice's banner was shown, changed or hidden.
    package var onBannerChanged: (() -> Void)? {
        didSet {
            broadcasts?.onBannerChanged = onBannerChanged
            system?.onBannerChanged = onBannerChanged
        }
    }

    /// The notices for the session on `display` (as its owner's paths name it) that
    /// `environment` describes, shown with `base` (its config file, locale, monitor and
    /// placement) through `banners`; the system's too with `system`.
    package init(
        system showsSystem: Bool, display: String, base: ShowRequest, banners: any WatcherBanners, loop: EventLoop,
        environment: [String: String], readShutdown: @escaping () -> Result<ScheduledShutdown?, BusError>, log: @escaping (String) -> Void
    ) {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let runtime {
            let directory = runtime + "/window-banner"
            _ = mkdir(directory, 0o700)
            lock = open(directory + "/notices-" + BroadcastReport.fileName(display: display).dropLast(5) + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if lock >= 0, flock(lock, LOCK_EX | LOCK_NB) != 0 {
                close(lock)
                lock = -1
                // Said only where it leaves this monitor nothing to do (MonitorCommand): the
                // network monitor's own lines stay as they were.
                heldElsewhere = true
                return
            }
        }
        let root = BroadcastSpool.root(environment)
        let account = getpwuid(getuid())?.pointee
        let user = account.map { String(cString: $0.pw_name) } ?? String(getuid())
        broadcasts = BroadcastWatcher(
            loop: loop, spool: BroadcastSpool(root: root), banners: banners, user: user, groups: account.map(UserGroups.names) ?? [], base: base,
            session: (display, environment["XDG_SESSION_ID"]), runtimeDirectory: runtime, stateDirectory: OwnerStateFiles.defaultDirectory(environment: environment),
            wallClock: { Double(time(nil)) }, log: log)
        if showsSystem {
            system = SystemNoticeWatcher(loop: loop, banners: banners, root: root, base: base, readShutdown: readShutdown, log: log)
        }
    }

    deinit {
        if lock >= 0 { close(lock) }
    }

    /// Starts following the spools and the system's files.
    package func start() {
        broadcasts?.start()
        system?.start()
    }

    /// Takes every notice away.
    package func stop() {
        broadcasts?.stop()
        system?.stop()
    }

}
