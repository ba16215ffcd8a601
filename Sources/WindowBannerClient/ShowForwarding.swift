// The fast path of `window-banner show`: when the display's owner is running, the arguments go
// to it as typed and it parses them (with the same ShowCommand), so this process never builds
// an argument parser — most of what a short-lived Swift process would spend before its request
// leaves. With no owner yet, the arguments start one and are its first request. Anything the
// owner cannot settle for us (`--help`, an answer saying `redirect`, an owner that could not
// start) falls back to the ordinary path: parse here, then send a `show`.

import BannerConfig
import BannerCore
import Glibc
import OwnerIPC
import OwnerProtocol
import ShowArguments
import Spawning

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
        let environment = processEnvironment()
        let request = OwnerRequest(ShowArgumentsRequest(
            arguments: arguments, environment: environment, directory: currentDirectory()))
        // A bad value is the owner's to report, as it reports every other.
        let timeout = (try? ConnectionOptions.replyTimeout(flag: lastValue(of: "--owner-timeout", in: arguments), environment: environment))
            ?? OwnerClient.defaultReplyTimeout
        guard let paths = try? OwnerPaths.forDisplay(lastValue(of: "--display", in: arguments)) else { return nil }
        // No owner yet: this request starts it and is its first. Parsing here first would put
        // the parser's start-up (a few milliseconds) in front of the owner's, on the way to the
        // first banner of a session; so the arguments are parsed here while the owner loads and
        // connects, and go as a `show` the owner need not parse. Arguments this parse refuses,
        // or that name another display, go as typed: the owner reports a bad value exactly as a
        // running one does, and ends.
        let configPath = scan(for: "--no-config", in: arguments) ? nil : BannerConfig.defaultPath(environment: environment)
        let directory = request.showArguments?.directory
        var exchange: OwnerClient.Exchange
        do {
            let client = OwnerClient(paths: paths, replyTimeout: timeout)
            guard let answered = try client.exchange(request, start: true, configPath: configPath, whileStarting: {
                parsed(arguments, environment: environment, directory: directory, display: paths.display)
            }) else { return nil }
            exchange = answered
        } catch where error.code == ExitStatus.unreachable {
            // An owner that runs but does not answer: asking it again the ordinary way would
            // only double the wait.
            Terminal.error(error.message)
            return error.code
        } catch {
            return nil
        }
        defer { exchange.close() }
        // `protocol`: an owner from before `show-arguments` did not understand it.
        if let kind = exchange.response.error?.kind, kind == .redirect || kind == .protocol { return nil }
        // An owner started for arguments it refused ends by itself, before this command does:
        // bad input starts nothing that outlives it.
        if exchange.startedOwner, exchange.response.error != nil, let pid = exchange.ownerPID {
            OwnerClient.waitForEnd(of: pid, timeout: timeout)
        }
        do {
            return try ShowCommand.conclude(&exchange, wait: exchange.response.shown?.wait == true)
        } catch {
            Terminal.error(error.message)
            return error.code
        }
    }

    /// The `show` request `arguments` make, parsed here, if they parse and name `display`.
    static func parsed(_ arguments: [String], environment: [String: String], directory: String?, display: String) -> OwnerRequest? {
        var parser = ShowParser()
        guard case .request(let show) = parser.parse(arguments, environment: environment, directory: directory, display: display) else {
            return nil
        }
        return OwnerRequest(show)
    }

    /// True when `flag` is among the arguments before `--` (a value that merely looks like it
    /// counts too: it only decides whether a newly started owner reads the config file's
    /// `[daemon]` settings).
    static func scan(for flag: String, in arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains(flag)
    }

    /// The value of the last `option` (`--display`: nil, then `$DISPLAY`). A value that
    /// merely looks like the option (`--title --display`) may mislead this scan; the owner,
    /// which parses properly, then answers `redirect`.
    static func lastValue(of option: String, in arguments: [String]) -> String? {
        var value: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == option, index + 1 < arguments.endIndex {
                value = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix(option + "=") {
                value = String(argument.dropFirst(option.count + 1))
            }
            index += 1
        }
        return value
    }
}
