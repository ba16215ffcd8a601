// The network monitor's connectivity settings, as `--connectivity`, `--check-url`, the check's
// interval and timeout and `[monitor]` in the config file name them: where the monitor learns
// whether the internet answers, the check URL, and the rule for the HTTP check. Checked here, so
// the options and the config reader refuse the same values with the same words; what an answer
// means is the monitor's (BannerMonitor's ConnectivityCheck.swift).

import BannerCore

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
}
