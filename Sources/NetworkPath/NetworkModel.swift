// What the kernel has told us about the network: links, their addresses, and the default
// routes of the main table. Plain values, built by hand in tests and by kernel messages in the
// monitor; `PathRule` reads it, nothing here decides reachability. Start at `NetworkModel`.

/// IPv4 or IPv6.
public enum AddressFamily: String, Sendable, Hashable, CaseIterable, Comparable {
    case ipv4, ipv6

    /// IPv4 sorts first: it is the tie-breaker when both families carry a path equally.
    public static func < (a: Self, b: Self) -> Bool { a == .ipv4 && b == .ipv6 }
}

/// A link's RFC 2863 operational state, as the kernel reports it in `IFLA_OPERSTATE`.
public enum OperationalState: UInt8, Sendable, Hashable {
    case unknown = 0, notPresent, down, lowerLayerDown, testing, dormant, up
}

/// One network interface.
public struct NetworkLink: Sendable, Hashable {
    /// The kernel's interface index (`ifi_index`).
    public var index: Int32
    /// The interface name (`IFLA_IFNAME`), e.g. `eth0`, `wlan0`, `wwan0`.
    public var name: String
    /// Administratively up (`IFF_UP`).
    public var isUp: Bool
    /// Up with a working lower layer (`IFF_RUNNING`: operstate UP, or UNKNOWN for drivers
    /// that report no carrier).
    public var isRunning: Bool
    /// The loopback interface (`IFF_LOOPBACK`).
    public var isLoopback: Bool
    /// `IFLA_OPERSTATE`.
    public var operationalState: OperationalState

    /// A link; hand-built ones (in tests) default to not loopback, operstate unknown.
    public init(
        index: Int32, name: String, isUp: Bool, isRunning: Bool, isLoopback: Bool = false,
        operationalState: OperationalState = .unknown
    ) {
        self.index = index
        self.name = name
        self.isUp = isUp
        self.isRunning = isRunning
        self.isLoopback = isLoopback
        self.operationalState = operationalState
    }
}

/// An address's scope (`ifa_scope`): how far it is meaningful.
public enum AddressScope: Sendable, Hashable {
    /// `RT_SCOPE_UNIVERSE`: routable beyond this host and link (includes IPv6 ULAs).
    case global
    /// `RT_SCOPE_SITE`.
    case site
    /// `RT_SCOPE_LINK`: only on its link (`169.254/16`, `fe80::/10`).
    case link
    /// `RT_SCOPE_HOST`: only on this machine (`127.0.0.1`, `::1`).
    case host
    /// Any other value the kernel uses.
    case other(UInt8)

    /// Maps `ifa_scope`.
    public init(kernelValue: UInt8) {
        switch kernelValue {
        case 0: self = .global
        case 200: self = .site
        case 253: self = .link
        case 254: self = .host
        default: self = .other(kernelValue)
        }
    }
}

/// One address on one link.
public struct NetworkAddress: Sendable, Hashable {
    /// The link it is on.
    public var interfaceIndex: Int32
    /// IPv4 or IPv6.
    public var family: AddressFamily
    /// The local address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public var bytes: [UInt8]
    /// The on-link prefix length (`/24`, `/64`).
    public var prefixLength: Int
    /// How far the address is meaningful; only `.global` ones carry a path.
    public var scope: AddressScope
    /// Duplicate address detection has not finished, or failed (`IFA_F_TENTATIVE`,
    /// `IFA_F_DADFAILED`): the kernel will not send from it.
    public var isTentative: Bool

    /// An address; hand-built ones default to global scope, DAD finished.
    public init(
        interfaceIndex: Int32, family: AddressFamily, bytes: [UInt8], prefixLength: Int,
        scope: AddressScope = .global, isTentative: Bool = false
    ) {
        self.interfaceIndex = interfaceIndex
        self.family = family
        self.bytes = bytes
        self.prefixLength = prefixLength
        self.scope = scope
        self.isTentative = isTentative
    }

    /// Whether `other` names the same address: what `RTM_DELADDR` matches on.
    func isSameAddress(as other: NetworkAddress) -> Bool {
        interfaceIndex == other.interfaceIndex && family == other.family
            && bytes == other.bytes && prefixLength == other.prefixLength
    }

    /// Whether `address` (same family) lies inside this address's on-link prefix.
    public func prefixContains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = min(prefixLength, bytes.count * 8)
        for (mine, theirs) in zip(bytes, address) where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }
}

/// A unicast default route (prefix length 0) of the main routing table.
public struct DefaultRoute: Sendable, Hashable {
    /// IPv4 or IPv6.
    public var family: AddressFamily
    /// `RTA_PRIORITY`: lower wins, as in the kernel's own choice.
    public var metric: UInt32
    /// The links it leaves through: `RTA_OIF`, or every next hop of a multipath route. Empty
    /// when the route names none.
    public var outputInterfaces: [Int32]
    /// `RTA_GATEWAY`, in network byte order; nil for a route straight onto a link.
    public var gateway: [UInt8]?

    /// A route; hand-built ones default to metric 0 and no gateway.
    public init(family: AddressFamily, metric: UInt32 = 0, outputInterfaces: [Int32], gateway: [UInt8]? = nil) {
        self.family = family
        self.metric = metric
        self.outputInterfaces = outputInterfaces
        self.gateway = gateway
    }
}

/// Links, addresses and default routes: the part of the kernel's state reachability depends on.
public struct NetworkModel: Sendable, Hashable {
    /// Links by interface index.
    public var links: [Int32: NetworkLink]
    /// Addresses of every link, in the order the kernel reported them.
    public var addresses: [NetworkAddress]
    /// Main-table unicast default routes, in the order the kernel reported them.
    public var defaultRoutes: [DefaultRoute]

    /// A model from hand-built parts (the monitor builds its own from kernel messages).
    public init(links: [NetworkLink] = [], addresses: [NetworkAddress] = [], defaultRoutes: [DefaultRoute] = []) {
        self.links = Dictionary(links.map { ($0.index, $0) }, uniquingKeysWith: { _, last in last })
        self.addresses = addresses
        self.defaultRoutes = defaultRoutes
    }

    /// What applying one kernel message did.
    struct Change: Equatable {
        /// The model differs from before.
        var changed: Bool
        /// The kernel may have removed routes without telling us: IPv4 flushes the routes of a
        /// link taken down or of an address removed, and sends no `RTM_DELROUTE` for them.
        /// The monitor re-reads the routes before it next decides.
        var routesMayBeStale: Bool = false
    }

    /// Applies one decoded kernel message.
    mutating func apply(_ content: KernelMessage.Content) -> Change {
        let before = self
        var routesMayBeStale = false
        switch content {
        case .link(var link):
            let previous = links[link.index]
            if link.name.isEmpty, let previous { link.name = previous.name }
            links[link.index] = link
            routesMayBeStale = previous?.isUp == true && !link.isUp
        case .linkRemoved(let index):
            links[index] = nil
            addresses.removeAll { $0.interfaceIndex == index }
            defaultRoutes.removeAll { !$0.outputInterfaces.isEmpty && $0.outputInterfaces.allSatisfy { $0 == index } }
            routesMayBeStale = true
        case .address(let address):
            if let existing = addresses.firstIndex(where: { $0.isSameAddress(as: address) }) {
                addresses[existing] = address
            } else {
                addresses.append(address)
            }
        case .addressRemoved(let address):
            addresses.removeAll { $0.isSameAddress(as: address) }
            routesMayBeStale = address.family == .ipv4
        case .defaultRoute(let route):
            if !defaultRoutes.contains(route) { defaultRoutes.append(route) }
        case .defaultRouteRemoved(let route):
            removeDefaultRoute(route)
        case .dumpDone, .error, .ignored:
            break
        }
        return Change(changed: self != before, routesMayBeStale: routesMayBeStale)
    }

    /// Forgets everything a dump of `kind` is about to report afresh.
    mutating func clear(_ kind: DumpKind) {
        switch kind {
        case .links: links = [:]
        case .addresses: addresses = []
        case .routes: defaultRoutes = []
        }
    }

    /// `RTM_DELROUTE` repeats the route's attributes, so an exact match is the rule; when the
    /// kernel leaves some out, the route of that family and metric through those links goes.
    private mutating func removeDefaultRoute(_ route: DefaultRoute) {
        if let exact = defaultRoutes.firstIndex(of: route) {
            defaultRoutes.remove(at: exact)
            return
        }
        defaultRoutes.removeAll {
            $0.family == route.family && $0.metric == route.metric
                && (route.outputInterfaces.isEmpty || Set($0.outputInterfaces) == Set(route.outputInterfaces))
        }
    }
}
