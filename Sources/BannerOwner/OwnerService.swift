// Runs the owner on an open display until it finishes: its socket, its log, the signals that
// end it, the line that tells the `show` which started it that it is ready, and the way out
// (what still shows slides away, never hanging). Generic over the backend: the executable calls
// it with the display it opened (X11Display, WaylandDisplay, GnomeShellDisplay), and as this
// module is compiled with cross-module optimization (Package.swift, release builds) its bodies
// are there for the compiler to specialize for each of those — every host call direct, no
// witness table — without this module linking any backend.

import BannerCore
import BannerProcess
import BannerRuntime
import Glibc
import OwnerIPC
import StartupTrace

package enum OwnerService {
    /// How the owner runs, whichever display it serves.
    package struct Settings {
        package var paths: OwnerPaths
        package var log: OwnerLog
        /// Seconds idle before it exits; 0: never.
        package var idleSeconds: Double
        /// The config file the daemon read at start-up, if any.
        package var startupConfig: OwnerStartupConfig?
        /// A line on how it draws, logged and told to the first `show`.
        package var notice: String?
        /// Where the `show` that started it waits for "ready"; nil when run by hand or a unit.
        package var readyFD: Int32?
        /// How it reads a `show` forwarded as typed: the client's own parser.
        package var showArguments: any ShowArgumentsReader

        package init(
            paths: OwnerPaths, log: OwnerLog, idleSeconds: Double, startupConfig: OwnerStartupConfig?, notice: String? = nil, readyFD: Int32?,
            showArguments: any ShowArgumentsReader
        ) {
            self.paths = paths
            self.log = log
            self.idleSeconds = idleSeconds
            self.startupConfig = startupConfig
            self.notice = notice
            self.readyFD = readyFD
            self.showArguments = showArguments
        }
    }

    /// Serves `banners` — an X display (or GNOME's Xwayland), a layer-shell compositor, GNOME
    /// Shell through its extension — until the owner finishes.
    package static func serve<Backend: BannerBackend>(_ banners: Backend, _ settings: Settings) throws(CommandFailure) {
        let paths = settings.paths
        let log = settings.log
        log.write("owner started for \(paths.display) (pid \(getpid()))")
        if let notice = settings.notice { log.warning(notice) }
        banners.onWarning = log.warning
        banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
        StartupTrace.mark("owner starts")
        let listener = try UnixSocket.listen(at: paths.socket)
        DisplayLoss.removeOnExit(paths.socket)
        let owner = Owner(banners: banners, paths: paths, listener: listener, idleExit: settings.idleSeconds, showArguments: settings.showArguments, log: log.warning)
        StartupTrace.mark("owner set up")
        owner.notice = settings.notice
        DisplayLoss.beforeEnding { reason in owner.displayLost(reason) }
        if let startupConfig = settings.startupConfig { owner.remember(startupConfig) }
        owner.endsWhenItsFirstRequestIsRefused = settings.readyFD != nil
        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) else {
            throw CommandFailure("cannot set up signal handling", code: ExitStatus.internalError)
        }
        banners.loop.watch(fd: signals.readEnd) {
            _ = signals.drain()
            owner.shutDown()
        }
        StartupTrace.mark("display ready")
        if let readyFD = settings.readyFD {
            let bytes = Array("ready\n".utf8)
            _ = bytes.withUnsafeBufferPointer { write(readyFD, $0.baseAddress, $0.count) }
            close(readyFD)
        } else {
            Terminal.output("window-banner: owner for \(paths.display) listening on \(paths.socket)")
        }
        banners.loop.run { owner.finished }
        // Slide away what is still showing, but never hang on the way out.
        banners.loop.run(timeout: 1) { banners.hosts.allSatisfy { $0.phase == .hidden } }
        banners.close()
        log.write("owner for \(paths.display) stopped")
    }
}
