// The command-line binaries and how one reaches the other. `window-banner` (small: no X11, no
// Foundation) runs the four commands that only talk to the owner; `window-banner-x11` next to
// it runs every command, and is the owner (it reads config files through
// `window-banner-config`, see BannerConfig's ConfigLoader). Both end every error the same way:
// one line.

import ArgumentParser
import BannerCore
import Glibc

/// The commands `window-banner` runs itself. Their root has no help of its own: `window-banner
/// --help` (and any other first argument) goes to window-banner-x11, which lists every command.
package struct ClientCommands: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "window-banner",
        subcommands: [ShowCommand.self, DismissCommand.self, StatusCommand.self, StatsCommand.self]
    )

    /// The first arguments this binary handles itself.
    package static let names: Set<String> = ["show", "dismiss", "status", "stats"]

    package init() {}

    package static func main() { CommandLineMain.run(self) }
}

package enum CommandLineMain {
    /// Parses and runs the command. Errors are one line on stderr, as every other error of this
    /// program: argument-parser's own usage errors (a missing value, an unknown flag) would
    /// otherwise print the help and usage text after them.
    package static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        do {
            var command = try root.parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch {
            let code = root.exitCode(for: error)
            guard code != .success, !(error is ExitCode) else { root.exit(withError: error) }
            Terminal.error(root.message(for: error).split(separator: "\n").joined(separator: " ") + " (see --help)")
            Glibc.exit(code.rawValue)
        }
    }
}

/// window-banner-x11: where it is, and handing a command line to it.
package enum FullProgram {
    package static let name = "window-banner-x11"

    /// window-banner-x11 in this binary's directory (it is this binary, when run as that).
    package static var path: String {
        let own = selfExecutable()
        guard !own.hasSuffix("/" + name) else { return own }
        return directory(of: own) + "/" + name
    }

    /// Replaces this process with window-banner-x11 running `arguments` (argv[0] included);
    /// returns only to exit 70 when it cannot be started.
    package static func exec(_ arguments: [String]) -> Never {
        let program = path
        let argv = CStringArray([program] + arguments.dropFirst())
        execv(program, argv.pointers)
        Terminal.error("cannot run \(program.printable): \(String(cString: strerror(errno))) (window-banner needs the window-banner-x11 installed beside it)")
        Glibc.exit(ExitStatus.internalError)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
