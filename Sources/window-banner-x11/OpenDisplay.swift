// The display for the commands that draw (the owner, run, demo): an X display, or a Wayland
// compositor's socket — and, where that compositor has no layer-shell (GNOME's Mutter), the
// session's Xwayland, where an X11 dock's strut reserves the space for Wayland windows too.

import BannerCore
import BannerRuntime
import BannerWayland
import BannerX11
import WindowBannerClient

/// Opens the banner display, or ends the command with 69 naming the display.
func openBannerDisplay(_ name: String?, timing: BannerTiming = .standard) throws -> BannerDisplay {
    do {
        let banners = try BannerDisplay(name: name, timing: timing)
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
    /// The session's Xwayland, because the compositor has no layer-shell; `notice` is the one
    /// line that says so.
    case xwayland(BannerDisplay, notice: String)
}

/// Connects to the Wayland compositor at `name`; on one without layer-shell (GNOME's), opens
/// the session's Xwayland (`DISPLAY` in `environment`) instead. Fails with 69 naming why — both
/// ways when neither works.
func openWaylandSession(
    _ name: String, environment: [String: String] = processEnvironment(), timing: BannerTiming = .standard
) throws(CommandFailure) -> WaylandSessionBackend {
    do {
        return .layerShell(try WaylandDisplay(name: name, timing: timing))
    } catch WaylandError.noLayerShell {
        let refused = "the Wayland compositor \(name.printable) has no layer-shell (GNOME's Mutter has none)"
        guard let xDisplay = environment["DISPLAY"], !xDisplay.isEmpty else {
            throw CommandFailure("\(refused), and no Xwayland to show the banner through instead (DISPLAY is not set)", code: ExitStatus.displayUnavailable)
        }
        do throws(BannerDisplayError) {
            let banners = try BannerDisplay(name: xDisplay, timing: timing)
            return .xwayland(banners, notice: "\(refused): the banner is shown through Xwayland (\(xDisplay.printable)); see docs/gnome.md")
        } catch {
            throw CommandFailure("\(refused), and Xwayland cannot be used instead: \(error)", code: ExitStatus.displayUnavailable)
        }
    } catch {
        throw CommandFailure("\(error)", code: ExitStatus.displayUnavailable)
    }
}
