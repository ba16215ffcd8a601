// The display for the commands that draw (the owner, run, demo): an X display, or a Wayland
// compositor's socket — and, where that compositor has no layer-shell (GNOME's Mutter), GNOME
// Shell's extension, else the session's Xwayland, where an X11 dock's strut reserves the space
// for Wayland windows too.

import BannerCore
import BannerGnomeShell
import BannerProcess
import BannerRuntime
import BannerWayland
import BannerX11
import Glibc
import OwnerIPC
import ShowArguments
import WindowBannerClient

/// Opens the banner display, or ends the command with 69 naming the display.
func openBannerDisplay(_ name: String?, timing: BannerTiming = .standard) throws -> X11Display {
    do {
        let banners = try X11Display(name: name, timing: timing)
        banners.onWarning = Terminal.warning
        banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
        return banners
    } catch {
        throw fail("\(error)", code: ExitStatus.displayUnavailable)
    }
}

/// What draws the banners of a Wayland session.
enum WaylandSessionBackend {
    /// The compositor itself: a layer surface with an exclusive zone.
    case layerShell(WaylandDisplay)
    /// GNOME Shell, through its extension (the compositor has no layer-shell).
    case gnomeShell(GnomeShellDisplay)
    /// The session's Xwayland, because the compositor has no layer-shell and the GNOME Shell
    /// extension is not there; `notice` is the one line that says so, and how to get it.
    case xwayland(X11Display, notice: String)
}

/// Connects to the Wayland compositor at `name`; on one without layer-shell (GNOME's), to the
/// GNOME Shell extension, else to the session's Xwayland (`DISPLAY` in `environment`). Fails
/// with 69 naming why — every way tried when none works.
func openWaylandSession(
    _ name: String, environment: [String: String] = processEnvironment(), timing: BannerTiming = .standard
) throws(CommandFailure) -> WaylandSessionBackend {
    do {
        return .layerShell(try WaylandDisplay(name: name, timing: timing))
    } catch WaylandError.noLayerShell {
        let extensionProblem: String
        let fix: String
        do {
            let mutter = try WaylandConnection(displayName: name, requiringLayerShell: false)
            return .gnomeShell(try GnomeShellDisplay(compositor: mutter, waylandDisplay: name, timing: timing))
        } catch let problem as ShellExtensionError {
            (extensionProblem, fix) = nativeBanner(problem, environment)
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.displayUnavailable)
        }
        let refused = "the Wayland compositor \(name.printable) has no layer-shell (GNOME's Mutter has none) and \(extensionProblem)"
        guard let xDisplay = environment["DISPLAY"], !xDisplay.isEmpty else {
            throw CommandFailure("\(refused), and no Xwayland to show the banner through instead (DISPLAY is not set); \(fix) (docs/gnome.md)", code: ExitStatus.displayUnavailable)
        }
        do throws(BannerDisplayError) {
            let banners = try X11Display(name: xDisplay, timing: timing)
            return .xwayland(banners, notice: "\(refused): the banner is shown through Xwayland (\(xDisplay.printable)); \(fix) (docs/gnome.md)")
        } catch {
            throw CommandFailure("\(refused), and Xwayland cannot be used instead: \(error)", code: ExitStatus.displayUnavailable)
        }
    } catch {
        throw CommandFailure("\(error)", code: ExitStatus.displayUnavailable)
    }
}

/// What stands between the user and the native GNOME banner, as the shell says, and the one fix
/// for that state.
private func nativeBanner(_ problem: ShellExtensionError, _ environment: [String: String]) -> (problem: String, fix: String) {
    let uuid = GnomeShellDisplay.extensionUUID
    switch problem {
    case .unavailable(.disabled): return ("\(problem)", "for the native banner: gnome-extensions enable \(uuid)")
    case .unavailable(.userExtensionsOff):
        return ("\(problem)", "for the native banner turn extensions on: gsettings set org.gnome.shell disable-user-extensions false (or the Extensions app's switch)")
    case .unavailable(.outOfDate(let version)):
        return ("\(problem)", "for the native banner install the extension built for GNOME Shell \(version.prefix { $0 != "." }) (make install, or this window-banner's package) and log in again")
    case .unavailable(.failed):
        return ("\(problem)", "for the native banner reinstall it (make install, or the window-banner package) and log in again; the shell's log says more (journalctl --user -b)")
    case .unavailable(.unknownToShell):
        let installed = extensionIsInstalled(environment)
        return ("the GNOME Shell extension \(uuid) is \(installed ? "installed, but GNOME Shell has not loaded it yet" : "not installed")", nativeBannerHint(installed: installed))
    case .unavailable(.noShell), .otherVersion, .bus: return ("\(problem)", nativeBannerHint(installed: extensionIsInstalled(environment)))
    }
}

/// Whether the extension's files are where GNOME Shell looks (for this user or system-wide).
private func extensionIsInstalled(_ environment: [String: String]) -> Bool {
    let home = environment["HOME"] ?? ""
    let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    let dataDirectories = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
        .split(separator: ":").map(String.init)
    return ([dataHome] + dataDirectories).contains { directory in
        access("\(directory)/gnome-shell/extensions/\(GnomeShellDisplay.extensionUUID)/metadata.json", R_OK) == 0
    }
}

/// How to get the native GNOME banner when the shell does not know the extension: it was
/// installed after the shell started, else install it first.
private func nativeBannerHint(installed: Bool) -> String {
    let enable = "gnome-extensions enable \(GnomeShellDisplay.extensionUUID)"
    return installed
        ? "for the native banner log in again (GNOME Shell reads new extensions at log-in) and run \(enable)"
        : "for the native banner install the extension (make install, or the window-banner package), log in again and run \(enable)"
}
