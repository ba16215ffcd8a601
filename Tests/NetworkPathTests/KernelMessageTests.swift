// Decoding rtnetlink datagrams built byte by byte, as the kernel lays them out on x86-64 and
// arm64 (little-endian): what is kept, what is ignored, and that garbage never crashes.

@testable import NetworkPath
import Testing

/// The rtnetlink numbers these tests use, from <linux/rtnetlink.h> and <linux/netlink.h>.
private enum Kernel {
    static let done: UInt16 = 3, error: UInt16 = 2
    static let newLink: UInt16 = 16, delLink: UInt16 = 17
    static let newAddress: UInt16 = 20, delAddress: UInt16 = 21
    static let newRoute: UInt16 = 24, delRoute: UInt16 = 25
    static let inet: UInt8 = 2, inet6: UInt8 = 10, bridge: UInt8 = 7
    static let flagUp: UInt32 = 0x1, flagLoopback: UInt32 = 0x8, flagRunning: UInt32 = 0x40
    static let mainTable: UInt8 = 254, localTable: UInt8 = 255
    static let unicast: UInt8 = 1, unreachable: UInt8 = 7
    static let dumpInterrupted: UInt16 = 0x10
}

/// Little-endian bytes of an integer.
private func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// One netlink message: header, family header, attributes (each padded to 4 bytes).
private func message(_ type: UInt16, sequence: UInt32 = 0, port: UInt32 = 0, flags: UInt16 = 0,
                     header: [UInt8], attributes: [(UInt16, [UInt8])] = []) -> [UInt8] {
    var body = header
    for (type, value) in attributes {
        body += bytes(UInt16(4 + value.count)) + bytes(type) + value
        body += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
    }
    return bytes(UInt32(16 + body.count)) + bytes(type) + bytes(flags) + bytes(sequence) + bytes(port) + body
}

private func linkHeader(family: UInt8 = 0, index: Int32, flags: UInt32) -> [UInt8] {
    [family, 0] + bytes(UInt16(1)) + bytes(index) + bytes(flags) + bytes(UInt32(0))
}

private func addressHeader(family: UInt8, prefix: UInt8, flags: UInt8 = 0, scope: UInt8 = 0, index: UInt32) -> [UInt8] {
    [family, prefix, flags, scope] + bytes(index)
}

private func routeHeader(family: UInt8, destinationLength: UInt8 = 0, table: UInt8 = Kernel.mainTable,
                         type: UInt8 = Kernel.unicast) -> [UInt8] {
    [family, destinationLength, 0, 0, table, 3, 0, type] + bytes(UInt32(0))
}

private func decode(_ datagram: [UInt8]) -> [KernelMessage] {
    datagram.withUnsafeBytes { KernelMessage.decode($0) }
}

@Suite("Kernel messages")
struct KernelMessageTests {
    @Test func linkCarriesNameFlagsAndOperationalState() {
        let datagram = message(Kernel.newLink, header: linkHeader(index: 4, flags: Kernel.flagUp | Kernel.flagRunning),
                               attributes: [(3, Array("wwan0".utf8) + [0]), (16, [6])])
        #expect(decode(datagram).map(\.content) == [
            .link(NetworkLink(index: 4, name: "wwan0", isUp: true, isRunning: true, operationalState: .up)),
        ])
    }

    @Test func loopbackFlagIsKept() {
        let datagram = message(Kernel.newLink, header: linkHeader(index: 1, flags: Kernel.flagUp | Kernel.flagLoopback | Kernel.flagRunning),
                               attributes: [(3, Array("lo".utf8) + [0])])
        #expect(decode(datagram).first?.content == .link(Build.loopback))
    }

    @Test func bridgePortEventsAreNotLinkRemovals() {
        let datagram = message(Kernel.delLink, header: linkHeader(family: Kernel.bridge, index: 4, flags: 0))
        #expect(decode(datagram).map(\.content) == [.ignored])
        #expect(decode(message(Kernel.delLink, header: linkHeader(index: 4, flags: 0))).map(\.content) == [.linkRemoved(index: 4)])
    }

    @Test func addressPrefersLocalOverPeerAndReadsExtendedFlags() {
        let datagram = message(Kernel.newAddress, header: addressHeader(family: Kernel.inet, prefix: 32, index: 5),
                               attributes: [(1, [10, 0, 0, 1]), (2, [10, 0, 0, 2]), (8, bytes(UInt32(0x40)))])
        let expected = NetworkAddress(interfaceIndex: 5, family: .ipv4, bytes: [10, 0, 0, 2], prefixLength: 32, isTentative: true)
        #expect(decode(datagram).map(\.content) == [.address(expected)])
    }

    @Test func removedIPv6AddressKeepsItsScope() {
        let address = Build.ipv6Bytes([0xfe80, 0, 0, 0, 0, 0, 0, 1])
        let datagram = message(Kernel.delAddress, header: addressHeader(family: Kernel.inet6, prefix: 64, scope: 253, index: 2),
                               attributes: [(1, address)])
        #expect(decode(datagram).map(\.content) == [.addressRemoved(Build.ipv6([0xfe80, 0, 0, 0, 0, 0, 0, 1], scope: .link))])
    }

    @Test func onlyMainTableUnicastDefaultRoutesAreKept() {
        let oif2 = (UInt16(4), bytes(Int32(2)))
        let datagram =
            message(Kernel.newRoute, header: routeHeader(family: Kernel.inet), attributes: [(6, bytes(UInt32(100))), oif2, (5, [192, 0, 2, 1])])
            + message(Kernel.newRoute, header: routeHeader(family: Kernel.inet, destinationLength: 24), attributes: [oif2])
            + message(Kernel.newRoute, header: routeHeader(family: Kernel.inet, table: Kernel.localTable), attributes: [oif2])
            + message(Kernel.newRoute, header: routeHeader(family: Kernel.inet6, type: Kernel.unreachable), attributes: [oif2])
            + message(Kernel.delRoute, header: routeHeader(family: Kernel.inet6, table: 0), attributes: [(15, bytes(UInt32(254))), oif2])
        #expect(decode(datagram).map(\.content) == [
            .defaultRoute(DefaultRoute(family: .ipv4, metric: 100, outputInterfaces: [2], gateway: [192, 0, 2, 1])),
            .ignored, .ignored, .ignored,
            .defaultRouteRemoved(DefaultRoute(family: .ipv6, outputInterfaces: [2])),
        ])
    }

    @Test func multipathRouteListsEveryNextHop() {
        // struct rtnexthop: len u16, flags u8, hops u8, ifindex i32 (no nested attributes here).
        let hops = bytes(UInt16(8)) + [0, 0] + bytes(Int32(2)) + bytes(UInt16(8)) + [0, 0] + bytes(Int32(3))
        let datagram = message(Kernel.newRoute, header: routeHeader(family: Kernel.inet), attributes: [(9, hops)])
        #expect(decode(datagram).map(\.content) == [.defaultRoute(DefaultRoute(family: .ipv4, outputInterfaces: [2, 3]))])
    }

    @Test func dumpRepliesCarrySequencePortAndInterruption() {
        let datagram = message(Kernel.done, sequence: 7, port: 4242, flags: Kernel.dumpInterrupted, header: bytes(Int32(0)))
        #expect(decode(datagram) == [KernelMessage(sequence: 7, port: 4242, isDumpInterrupted: true, content: .dumpDone)])
    }

    @Test func errorsCarryPositiveErrno() {
        let busy = message(Kernel.error, sequence: 9, header: bytes(Int32(-16)) + [UInt8](repeating: 0, count: 16))
        let failedDump = message(Kernel.done, sequence: 9, header: bytes(Int32(-105)))
        let acknowledgement = message(Kernel.error, sequence: 9, header: bytes(Int32(0)) + [UInt8](repeating: 0, count: 16))
        #expect(decode(busy + failedDump + acknowledgement).map(\.content) == [.error(16), .error(105), .ignored])
    }

    @Test func truncatedDatagramsNeverCrash() {
        let whole = message(Kernel.newLink, header: linkHeader(index: 4, flags: Kernel.flagUp), attributes: [(3, Array("eth0".utf8) + [0])])
            + message(Kernel.newAddress, header: addressHeader(family: Kernel.inet, prefix: 24, index: 4), attributes: [(2, [10, 0, 0, 2])])
        for length in 0...whole.count {
            let decoded = decode(Array(whole.prefix(length)))
            #expect(decoded.count <= 2)
        }
        #expect(decode(whole).count == 2)
    }
}
