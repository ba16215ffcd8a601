// NetworkPath against the real kernel: the probe runs inside a private network namespace, the
// test changes that namespace's network with `ip`, and each assertion is on the status lines
// the probe prints. No mocks and no sleeps: every wait is for a line, with a deadline.
// Needs root (or CAP_SYS_ADMIN + CAP_NET_ADMIN) and the veth driver.

import Glibc
import ProcessTestSupport
import Testing

@Suite(
    "Network path in a namespace", .serialized,
    .needsRoot("creating network namespaces")
)
struct NamespaceTests {
    /// veth0 up with 10.1.0.2/24 and an IPv4 default route via 10.1.0.1.
    func connectIPv4(_ namespace: NetworkNamespace, interface: String = "veth0", peer: String = "peer0", metric: Int? = nil) throws {
        try namespace.addVeth(interface, peer: peer)
        try namespace.ip("addr add 10.1.0.2/24 dev \(interface)")
        try namespace.ip("route add default via 10.1.0.1 dev \(interface)" + (metric.map { " metric \($0)" } ?? ""))
    }

    @Test func loopbackOnlyIsUnsatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let probe = try Probe(in: namespace)
        #expect(probe.initialStatus == "unsatisfied")

        // Loopback up, with a global address and a default route through it: still no path.
        try namespace.ip("link set lo up")
        try namespace.ip("addr add 10.9.9.9/32 dev lo")
        try namespace.ip("route add default dev lo")
        // The next line is the veth's: nothing was printed for the loopback.
        try connectIPv4(namespace, metric: 100)
        #expect(try probe.nextLine() == "satisfied veth0 ipv4")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func vethWithAddressAndDefaultRouteIsSatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let probe = try Probe(in: namespace)
        #expect(probe.initialStatus == "unsatisfied")
        try connectIPv4(namespace)
        #expect(try probe.nextLine() == "satisfied veth0 ipv4")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func alreadyConnectedAtStartIsSatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        #expect(probe.initialStatus == "satisfied veth0 ipv4")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func removingDefaultRouteIsUnsatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        #expect(probe.initialStatus == "satisfied veth0 ipv4")
        try namespace.ip("route del default")
        #expect(try probe.nextLine() == "unsatisfied")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func removingTheAddressIsUnsatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        try namespace.ip("addr del 10.1.0.2/24 dev veth0")
        #expect(try probe.nextLine() == "unsatisfied")
        // The kernel flushed the default route with the address, without a word: putting the
        // address back must not bring the path back. An IPv6 path is the next (and only) line.
        try namespace.ip("addr add 10.1.0.2/24 dev veth0")
        try namespace.ip("-6 addr add 2001:db8:1::2/64 dev veth0 nodad")
        try namespace.ip("-6 route add default via 2001:db8:1::1 dev veth0")
        #expect(try probe.nextLine() == "satisfied veth0 ipv6")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func linkDownIsUnsatisfiedAndUpAgainDoesNotResurrectFlushedRoutes() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        try namespace.ip("link set veth0 down")
        #expect(try probe.nextLine() == "unsatisfied")
        // Taking the link down flushed its IPv4 routes silently; up again, the address is back
        // but the route is not, so only the IPv6 path added next can satisfy.
        try namespace.ip("link set veth0 up")
        try namespace.ip("-6 addr add 2001:db8:1::2/64 dev veth0 nodad")
        try namespace.ip("-6 route add default via 2001:db8:1::1 dev veth0")
        #expect(try probe.nextLine() == "satisfied veth0 ipv6")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func carrierLossIsUnsatisfiedAndCarrierBackRestoresIt() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        // The far end going down takes veth0's carrier (IFF_RUNNING); its routes stay.
        try namespace.ip("link set peer0 down")
        #expect(try probe.nextLine() == "unsatisfied")
        try namespace.ip("link set peer0 up")
        #expect(try probe.nextLine() == "satisfied veth0 ipv4")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func removedLinkIsUnsatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        let probe = try Probe(in: namespace)
        try namespace.ip("link del veth0")
        #expect(try probe.nextLine() == "unsatisfied")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func ipv6OnlyDefaultRouteIsSatisfied() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let probe = try Probe(in: namespace)
        try namespace.addVeth()
        try namespace.ip("-6 addr add 2001:db8:1::2/64 dev veth0 nodad")
        try namespace.ip("-6 route add default via 2001:db8:1::1 dev veth0")
        #expect(try probe.nextLine() == "satisfied veth0 ipv6")
        try namespace.ip("-6 route del default")
        #expect(try probe.nextLine() == "unsatisfied")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    /// 50 separate `ip` runs, each its own kernel event: 24 add/delete pairs of a global IPv6
    /// address, every one flipping the status, then two adds that leave it satisfied; then a
    /// closing change with a status of its own, which marks the end of the burst's output.
    func runBurst(in namespace: NetworkNamespace) throws {
        for index in 0..<24 {
            try namespace.ip("-6 addr add 2001:db8:1::\(index + 10)/64 dev veth0 nodad")
            try namespace.ip("-6 addr del 2001:db8:1::\(index + 10)/64 dev veth0")
        }
        try namespace.ip("-6 addr add 2001:db8:1::100/64 dev veth0 nodad")
        try namespace.ip("-6 addr add 2001:db8:1::101/64 dev veth0 nodad")
        try namespace.ip("addr add 10.1.0.2/24 dev veth0")
        try namespace.ip("route add default via 10.1.0.1 dev veth0")
    }

    /// veth0 up with an IPv6 default route via a link-local gateway, which outlives every
    /// global address coming and going.
    func prepareBurst(_ namespace: NetworkNamespace) throws {
        try namespace.addVeth()
        try namespace.ip("-6 route add default via fe80::1 dev veth0")
    }

    @Test func burstOfFiftyAddressChangesIsDebounced() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try prepareBurst(namespace)
        let probe = try Probe(in: namespace)
        #expect(probe.initialStatus == "unsatisfied")
        try runBurst(in: namespace)
        let lines = try probe.lines(through: "satisfied veth0 ipv4 ipv6")
        // Changes milliseconds apart settle once, 100 ms after the last; a stall of over
        // 100 ms on a busy machine may add a line.
        #expect(lines.count <= 3, "\(lines)")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func sameBurstWithoutDebounceIsOneLinePerChange() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try prepareBurst(namespace)
        let probe = try Probe(in: namespace, arguments: ["--debounce", "0"])
        try runBurst(in: namespace)
        let lines = try probe.lines(through: "satisfied veth0 ipv4 ipv6")
        // The contrast that shows the debounce is what collapses the burst above.
        #expect(lines.count > 10, "\(lines)")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func wwNamedInterfaceIsExpensive() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let probe = try Probe(in: namespace)
        try connectIPv4(namespace, interface: "ww0", peer: "ww0peer")
        #expect(try probe.nextLine() == "satisfied ww0 ipv4 expensive")
        #expect(try probe.stop() == ["# overflows 0"])
    }

    @Test func queueOverflowResyncsFromAFullDump() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        try connectIPv4(namespace)
        // The smallest receive queue the kernel allows, and a probe frozen while 200 changes
        // pour in: the kernel drops messages (ENOBUFS), the route deletion possibly among them.
        let probe = try Probe(in: namespace, arguments: ["--receive-buffer", "1"])
        #expect(probe.initialStatus == "satisfied veth0 ipv4")
        probe.suspend()
        defer { probe.resume() }
        try namespace.ipBatch((1...200).map { "addr add 10.2.\($0).1/32 dev veth0" } + ["route del default"])
        probe.resume()
        #expect(try probe.nextLine() == "unsatisfied")
        let closing = try probe.stop()
        let overflows = closing.last.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(closing.count == 1 && overflows >= 1, "\(closing)")
    }

    @Test func asyncSequenceReportsTheSameChanges() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let probe = try Probe(in: namespace, arguments: ["--async"])
        #expect(probe.initialStatus == "unsatisfied")
        try connectIPv4(namespace)
        #expect(try probe.nextLine() == "satisfied veth0 ipv4")
        try namespace.ip("route del default")
        #expect(try probe.nextLine() == "unsatisfied")
        #expect(try probe.stop() == ["# done"])
    }
}
