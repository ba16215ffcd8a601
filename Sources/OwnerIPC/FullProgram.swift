// `window-banner-full`, the binary beside this one that runs every command and is the owner: where
// it is, and handing a command line to it.

import BannerCore
import Glibc
import Spawning

/// window-banner-full: where it is, and handing a command line to it.
package enum FullProgram {
    package static let name = "window-banner-full"

    /// window-banner-full in this binary's directory (it is this binary, when run as that).
    package static var path: String { programBeside(named: name) }

    /// Replaces this process with window-banner-full running `arguments` (argv[0] included);
    /// returns only to exit 70 when it cannot be started.
    package static func exec(_ arguments: [String]) -> Never {
        let program = path
        let argv = CStringArray([program] + arguments.dropFirst())
        execv(program, argv.pointers)
        Terminal.error("cannot run \(program.printable): \(String(cString: strerror(errno))) (window-banner needs the window-banner-full installed beside it)")
        Glibc.exit(ExitStatus.internalError)
    }
}
