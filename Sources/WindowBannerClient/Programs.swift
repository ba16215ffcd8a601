// The command-line binaries and how one reaches the other. `window-banner` (small: no X11, no
// Foundation) runs the five commands that only talk to the owner; `window-banner-full` next to
// it runs every command, and is the owner (it reads config files through
// `window-banner-config`, see ConfigLoading.swift). Both end every error the same way:
// one line.

import ArgumentParser
import BannerCore
import Glibc
import OwnerIPC
import ShowArguments

/// The commands `window-banner` runs itself. Their root has no help of its own: `window-banner
/// --help` (and any other first argument) goes to window-banner-full, which lists every command.
package struct ClientCommands: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "window-banner",
        subcommands: [ShowCommand.self, DismissCommand.self, StatusCommand.self, StatsCommand.self, ActionCommand.self]
    )

    /// The first arguments this binary handles itself.
    package static let names: Set<String> = ["show", "dismiss", "status", "stats", "action"]

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
            fail(error, root)
        }
    }

    /// Runs a command read without the parser; errors end it as `run(_:)`'s do.
    package static func run<Command: ParsableCommand>(_ command: Command) -> Never {
        var command = command
        do {
            try command.run()
            Glibc.exit(0)
        } catch {
            fail(error, Command.self)
        }
    }

    private static func fail<Root: ParsableCommand>(_ error: any Error, _ root: Root.Type) -> Never {
        let code = root.exitCode(for: error)
        guard code != .success, !(error is ExitCode) else { root.exit(withError: error) }
        Terminal.error(root.message(for: error).split(separator: "\n").joined(separator: " ") + " (see --help)")
        Glibc.exit(code.rawValue)
    }
}
