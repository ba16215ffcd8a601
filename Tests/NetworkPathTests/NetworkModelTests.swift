// How kernel messages change the model, including what the kernel does without telling:
// IPv4 flushes routes silently when a link goes down or an address goes, so the model asks
// for the routes to be read again.

@testable import NetworkPath
import Testing

@Suite("Network model")
struct NetworkModelTests {
    @Test func newLinkIsAddedAndUpdateKeepsItsName() {
        var model = NetworkModel()
        #expect(model.apply(.link(Build.link(running: false))).changed)
        var update = Build.link()
        update.name = ""
        #expect(model.apply(.link(update)).changed)
        #expect(model.links[2]?.name == "eth0")
        #expect(model.links[2]?.isRunning == true)
        #expect(!model.apply(.link(Build.link())).changed)
    }

    @Test func linkGoingDownMakesRoutesStale() {
        var model = Build.onlineIPv4
        let change = model.apply(.link(Build.link(up: false, running: false, operationalState: .down)))
        #expect(change == NetworkModel.Change(changed: true, routesMayBeStale: true))
        // Losing only the carrier keeps the routes (the kernel marks them linkdown).
        var carrierLost = Build.onlineIPv4
        #expect(!carrierLost.apply(.link(Build.link(running: false, operationalState: .lowerLayerDown))).routesMayBeStale)
    }

    @Test func removedLinkTakesItsAddressesAndRoutes() {
        var model = Build.onlineIPv4
        let change = model.apply(.linkRemoved(index: 2))
        #expect(change.changed && change.routesMayBeStale)
        #expect(model.links.keys.sorted() == [1])
        #expect(model.addresses.isEmpty)
        #expect(model.defaultRoutes.isEmpty)
    }

    @Test func addressUpdateReplacesTheSameAddress() {
        var model = NetworkModel()
        _ = model.apply(.address(Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2], tentative: true)))
        _ = model.apply(.address(Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2])))
        #expect(model.addresses == [Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2])])
    }

    @Test func removingIPv4AddressMakesRoutesStaleButIPv6DoesNot() {
        var model = Build.onlineIPv4
        #expect(model.apply(.addressRemoved(Build.ipv4("192.0.2.10"))) == NetworkModel.Change(changed: true, routesMayBeStale: true))
        #expect(model.addresses.isEmpty)
        var v6 = NetworkModel(addresses: [Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2])])
        #expect(v6.apply(.addressRemoved(Build.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2]))) == NetworkModel.Change(changed: true))
    }

    @Test func routeRemovalMatchesExactlyOrByFamilyMetricAndLinks() {
        var model = NetworkModel(defaultRoutes: [
            DefaultRoute(family: .ipv4, metric: 100, outputInterfaces: [2], gateway: [192, 0, 2, 1]),
            DefaultRoute(family: .ipv4, metric: 200, outputInterfaces: [3], gateway: [198, 51, 100, 1]),
        ])
        _ = model.apply(.defaultRouteRemoved(DefaultRoute(family: .ipv4, metric: 100, outputInterfaces: [2], gateway: [192, 0, 2, 1])))
        #expect(model.defaultRoutes.map(\.metric) == [200])
        _ = model.apply(.defaultRouteRemoved(DefaultRoute(family: .ipv4, metric: 200, outputInterfaces: [3])))
        #expect(model.defaultRoutes.isEmpty)
    }

    @Test func duplicateRouteIsNotAddedTwice() {
        var model = Build.onlineIPv4
        #expect(!model.apply(.defaultRoute(Build.route(.ipv4))).changed)
        #expect(model.defaultRoutes.count == 1)
    }
}
