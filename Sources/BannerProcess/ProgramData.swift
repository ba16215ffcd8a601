// Where window-banner's own data files are for this binary — the built-in styles' icons, the
// compiled translations — so a copy works wherever it is installed or built: `make install`
// puts them under $(DATADIR), which is `../share` from $(BINDIR); a binary in a source
// checkout's `.build*/…/debug` uses the checkout's `Resources`.

import Glibc
import OwnerIPC
import Spawning

package enum ProgramData {
    /// The program's version, as `--version` prints it and the accessibility bus names it.
    package static let version = "0.2.0"

    /// The directories that exist for this binary, installed one first: `installed` below
    /// `../share` from the binary's directory, then `source` below the checkout's `Resources`.
    package static func directories(installed: String, source: String) -> [String] {
        let binDirectory = directory(of: selfExecutable())
        var found: [String] = []
        let installedPath = directory(of: binDirectory) + "/share/" + installed
        if isDirectory(installedPath) { found.append(installedPath) }
        // The nearest ancestor that is this package: a build directory sits a few levels down.
        var ancestor = binDirectory
        for _ in 0..<6 where ancestor != "/" {
            if isDirectory(ancestor + "/Resources/" + source), access(ancestor + "/Package.swift", F_OK) == 0 {
                found.append(ancestor + "/Resources/" + source)
                break
            }
            ancestor = directory(of: ancestor)
        }
        return found
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
