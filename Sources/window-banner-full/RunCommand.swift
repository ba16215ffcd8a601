// `window-banner run`: the foreground banner. It owns the display connection for as long as
// it runs, so the banner (and its reserved space) lives exactly as long as this process.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerOwner
import BannerProcess
import BannerRuntime
import BannerX11
import Glibc
import OwnerIPC
import ShowArguments
import WindowBannerClient

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show a banner until a timeout, a signal, or the end of a command.",
        discussion: """
        The banner slides in, stays until --timeout seconds pass, SIGINT/SIGTERM arrives (exit 0), \
        or COMMAND exits (then window-banner exits with COMMAND's status), and slides out before \
        exiting. COMMAND is run directly, without a shell. A banner the user dismisses (a click, \
        its buttons, a swipe up) slides out too; a COMMAND still running is waited for. The \
        --action buttons' commands start detached, like show's.
        """
    )

    @OptionGroup var appearance: AppearanceOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Dismiss after this many seconds. Default: stay until a signal or COMMAND's end.", valueName: "seconds"))
    var timeout: String?

    @Option(help: ArgumentHelp("Monitor to show on: a RandR monitor or Wayland output name, 'primary' or 'all'. Default: primary.", valueName: "name"))
    var monitor: String?

    @Option(help: ArgumentHelp("Display to use: an X display (:0) or a Wayland compositor's socket (wayland-0). Default: $WAYLAND_DISPLAY, else $DISPLAY (WINDOW_BANNER_BACKEND=x11 or wayland picks one); with neither, the user's session (docs/scripts.md).", valueName: "display"))
    var display: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("Command to run while the banner shows.", valueName: "command"))
    var command: [String] = []

    func run() throws {
        var look: TopBannerAppearance
        let policy: CompactPolicy
        let placement: EdgePlacement
        let fullscreen: FullscreenPolicy
        var duration: Double?
        do {
            var settings = appearance.settings
            if settings.reduceMotion == nil, DesktopSettings.prefersReducedMotion(environment: processEnvironment()) {
                settings.reduceMotion = "true"
            }
            look = try settings.appearance()
            look.layoutDirection = LayoutDirection(locale: UserLocale(environment: processEnvironment()))
            policy = try appearance.compactPolicy()
            placement = try appearance.settings.edgePlacement()
            fullscreen = try appearance.settings.fullscreenPolicy()
            // Checked like every flag, though the banner `run` draws itself is not on the
            // accessibility bus (only the owner's are): a script can move to `show` unchanged.
            _ = try appearance.settings.politenessSetting()
            if let timeout { duration = try seconds(timeout) }
        } catch {
            throw fail("\(error)", code: ExitStatus.usage)
        }

        let name = display ?? OwnerPaths.sessionDisplay(environment)
        if let name, OwnerPaths.isWayland(name) {
            let session: WaylandSessionBackend
            do { session = try openWaylandSession(name) } catch { throw error.exit }
            switch session {
            case .layerShell(let banners):
                banners.onWarning = Terminal.warning
                banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
                try show(look, on: banners, policy: policy, placement: placement, fullscreen: fullscreen, duration: duration)
            case .gnomeShell(let banners):
                banners.onWarning = Terminal.warning
                banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
                try show(look, on: banners, policy: policy, placement: placement, fullscreen: fullscreen, duration: duration)
            case .xwayland(let banners, let notice):
                Terminal.warning(notice)
                banners.onWarning = Terminal.warning
                banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
                try show(look, on: banners, policy: policy, placement: placement, fullscreen: fullscreen, duration: duration)
            }
        } else {
            try show(look, on: try openBannerDisplay(display), policy: policy, placement: placement, fullscreen: fullscreen, duration: duration)
        }
    }

    /// Shows `look` on `banners` until the timeout, a signal, the command's end or the user.
    private func show<Backend: BannerBackend>(
        _ look: TopBannerAppearance, on banners: Backend, policy: CompactPolicy, placement: EdgePlacement, fullscreen: FullscreenPolicy,
        duration: Double?
    ) throws {
        defer { banners.close() }
        var look = look
        // The desktop's live setting (XSETTINGS), when neither flag decided.
        if appearance.settings.reduceMotion == nil, banners.desktopPrefersReducedMotion { look.reduceMotion = true }

        var hosts: [Backend.Host]
        // `all` follows the monitors: one plugged in while the banner shows gets it too.
        let everyMonitor = monitor == "all"
        do {
            hosts = try banners.hosts(named: monitor ?? "primary")
            if let problem = try contrastProblem(of: look, on: banners) {
                guard !appearance.strictContrast else { throw BannerValueError.contrast(problem) }
                Terminal.warning(problem)
            }
            for host in hosts {
                host.compactPolicy = policy
                host.placement = placement
                host.fullscreenPolicy = fullscreen
                if !everyMonitor { try host.presentTopBanner(look) }
            }
            if everyMonitor { try banners.presentTopBannerOnEveryMonitor(look) }
        } catch {
            throw fail("\(error)", code: ExitStatus.usage)
        }
        var dismissed = false
        let dismiss = {
            dismissed = true
            if everyMonitor { banners.dismissTopBannerOnEveryMonitor() } else { for host in hosts { host.dismissTopBanner() } }
        }
        // Dismissed by the user on one monitor: gone from all, and the action button's command runs.
        let actionCommands = appearance.action.map { (try? ActionSetting(parsing: $0))?.command ?? [] }
        var launched: [pid_t] = []
        let dismissedByUser = { (reason: BannerDismissReason) in
            dismiss()
            guard let index = [BannerDismissReason.action, .secondaryAction].firstIndex(of: reason),
                  index < actionCommands.count, !actionCommands[index].isEmpty else { return }
            let command = BannerCommand(arguments: actionCommands[index], environment: processEnvironment(), directory: nil)
            switch command.launch() {
            case .success(let pid): launched.append(pid)
            case .failure(let failure): Terminal.warning("the --action command did not run: \(failure)")
            }
        }
        for host in hosts { host.onDismiss = dismissedByUser }
        banners.onMonitorsChanged = { [unowned banners] in
            if everyMonitor {
                for host in banners.hosts { host.onDismiss = dismissedByUser }
                return
            }
            // A banner whose monitor was unplugged moves to the primary monitor, as the owner's do.
            hosts.removeAll { host in !banners.hosts.contains { $0 === host } }
            guard hosts.isEmpty, !dismissed else { return }
            guard let primary = banners.preferredHost else { return }
            primary.compactPolicy = policy
            primary.placement = placement
            primary.fullscreenPolicy = fullscreen
            primary.onDismiss = dismissedByUser
            // Its values were checked when it was first presented.
            _ = try? primary.presentTopBanner(look)
            hosts = [primary]
            Terminal.warning("its monitor is gone: the banner moves to the primary monitor \(primary.monitorName)")
        }

        guard let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP, SIGCHLD]) else {
            throw fail("cannot set up signal handling", code: ExitStatus.internalError)
        }
        var child: ChildProcess?
        var childStatus: Int32?
        if !command.isEmpty {
            do {
                child = try ChildProcess.spawn(command)
                // If the display goes, the command goes with the banner: no orphan.
                if let pid = child?.pid { DisplayLoss.stopOnExit(pid) }
            } catch .notFound(let program) {
                dismiss()
                banners.runUntilIdle()
                throw fail("command not found: \(program.printable)", code: 127)
            } catch .notExecutable(let program) {
                dismiss()
                banners.runUntilIdle()
                throw fail("cannot execute: \(program.printable)", code: 126)
            }
        }

        if let duration {
            banners.loop.after(seconds: duration) { dismiss() }
        }
        banners.loop.watch(fd: signals.readEnd) {
            for signal in signals.drain() {
                if signal == SIGCHLD {
                    BannerCommand.reap(&launched)
                    if let status = child?.reap() {
                        childStatus = status
                        dismiss()
                    }
                } else if let child, childStatus == nil {
                    child.send(signal)
                } else {
                    dismiss()
                }
            }
        }
        let childDone = { child == nil || childStatus != nil }
        // Every host of the display, not just ours: a monitor unplugged meanwhile took its
        // banner with it, and a host that is gone has nothing left to hide.
        banners.loop.run { banners.hosts.allSatisfy { $0.phase == .hidden } && childDone() }
        throw ExitCode(childStatus ?? 0)
    }

    /// A line about a title below WCAG's contrast, or nil. The default look (the original's
    /// white on systemGreen, which falls short) is only checked with `--strict-contrast`.
    private func contrastProblem(of look: TopBannerAppearance, on banners: some BannerBackend) throws(BannerValueError) -> String? {
        try banners.contrast(of: look).warning(for: look, reference: .default, written: appearance.settings, strict: appearance.strictContrast)
    }
}
