// The decision: model in, status out. Pure, so every clause of the rule is unit-tested on
// hand-built models; the monitor only feeds it what the kernel says.

/// When the path is satisfied.
///
/// The path is **satisfied** exactly when there are a link L and an address family F (IPv4 or
/// IPv6) such that all three hold:
///
/// 1. **L is usable**: not loopback (`IFF_LOOPBACK` clear), administratively up (`IFF_UP`), and
///    its lower layer works: `IFF_RUNNING` is set, or its operstate is `UP`
///    (`IFLA_OPERSTATE` = `IF_OPER_UP`). (A carrier alone is not enough: `IFF_LOWER_UP` without
///    `IFF_RUNNING` means dormant, e.g. Wi-Fi still authenticating.)
/// 2. **L has an address of F** with global scope (`RT_SCOPE_UNIVERSE`; IPv6 ULAs included)
///    that is neither tentative nor failed duplicate address detection (`IFA_F_TENTATIVE`,
///    `IFA_F_DADFAILED`): the kernel would not send from those.
/// 3. **A default route of F leaves through L**: the main routing table (`RT_TABLE_MAIN`) holds
///    a unicast route (`RTN_UNICAST`, so not `unreachable`/`blackhole`/`prohibit`) of family F
///    with prefix length 0 whose output interface (`RTA_OIF`, or one of its `RTA_MULTIPATH`
///    next hops) is L, or which names no output interface but has a gateway inside the on-link
///    prefix of one of L's addresses of family F.
///
/// Otherwise the path is **unsatisfied**.
///
/// When several (L, F) pairs qualify, the one the kernel would route through carries the path:
/// the lowest route metric; on a tie IPv4 before IPv6, then the lower interface index.
/// `supportsIPv4`/`supportsIPv6` say whether any pair of that family qualifies, `isExpensive`
/// whether the carrying interface's name starts with `ww` (WWAN modems), and `isConstrained` is
/// always false (Linux has no kernel signal for it).
///
/// Not considered: policy routing outside the main table, routes through nexthop objects
/// (`RTA_NH_ID`, which would need the `RTNLGRP_NEXTHOP` group), and whether the gateway
/// actually answers — like `NWPathMonitor`, this judges the configuration, not a probe.
public enum PathRule {
    /// The status `model` gives.
    public static func status(of model: NetworkModel) -> PathStatus {
        let carriers = qualifyingPaths(in: model).sorted {
            ($0.metric, $0.family, $0.link.index) < ($1.metric, $1.family, $1.link.index)
        }
        guard let best = carriers.first else { return .unsatisfied }
        return PathStatus(
            status: .satisfied,
            interfaceName: best.link.name,
            isExpensive: isExpensive(interfaceName: best.link.name),
            isConstrained: false,
            supportsIPv4: carriers.contains { $0.family == .ipv4 },
            supportsIPv6: carriers.contains { $0.family == .ipv6 }
        )
    }

    /// Whether an interface of this name is a cellular modem: udev names WWAN devices `ww…`.
    public static func isExpensive(interfaceName: String) -> Bool {
        interfaceName.hasPrefix("ww")
    }

    /// Whether clause 1 holds for `link`.
    public static func isUsable(_ link: NetworkLink) -> Bool {
        !link.isLoopback && link.isUp && (link.isRunning || link.operationalState == .up)
    }

    /// Whether clause 2 counts `address`.
    public static func isUsable(_ address: NetworkAddress) -> Bool {
        address.scope == .global && !address.isTentative
    }

    /// One (link, family) pair meeting all three clauses, through a route of `metric`.
    private struct Path {
        var link: NetworkLink
        var family: AddressFamily
        var metric: UInt32
    }

    private static func qualifyingPaths(in model: NetworkModel) -> [Path] {
        var paths: [Path] = []
        for route in model.defaultRoutes {
            for link in model.links.values where isUsable(link) {
                let addresses = model.addresses.filter {
                    $0.interfaceIndex == link.index && $0.family == route.family
                }
                guard addresses.contains(where: isUsable) else { continue }
                if leaves(route, through: link, addresses: addresses) {
                    paths.append(Path(link: link, family: route.family, metric: route.metric))
                }
            }
        }
        return paths
    }

    /// Clause 3 for one route and one link (with the link's addresses of the route's family).
    private static func leaves(_ route: DefaultRoute, through link: NetworkLink, addresses: [NetworkAddress]) -> Bool {
        if !route.outputInterfaces.isEmpty { return route.outputInterfaces.contains(link.index) }
        guard let gateway = route.gateway else { return false }
        return addresses.contains { $0.prefixContains(gateway) }
    }
}
