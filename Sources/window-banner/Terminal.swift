// How the command talks back: one line on stderr per problem, prefixed with the program name,
// and the documented exit codes.

import ArgumentParser
import Glibc

enum Terminal {
    static func error(_ message: String) {
        writeLine("window-banner: \(message)")
    }

    static func warning(_ message: String) {
        writeLine("window-banner: warning: \(message)")
    }

    private static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// Prints `message` and ends the command with `code`.
func fail(_ message: String, code: Int32) -> ExitCode {
    Terminal.error(message)
    return ExitCode(code)
}
