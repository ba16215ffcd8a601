// The X display for the commands that draw themselves (run, demo) and for the owner.

import BannerCore
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
