// What the monitor publishes: whether this machine has a usable path to the internet, and
// through which interface. The NWPath of this port, reduced to what Linux can tell.

/// The state of the network path, as `NWPathMonitor` reports it on Apple platforms.
public struct PathStatus: Sendable, Hashable, CustomStringConvertible {
    /// Whether a path is usable.
    public enum Status: String, Sendable, Hashable {
        /// Some interface can carry traffic to the internet (see ``PathRule``).
        case satisfied
        /// None can.
        case unsatisfied
    }

    /// Satisfied or not.
    public var status: Status
    /// The interface carrying the path (`eth0`, `wwan0`); nil when unsatisfied.
    public var interfaceName: String?
    /// The path goes through a cellular modem (an interface named `ww…`, as udev names WWAN
    /// devices: `wwan0`, `wwp0s20u4`), which is usually metered.
    public var isExpensive: Bool
    /// Low Data Mode on Apple platforms. Linux has no such kernel signal, so always false.
    public var isConstrained: Bool
    /// IPv4 can reach the internet (over any qualifying interface).
    public var supportsIPv4: Bool
    /// IPv6 can reach the internet (over any qualifying interface).
    public var supportsIPv6: Bool

    /// A status; every tag defaults to off.
    public init(
        status: Status, interfaceName: String? = nil, isExpensive: Bool = false, isConstrained: Bool = false,
        supportsIPv4: Bool = false, supportsIPv6: Bool = false
    ) {
        self.status = status
        self.interfaceName = interfaceName
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
        self.supportsIPv4 = supportsIPv4
        self.supportsIPv6 = supportsIPv6
    }

    /// No usable path.
    public static let unsatisfied = PathStatus(status: .unsatisfied)

    /// `status == .satisfied`.
    public var isSatisfied: Bool { status == .satisfied }

    /// One line: the status, then the interface and tags, e.g. `satisfied wwan0 ipv4 expensive`
    /// or `unsatisfied`. `netpath-probe` prints exactly this.
    public var description: String {
        var words = [status.rawValue]
        if let interfaceName { words.append(interfaceName) }
        if supportsIPv4 { words.append("ipv4") }
        if supportsIPv6 { words.append("ipv6") }
        if isExpensive { words.append("expensive") }
        if isConstrained { words.append("constrained") }
        return words.joined(separator: " ")
    }
}
