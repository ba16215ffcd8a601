// The rtnetlink socket: opened and subscribed once, owns its descriptor and its receive buffer,
// sends dump requests and hands back decoded messages. The monitor decides what to do with them.

import CNetlink

/// One `NETLINK_ROUTE` socket subscribed to link, IPv4/IPv6 address and IPv4/IPv6 route changes.
final class NetlinkSocket {
    /// The multicast groups: `RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR |
    /// RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE`.
    static let groups = UInt32(RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)

    /// Large enough for any datagram the kernel sends (dump replies fill at most 32 KiB).
    private static let bufferSize = 64 * 1024

    let descriptor: Int32
    /// Our port id: replies to our dump requests carry it in `nlmsg_pid`; change notifications
    /// carry the port of whoever caused the change (0 for the kernel itself).
    let portID: UInt32
    private var buffer: [UInt8]

    /// Opens the socket, asks for a receive queue of `receiveBufferSize` bytes and subscribes.
    init(receiveBufferSize: Int) throws(PathMonitorError) {
        descriptor = try Syscalls.openRouteNetlinkSocket()
        buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        do {
            let size = Int32(clamping: receiveBufferSize)
            // SO_RCVBUFFORCE passes rmem_max when we may (CAP_NET_ADMIN); a large queue is what
            // keeps a burst of changes from overflowing it. Without the capability, take what
            // SO_RCVBUF gives: an overflow costs a resync, not correctness.
            do {
                try Syscalls.setSocketOption(descriptor, SO_RCVBUFFORCE, size, name: "SO_RCVBUFFORCE")
            } catch {
                try Syscalls.setSocketOption(descriptor, SO_RCVBUF, size, name: "SO_RCVBUF")
            }
            try Syscalls.bindNetlink(descriptor, groups: Self.groups)
            portID = try Syscalls.netlinkPortID(descriptor)
        } catch {
            Syscalls.closeDescriptor(descriptor)
            throw error
        }
    }

    deinit {
        Syscalls.closeDescriptor(descriptor)
    }

    /// Asks the kernel for every entry of `kind`; the replies carry `sequence`.
    func requestDump(_ kind: DumpKind, sequence: UInt32) throws(PathMonitorError) {
        var request = cnl_dump_request()
        request.header.nlmsg_len = UInt32(cnl_nlmsg_length(kind.familyHeaderSize))
        request.header.nlmsg_type = kind.requestType
        request.header.nlmsg_flags = UInt16(NLM_F_REQUEST | NLM_F_DUMP)
        request.header.nlmsg_seq = sequence
        let length = Int(request.header.nlmsg_len)
        try withUnsafeBytes(of: &request) { bytes in
            Result { () throws(PathMonitorError) in
                try Syscalls.sendToKernel(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<length]))
            }
        }.get()
    }

    /// What one read of the socket found.
    enum Reception {
        case messages([KernelMessage])
        /// Nothing is queued.
        case nothingPending
        /// Messages were lost (`ENOBUFS`, or a datagram larger than the buffer): only a full
        /// dump can tell what the tables hold now.
        case overflow
    }

    /// Reads one datagram without blocking.
    func receive() throws(PathMonitorError) -> Reception {
        let datagram = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(PathMonitorError) in try Syscalls.receiveDatagram(descriptor, into: bytes) }
        }
        switch try datagram.get() {
        case .nothingQueued:
            return .nothingPending
        case .overflowed:
            return .overflow
        case .received(let length, _) where length > buffer.count:
            return .overflow
        case .received(_, let sender) where sender != 0:
            // Only the kernel speaks for the kernel: any process may send to our port.
            return .messages([])
        case .received(let length, _):
            return .messages(buffer.withUnsafeBytes { KernelMessage.decode(UnsafeRawBufferPointer(rebasing: $0[..<length])) })
        }
    }

    /// Waits up to `timeoutMilliseconds` for something to read; false on timeout.
    func waitUntilReadable(timeoutMilliseconds: Int32) throws(PathMonitorError) -> Bool {
        try Syscalls.waitForInput([descriptor], timeoutMilliseconds: timeoutMilliseconds)[0]
    }
}
