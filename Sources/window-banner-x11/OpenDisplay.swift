// The display for the commands that draw themselves (run, demo): an X display, or a Wayland
// compositor's socket.

import BannerCore
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

/// Connects to the Wayland compositor at `name`, or ends the command with 69 naming why (no
/// compositor there, or one without layer-shell).
func openWaylandBannerDisplay(_ name: String, timing: BannerTiming = .standard) throws -> WaylandDisplay {
    do {
        let banners = try WaylandDisplay(name: name, timing: timing)
        banners.onWarning = Terminal.warning
        banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
        return banners
    } catch {
        throw fail("\(error)", code: ExitStatus.displayUnavailable)
    }
}
