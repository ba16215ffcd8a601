// The network monitor's own HTTP check as its connectivity source (`--connectivity http`):
// one libcurl transfer at a time (NetworkPath's HTTPCheck), its sockets and timer armed on the
// monitor's loop before each sleep, a check at every route change and every interval.

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import MonotonicClock
import NetworkPath
import OwnerIPC
import Reactor

extension NetworkBannerMonitor {
    /// Loads libcurl and arms the checks; the first runs when the route is known.
    func startHTTPChecks() throws(CommandFailure) {
        do throws(HTTPCheckError) {
            try HTTPCheck.loadLibrary()
        } catch {
            throw CommandFailure("cannot make HTTP checks: \(error)", code: ExitStatus.networkMonitorFailed)
        }
        source = .http
        log("connectivity from \(connectivity.rule.url) every \(BannerFont.format(connectivity.interval)) s")
    }

    /// Starts a check now (the route changed, or the interval is up), dropping one in flight.
    func startCheck() {
        cancelCheck()
        let url = connectivity.rule.url
        let request = HTTPCheck.Request(
            url: url.description, wantsBody: connectivity.rule.expectedBody != nil, maximumBody: HTTPCheckRule.maximumBody,
            timeout: connectivity.timeout)
        do throws(HTTPCheckError) {
            let check = try HTTPCheck(request, clock: { [unowned loop] in loop.now })
            check.onAnswer = { [unowned self] answer in answered(answer) }
            let served = loop.serve(check) { _ in }
            // libcurl keeps the same timeout; this one is in case it did not.
            let deadline = loop.after(seconds: connectivity.timeout + 1) { [unowned self] in
                checkFinished(connectivity.rule.report(noAnswer: "no answer within \(BannerFont.format(connectivity.timeout)) s at \(url)"))
            }
            checkInFlight = CheckInFlight(check: check, served: served, deadline: deadline)
        } catch {
            checkFinished(connectivity.rule.report(noAnswer: "cannot check: \(error)"))
        }
    }

    /// The check's answer, as a report.
    func answered(_ answer: HTTPCheckAnswer) {
        let url = connectivity.rule.url
        switch answer {
        case .response(let status, let location, let body):
            checkFinished(connectivity.rule.report(status: status, location: location, body: body))
        case .failure(let reason):
            checkFinished(connectivity.rule.report(noAnswer: "\(Self.lowercasedFirst(reason)) at \(url)"))
        case .rejected(let reason):
            let report = connectivity.rule.report(noAnswer: "bad answer: \(reason) at \(url)")
            // Said once per change, like the report line: a portal or an attacker answering
            // the same every interval does not flood the journal.
            if report.line != reportLine { Terminal.warning("dropped the connectivity check's answer from \(url): \(reason)") }
            checkFinished(report)
        }
    }

    /// The check's report: it decides, and the next check is due an interval later.
    func checkFinished(_ new: ConnectivityReport) {
        cancelCheck()
        guard route?.isSatisfied == true else { return }
        reported(new)
        decide()
        nextCheck.set(after: connectivity.interval) { [unowned self] in startCheck() }
    }

    func cancelCheck() {
        if let checkInFlight {
            loop.cancel(checkInFlight.served)
            loop.cancel(checkInFlight.deadline)
        }
        checkInFlight = nil
        nextCheck.cancel()
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
