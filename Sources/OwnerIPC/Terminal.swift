// How the command talks back: one line on stderr per problem, prefixed with the program name,
// and the documented exit codes.

import BannerCore
import Glibc

package enum Terminal {
    package static func error(_ message: String) {
        writeLine("window-banner: \(message)")
    }

    package static func warning(_ message: String) {
        writeLine("window-banner: warning: \(message)")
    }

    /// One line on stdout, written at once (not buffered: a reader may be waiting for it).
    package static func output(_ line: String) {
        writeLine(line, to: 1)
    }

    private static func writeLine(_ line: String, to fd: Int32 = 2) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBufferPointer { _ = write(fd, $0.baseAddress, $0.count) }
    }
}

/// Seconds as written on the command line: finite, greater than 0, at most a week.
package func seconds(_ text: String) throws(BannerValueError) -> Double {
    guard let value = Double(text), value.isFinite, value > 0, value <= SecondsRange.maximumDuration else { throw .duration(text) }
    return value
}

/// A command's failure: one line naming what was wrong, and the exit code that goes with it.
package struct CommandFailure: Error {
    package let message: String
    package let code: Int32

    package init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    /// Prints the message and gives the exit status to end with.
    package func report() -> Int32 {
        Terminal.error(message)
        return code
    }
}

/// The process environment as a dictionary.
package func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}

/// This process's working directory (getcwd(3)); nil when it cannot be named (removed, or
/// longer than PATH_MAX).
package func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
