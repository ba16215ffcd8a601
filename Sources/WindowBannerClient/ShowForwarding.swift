// The fast path of `window-banner show`: when the display's owner is running, the arguments go
// to it as typed and it parses them (with the same ShowCommand), so this process never builds
// an argument parser — most of what a short-lived Swift process would spend before its request
// leaves. Anything the owner cannot settle for us (no owner yet, `--help`, an answer saying
// `redirect`) falls back to the ordinary path: parse here, then send a `show`.

import BannerCore
import Glibc
import OwnerProtocol

package enum ShowForwarding {
    /// Arguments that ask for output of the parser itself: those stay with the ordinary path.
    static let parserRequests: Set<String> = ["-h", "--help", "help", "--version", "--experimental-dump-help"]

    /// Runs `show arguments…` through a running owner; the exit status, or nil when the
    /// ordinary path must handle it (nothing has been printed then).
    package static func attempt(_ arguments: [String]) -> Int32? {
        guard !arguments.contains(where: { parserRequests.contains($0) || $0.hasPrefix("--generate-completion-script") }) else {
            return nil
        }
        // The display as the arguments name it; the owner checks its own reading of them
        // against the display it serves and redirects on any difference. No owner, a lost or
        // unreadable answer: nothing was shown, and the ordinary path starts over.
        let request = OwnerRequest(ShowArgumentsRequest(
            arguments: arguments, environment: processEnvironment(), directory: currentDirectory()))
        guard let paths = try? OwnerPaths.forDisplay(displayArgument(arguments)),
              var exchange = try? OwnerClient(paths: paths).exchange(request, start: false, configPath: nil) else { return nil }
        defer { exchange.close() }
        // `protocol`: an owner from before `show-arguments` did not understand it.
        if let kind = exchange.response.error?.kind, kind == .redirect || kind == .protocol { return nil }
        do {
            return try ShowCommand.conclude(&exchange, wait: exchange.response.shown?.wait == true)
        } catch {
            Terminal.error(error.message)
            return error.code
        }
    }

    /// The value of the last `--display` option, or nil (then `$DISPLAY`). A value that
    /// merely looks like the option (`--title --display`) may mislead this scan; the owner,
    /// which parses properly, then answers `redirect`.
    static func displayArgument(_ arguments: [String]) -> String? {
        var display: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--display", index + 1 < arguments.endIndex {
                display = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--display=") {
                display = String(argument.dropFirst("--display=".count))
            }
            index += 1
        }
        return display
    }
}
