// From the monitor's connectivity sources to what its banners say. A default route is not the
// internet: behind a captive portal or with a dead upstream the kernel's tables still look
// fine. So `window-banner monitor --connectivity` can ask NetworkManager (its `Connectivity`
// property) or make its own HTTP check, and the rules here turn either answer, together with
// the routes, into a `NetworkConnectivity` for ConnectivityBannerPolicy. No I/O: the monitor
// (window-banner-full's MonitorCommand) reads the bus and the socket and brings the answers here.
// Start reading at `NetworkConnectivity.judge(routeExists:report:)`.

/// Where the monitor learns whether the internet answers (`--connectivity`, `[monitor]
/// connectivity`).
public enum ConnectivitySource: String, Sendable, Hashable, CaseIterable, Codable, SettingWord {
    /// NetworkManager when it is on the system bus at start-up, else `routes`.
    case auto
    /// NetworkManager's `Connectivity` property and its changes.
    case networkmanager
    /// The monitor's own HTTP check (`--check-url`).
    case http
    /// The kernel's routes alone: a default route counts as online.
    case routes

    /// The default (`--connectivity`).
    public static let `default` = ConnectivitySource.auto

    /// `auto`, `networkmanager`, `http` or `routes`, in any case, like every word setting.
    public static func badValue(_ text: String) -> BannerValueError { .connectivitySource(text) }
}

/// How connected the machine is, in NetworkManager's words (NMConnectivityState).
public enum ConnectivityLevel: String, Sendable, Hashable {
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
    public init?(networkManagerValue value: UInt32) {
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
public struct ConnectivityReport: Sendable, Hashable {
    /// How connected the source says the machine is.
    public var level: ConnectivityLevel
    /// The source and its evidence, e.g. `networkmanager` or `http: 302 to http://portal/`.
    public var reason: String
    /// Where a click on the portal banner goes: the redirect target, else the check URL.
    public var signIn: String?

    /// A report with these values.
    public init(level: ConnectivityLevel, reason: String, signIn: String? = nil) {
        self.level = level
        self.reason = reason
        self.signIn = signIn
    }

    /// NetworkManager's `Connectivity` value; a portal's sign-in page is `checkURL` (NetworkManager
    /// does not say where its check was redirected, and the portal intercepts that URL too).
    public static func networkManager(_ level: ConnectivityLevel, checkURL: String) -> ConnectivityReport {
        ConnectivityReport(level: level, reason: "networkmanager", signIn: level == .portal ? checkURL : nil)
    }

    /// The monitor's line for it: `connectivity LEVEL (REASON)`.
    public var line: String { "connectivity \(level.rawValue) (\(reason))" }
}

extension NetworkConnectivity {
    /// What the banners say: no default route is offline whatever a source last said (the
    /// kernel knows first); with a route, the source's report decides — `full` online,
    /// `portal` the portal banner, `limited` and `none` offline — and no report, or `unknown`,
    /// leaves it to the route: online.
    public static func judge(routeExists: Bool, report: ConnectivityReport?) -> NetworkConnectivity {
        guard routeExists else { return .offline }
        switch report?.level {
        case nil, .unknown?, .full?: return .online
        case .none?, .limited?: return .offline
        case .portal?: return .portal(signIn: report?.signIn ?? "")
        }
    }
}

/// An `http://` or `https://HOST[:PORT][/PATH]` check URL, split for a request. Plain HTTP is
/// the default and the one to use behind portals: a portal can redirect a plain request, while
/// it can only break an encrypted one (an `https://` check then reads as `limited`, not `portal`).
public struct CheckURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, in lower case.
    public let scheme: String
    /// The host as written, without IPv6 brackets.
    public let host: String
    /// The TCP port; 80 (http) or 443 (https) unless written.
    public let port: UInt16
    /// The path and query, starting with `/`.
    public let path: String

    /// `http://connectivity-check.ubuntu.com/`, the check URL Ubuntu's NetworkManager ships
    /// (network-manager-config-connectivity-ubuntu): it answers 204 No Content, which is what
    /// the monitor expects without `--check-expect`.
    public static let `default` = "http://connectivity-check.ubuntu.com/"

    /// `text` split into host, port and path; throws naming it when it is not an http:// or https:// URL.
    public init(_ text: String) throws(BannerValueError) {
        let bad = BannerValueError.checkURL(text)
        guard let scheme = ["http", "https"].first(where: { text.lowercased().hasPrefix($0 + "://") }) else { throw bad }
        self.scheme = scheme
        let rest = text.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.contains("@"), !path.contains(where: { $0 == " " || $0.asciiValue.map { $0 < 0x20 } ?? false }) else { throw bad }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw bad }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad }
                portText = after.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { throw bad }
        if let portText {
            guard let port = UInt16(portText), port > 0 else { throw bad }
            self.port = port
        } else {
            port = scheme == "https" ? 443 : 80
        }
        self.host = String(host)
        self.path = path
    }

    /// The URL again, normalised: `SCHEME://HOST[:PORT]/PATH`.
    public var description: String { origin + path }

    /// `SCHEME://HOST[:PORT]`: the start of an absolute URL on this server.
    public var origin: String { "\(scheme)://\(hostHeader)" }

    /// The `Host` header's value.
    public var hostHeader: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }

    /// The scheme's port.
    private var defaultPort: UInt16 { scheme == "https" ? 443 : 80 }

    /// Whether the host is `localhost` or a literal loopback, private or link-local address
    /// (127/8, 10/8, 172.16/12, 192.168/16, 169.254/16, ::1, fc00::/7, fe80::/10): an address no
    /// packet to which leaves this machine's networks. A name other than localhost is never
    /// local here — finding its address would already ask a DNS server.
    public var isLocal: Bool {
        if host.lowercased() == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        if octets.count == 4, octets.allSatisfy({ $0 != nil }) {
            let a = octets[0] ?? 0, b = octets[1] ?? 0
            return a == 127 || a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) || (a == 169 && b == 254)
        }
        guard host.contains(":") else { return false }
        if host == "::1" { return true }
        guard let first = host.split(separator: ":", omittingEmptySubsequences: false).first,
              let hextet = UInt16(first, radix: 16) else { return false }
        return hextet & 0xFE00 == 0xFC00 || hextet & 0xFFC0 == 0xFE80
    }

    /// A `Location` header's target as an absolute URL: absolute ones as they are, others on
    /// this server (relative to the path's directory unless they start with `/`).
    public func resolve(location: String) -> String {
        // `scheme:…` (RFC 3986: a letter, then letters, digits, +, - or .) is absolute already.
        let written = location.prefix { $0 != ":" }
        if written.count < location.count, let first = written.first, first.isASCII, first.isLetter,
           written.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            return location
        }
        if location.hasPrefix("//") { return scheme + ":" + location }
        if location.hasPrefix("/") { return origin + location }
        let directory = path.prefix { $0 != "?" }
        return origin + String(directory[...(directory.lastIndex(of: "/") ?? directory.startIndex)]) + location
    }
}

/// What the monitor's HTTP check expects, and the report each answer makes.
///
/// - Without `expectedBody`: HTTP 204 is `full` (NetworkManager's rule for a check with no
///   expected response, and what the default URL answers).
/// - With `expectedBody`: a 2xx answer whose body starts with it is `full` (NetworkManager's
///   `response=` rule).
/// - A redirect with a `Location` is a `portal` that signs in at the redirect target (when it
///   is a plain `http://` or `https://` URL a browser can open); any other answer (another
///   status, another body, a redirect elsewhere) is a `portal` that signs in at the check URL.
/// - No answer (no address, refused, reset, timed out), or one that broke HTTP or a limit, is
///   `limited`.
public struct HTTPCheckRule: Sendable, Hashable {
    /// Where the check goes.
    public let url: CheckURL
    /// The start of the body that means online; nil expects HTTP 204.
    public let expectedBody: String?

    /// Default seconds between checks while a route exists (`--check-interval`), NetworkManager's.
    public static let defaultInterval: Double = 300
    /// `--check-interval`'s range: at least a second (no hammering the server), at most a week.
    public static let intervalRange = SecondsRange(name: "check interval", minimum: 1, maximum: 604_800)
    /// Default seconds a check may take, from the name lookup to the last byte (`--check-timeout`).
    public static let defaultTimeout: Double = 10
    /// `--check-timeout`'s range: 0.1 s to 5 minutes.
    public static let timeoutRange = SecondsRange(name: "check timeout", minimum: 0.1, maximum: 300)
    /// The most of a body the check reads: enough for any expected text, not a portal's page.
    public static let maximumBody = 4096
    /// The longest redirect target taken as a portal's sign-in page.
    public static let maximumLocation = 2048

    /// A rule for `url`, expecting `expectedBody` (nil or empty: HTTP 204).
    public init(url: CheckURL, expectedBody: String?) {
        self.url = url
        self.expectedBody = expectedBody?.isEmpty == false ? expectedBody : nil
    }

    /// The report for an HTTP answer: its status code, `Location` header and (start of the) body.
    public func report(status: Int, location: String?, body: [UInt8]) -> ConnectivityReport {
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
    public func report(noAnswer reason: String) -> ConnectivityReport {
        let line = String(reason.unicodeScalars.prefix(300).map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return ConnectivityReport(level: .limited, reason: "http: \(line)")
    }

    /// A redirect's target as a page to open: absolute, `http://` or `https://`, printable
    /// ASCII with no spaces, at most ``maximumLocation`` bytes; nil for anything else (a
    /// `file:` or `javascript:` URL, a line break that would forge a log line).
    public func signInPage(_ location: String) -> String? {
        guard !location.isEmpty, location.utf8.count <= Self.maximumLocation else { return nil }
        let target = url.resolve(location: location)
        let lowered = target.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), target.utf8.count <= Self.maximumLocation,
              target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return target
    }
}
