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

    private static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// Opens the banner display, or ends the command with 69 naming the display.
func openBannerDisplay(_ name: String?) throws -> BannerDisplay {
    do {
        let banners = try BannerDisplay(name: name)
        banners.onWarning = Terminal.warning
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

/// Prints `message` and ends the command with `code`.
func fail(_ message: String, code: Int32) -> ExitCode {
    Terminal.error(message)
    return ExitCode(code)
}
