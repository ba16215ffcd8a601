// How the command talks back: one line on stderr per problem, prefixed with the program name,
// and the documented exit codes.

import ArgumentParser
import BannerCore
import BannerX11
import Glibc

enum Terminal {
    static func error(_ message: String) {
        writeLine("window-banner: \(message)")
    }

    static func warning(_ message: String) {
        writeLine("window-banner: warning: \(message)")
    }

    /// One line on stdout, written at once (not buffered: a reader may be waiting for it).
    static func output(_ line: String) {
        writeLine(line, to: 1)
    }

    private static func writeLine(_ line: String, to fd: Int32 = 2) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBufferPointer { _ = write(fd, $0.baseAddress, $0.count) }
    }
}

/// Opens the banner display, or ends the command with 69 naming the display.
func openBannerDisplay(_ name: String?, timing: BannerTiming = .standard) throws -> BannerDisplay {
    do {
        let banners = try BannerDisplay(name: name, timing: timing)
        banners.onWarning = Terminal.warning
        banners.iconSearchPath = ProgramIcons.searchPath(environment: processEnvironment())
        return banners
    } catch {
        throw fail("\(error)", code: ExitStatus.displayUnavailable)
    }
}

/// Seconds as written on the command line: finite and greater than 0.
func seconds(_ text: String) throws(BannerValueError) -> Double {
    guard let value = Double(text), value.isFinite, value > 0 else { throw .duration(text) }
    return value
}

/// A command's failure: one line naming what was wrong, and the exit code that goes with it.
struct CommandFailure: Error {
    let message: String
    let code: Int32

    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    /// Prints the message and gives the exit code to throw.
    var exit: ExitCode { fail(message, code: code) }
}

/// The exit codes the socket commands add to the library's (documented in `--help` and the README).
extension ExitStatus {
    /// The owner process cannot be reached or started; try again (EX_TEMPFAIL).
    static let unreachable: Int32 = 75
    /// Client and owner speak different protocol versions, or a reply was unreadable (EX_PROTOCOL).
    static let protocolMismatch: Int32 = 76
    /// The config file is broken (EX_CONFIG).
    static let config: Int32 = 78
    /// `show --wait`: the banner was dismissed.
    static let waitDismissed: Int32 = 10
    /// `show --wait`: another banner took its place.
    static let waitReplaced: Int32 = 11

    /// `show --wait`'s exit code for each way a banner ends: 0 timeout, 10 dismissed,
    /// 11 replaced, 12 clicked, 13 closed, 14 swiped, 15 action.
    static func wait(_ reason: BannerEndReason) -> Int32 {
        switch reason {
        case .timeout: 0
        case .dismissed: waitDismissed
        case .replaced: waitReplaced
        case .clicked: 12
        case .closed: 13
        case .swiped: 14
        case .action: 15
        }
    }
}

/// Prints `message` and ends the command with `code`.
func fail(_ message: String, code: Int32) -> ExitCode {
    Terminal.error(message)
    return ExitCode(code)
}
