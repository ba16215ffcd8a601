// Decoding rtnetlink datagrams into the model's terms: pure functions from bytes to values,
// no socket in sight. Each datagram holds one or more messages (`nlmsghdr` + a family header +
// `rtattr` attributes); only what reachability needs is kept. Start at `KernelMessage.decode`.

import CNetlink
import Glibc

/// Which table of the kernel a dump request reads.
enum DumpKind: CaseIterable, CustomStringConvertible {
    case links, addresses, routes

    /// `RTM_GETLINK`, `RTM_GETADDR` or `RTM_GETROUTE`.
    var requestType: UInt16 {
        switch self {
        case .links: UInt16(RTM_GETLINK)
        case .addresses: UInt16(RTM_GETADDR)
        case .routes: UInt16(RTM_GETROUTE)
        }
    }

    /// Size of the family header the kernel expects after `nlmsghdr` for this request.
    var familyHeaderSize: Int {
        switch self {
        case .links: MemoryLayout<ifinfomsg>.size
        case .addresses: MemoryLayout<ifaddrmsg>.size
        case .routes: MemoryLayout<rtmsg>.size
        }
    }

    var description: String {
        switch self {
        case .links: "RTM_GETLINK dump"
        case .addresses: "RTM_GETADDR dump"
        case .routes: "RTM_GETROUTE dump"
        }
    }
}

/// One message from the kernel.
struct KernelMessage: Equatable {
    /// `nlmsg_seq`: the number of the request this answers, or of the request (by anyone) that
    /// caused this change notification.
    var sequence: UInt32
    /// `nlmsg_pid`: the port of the socket that sent that request; 0 for the kernel's own.
    var port: UInt32
    /// `NLM_F_DUMP_INTR`: the tables changed while this dump was being read; read it again.
    var isDumpInterrupted: Bool
    var content: Content

    enum Content: Equatable {
        /// `RTM_NEWLINK`: a link appeared or changed.
        case link(NetworkLink)
        /// `RTM_DELLINK`.
        case linkRemoved(index: Int32)
        /// `RTM_NEWADDR`.
        case address(NetworkAddress)
        /// `RTM_DELADDR`.
        case addressRemoved(NetworkAddress)
        /// `RTM_NEWROUTE` of a main-table unicast default route.
        case defaultRoute(DefaultRoute)
        /// `RTM_DELROUTE` of one.
        case defaultRouteRemoved(DefaultRoute)
        /// `NLMSG_DONE`: the end of a dump.
        case dumpDone
        /// `NLMSG_ERROR` (or a failed `NLMSG_DONE`) with a positive errno value.
        case error(Int32)
        /// Anything reachability does not depend on: other routes, bridge port events, acks.
        case ignored
    }

    /// Every message in `datagram`, in order; stops at the first malformed header.
    static func decode(_ datagram: UnsafeRawBufferPointer) -> [KernelMessage] {
        var messages: [KernelMessage] = []
        let headerSize = MemoryLayout<nlmsghdr>.size
        var offset = 0
        while offset + headerSize <= datagram.count {
            let header = datagram.loadUnaligned(fromByteOffset: offset, as: nlmsghdr.self)
            let length = Int(header.nlmsg_len)
            guard length >= headerSize, offset + length <= datagram.count else { break }
            let payloadStart = offset + cnl_nlmsg_hdrlen()
            let payload = UnsafeRawBufferPointer(rebasing: datagram[min(payloadStart, offset + length)..<(offset + length)])
            messages.append(KernelMessage(
                sequence: header.nlmsg_seq,
                port: header.nlmsg_pid,
                isDumpInterrupted: Int32(header.nlmsg_flags) & NLM_F_DUMP_INTR != 0,
                content: decodeContent(type: header.nlmsg_type, payload: payload)
            ))
            offset += cnl_nlmsg_align(length)
        }
        return messages
    }

    private static func decodeContent(type: UInt16, payload: UnsafeRawBufferPointer) -> Content {
        switch Int32(type) {
        case NLMSG_DONE:
            // Since Linux 4.x a dump's DONE carries an int: negative when the dump failed.
            guard payload.count >= 4 else { return .dumpDone }
            let status = payload.loadUnaligned(as: Int32.self)
            return status < 0 ? .error(-status) : .dumpDone
        case NLMSG_ERROR:
            guard payload.count >= 4 else { return .ignored }
            let status = payload.loadUnaligned(as: Int32.self)
            return status < 0 ? .error(-status) : .ignored
        case Int32(RTM_NEWLINK), Int32(RTM_DELLINK):
            return decodeLink(payload, removed: Int32(type) == Int32(RTM_DELLINK))
        case Int32(RTM_NEWADDR), Int32(RTM_DELADDR):
            return decodeAddress(payload, removed: Int32(type) == Int32(RTM_DELADDR))
        case Int32(RTM_NEWROUTE), Int32(RTM_DELROUTE):
            return decodeRoute(payload, removed: Int32(type) == Int32(RTM_DELROUTE))
        default:
            return .ignored
        }
    }

    private static func decodeLink(_ payload: UnsafeRawBufferPointer, removed: Bool) -> Content {
        guard payload.count >= MemoryLayout<ifinfomsg>.size else { return .ignored }
        let info = payload.loadUnaligned(as: ifinfomsg.self)
        // AF_BRIDGE link messages describe bridge ports; RTM_DELLINK among them means "left
        // the bridge", not "gone".
        guard info.ifi_family != UInt8(AF_BRIDGE) else { return .ignored }
        if removed { return .linkRemoved(index: info.ifi_index) }
        var name = ""
        var operationalState = OperationalState.unknown
        forEachAttribute(in: payload, from: cnl_ifinfomsg_attributes_offset()) { type, value in
            switch Int32(type) {
            case Int32(IFLA_IFNAME): name = string(from: value)
            case Int32(IFLA_OPERSTATE):
                if let raw = value.first { operationalState = OperationalState(rawValue: raw) ?? .unknown }
            default: break
            }
        }
        let flags = info.ifi_flags
        return .link(NetworkLink(
            index: info.ifi_index, name: name,
            isUp: flags & UInt32(IFF_UP) != 0,
            isRunning: flags & UInt32(IFF_RUNNING) != 0,
            isLoopback: flags & UInt32(IFF_LOOPBACK) != 0,
            operationalState: operationalState
        ))
    }

    private static func decodeAddress(_ payload: UnsafeRawBufferPointer, removed: Bool) -> Content {
        guard payload.count >= MemoryLayout<ifaddrmsg>.size else { return .ignored }
        let header = payload.loadUnaligned(as: ifaddrmsg.self)
        guard let family = addressFamily(header.ifa_family) else { return .ignored }
        var local: [UInt8]?
        var address: [UInt8]?
        var flags = UInt32(header.ifa_flags)
        forEachAttribute(in: payload, from: cnl_ifaddrmsg_attributes_offset()) { type, value in
            switch Int32(type) {
            case Int32(IFA_LOCAL): local = Array(value)
            case Int32(IFA_ADDRESS): address = Array(value)
            // IFA_FLAGS carries the flags that do not fit ifa_flags' eight bits.
            case Int32(IFA_FLAGS) where value.count >= 4: flags = value.loadUnaligned(as: UInt32.self)
            default: break
            }
        }
        // On point-to-point links IFA_ADDRESS is the peer; IFA_LOCAL is ours when present.
        guard let bytes = local ?? address else { return .ignored }
        let decoded = NetworkAddress(
            interfaceIndex: Int32(bitPattern: header.ifa_index), family: family, bytes: bytes,
            prefixLength: Int(header.ifa_prefixlen), scope: AddressScope(kernelValue: header.ifa_scope),
            isTentative: flags & UInt32(IFA_F_TENTATIVE | IFA_F_DADFAILED) != 0
        )
        return removed ? .addressRemoved(decoded) : .address(decoded)
    }

    private static func decodeRoute(_ payload: UnsafeRawBufferPointer, removed: Bool) -> Content {
        guard payload.count >= MemoryLayout<rtmsg>.size else { return .ignored }
        let header = payload.loadUnaligned(as: rtmsg.self)
        guard let family = addressFamily(header.rtm_family),
              header.rtm_dst_len == 0,
              header.rtm_type == UInt8(RTN_UNICAST),
              header.rtm_flags & UInt32(RTM_F_CLONED) == 0
        else { return .ignored }
        var table = UInt32(header.rtm_table)
        var metric: UInt32 = 0
        var outputInterfaces: [Int32] = []
        var gateway: [UInt8]?
        forEachAttribute(in: payload, from: cnl_rtmsg_attributes_offset()) { type, value in
            switch Int32(type) {
            // RTA_TABLE holds table ids above 255, which rtm_table cannot.
            case Int32(RTA_TABLE.rawValue) where value.count >= 4: table = value.loadUnaligned(as: UInt32.self)
            case Int32(RTA_PRIORITY.rawValue) where value.count >= 4: metric = value.loadUnaligned(as: UInt32.self)
            case Int32(RTA_OIF.rawValue) where value.count >= 4: outputInterfaces.append(value.loadUnaligned(as: Int32.self))
            case Int32(RTA_GATEWAY.rawValue): gateway = Array(value)
            case Int32(RTA_MULTIPATH.rawValue): outputInterfaces += nextHopInterfaces(value)
            default: break
            }
        }
        guard table == UInt32(RT_TABLE_MAIN.rawValue) else { return .ignored }
        let route = DefaultRoute(family: family, metric: metric, outputInterfaces: outputInterfaces, gateway: gateway)
        return removed ? .defaultRouteRemoved(route) : .defaultRoute(route)
    }

    /// The interface of every `rtnexthop` in an `RTA_MULTIPATH` attribute.
    private static func nextHopInterfaces(_ value: UnsafeRawBufferPointer) -> [Int32] {
        var interfaces: [Int32] = []
        var offset = 0
        while offset + MemoryLayout<rtnexthop>.size <= value.count {
            let hop = value.loadUnaligned(fromByteOffset: offset, as: rtnexthop.self)
            guard Int(hop.rtnh_len) >= MemoryLayout<rtnexthop>.size else { break }
            interfaces.append(hop.rtnh_ifindex)
            offset += cnl_rtnh_align(Int(hop.rtnh_len))
        }
        return interfaces
    }

    /// Calls `body` with each attribute's type and value, from `start` bytes into `payload`.
    private static func forEachAttribute(
        in payload: UnsafeRawBufferPointer, from start: Int,
        _ body: (UInt16, UnsafeRawBufferPointer) -> Void
    ) {
        let headerSize = cnl_rta_hdrlen()
        var offset = start
        while offset + headerSize <= payload.count {
            let attribute = payload.loadUnaligned(fromByteOffset: offset, as: rtattr.self)
            let length = Int(attribute.rta_len)
            guard length >= headerSize, offset + length <= payload.count else { return }
            let value = UnsafeRawBufferPointer(rebasing: payload[(offset + headerSize)..<(offset + length)])
            body(cnl_nla_type(attribute.rta_type), value)
            offset += cnl_rta_align(length)
        }
    }

    private static func addressFamily(_ value: UInt8) -> AddressFamily? {
        switch Int32(value) {
        case AF_INET: .ipv4
        case AF_INET6: .ipv6
        default: nil
        }
    }

    /// A NUL-terminated string attribute.
    private static func string(from value: UnsafeRawBufferPointer) -> String {
        let bytes = value.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
