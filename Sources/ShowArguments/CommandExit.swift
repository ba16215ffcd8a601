// A failure as swift-argument-parser ends a command with it: the line printed, the code thrown.

import ArgumentParser
import OwnerIPC

extension CommandFailure {
    /// Prints the message and gives the exit code to throw.
    package var exit: ExitCode { ExitCode(report()) }
}

/// Prints `message` and ends the command with `code`.
package func fail(_ message: String, code: Int32) -> ExitCode {
    Terminal.error(message)
    return ExitCode(code)
}
