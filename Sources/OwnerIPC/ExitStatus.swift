// The exit codes of every command, documented in `--help` and docs/scripts.md: sysexits.h where
// one fits (the library's fatal path, DisplayLoss, ends with EX_UNAVAILABLE itself), then the
// ones `show --wait` and the monitors give their meanings.

import BannerCore
import Glibc

/// The exit statuses the commands end with.
package enum ExitStatus {
    /// Bad usage or a bad value (EX_USAGE).
    package static let usage: Int32 = EX_USAGE
    /// No display, or the display went away (EX_UNAVAILABLE).
    package static let displayUnavailable: Int32 = EX_UNAVAILABLE
    /// Something that should not fail did (EX_SOFTWARE).
    package static let internalError: Int32 = EX_SOFTWARE

    /// The owner process cannot be reached or started; try again (EX_TEMPFAIL).
    package static let unreachable: Int32 = EX_TEMPFAIL
    /// Client and owner speak different protocol versions, or a reply was unreadable (EX_PROTOCOL).
    package static let protocolMismatch: Int32 = EX_PROTOCOL
    /// The config file is broken (EX_CONFIG).
    package static let config: Int32 = EX_CONFIG
    /// `--user`/`--all-users`: the program cannot be run as that user, who cannot reach the
    /// place it lies in (EX_NOPERM).
    package static let notRunnableAsUser: Int32 = EX_NOPERM
    /// `show --wait`: the banner was dismissed.
    package static let waitDismissed: Int32 = 10
    /// `show --wait`: another banner took its place.
    package static let waitReplaced: Int32 = 11

    /// `show --wait`'s exit code for each way a banner ends: 0 timeout, 10 dismissed,
    /// 11 replaced, 12 clicked, 13 closed, 14 swiped, 15 action, 16 secondary action.
    package static func wait(_ reason: BannerEndReason) -> Int32 {
        switch reason {
        case .timeout: 0
        case .dismissed: waitDismissed
        case .replaced: waitReplaced
        case .clicked: 12
        case .closed: 13
        case .swiped: 14
        case .action: 15
        case .secondaryAction: 16
        }
    }
}
