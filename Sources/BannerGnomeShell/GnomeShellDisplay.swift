// The GNOME backend's display: GNOME Shell's monitors as its extension reports them, one
// `GnomeShellHost` per monitor, the fonts and icons every banner is drawn with, and the two
// connections it lives on — the session bus (the extension) and the Wayland compositor, held
// only to learn when the session ends (the owner then ends as on any lost display: exit 69).
// The sibling of X11's X11Display and Wayland's WaylandDisplay.
// Start reading at `init(compositor:waylandDisplay:timing:loop:)`.

import BannerCore
import BannerRuntime
import BannerPixman
import DesktopPortal
import Glibc
import MonotonicClock
import Reactor
import SDBus

/// GNOME Shell's banners, drawn by this process and shown by the shell's extension.
///
/// ```swift
/// let mutter = try WaylandConnection(displayName: "wayland-0", requiringLayerShell: false)
/// let display = try GnomeShellDisplay(compositor: mutter, waylandDisplay: "wayland-0")
/// try display.preferredHost?.presentTopBanner(appearance)
/// display.loop.run(timeout: 3)
/// ```
public final class GnomeShellDisplay: BannerBackend {
    public let loop: EventLoop
    /// The Wayland display the session runs on (`wayland-0`).
    public let name: String
    /// Points to pixels at a UI scale of 1, as on Wayland (96 DPI) times the desktop's text
    /// scale (GNOME's "Large Text"); a monitor's scale multiplies it.
    public private(set) var pixelsPerPoint = BannerLayout.pixelsPerPoint(xftDPI: nil)
    /// What the desktop asks of banners, as xdg-desktop-portal's Settings say it (GNOME's
    /// GSettings), or GSettings itself where no portal answers, followed live; the default
    /// where neither does.
    public private(set) var desktopPreferences = DesktopPreferences()
    /// Where the preferences come from, and the loop's serving of it (none for the portal: it
    /// speaks on the extension's bus connection, served below).
    private var desktop: (reader: any DesktopSettingsReader, served: EventLoop.Token?)?
    public let fonts = FontLibrary(opener: FreeTypeFontOpener())
    public let icons = IconLibrary(searchPath: .processDefault)
    public private(set) var hosts: [GnomeShellHost] = []
    public var onMonitorsChanged: (() -> Void)?
    /// Called when the shell has painted the image of a banner for the first time after a
    /// change: (monitor, serial). What `make bench` times.
    public var onPainted: ((String, UInt32) -> Void)?
    /// The extension's UUID, for `gnome-extensions enable`.
    public static let extensionUUID = ShellExtension.uuid
    let timing: BannerTiming
    let pacer = FramePacer()
    let shell: ShellExtension
    /// Whether the extension owns its name on the bus now.
    var extensionIsThere: Bool { shell.owner != nil }
    private let compositor: any WatchedConnection
    public let everyMonitorBanner = EveryMonitorBanner()
    private var colours: [String: RGBA] = [:]
    private var busServed: EventLoop.Token?
    private var compositorWatch: EventLoop.Token?
    private var monitorsStale = false
    private var closed = false

    /// Connects to the extension on the session bus, for the session on the Wayland compositor
    /// `waylandDisplay` (nil: `WAYLAND_DISPLAY`), whose connection `compositor` (BannerWayland's
    /// `WaylandConnection`) it holds to learn when the session ends. Throws
    /// `ShellExtensionError` when the extension is not enabled (or speaks another version).
    public init(compositor: any WatchedConnection, waylandDisplay: String? = nil, timing: BannerTiming = .standard, loop: EventLoop = EventLoop()) throws {
        self.loop = loop
        self.timing = timing
        self.compositor = compositor
        name = waylandDisplay ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        shell = try ShellExtension.connect()
        hosts = try shell.monitors().map { GnomeShellHost(monitor: $0, display: self) }
        shell.onPointer = { [weak self] monitor, button, pressed, x, y in
            self?.hosts.first { $0.monitorName == monitor }?.pointer(button: button, pressed: pressed, x: x, y: y)
        }
        shell.onPainted = { [weak self] monitor, serial in self?.onPainted?(monitor, serial) }
        shell.onMonitorsChanged = { [weak self] in self?.monitorsStale = true }
        shell.onRefused = { [weak self] reason in self?.onWarning(reason) }
        shell.onPresence = { [weak self] present in self?.extensionPresence(present) }
        shell.onSharing = { [weak self] sharing in self?.onScreenSharingChanged?(sharing) }
        followDesktop()
        busServed = loop.serve(shell.connection) { [weak self] error in
            guard let self, !closed else { return }
            lost("lost the session bus (\(error))")
        }
        compositorWatch = loop.serve(ConnectionSource(compositor)) { [weak self] error in
            guard let self, !closed else { return }
            lost("lost the connection to the Wayland compositor (\(error))")
        }
        loop.beforeEverySleep { [weak self] in
            guard let self, !closed else { return nil }
            if monitorsStale {
                monitorsStale = false
                refreshMonitors()
            }
            return nil
        }
    }

    deinit { close() }

    /// Reads the portal's settings, which come on the extension's bus connection, and follows
    /// them; where no portal answers (none installed, or it failed to start), GSettings' own
    /// (dconf), as GNOME's applications read them, through GIO's descriptors.
    private func followDesktop() {
        if let portal = try? PortalSettings(connection: shell.connection) {
            portal.onChange = { [weak self] in self?.follow($0) }
            desktop = (portal, nil)
            follow(portal.preferences)
            return
        }
        guard let gsettings = DesktopGSettings() else { return }
        gsettings.onChange = { [weak self] in self?.follow($0) }
        desktop = (gsettings, loop.serve(gsettings) { _ in })
        follow(gsettings.preferences)
    }

    /// Follows `preferences` (`DesktopPreferences.follow`): the banners on screen are laid out
    /// again at a new text scale or system font, and sent to the shell anew.
    private func follow(_ preferences: DesktopPreferences) {
        desktopPreferences = preferences
        if preferences.follow(fonts: fonts, icons: icons, pixelsPerPoint: &pixelsPerPoint) {
            for host in hosts { host.lookChanged() }
        }
    }

    /// The primary monitor's host (the one with the top bar).
    public var preferredHost: GnomeShellHost? { hosts.first { $0.monitor.isPrimary } ?? hosts.first }

    /// Removes every banner (and its strut) at once and lets both connections go.
    public func close() {
        guard !closed else { return }
        for host in hosts { host.close() }
        // The hosts' Hide calls out now, so the struts go before this process does.
        shell.connection.flush()
        closed = true
        hosts.removeAll()
        if let busServed { loop.cancel(busServed) }
        if let compositorWatch { loop.cancel(compositorWatch) }
        if let served = desktop?.served { loop.cancel(served) }
        fonts.closeAll()
    }

    @discardableResult
    public func runUntilIdle(timeout: Double = 5) -> Bool {
        loop.run(timeout: timeout) { !hosts.contains(where: \.isAnimating) }
    }

    /// Asks the shell to activate the window of the first of `pids` that has one (true: asked;
    /// which window, if any, only the shell knows).
    @discardableResult
    public func raiseWindow(ofProcesses pids: [Int32]) -> Bool {
        guard !pids.isEmpty, !closed else { return false }
        shell.raise(pids)
        shell.connection.flush()
        return true
    }

    /// Whether the screen is shared, as the shell sees it: told at once when set (nil: an
    /// extension older than this program does not say), then at each change and when the
    /// extension leaves the bus (nil) or comes back.
    public var onScreenSharingChanged: ((Bool?) -> Void)? {
        didSet { onScreenSharingChanged?(shell.owner == nil ? nil : shell.sharing()) }
    }

    /// Asks the extension to stop every share (true: asked).
    @discardableResult
    public func stopScreenSharing() -> Bool {
        guard !closed, shell.owner != nil else { return false }
        shell.stopSharing()
        shell.connection.flush()
        return true
    }

    public func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA {
        try NamedColours.resolve(colour, remembering: &colours)
    }

    // MARK: The bus and the shell

    /// The extension left the bus (disabled, or the shell restarting on X11): the banners wait,
    /// their presentations going on, and are sent again whole when it comes back.
    private func extensionPresence(_ present: Bool) {
        onScreenSharingChanged?(present ? shell.sharing() : nil)
        if present {
            monitorsStale = true
            for host in hosts { host.resend() }
        } else {
            onWarning("the GNOME Shell extension \(ShellExtension.uuid) left the session bus: banners wait until it is back")
        }
    }

    /// The monitors as the extension reports them now: hosts kept by name, new ones added (they
    /// get a banner shown on every monitor), gone ones closed.
    private func refreshMonitors() {
        guard let monitors = try? shell.monitors(), !monitors.isEmpty else { return }
        let match = MonitorMatch(hosts, to: monitors, name: \.name, update: { $0.monitorChanged(to: $1) },
                                 make: { GnomeShellHost(monitor: $0, display: self) }, close: { $0.close() })
        hosts = match.hosts
        everyMonitorBanner.monitorsAdded(match.added, among: hosts, model: match.previous.first { $0.isBannerPresented })
        if match.changed { onMonitorsChanged?() }
    }

    /// The session ended: the process ends as it does when any display goes (see DisplayLoss).
    private func lost(_ reason: String) {
        DisplayLoss.end(reason)
    }
}
