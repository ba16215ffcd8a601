// What `monitor`'s flags and the config file's `[monitor]` say about connectivity, checked:
// the source, the HTTP check's rule and pacing. The command fills it; the monitor reads it.

import BannerConfig
import BannerCore
import OwnerIPC

/// Where connectivity comes from and how the HTTP check runs, every value checked.
package struct ConnectivitySettings: Sendable {
    package var source: ConnectivitySource
    package var rule: HTTPCheckRule
    /// Seconds between checks while a route exists.
    package var interval: Double
    /// Seconds one check may take.
    package var timeout: Double
    /// The test hook is on: only local check URLs.
    package var localOnly: Bool

    /// Test hook: with WINDOW_BANNER_TEST_LOCAL_ONLY=1 the monitor refuses a check URL whose
    /// host is not localhost or a literal loopback or private address, so no test can reach a
    /// package server (or a DNS server) by leaving --check-url out.
    package static let localOnlyVariable = "WINDOW_BANNER_TEST_LOCAL_ONLY"

    package init(source: ConnectivitySource, rule: HTTPCheckRule, interval: Double, timeout: Double, localOnly: Bool) {
        self.source = source
        self.rule = rule
        self.interval = interval
        self.timeout = timeout
        self.localOnly = localOnly
    }

    /// Under the test hook, a check URL that is not local is an error naming it.
    package func refuseUnlessAllowed() throws(CommandFailure) {
        guard localOnly, !rule.url.isLocal else { return }
        throw CommandFailure(
            "check URL '\(rule.url.description.printable)' is not local (\(Self.localOnlyVariable)=1: localhost, loopback and private addresses only)",
            code: ExitStatus.usage)
    }
}

extension ExitStatus {
    /// `monitor`: the rtnetlink socket could not be opened or read, or (with `--connectivity
    /// networkmanager`) the system bus or NetworkManager is not there (EX_OSERR).
    package static let networkMonitorFailed: Int32 = 71
}
