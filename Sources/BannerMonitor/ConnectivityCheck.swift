// From the monitor's connectivity sources to what its banners say. A default route is not the
// internet: behind a captive portal or with a dead upstream the kernel's tables still look
// fine. So `window-banner monitor --connectivity` can ask NetworkManager (its `Connectivity`
// property) or make its own HTTP check, and the rules here turn either answer, together with the
// routes, into a `NetworkConnectivity` for ConnectivityBannerPolicy (the check's settings,
// `HTTPCheckRule` and `CheckURL` among them, are BannerConfig's). No I/O: the monitor reads the
// bus and the socket and brings the answers here.
// Start reading at `NetworkConnectivity.judge(routeExists:report:)`.

import BannerConfig

/// How connected the machine is, in NetworkManager's words (NMConnectivityState).
package enum ConnectivityLevel: String, Sendable, Hashable {
    /// Nobody checked (NetworkManager with its check turned off): the routes decide.
    case unknown
    /// No network at all.
    case none
    /// A captive portal intercepts the check.
    case portal
    /// A network, but the internet does not answer.
    case limited
    /// The internet answers.
    case full

    /// NetworkManager's `Connectivity` property value (0 unknown, 1 none, 2 portal, 3 limited,
    /// 4 full); nil for a number NetworkManager does not define.
    package init?(networkManagerValue value: UInt32) {
        switch value {
        case 0: self = .unknown
        case 1: self = .none
        case 2: self = .portal
        case 3: self = .limited
        case 4: self = .full
        default: return nil
        }
    }
}

/// One answer from a connectivity source: the level, why, and for a portal the page to sign in at.
package struct ConnectivityReport: Sendable, Hashable {
    /// How connected the source says the machine is.
    package var level: ConnectivityLevel
    /// The source and its evidence, e.g. `networkmanager` or `http: 302 to http://portal/`.
    package var reason: String
    /// Where a click on the portal banner goes: the redirect target, else the check URL.
    package var signIn: String?

    /// A report with these values.
    package init(level: ConnectivityLevel, reason: String, signIn: String? = nil) {
        self.level = level
        self.reason = reason
        self.signIn = signIn
    }

    /// NetworkManager's `Connectivity` value; a portal's sign-in page is `checkURL` (NetworkManager
    /// does not say where its check was redirected, and the portal intercepts that URL too).
    package static func networkManager(_ level: ConnectivityLevel, checkURL: String) -> ConnectivityReport {
        ConnectivityReport(level: level, reason: "networkmanager", signIn: level == .portal ? checkURL : nil)
    }

    /// The monitor's line for it: `connectivity LEVEL (REASON)`.
    package var line: String { "connectivity \(level.rawValue) (\(reason))" }
}

extension NetworkConnectivity {
    /// What the banners say: no default route is offline whatever a source last said (the
    /// kernel knows first); with a route, the source's report decides — `full` online,
    /// `portal` the portal banner, `limited` and `none` offline — and no report, or `unknown`,
    /// leaves it to the route: online.
    package static func judge(routeExists: Bool, report: ConnectivityReport?) -> NetworkConnectivity {
        guard routeExists else { return .offline }
        switch report?.level {
        case nil, .unknown?, .full?: return .online
        case .none?, .limited?: return .offline
        case .portal?: return .portal(signIn: report?.signIn ?? "")
        }
    }
}

extension HTTPCheckRule {
    /// The report for an HTTP answer: its status code, `Location` header and (start of the) body.
    package func report(status: Int, location: String?, body: [UInt8]) -> ConnectivityReport {
        if let expectedBody {
            if (200...299).contains(status), body.starts(with: Array(expectedBody.utf8)) {
                return ConnectivityReport(level: .full, reason: "http: \(status) with the expected body from \(url)")
            }
        } else if status == 204 {
            return ConnectivityReport(level: .full, reason: "http: 204 from \(url)")
        }
        if (300...399).contains(status), let location, let target = signInPage(location) {
            return ConnectivityReport(level: .portal, reason: "http: \(status) to \(target)", signIn: target)
        }
        let what = expectedBody != nil && (200...299).contains(status) ? "\(status) without the expected body" : "unexpected \(status)"
        return ConnectivityReport(level: .portal, reason: "http: \(what) from \(url)", signIn: url.description)
    }

    /// The report for a check that got no HTTP answer, `reason` saying what happened instead
    /// (made one line of at most 300 characters: it may quote the network).
    package func report(noAnswer reason: String) -> ConnectivityReport {
        let line = String(reason.unicodeScalars.prefix(300).map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return ConnectivityReport(level: .limited, reason: "http: \(line)")
    }

    /// A redirect's target as a page to open: absolute, `http://` or `https://`, printable
    /// ASCII with no spaces, at most ``maximumLocation`` bytes; nil for anything else (a
    /// `file:` or `javascript:` URL, a line break that would forge a log line).
    package func signInPage(_ location: String) -> String? {
        guard !location.isEmpty, location.utf8.count <= Self.maximumLocation else { return nil }
        let target = url.resolve(location: location)
        let lowered = target.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), target.utf8.count <= Self.maximumLocation,
              target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return target
    }
}
