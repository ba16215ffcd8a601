// window-banner's own icons, `window-banner-offline.png` and `window-banner-online.png`, which
// the built-in `offline` and `online` styles name. They are found next to the binary, so a
// copy works wherever it is installed or built: `make install` puts them in
// $(DATADIR)/window-banner/icons, which is `../share/window-banner/icons` from $(BINDIR); a
// binary in a source checkout's `.build*/…/debug` finds the checkout's `Resources/icons`.

import BannerX11
import Glibc
import WindowBannerClient

enum ProgramIcons {
    /// The icon directories that exist for this binary: the installed one, then the source
    /// tree's.
    static var directories: [String] {
        let binDirectory = directory(of: selfExecutable())
        var found: [String] = []
        let installed = directory(of: binDirectory) + "/share/window-banner/icons"
        if isDirectory(installed) { found.append(installed) }
        // The nearest ancestor that is this package: a build directory sits a few levels down.
        var ancestor = binDirectory
        for _ in 0..<6 where ancestor != "/" {
            if isDirectory(ancestor + "/Resources/icons"), access(ancestor + "/Package.swift", F_OK) == 0 {
                found.append(ancestor + "/Resources/icons")
                break
            }
            ancestor = directory(of: ancestor)
        }
        return found
    }

    /// The freedesktop search path of `environment`, with these directories after the themes.
    static func searchPath(environment: [String: String]) -> IconSearchPath {
        .standard(environment: environment, ownDirectories: directories)
    }

    /// ``searchPath(environment:)`` with the data directories a client sent.
    static func searchPath(dataDirectories: [String], home: String?) -> IconSearchPath {
        .standard(dataDirectories: dataDirectories, home: home, ownDirectories: directories)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
