// How the owner reads a `show` forwarded as typed (`show-arguments`) without linking an
// argument parser: window-banner-full hands it the one parser the client uses (ShowArguments'
// ShowParser), so both read a command line the same way, word for word.

import OwnerProtocol

/// What a `show`'s command line says to the owner of one display.
package enum ShowArgumentsOutcome {
    /// A `show` for the display asked about.
    case request(ShowRequest)
    /// A `show` for another display, or a request for the parser's own output (`--help`,
    /// `--version`): for the ordinary path, not this display's owner.
    case elsewhere
    /// Refused: the one line saying why.
    case refused(String)
}

/// Reads `show` arguments as `window-banner show` would.
package protocol ShowArgumentsReader {
    /// `arguments` (what follows `show`) as `window-banner show` in `environment` and
    /// `directory` means them, for the owner of `display` (normalised, as OwnerPaths has it).
    mutating func parse(_ arguments: [String], environment: [String: String], directory: String?, display: String) -> ShowArgumentsOutcome
    /// Called once nothing moves on screen: work a reader put off (ShowParser checks the
    /// arrangements of flags it parsed once) is done now, off the frames' way.
    mutating func learn()
}
