// The commands a click on a banner runs (`show --on-click -- COMMAND ARGS…`, `--action
// LABEL=COMMAND`): argument vectors started without a shell, in the environment and working
// directory of the client that asked for them, detached in a session of their own with stdin on
// /dev/null, so they outlive the banner and never get its process's signals. Their output goes
// where the launcher's stdout and stderr go (the owner's log). Nobody waits for them to finish:
// the owner ignores SIGCHLD, so the kernel reaps them, and `run` reaps its own with `reap`.
// Start reading at `BannerCommand.launch()`.

import BannerCore
import Glibc
import OwnerIPC
import OwnerProtocol
import Spawning

/// What a `show` request runs when its banner is clicked (`--on-click`) and when one of its
/// action buttons is (`--action LABEL=COMMAND`, given once or twice), in the request's environment and directory (the
/// owner's own environment for a request that carries none).
package struct ClickCommands {
    package var onClick: BannerCommand?
    package var action: BannerCommand?
    package var secondaryAction: BannerCommand?

    package init(_ request: ShowRequest) {
        let environment = request.environment ?? processEnvironment()
        func command(_ arguments: [String]?) -> BannerCommand? {
            guard let arguments, !arguments.isEmpty else { return nil }
            return BannerCommand(arguments: arguments, environment: environment, directory: request.directory)
        }
        onClick = command(request.onClick)
        action = command(request.settings.action.flatMap { try? ActionSetting(parsing: $0) }?.command)
        secondaryAction = command(request.settings.secondaryAction.flatMap { try? ActionSetting(parsing: $0) }?.command)
    }

    /// The command a dismissal by `reason` runs, if any.
    package func command(for reason: BannerDismissReason) -> BannerCommand? {
        switch reason {
        case .clicked: onClick
        case .action: action
        case .secondaryAction: secondaryAction
        case .closed, .swiped: nil
        }
    }
}

/// A command to run for a banner, and where.
package struct BannerCommand: Equatable {
    /// The program (looked up in the environment's `PATH` unless it contains a `/`) and its
    /// arguments.
    package var arguments: [String]
    /// The whole environment it runs with.
    package var environment: [String: String]
    /// Its working directory; nil for the launcher's own.
    package var directory: String?

    package init(arguments: [String], environment: [String: String], directory: String?) {
        self.arguments = arguments
        self.environment = environment
        self.directory = directory
    }

    /// Why a command did not start, as one line.
    package struct LaunchFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts the command with posix_spawn(3); its process id, or why it did not start.
    package func launch() -> Result<pid_t, LaunchFailure> {
        guard let program = arguments.first, !program.isEmpty else { return .failure(LaunchFailure(description: "empty command")) }
        guard let path = executablePath(of: program) else {
            return .failure(LaunchFailure(description: "command not found: \(program.printable)"))
        }
        // Its output goes where the owner's goes (its log); nothing else of the owner's.
        let child = ChildSpec([path] + arguments.dropFirst(), environment: environment, directory: directory, newSession: true)
        switch child.start() {
        case .success(let pid): return .success(pid)
        case .failure(let error):
            let place = directory.map { " in \($0.printable)" } ?? ""
            return .failure(LaunchFailure(description: "cannot start \(program.printable)\(place): \(error)"))
        }
    }

    /// `program` as posix_spawn should open it: as given when it names a path (relative ones
    /// are taken from `directory`, where the child is when it executes), else the first
    /// executable file called `program` in the environment's `PATH`, as execvp(3) would find it.
    private func executablePath(of program: String) -> String? {
        if program.contains("/") { return program }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for entry in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (entry.isEmpty ? "." : String(entry)) + "/" + program
            let onDisk = candidate.hasPrefix("/") ? candidate : (directory ?? ".") + "/" + candidate
            var info = stat()
            if stat(onDisk, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(onDisk, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Reaps those of `pids` that have finished (for a launcher that keeps SIGCHLD, like `run`).
    package static func reap(_ pids: inout [pid_t]) {
        pids.removeAll { waitpid($0, nil, WNOHANG) != 0 }
    }
}
