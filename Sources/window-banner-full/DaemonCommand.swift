// `window-banner daemon`: the owner process of one display, in the foreground. `show` starts
// one by itself (with `--ready-fd`); systemd users run it from the unit in Resources/.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerOwner
import BannerProcess
import BannerRuntime
import BannerWayland
import BannerX11
import Glibc
import OwnerIPC
import Reactor
import ShowArguments
import Spawning
import StartupTrace
import WindowBannerClient

struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the owner process of a display in the foreground (for systemd).",
        discussion: """
        The owner holds every banner of the display and serves show, dismiss and status on a \
        socket in $XDG_RUNTIME_DIR/window-banner (or /tmp/window-banner-UID). It exits on \
        SIGTERM/SIGINT (sliding its banners away) and, with --idle-exit, after that many \
        seconds with no banner and no queue. Exit codes: 0 stopped; 69 no display; 75 another \
        owner runs for this display, or the socket cannot be created; 78 broken config file.
        """
    )

    @Option(help: ArgumentHelp("Display to serve: an X display (:0) or a Wayland compositor's socket (wayland-0). Default: $WAYLAND_DISPLAY, else $DISPLAY.", valueName: "display"))
    var display: String?

    @Option(name: .customLong("idle-exit"), parsing: .unconditional, help: ArgumentHelp("Exit after this many seconds with no banner and no queue; 0 = never. Default: the config file's [daemon] idle-exit, else 60 when started by show, never otherwise.", valueName: "seconds"))
    var idleExit: String?

    @Option(help: ArgumentHelp("Config file to read [daemon] settings from. Default: $XDG_CONFIG_HOME/window-banner/config.toml.", valueName: "path"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Read no config file.")
    var noConfig = false

    @Option(name: .customLong("ready-fd"), help: .hidden)
    var readyFD: Int32?

    /// The owner as `show` starts it (`OwnerStartLine`), read without building the argument
    /// parser, whose first use costs a new process milliseconds on the way to the session's
    /// first banner. Any other command line is nil: the parser reads it.
    static func startedByShow(_ arguments: [String]) -> DaemonCommand? {
        guard let line = OwnerStartLine(reading: arguments) else { return nil }
        var command = DaemonCommand()
        command.display = line.display
        command.readyFD = line.readyFD
        command.idleExit = nil
        switch line.config {
        case .standard:
            command.config = nil
            command.noConfig = false
        case .none:
            command.config = nil
            command.noConfig = true
        case .file(let path):
            command.config = path
            command.noConfig = false
        }
        return command
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        // The commands a click runs are never waited for: the kernel reaps them, no zombies.
        signal(SIGCHLD, SIG_IGN)
        do {
            try serve()
        } catch {
            let failure = error
            if let readyFD { report("error \(failure.code) \(failure.message)", to: readyFD) }
            throw failure.exit
        }
    }

    private func serve() throws(CommandFailure) {
        let (idleSeconds, startupConfig) = try idleExitSeconds()
        let paths = try OwnerPaths.forDisplay(display)
        try takeOwnerLock(paths)
        let log = OwnerLog(path: paths.log)
        if OwnerPaths.isWayland(paths.display) {
            switch try openWaylandSession(paths.display) {
            case .layerShell(let banners):
                try OwnerService.serve(banners, settings(paths, log, idleSeconds, startupConfig))
            case .gnomeShell(let banners):
                try OwnerService.serve(banners, settings(paths, log, idleSeconds, startupConfig))
            case .xwayland(let banners, let notice):
                // GNOME's Wayland session: the owner of the Wayland display draws through
                // Xwayland, and the first `show` tells its caller so.
                logProtocolErrors(of: banners, to: log)
                try OwnerService.serve(banners, settings(paths, log, idleSeconds, startupConfig, notice: notice))
            }
        } else {
            let banners: X11Display
            do {
                banners = try X11Display(name: paths.display)
            } catch {
                throw CommandFailure("\(error)", code: ExitStatus.displayUnavailable)
            }
            logProtocolErrors(of: banners, to: log)
            try OwnerService.serve(banners, settings(paths, log, idleSeconds, startupConfig))
        }
    }

    private func settings(
        _ paths: OwnerPaths, _ log: OwnerLog, _ idleSeconds: Double, _ startupConfig: OwnerStartupConfig?, notice: String? = nil
    ) -> OwnerService.Settings {
        OwnerService.Settings(paths: paths, log: log, idleSeconds: idleSeconds, startupConfig: startupConfig, notice: notice, readyFD: readyFD,
            showArguments: ShowParser())
    }

    private func logProtocolErrors(of banners: X11Display, to log: OwnerLog) {
        banners.onProtocolError = { error, dropped in
            log.write(error.map { "\($0)" } ?? "\(dropped) more X errors (a burst is logged as its first \(XProtocolError.reportedOneByOne) and a count)")
        }
    }

    /// Seconds of idleness before exiting, and the config file read to learn them (if any).
    private func idleExitSeconds() throws(CommandFailure) -> (seconds: Double, config: OwnerStartupConfig?) {
        if let idleExit {
            guard let value = Double(idleExit), value.isFinite, value >= 0 else {
                throw CommandFailure("bad idle exit '\(idleExit.printable)' (seconds, 0 or more; 0 = never)", code: ExitStatus.usage)
            }
            return (value, nil)
        }
        if let config, access(config, F_OK) != 0 {
            throw CommandFailure("no config file at \(config.printable)", code: ExitStatus.config)
        }
        let fallback: Double = readyFD == nil ? 0 : 60
        guard let path = noConfig ? nil : (config ?? BannerConfig.defaultPath(environment: processEnvironment())) else {
            return (fallback, nil)
        }
        // The stamp first: a file changed during the read is read again by the first show.
        let stamp = FileStamp(path: path)
        do {
            let startup = OwnerStartupConfig(path: path, stamp: stamp, config: try BannerConfig.load(path: path))
            return (startup.config.idleExit ?? fallback, startup)
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.config)
        }
    }

    /// Holds the display's owner lock for the life of this process. A live owner that already
    /// holds it answers on the socket; one that is exiting releases it within moments.
    private func takeOwnerLock(_ paths: OwnerPaths) throws(CommandFailure) {
        let lock = open(paths.ownerLock, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw CommandFailure("cannot open \(paths.ownerLock.printable): \(errorText())", code: ExitStatus.unreachable) }
        let giveUp = PollWait.deadline(in: 3)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            if case .success(let fd) = UnixSocket.connect(to: paths.socket) {
                close(fd)
                throw CommandFailure("an owner is already running for \(paths.display)", code: ExitStatus.unreachable)
            }
            guard !PollWait.hasPassed(giveUp) else {
                throw CommandFailure("\(paths.ownerLock.printable) is held by another process", code: ExitStatus.unreachable)
            }
            poll(nil, 0, 20)
        }
    }

    private func report(_ line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    }
}
