// The Wayland backend's display: one compositor connection served by the event loop, the fonts
// (fontconfig matched, FreeType opened) and icons every banner uses, and one `WaylandHost` per
// output, following outputs as they come and go. The sibling of BannerX11's X11Display.

import BannerCore
import BannerRuntime
import DesktopPortal
import Glibc
import MonotonicClock
import Reactor
import SDBus

/// A layer-shell compositor's banners, one host per output.
///
/// ```swift
/// let display = try WaylandDisplay()
/// try display.primaryHost.presentTopBanner(appearance)
/// display.loop.run(timeout: 3)
/// ```
public final class WaylandDisplay: BannerBackend {
    public let loop: EventLoop
    public let connection: WaylandConnection
    /// The compositor's socket as asked for (`wayland-1`, a path), or `WAYLAND_DISPLAY`.
    public let name: String
    /// Points to pixels at an output scale of 1: a point is a pixel at the reference 96 DPI
    /// (`BannerLayout.referenceDPI`), as on an X display without `Xft.dpi`, and Wayland's
    /// logical pixels are those, times the desktop's text scale (its "Large Text"); an
    /// output's scale multiplies it (WaylandHost).
    public private(set) var pixelsPerPoint = BannerLayout.pixelsPerPoint(xftDPI: nil)
    /// What the desktop asks of banners, as xdg-desktop-portal's Settings say it (the
    /// default, where no portal answers), followed live.
    public private(set) var desktopPreferences = DesktopPreferences()
    public let fonts = FontLibrary(opener: FreeTypeFontOpener())
    public let icons = IconLibrary(searchPath: .processDefault)
    /// One host per output, in the order the compositor announced them.
    public private(set) var hosts: [WaylandHost] = []
    /// Called after an output came or went (its host is in `hosts`, or gone from it).
    public var onMonitorsChanged: (() -> Void)?
    let timing: BannerTiming
    /// The banner of `presentTopBannerOnEveryMonitor`, which outputs added later get too.
    public let everyMonitorBanner = EveryMonitorBanner()
    private var colours: [String: RGBA] = [:]
    private var watch: EventLoop.Token?
    /// Where the desktop's preferences come from, and the loop's serving of it; nil where
    /// neither a portal nor GSettings answered.
    private var desktop: (reader: any DesktopSettingsReader, served: EventLoop.Token)?
    private var closed = false

    /// Connects to `name` (a socket in `XDG_RUNTIME_DIR` or a path; nil: `WAYLAND_DISPLAY`).
    /// Throws `WaylandError.noLayerShell` on a compositor that cannot show a banner that
    /// reserves space (GNOME's). With `followsDesktop`, the desktop's preferences are read
    /// from xdg-desktop-portal's Settings on the session bus and followed as they change.
    public init(name: String? = nil, timing: BannerTiming = .standard, loop: EventLoop = EventLoop(), followsDesktop: Bool = true) throws {
        self.loop = loop
        self.timing = timing
        connection = try WaylandConnection(displayName: name)
        self.name = name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        hosts = connection.outputs.map { WaylandHost(output: $0, display: self) }
        connection.onOutputAdded = { [weak self] output in
            guard let self else { return }
            let host = WaylandHost(output: output, display: self)
            let model = hosts.first
            hosts.append(host)
            everyMonitorBanner.monitorsAdded([host], among: hosts, model: model)
            onMonitorsChanged?()
        }
        connection.onOutputRemoved = { [weak self] output in
            guard let self, let index = hosts.firstIndex(where: { $0.output === output }) else { return }
            hosts.remove(at: index).close()
            onMonitorsChanged?()
        }
        watch = loop.serve(ConnectionSource(connection)) { [weak self] error in
            guard let self, !closed else { return }
            lost(error)
        }
        loop.beforeEverySleep { [weak self] in
            guard let self, !closed else { return nil }
            // Fonts opened from an earlier owner's memory, once the banners have stopped moving:
            // fontconfig's own answer, and the banners drawn again if it differs.
            if fonts.needsCheck, fonts.checkRemembered(settled: !hosts.contains(where: \.isAnimating)) {
                for host in hosts { host.fontsChanged() }
                return self.loop.now
            }
            return nil
        }
        if followsDesktop { followDesktop() }
    }

    deinit { close() }

    // MARK: The desktop's preferences

    /// Reads the portal's settings, if one answers on the session bus, and watches them; where
    /// none does, GSettings' own (dconf), as the session's GTK applications read them.
    private func followDesktop() {
        // A portal started on demand may take a moment; a banner waits for it at most this long.
        let portal = (try? BusConnection.session(callTimeout: 2_000_000)).flatMap { try? PortalSettings(connection: $0) }
        guard let reader: any DesktopSettingsReader = portal ?? DesktopGSettings() else { return }
        reader.onChange = { [weak self] in self?.follow($0) }
        // The bus going (the session is ending) leaves the preferences as they were.
        let served = loop.serve(reader) { [weak self] _ in self?.desktop = nil }
        desktop = (reader, served)
        follow(reader.preferences)
    }

    /// Follows `preferences` (see `DesktopPreferences.follow`): the banners on screen are laid
    /// out again at a new text scale or system font.
    private func follow(_ preferences: DesktopPreferences) {
        desktopPreferences = preferences
        if preferences.follow(fonts: fonts, icons: icons, pixelsPerPoint: &pixelsPerPoint) {
            for host in hosts { host.fontsChanged() }
        }
    }

    /// The host of the first output (Wayland has no primary output; sway lists its outputs in
    /// the order they were made).
    public var preferredHost: WaylandHost? { hosts.first }

    /// Ends every presentation at once and closes the connection.
    public func close() {
        guard !closed else { return }
        closed = true
        for host in hosts { host.close() }
        hosts.removeAll()
        if let watch { loop.cancel(watch) }
        if let served = desktop?.served { loop.cancel(served) }
        desktop = nil
        fonts.closeAll()
    }

    /// Serves the loop until no host moves and every banner under the bars has reserved its space
    /// (which waits for its first frame to be shown), or `timeout` seconds pass.
    @discardableResult
    public func runUntilIdle(timeout: Double = 5) -> Bool {
        loop.run(timeout: timeout) { !hosts.contains { $0.isAnimating || $0.awaitsItsZone } }
    }

    public func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA {
        try NamedColours.resolve(colour, remembering: &colours)
    }

    /// The compositor went away: the process ends as it does when an X display goes (exit 69,
    /// the owner's socket removed, `run`'s command stopped: see DisplayLoss).
    private func lost(_ error: any Error) {
        DisplayLoss.end("lost the connection to the Wayland compositor (\(error))")
    }
}
