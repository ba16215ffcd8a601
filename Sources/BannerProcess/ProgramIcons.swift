// window-banner's own icons, `window-banner-offline.png` and `window-banner-online.png`, which
// the built-in `offline` and `online` styles name, found next to the binary (ProgramData):
// `make install` puts them in $(DATADIR)/window-banner/icons; a binary in a source checkout
// finds the checkout's `Resources/icons`.

import BannerRuntime

package enum ProgramIcons {
    /// The icon directories that exist for this binary: the installed one, then the source
    /// tree's.
    package static var directories: [String] {
        ProgramData.directories(installed: "window-banner/icons", source: "icons")
    }

    /// The freedesktop search path of `environment`, with these directories after the themes.
    package static func searchPath(environment: [String: String]) -> IconSearchPath {
        .standard(environment: environment, ownDirectories: directories)
    }

    /// ``searchPath(environment:)`` with the data directories a client sent.
    package static func searchPath(dataDirectories: [String], home: String?) -> IconSearchPath {
        .standard(dataDirectories: dataDirectories, home: home, ownDirectories: directories)
    }
}
