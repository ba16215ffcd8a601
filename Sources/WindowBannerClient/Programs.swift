// The command-line binaries and how one reaches the other. `window-banner` (small: no X11, no
// Foundation) runs the five commands that only talk to the owner; `window-banner-full` next to
// it runs every command, and is the owner (it reads config files through
// `window-banner-config`, see ConfigLoading.swift). Both end every error the same way:
// one line.

import ArgumentParser
import BannerCore
import Glibc
import Spawning

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

/// This program's own path (/proc/self/exe, symlinks resolved), or argv[0] when that cannot
/// be read.
package func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The program `name` in this program's directory: the binaries always travel together, so
/// each runs the others of its own version.
package func programBeside(named name: String) -> String {
    let own = selfExecutable()
    return own.hasSuffix("/" + name) ? own : directory(of: own) + "/" + name
}

/// The directory part of `path` ("/" for a file at the root, "." for a bare name).
package func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}
