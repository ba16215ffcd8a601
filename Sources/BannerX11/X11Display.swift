// One X display and every banner on it: opens the connection, finds the monitors (one
// X11Host each, kept in step with RandR), and runs the event loop that turns X events and
// frame deadlines into work. Start reading at `init`, then `serviceX`.

import BannerCore
import BannerRuntime
import CX11
import MonotonicClock
import Reactor
import StartupTrace

/// The banners of one X display, and the loop that drives them.
public final class X11Display: BannerBackend {
    /// The loop every X request of this display is made from; add your own descriptors and timers.
    public let loop: EventLoop
    /// The display name in use (`:0`).
    public var name: String { connection.name }
    /// One host per monitor, in RandR's order.
    public private(set) var hosts: [X11Host] = []
    /// 1 at 96 DPI; the desktop's DPI / 96 otherwise: XSETTINGS' `Xft/DPI` when its manager
    /// sets it (GNOME's "Large Text" multiplies it), else `Xft.dpi` of the X resources.
    public private(set) var pixelsPerPoint: Double
    /// The desktop's settings as its XSETTINGS manager publishes them now (empty without one).
    public var desktopSettings: XSettings { xsettings.settings }
    /// What the desktop asks of banners, from XSETTINGS (`Gtk/EnableAnimations`,
    /// `Net/ThemeName`, …).
    public var desktopPreferences: DesktopPreferences { xsettings.settings.preferences }
    /// Protocol errors the X server reported for this display's requests; a healthy display
    /// has none. Counted only while this library's error handler is the installed one.
    public var protocolErrorCount: Int { closed ? 0 : XErrorTrap.errorCount(on: connection.display) }
    /// Each protocol error the X server reported, called from the loop soon after it arrived
    /// (a storm is reported as its first few, then one `dropped` count); ignored by default,
    /// logged by the owner. `dropped` is how many more arrived beyond the errors reported.
    public var onProtocolError: (_ error: XProtocolError?, _ dropped: Int) -> Void = { _, _ in }

    /// True while a screen locker or the screensaver is up: no banner shows then (each stays
    /// presented, unmapped, and comes back when the screen is unlocked).
    public var isScreenLocked: Bool { screenLock.isLocked }

    /// Called after the hosts were matched to a new monitor layout (a host may be gone or new).
    public var onMonitorsChanged: (() -> Void)?

    let connection: XConnection
    public let fonts: FontLibrary
    public let icons = IconLibrary(searchPath: .processDefault)
    let pacer = FramePacer(rate: 60)
    /// Other clients' top struts (status bars, panels), which the banners sit under, and their
    /// side struts (vertical panels), which they sit between.
    let panels: PanelWatch
    /// The WM's work area, where a shell's own top bar (drawn by the compositor: GNOME Shell,
    /// Cinnamon) shows; nothing else does.
    private let workArea: WorkAreaWatch
    /// Per monitor (by name), the root row where such a bar ends (see ShellPanel).
    private var shellPanelBottoms: [String: Int] = [:]
    /// Where this process's reservations ended, the latest few: a work area ending there is ours.
    private var ownStrutTops: [Int] = []
    private var shellPanelsChanged = false
    /// Lockers and the screensaver: no banner shows while the screen is locked.
    let screenLock: ScreenLock
    private var lockChanged = false
    /// The desktop's XSETTINGS manager and its settings.
    private let xsettings: XSettingsWatch
    /// The monitors (by name) where a full-screen window has the focus.
    private(set) var fullscreenMonitors: Set<String> = []
    private var activeWindow: Window = 0
    private var fullscreenChanged = false
    /// When the banners were last raised, and the least time until the next raise: one frame
    /// slot, doubling (up to 2 s) while something keeps stacking itself over them.
    private var lastRaise: MonotonicTime?
    private var raiseInterval: Double
    private let timing: BannerTiming
    private var monitorsChanged = false
    private var needsRaise = false
    /// When the last turn of the loop asked to be woken (nil: only for input).
    private var lastWake: MonotonicTime?
    private var panelsChanged = false
    private var closed = false
    /// The banner of `presentTopBannerOnEveryMonitor`, which monitors added later get too.
    public let everyMonitorBanner = EveryMonitorBanner()
    private var colours: [String: RGBA] = [:]
    /// Extension names by major opcode, looked up the first time an extension request fails.
    private var extensionNames: [UInt8: String]?

    /// Opens `name` (nil: `$DISPLAY`) and creates a host for every monitor.
    public init(name: String? = nil, timing: BannerTiming = .standard, loop: EventLoop = EventLoop()) throws(BannerDisplayError) {
        connection = try XConnection(name: name)
        self.loop = loop
        self.timing = timing
        fonts = FontLibrary(opener: XftFontOpener(connection: connection))
        XSelectInput(connection.display, connection.root, SubstructureNotifyMask | StructureNotifyMask | PropertyChangeMask)
        if connection.randrEventBase >= 0 {
            XRRSelectInput(connection.display, connection.root, Int32(RRScreenChangeNotifyMask))
        }
        panels = PanelWatch(connection: connection)
        panels.start()
        workArea = WorkAreaWatch(connection: connection)
        workArea.refresh()
        xsettings = XSettingsWatch(connection: connection)
        _ = xsettings.refresh(watch: { [panels] in _ = panels.watch($0) })
        pixelsPerPoint = BannerLayout.pixelsPerPoint(xftDPI: xsettings.settings.dpi ?? connection.xftDPI())
        icons.desktopTheme = xsettings.settings.iconThemeName
        fonts.systemFamily = xsettings.settings.fontFamily
        raiseInterval = pacer.interval
        let monitors = connection.monitors()
        screenLock = ScreenLock(connection: connection, monitors: monitors.map(\.geometry), isOwn: panels.isOwn)
        hosts = monitors.map { X11Host(monitor: $0, context: self, timing: timing) }
        _ = refreshShellPanels()
        _ = refreshFullscreen()
        StartupTrace.mark("X display set up")
        loop.watch(fd: connection.fileDescriptor) { [unowned self] in serviceX() }
        loop.beforeEverySleep { [unowned self] in
            let wake = prepareForSleep()
            lastWake = wake
            return wake
        }
    }

    deinit { close() }

    /// The host of the primary monitor, or the first one.
    public var primaryHost: X11Host {
        // XConnection.monitors() always returns at least one monitor.
        hosts.first(where: \.isPrimary) ?? hosts[0]
    }

    public var preferredHost: X11Host? { primaryHost }

    /// Serves the loop until no banner is moving (or `timeout` passes); returns whether it settled.
    @discardableResult
    public func runUntilIdle(timeout: Double = 5) -> Bool {
        loop.run(timeout: timeout) { hosts.allSatisfy { $0.frameDeadline == nil } }
    }

    /// Serves the loop until this process has caught up with the X server: a round trip first,
    /// so every event the server has sent by now is here, then until each is handled, no frame
    /// is due, no raise is pending and nothing else is due now. Whatever follows, in this
    /// process, from anything done before the call has then happened — what a test needs
    /// before asserting that something did not. False after `timeout` seconds without quiet
    /// (a raise war with another client never quiets).
    @discardableResult
    public func runUntilQuiet(timeout: Double = 10) -> Bool {
        connection.sync()
        var turns = 0
        return loop.run(timeout: timeout) {
            turns += 1
            return turns > 2 && !needsRaise && hosts.allSatisfy { $0.frameDeadline == nil }
                && lastWake.map { loop.now < $0 } ?? true
                && XEventsQueued(connection.display, QueuedAfterFlush) == 0
        }
    }

    /// Removes every banner and its reservation at once and closes the connection.
    public func close() {
        guard !closed else { return }
        closed = true
        for host in hosts { host.close() }
        fonts.closeAll()
        connection.sync()
        connection.close()
    }

    /// Raises and focuses, through the window manager, the window of the first of `pids` that
    /// has one: `_NET_ACTIVE_WINDOW` as a pager or a panel's task button asks it (which every
    /// EWMH window manager obeys, switching desktops and restoring a minimized window), for the
    /// topmost client window whose `_NET_WM_PID` it is. Nothing without a window manager that
    /// supports it.
    @discardableResult
    public func raiseWindow(ofProcesses pids: [Int32]) -> Bool {
        let activation = Int(bitPattern: UInt(connection.atom("_NET_ACTIVE_WINDOW")))
        guard !pids.isEmpty, let supported = connection.cardinals(connection.root, "_NET_SUPPORTED", count: 4096),
              supported.contains(activation) else { return false }
        // Bottom to top: the last of a process's windows is the one its user was in last.
        let stacked = connection.cardinals(connection.root, "_NET_CLIENT_LIST_STACKING", count: 1 << 16)
            ?? connection.cardinals(connection.root, "_NET_CLIENT_LIST", count: 1 << 16) ?? []
        let clients = stacked.reversed().map { Window(UInt(bitPattern: $0)) }
        var windowOf: [Int32: Window] = [:]
        for (window, pid) in zip(clients, connection.firstCardinal(of: clients, "_NET_WM_PID")) {
            guard let pid, let process = Int32(exactly: pid) else { continue }
            if windowOf[process] == nil { windowOf[process] = window }
        }
        guard let window = pids.lazy.compactMap({ windowOf[$0] }).first else { return false }
        // Source 2: a pager, on the user's behalf, so no focus-stealing rule holds it back.
        connection.askWindowManager("_NET_ACTIVE_WINDOW", about: window, [2, Int(CurrentTime), 0])
        return true
    }

    // MARK: Resolution shared by the hosts

    /// A colour in pixels' terms; X11 colour names are resolved by the server.
    public func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA {
        switch colour.value {
        case .rgba(let rgba):
            return rgba
        case .x11Name(let name):
            if let known = colours[name] { return known }
            guard let rgba = connection.lookupColour(name) else { throw .colour(name) }
            colours[name] = rgba
            return rgba
        }
    }

    // MARK: The loop's work

    /// Handles every event Xlib has read or can read without blocking.
    /// Hands the errors the handler kept to ``onProtocolError``, named.
    private func reportProtocolErrors() {
        let (errors, dropped) = XErrorTrap.takeUnreported(on: connection.display)
        for error in errors {
            if error.requestCode >= 128, extensionNames == nil { extensionNames = connection.extensionOpcodes() }
            onProtocolError(XErrorTrap.named(error, on: connection.display, extensionNames: extensionNames ?? [:]), 0)
        }
        if dropped > 0 { onProtocolError(nil, dropped) }
    }

    private func serviceX() {
        while XPending(connection.display) > 0 {
            var event = XEvent()
            XNextEvent(connection.display, &event)
            handle(&event)
        }
    }

    private func handle(_ event: inout XEvent) {
        let type = event.type
        if panels.handle(&event) { panelsChanged = true }
        workArea.handle(&event)
        if screenLock.handle(&event) { lockChanged = true }
        xsettings.handle(&event)
        if connection.randrEventBase >= 0, type == connection.randrEventBase + RRScreenChangeNotify {
            XRRUpdateConfiguration(&event)
            monitorsChanged = true
            return
        }
        switch type {
        case ConfigureNotify:
            let window = event.xconfigure.window
            if window == connection.root {
                // Keeps Xlib's idea of the screen size (the fallback monitor) current. It is also
                // the only event a monitor added or deleted (`xrandr --setmonitor/--delmonitor`)
                // produces: the server sends no RandR event for those, just this one.
                XRRUpdateConfiguration(&event)
                monitorsChanged = true
            } else if let host = hosts.first(where: { $0.owns(window) }) {
                // The WM moved or restacked our dock: it may now be over the banner.
                if host.reservationMoved(window) { needsRaise = true }
            } else {
                needsRaise = true
            }
        case MapNotify:
            let window = event.xmap.window
            if let host = hosts.first(where: { $0.owns(window) }) {
                // The WM mapped our dock, perhaps over the banner.
                if host.reservationMoved(window) { needsRaise = true }
            } else {
                needsRaise = true
            }
        case ReparentNotify:
            if let host = hosts.first(where: { $0.owns(event.xreparent.window) }) {
                if host.reservationMoved(event.xreparent.window) { needsRaise = true }
            }
        case ButtonPress, ButtonRelease:
            let button = event.xbutton
            if let host = hosts.first(where: { $0.receivesPointer(button.window) }) {
                let which: PointerButton = switch Int32(button.button) {
                case Button1: .primary
                case Button4: .wheelUp
                default: .other
                }
                host.pointerButton(which, pressed: type == ButtonPress, x: Int(button.x), y: Int(button.y))
            }
        case PropertyNotify:
            let property = event.xproperty
            if property.window == connection.root, property.atom == Atom(XA_RESOURCE_MANAGER) {
                refreshScale()
            } else if property.window == connection.root, property.atom == connection.atom("_NET_ACTIVE_WINDOW") {
                fullscreenChanged = true
            } else if property.window == activeWindow, property.atom == connection.atom("_NET_WM_STATE") {
                fullscreenChanged = true
            }
        default:
            break
        }
    }

    /// Runs before the loop sleeps: applies collapsed changes, draws due frames, flushes.
    private func prepareForSleep() -> MonotonicTime? {
        serviceX()
        reportProtocolErrors()
        if monitorsChanged {
            // One mode switch sends several RRScreenChangeNotify and root ConfigureNotify
            // events, not all in one read: a round trip brings in every one the server has
            // sent so far, so they cost one refresh, made against the final layout.
            connection.sync()
            serviceX()
            monitorsChanged = false
            refreshMonitors()
            panels.screenResized()
            if screenLock.monitorsChanged(to: hosts.map(\.monitor)) { lockChanged = true }
            onMonitorsChanged?()
        }
        if xsettings.needsRefresh, xsettings.refresh(watch: { if panels.watch($0) { panelsChanged = true } }) {
            icons.desktopTheme = xsettings.settings.iconThemeName
            if fonts.systemFamily != xsettings.settings.fontFamily {
                // The banners on screen are laid out and drawn again in the new font.
                fonts.systemFamily = xsettings.settings.fontFamily
                for host in hosts { host.scaleChanged() }
            }
            refreshScale()
        }
        if panels.needsRefresh, panels.refresh() { panelsChanged = true }
        // The work area is read once the banners stop moving (below), no round trips mid-slide:
        // it moves a banner only when a shell's own bar changes.
        if workArea.needsRefresh, !hosts.contains(where: \.isAnimating), workArea.refresh() { shellPanelsChanged = true }
        if shellPanelsChanged || panelsChanged {
            shellPanelsChanged = false
            if refreshShellPanels() { panelsChanged = true }
        }
        if panelsChanged {
            panelsChanged = false
            for host in hosts { host.panelsChanged() }
        }
        if fullscreenChanged {
            fullscreenChanged = false
            if refreshFullscreen() { lockChanged = true }
        }
        if lockChanged {
            lockChanged = false
            for host in hosts { host.visibilityRulesChanged() }
        }
        let now = loop.now
        for host in hosts { host.renderIfDue(at: now) }
        var raiseDue: MonotonicTime?
        if needsRaise {
            if screenLock.isLocked {
                // Never over a locker (and nothing of ours is mapped while it is there).
                needsRaise = false
            } else if let last = lastRaise, now - last < raiseInterval {
                raiseDue = last + raiseInterval
            } else {
                needsRaise = false
                // Something that keeps stacking itself over the banner (a window raising itself
                // on every VisibilityNotify) gets an ever slower answer, never a war.
                let contested = lastRaise.map { now - $0 < 1 } ?? false
                raiseInterval = contested ? min(raiseInterval * 2, 2) : pacer.interval
                lastRaise = now
                for host in hosts { host.raiseAboveOthers() }
            }
        }
        connection.flush()
        if hosts.contains(where: { $0.isBannerPresented }) {
            StartupTrace.mark("first frame flushed")
            StartupTrace.report()
        }
        // The work area changed while the banners moved: read it now that they stopped.
        if workArea.needsRefresh, !hosts.contains(where: \.isAnimating) { return loop.now }
        // Fonts opened from an earlier owner's memory, once the banners have stopped moving:
        // fontconfig's own answer, and the banners drawn again if it differs.
        if fonts.needsCheck, fonts.checkRemembered(settled: !hosts.contains(where: \.isAnimating)) {
            for host in hosts { host.scaleChanged() }
            return loop.now
        }
        // Round trips made above (monitor queries, syncs) read events into Xlib's queue, where
        // poll(2) cannot see them: come straight back for them instead of sleeping on them.
        if XEventsQueued(connection.display, QueuedAlready) > 0 { return loop.now }
        var wake = raiseDue
        for host in hosts {
            if let due = host.frameDeadline, wake.map({ due < $0 }) ?? true { wake = due }
        }
        return wake
    }

    /// Matches hosts to the current monitors: kept by name, closed when gone, created when new;
    /// a new one gets the banner of `presentTopBannerOnEveryMonitor` while it is presented.
    private func refreshMonitors() {
        let match = MonitorMatch(hosts, to: connection.monitors(), name: \.name, update: { $0.monitorChanged(to: $1) },
                                 make: { X11Host(monitor: $0, context: self, timing: timing) }, close: { $0.close() })
        hosts = match.hosts
        everyMonitorBanner.monitorsAdded(match.added, among: hosts, model: match.previous.first(where: \.isPrimary) ?? match.previous.first)
    }

    /// Every top panel the banners sit under: other clients' struts, and a shell's own bar
    /// known only from the work area.
    var topPanels: [TopStrut] {
        panels.panels + hosts.compactMap { host in
            shellPanelBottoms[host.monitorName].map { ShellPanel.strut(bottom: $0, on: host.monitor) }
        }
    }

    /// A host reserved the top of its monitor down to root row `top`: the work area ending
    /// there will be the banner's, not a shell's panel.
    func reserved(downTo top: Int) {
        PanelWatch.remember(top, in: &ownStrutTops)
        shellPanelsChanged = true
    }

    /// Works out again where a shell's own top bar ends on each monitor; returns whether that
    /// changed. A top the screen-wide work area has may come from a strut on any monitor.
    private func refreshShellPanels() -> Bool {
        let bannerTops = Set(ownStrutTops + panels.bannerTops)
        var bottoms: [String: Int] = [:]
        for host in hosts {
            let monitor = host.monitor
            guard let (top, screenWide) = workArea.top(over: monitor) else { continue }
            let others = panels.panels.filter {
                screenWide || ($0.startX <= monitor.x + monitor.width - 1 && $0.endX >= monitor.x)
            }
            bottoms[host.monitorName] = ShellPanel.bottom(
                workAreaTop: top, on: monitor, otherStrutTops: others.map(\.top), bannerStrutTops: bannerTops,
                previous: shellPanelBottoms[host.monitorName])
        }
        guard bottoms != shellPanelBottoms else { return false }
        shellPanelBottoms = bottoms
        return true
    }

    /// Reads which window has the focus (`_NET_ACTIVE_WINDOW`) and, if it is full-screen
    /// (`_NET_WM_STATE_FULLSCREEN`), the monitors it covers; returns whether those changed.
    private func refreshFullscreen() -> Bool {
        activeWindow = connection.cardinals(connection.root, "_NET_ACTIVE_WINDOW")?.first.map { Window(UInt(bitPattern: $0)) } ?? 0
        // Its _NET_WM_STATE changes must be heard before it is read, or one in between is lost.
        if panels.watch(activeWindow) { panelsChanged = true }
        var covered: Set<String> = []
        if activeWindow != 0,
           let states = connection.cardinals(activeWindow, "_NET_WM_STATE"),
           states.contains(Int(bitPattern: UInt(connection.atom("_NET_WM_STATE_FULLSCREEN")))),
           let rect = connection.rootGeometry(of: activeWindow) {
            covered = Set(hosts.filter { StrutLayout.isOnMonitor(rect, $0.monitor) }.map(\.monitorName))
        }
        guard covered != fullscreenMonitors else { return false }
        fullscreenMonitors = covered
        return true
    }

    private func refreshScale() {
        XrmSetDatabase(connection.display, nil)
        let scale = BannerLayout.pixelsPerPoint(xftDPI: xsettings.settings.dpi ?? connection.xftDPI())
        guard scale != pixelsPerPoint else { return }
        pixelsPerPoint = scale
        for host in hosts { host.scaleChanged() }
    }
}

/// The names X11's display and host had before the GNOME and Wayland backends got theirs: kept so
/// that code written against them still builds (with a warning naming the new one).
@available(*, deprecated, renamed: "X11Display")
public typealias BannerDisplay = X11Display
@available(*, deprecated, renamed: "X11Host")
public typealias BannerHost = X11Host
