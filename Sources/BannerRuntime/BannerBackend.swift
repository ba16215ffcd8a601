// The small interface the owner and the drawing commands use, whichever display server draws:
// a backend (X11's X11Display, Wayland's WaylandDisplay, GNOME Shell's GnomeShellDisplay) has a
// host per monitor or output, an event loop, and the fonts, icons and colours its banners are
// laid out with. The owner is generic over it, so it holds and schedules banners the same way on
// each. When the display
// server goes away, every backend ends the process the same way: DisplayLoss (exit 69).

import BannerCore
import Reactor

/// Why a display could not be used.
public enum BannerDisplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `XOpenDisplay` failed; the name is what was asked for (nil = `$DISPLAY` unset).
    case cannotOpen(String?)
    case noSuchMonitor(String, available: [String])
    case xRequestFailed(String)

    public var description: String {
        switch self {
        case .cannotOpen(nil): "cannot open display: DISPLAY is not set"
        case .cannotOpen(let name?): "cannot open display '\(name.printable)'"
        case .noSuchMonitor(let name, let available):
            "no monitor named '\(name.printable)' (available: \(available.joined(separator: ", ")))"
        case .xRequestFailed(let what): "the X server refused to \(what)"
        }
    }
}

/// One monitor's (or output's) banner, as the owner drives it. Its banner is run by its
/// ``BannerController`` (presenting, dismissing, clicks, the callbacks: the iOS surface of the
/// original, written once in an extension below); a host adds only what its display server knows.
public protocol BannerBackendHost: AnyObject {
    /// The controller of this monitor's banner, whose ``BannerSurface`` the host is.
    var controller: BannerController { get }
    /// The monitor's name (RandR's on X11, the output's on Wayland).
    var monitorName: String { get }
    /// Under the panels or at the screen's edge; the next show takes it.
    var placement: EdgePlacement { get set }
    /// Whether the banner stays over a full-screen window or waits; the next show takes it.
    var fullscreenPolicy: FullscreenPolicy { get set }
    /// True while the host has a frame to draw (a slide, a cross-fade, a progress bar, or a
    /// frame the server has not shown yet).
    var isAnimating: Bool { get }
    /// The settled banner's height in the display server's pixels; nil when none is presented.
    var presentedHeight: Int? { get }
    /// Pixels reserved for the banner now (strut or exclusive zone); 0 when none.
    var reservedHeight: Int { get }
    /// Why a presented banner is off the screen now (`locked`, `fullscreen`), as far as the
    /// display server tells; nil while it shows or when none is presented.
    var hiddenReason: String? { get }
}

/// A display server's banners: what the owner needs of X11, Wayland or GNOME Shell.
public protocol BannerBackend: LookResources {
    associatedtype Host: BannerBackendHost
    /// The display's name as the user gave it (`:0`, `wayland-1`), for messages and logs.
    var name: String { get }
    var loop: EventLoop { get }
    /// One host per monitor, in the display server's order.
    var hosts: [Host] { get }
    /// The primary monitor's host (Wayland: the first output's); nil while there is none.
    var preferredHost: Host? { get }
    /// Called after a monitor came or went.
    var onMonitorsChanged: (() -> Void)? { get set }
    /// What the desktop asks of banners as its session publishes it live (X11: XSETTINGS;
    /// Wayland: xdg-desktop-portal's Settings); nothing where nothing publishes it.
    var desktopPreferences: DesktopPreferences { get }
    /// The banner of ``presentTopBannerOnEveryMonitor(_:)``, which monitors added later get too
    /// (the display hands it the hosts it adds).
    var everyMonitorBanner: EveryMonitorBanner { get }
    /// Serves the loop until no banner moves, or `timeout` seconds pass; whether it settled.
    @discardableResult
    func runUntilIdle(timeout: Double) -> Bool
    /// Ends every presentation at once and lets the display go.
    func close()
    /// Raises and focuses the first window, in `pids`' order, that one of `pids` owns, where the
    /// display server lets a client activate another's window; whether one was (or, where the
    /// answer comes later, whether it was asked). Elsewhere nothing happens: false.
    @discardableResult
    func raiseWindow(ofProcesses pids: [Int32]) -> Bool
    /// Called with whether an app shares the screen, where the desktop itself says so (GNOME's
    /// extension, from Mutter's remote-access handles): at once when it is set, then at each
    /// change; nil when the desktop can no longer tell (the extension went away).
    var onScreenSharingChanged: ((Bool?) -> Void)? { get set }
    /// Stops every screen share, where the desktop lets a client (GNOME's extension, as the
    /// shell's own "Turn off"); whether it was asked. Elsewhere nothing happens: false.
    @discardableResult
    func stopScreenSharing() -> Bool
}

extension BannerBackend {
    /// The hosts `name` selects: every host for `all`, the preferred (primary) one for
    /// `primary`, else the host of the monitor called `name`.
    public func hosts(named name: String) throws(BannerDisplayError) -> [Host] {
        if name == "all" { return hosts }
        let found = name == "primary" ? preferredHost : hosts.first { $0.monitorName == name }
        guard let found else { throw .noSuchMonitor(name, available: hosts.map(\.monitorName)) }
        return [found]
    }

    public var desktopPreferences: DesktopPreferences { DesktopPreferences() }
    /// Whether the desktop turned animations off or asks for reduced motion.
    public var desktopPrefersReducedMotion: Bool { desktopPreferences.animationsEnabled == false }
    /// The desktop's GTK theme (a high-contrast desktop's is `HighContrast`); nil where unknown.
    public var desktopThemeName: String? { desktopPreferences.themeName }
    @discardableResult
    public func raiseWindow(ofProcesses pids: [Int32]) -> Bool { false }
    /// Nothing here says whether the screen is shared.
    public var onScreenSharingChanged: ((Bool?) -> Void)? {
        get { nil }
        set {} // nobody to call
    }
    @discardableResult
    public func stopScreenSharing() -> Bool { false }

    /// Serves the loop until no banner moves, or 5 seconds pass; whether it settled.
    @discardableResult
    public func runUntilIdle() -> Bool { runUntilIdle(timeout: 5) }

    /// The host of the monitor called `name` (`primary` selects the primary monitor).
    public func host(named name: String) throws(BannerDisplayError) -> Host {
        let found = try hosts(named: name)
        guard found.count == 1, let host = found.first else {
            throw .noSuchMonitor(name, available: hosts.map(\.monitorName))
        }
        return host
    }

    /// The contrast of `appearance`'s title on its background, with colour names resolved as
    /// this display resolves them.
    public func contrast(of appearance: TopBannerAppearance) throws(BannerValueError) -> ContrastCheck {
        ContrastCheck(text: try resolve(appearance.textColor), background: try resolve(appearance.backgroundColor), font: appearance.font)
    }

    /// Finds `icon` and reads it now, for a banner that looks like `appearance`: the icon as
    /// the PNG file it is (an absolute path), ready to present, or why it cannot be shown (the
    /// banner shows without it). A theme name is looked up in `searchPath` (nil:
    /// ``iconSearchPath``) in the size that suits `appearance`'s text; a relative path is taken
    /// from `directory` (nil: this process's working directory).
    /// The file is decoded straight to the sizes the icon is drawn at (regular and compact),
    /// and only those are kept.
    public func loadIcon(
        _ icon: BannerIcon, for appearance: TopBannerAppearance, searchPath: IconSearchPath? = nil, relativeTo directory: String? = nil
    ) -> Result<BannerIcon, IconProblem> {
        let sides = iconSides(for: appearance)
        return icons.locate(icon, size: sides[0], searchPath: searchPath, directory: directory).flatMap { path in
            Result { () throws(IconProblem) in
                try icons.prepare(path: path, sides: sides)
                return BannerIcon.file(path)
            }
        }
    }

    /// ``loadIcon(_:for:searchPath:relativeTo:)`` for a caller that can wait without holding up
    /// the frames: a large file is decoded on a worker thread while the loop goes on drawing,
    /// and `completion` runs from the loop once it is ready (a small one, at once).
    public func loadIcon(
        _ icon: BannerIcon, for appearance: TopBannerAppearance, searchPath: IconSearchPath? = nil, relativeTo directory: String? = nil,
        completion: @escaping (Result<BannerIcon, IconProblem>) -> Void
    ) {
        let sides = iconSides(for: appearance)
        switch icons.locate(icon, size: sides[0], searchPath: searchPath, directory: directory) {
        case .failure(let problem): completion(.failure(problem))
        case .success(let path):
            icons.prepareInBackground(path: path, sides: sides, loop: loop) { problem in
                completion(problem.map { .failure($0) } ?? .success(.file(path)))
            }
        }
    }

    /// `appearance` with its icon found and read (an absolute `.file`, decoded to the sizes it is
    /// drawn at), or without it when it cannot be shown — reported to `onWarning`, as a banner
    /// shows without an icon rather than not at all.
    public func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance {
        guard let icon = appearance.icon else { return appearance }
        var loaded = appearance
        switch loadIcon(icon, for: appearance) {
        case .success(let file): loaded.icon = file
        case .failure(let problem):
            onWarning("\(problem); showing the banner without it")
            loaded.icon = nil
        }
        return loaded
    }

    /// The sides of `appearance`'s icon in its regular and its compact look.
    private func iconSides(for appearance: TopBannerAppearance) -> [Int] {
        [appearance, appearance.compact].map { look in
            (try? iconSide(for: look)) ?? BannerLayout.pixels(look.font.size * 1.2, scale: pixelsPerPoint)
        }
    }
}

/// A connection to a display server that an event loop serves, for a backend that holds one
/// only to learn when the session ends (GNOME's, to Mutter): BannerWayland's
/// `WaylandConnection` is one.
public protocol WatchedConnection: AnyObject {
    /// The socket, to poll for reading (and for writing when `prepareToSleep()` asks).
    var fileDescriptor: Int32 { get }
    /// Before the loop sleeps: handles what was already read, sends what is queued; the poll(2)
    /// events to wait for. Throws when the connection is lost.
    func prepareToSleep() throws -> Int16
    /// When the socket is ready: reads and handles what arrived. Throws when the connection is
    /// lost.
    func dispatch() throws
}

extension BannerBackend {
    /// Presents (or updates in place) `appearance` on every monitor, and on each monitor added
    /// while it is presented on one of them: it slides in there with its own reservation, with
    /// the policies of a host that was there before (X11: the primary's) — ``onMonitorsChanged``
    /// is called after, to set the new host's callbacks. A monitor removed takes its banner and
    /// reservation with it, like any host's. Throws, before any monitor changes, when a value
    /// cannot be used.
    public func presentTopBannerOnEveryMonitor(_ appearance: TopBannerAppearance) throws(BannerValueError) {
        try everyMonitorBanner.present(appearance, on: hosts, check: check)
    }

    /// Slides the banner of ``presentTopBannerOnEveryMonitor(_:)`` out on every monitor; a
    /// monitor added later does not get it.
    public func dismissTopBannerOnEveryMonitor() {
        everyMonitorBanner.dismiss(on: hosts)
    }
}
