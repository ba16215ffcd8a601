// Every clause of the satisfied rule on hand-built models: which link, which address, which
// route makes the path usable, and which interface is said to carry it.

import NetworkPath
import Testing

/// Building blocks for hand-built models.
enum Build {
    static let loopback = NetworkLink(index: 1, name: "lo", isUp: true, isRunning: true, isLoopback: true)

    static func link(_ index: Int32 = 2, _ name: String = "eth0", up: Bool = true, running: Bool = true,
                     operationalState: OperationalState = .up) -> NetworkLink {
        NetworkLink(index: index, name: name, isUp: up, isRunning: running, operationalState: operationalState)
    }

    static func ipv4(_ text: String, prefix: Int = 24, on index: Int32 = 2, scope: AddressScope = .global) -> NetworkAddress {
        NetworkAddress(interfaceIndex: index, family: .ipv4, bytes: text.split(separator: ".").map { UInt8($0)! },
                       prefixLength: prefix, scope: scope)
    }

    /// An IPv6 address from its eight groups (no `::` shorthand, to keep the parser trivial).
    static func ipv6(_ groups: [UInt16], prefix: Int = 64, on index: Int32 = 2, scope: AddressScope = .global,
                     tentative: Bool = false) -> NetworkAddress {
        NetworkAddress(interfaceIndex: index, family: .ipv6, bytes: ipv6Bytes(groups), prefixLength: prefix,
                       scope: scope, isTentative: tentative)
    }

    static func ipv6Bytes(_ groups: [UInt16]) -> [UInt8] {
        groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func route(_ family: AddressFamily, via index: Int32 = 2, metric: UInt32 = 0) -> DefaultRoute {
        DefaultRoute(family: family, metric: metric, outputInterfaces: [index])
    }

    /// eth0 up with 192.0.2.10/24 and an IPv4 default route through it.
    static let onlineIPv4 = NetworkModel(links: [loopback, link()], addresses: [ipv4("192.0.2.10")], defaultRoutes: [route(.ipv4)])
}

@Suite("Path rule")
struct PathRuleTests {
    @Test func emptyModelIsUnsatisfied() {
        #expect(PathRule.status(of: NetworkModel()) == .unsatisfied)
    }

    @Test func loopbackOnlyIsUnsatisfiedEvenWithGlobalAddressAndDefaultRoute() {
        let model = NetworkModel(
            links: [Build.loopback],
            addresses: [Build.ipv4("127.0.0.1", prefix: 8, on: 1, scope: .host), Build.ipv4("10.9.9.9", prefix: 32, on: 1)],
            defaultRoutes: [Build.route(.ipv4, via: 1)]
        )
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func upRunningLinkWithGlobalAddressAndDefaultRouteIsSatisfied() {
        let status = PathRule.status(of: Build.onlineIPv4)
        #expect(status == PathStatus(status: .satisfied, interfaceName: "eth0", supportsIPv4: true))
        #expect(status.description == "satisfied eth0 ipv4")
    }

    @Test func administrativelyDownLinkIsUnsatisfied() {
        var model = Build.onlineIPv4
        model.links[2] = Build.link(up: false, running: false, operationalState: .down)
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func linkWithoutCarrierIsUnsatisfied() {
        var model = Build.onlineIPv4
        model.links[2] = Build.link(running: false, operationalState: .lowerLayerDown)
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func dormantLinkIsUnsatisfied() {
        var model = Build.onlineIPv4
        model.links[2] = Build.link(running: false, operationalState: .dormant)
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func operationalStateUpCountsAsRunning() {
        var model = Build.onlineIPv4
        model.links[2] = Build.link(running: false, operationalState: .up)
        #expect(PathRule.status(of: model).isSatisfied)
    }

    @Test func runningWithUnknownOperationalStateCounts() {
        // Drivers without carrier reporting (tun, some VPNs) stay in operstate UNKNOWN.
        var model = Build.onlineIPv4
        model.links[2] = Build.link(operationalState: .unknown)
        #expect(PathRule.status(of: model).isSatisfied)
    }

    @Test func linkLocalAddressDoesNotCount() {
        var model = Build.onlineIPv4
        model.addresses = [Build.ipv4("169.254.7.7", prefix: 16, scope: .link)]
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func tentativeAddressDoesNotCount() {
        let model = NetworkModel(
            links: [Build.link()],
            addresses: [Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2], tentative: true)],
            defaultRoutes: [Build.route(.ipv6)]
        )
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func addressAndRouteMustBeOfTheSameFamily() {
        let model = NetworkModel(
            links: [Build.link()],
            addresses: [Build.ipv4("192.0.2.10")],
            defaultRoutes: [Build.route(.ipv6)]
        )
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func defaultRouteThroughAnotherLinkDoesNotCount() {
        // eth0 has the address, the route leaves through wlan0, which has none.
        let model = NetworkModel(
            links: [Build.link(), Build.link(3, "wlan0")],
            addresses: [Build.ipv4("192.0.2.10")],
            defaultRoutes: [Build.route(.ipv4, via: 3)]
        )
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func noDefaultRouteIsUnsatisfied() {
        var model = Build.onlineIPv4
        model.defaultRoutes = []
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func ipv6OnlyIsSatisfied() {
        let model = NetworkModel(
            links: [Build.loopback, Build.link()],
            addresses: [Build.ipv6([0xfe80, 0, 0, 0, 0, 0, 0, 1], scope: .link), Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2])],
            defaultRoutes: [Build.route(.ipv6)]
        )
        #expect(PathRule.status(of: model) == PathStatus(status: .satisfied, interfaceName: "eth0", supportsIPv6: true))
    }

    @Test func gatewayOnLinkCountsWhenRouteNamesNoInterface() {
        let onLink = DefaultRoute(family: .ipv4, outputInterfaces: [], gateway: [192, 0, 2, 1])
        var model = Build.onlineIPv4
        model.defaultRoutes = [onLink]
        #expect(PathRule.status(of: model).interfaceName == "eth0")

        model.defaultRoutes = [DefaultRoute(family: .ipv4, outputInterfaces: [], gateway: [198, 51, 100, 1])]
        #expect(PathRule.status(of: model) == .unsatisfied)
    }

    @Test func multipathNextHopCounts() {
        var model = Build.onlineIPv4
        model.defaultRoutes = [DefaultRoute(family: .ipv4, outputInterfaces: [7, 2])]
        #expect(PathRule.status(of: model).interfaceName == "eth0")
    }

    @Test func lowestMetricCarriesThePath() {
        let model = NetworkModel(
            links: [Build.link(), Build.link(3, "wlan0")],
            addresses: [Build.ipv4("192.0.2.10"), Build.ipv4("198.51.100.10", on: 3)],
            defaultRoutes: [Build.route(.ipv4, via: 2, metric: 600), Build.route(.ipv4, via: 3, metric: 100)]
        )
        #expect(PathRule.status(of: model).interfaceName == "wlan0")
    }

    @Test func equalMetricsPreferIPv4ThenLowerIndex() {
        let model = NetworkModel(
            links: [Build.link(2, "eth0"), Build.link(3, "eth1")],
            addresses: [Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2]), Build.ipv4("198.51.100.10", on: 3), Build.ipv4("192.0.2.10", on: 2)],
            defaultRoutes: [Build.route(.ipv6, via: 2), Build.route(.ipv4, via: 3), Build.route(.ipv4, via: 2)]
        )
        let status = PathRule.status(of: model)
        #expect(status.interfaceName == "eth0")
        #expect(status.supportsIPv4 && status.supportsIPv6)
    }

    @Test(arguments: ["wwan0", "ww0", "wwp0s20u4i6"])
    func wwanInterfacesAreExpensive(name: String) {
        var model = Build.onlineIPv4
        model.links[2]?.name = name
        let status = PathRule.status(of: model)
        #expect(status.isExpensive)
        #expect(!status.isConstrained)
        #expect(status.description == "satisfied \(name) ipv4 expensive")
    }

    @Test(arguments: ["eth0", "wlan0", "enp3s0", "wg0"])
    func otherInterfacesAreNotExpensive(name: String) {
        #expect(!PathRule.isExpensive(interfaceName: name))
    }

    @Test func prefixContainsChecksOnlyThePrefixBits() {
        let address = Build.ipv4("10.1.0.2", prefix: 23)
        #expect(address.prefixContains([10, 1, 1, 254]))
        #expect(!address.prefixContains([10, 1, 2, 1]))
        #expect(!address.prefixContains(Build.ipv6Bytes([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1])))
    }
}
