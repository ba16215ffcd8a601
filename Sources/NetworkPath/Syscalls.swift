// Every system call NetworkPath makes, in one narrow layer (the shape of swift-system's
// Syscalls.swift): each wrapper names the C call it makes, retries EINTR where a retry is right,
// and turns errno into a thrown `PathMonitorError`. Nothing outside this file imports Glibc's
// I/O; the rest of the module is decoding, bookkeeping and decisions.

import CNetlink
import Glibc
import MonotonicClock

/// A failed system call or a request the kernel refused, with its errno value.
public struct PathMonitorError: Error, Hashable, CustomStringConvertible {
    /// What failed: a system call (`bind`) or a netlink request (`RTM_GETLINK dump`).
    public var operation: String
    /// The errno value (`ENOBUFS`, `EPERM`, …).
    public var code: Int32

    /// An error of `operation` with errno value `code`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `operation: strerror(code)`, e.g. `bind: Operation not permitted`.
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

enum Syscalls {
    /// The calling thread's `errno` as the error of `operation`.
    private static func failure(_ operation: String) -> PathMonitorError {
        PathMonitorError(operation: operation, code: errno)
    }

    /// `socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE)`. Non-blocking,
    /// so a reader drains what is queued and goes back to poll(2) instead of sleeping in recv.
    static func openRouteNetlinkSocket() throws(PathMonitorError) -> Int32 {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(AF_NETLINK, type, NETLINK_ROUTE)
        guard descriptor >= 0 else { throw failure("socket") }
        return descriptor
    }

    /// `setsockopt(descriptor, SOL_SOCKET, option, &value, sizeof(int))`.
    static func setSocketOption(_ descriptor: Int32, _ option: Int32, _ value: Int32, name: String) throws(PathMonitorError) {
        var value = value
        guard setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw failure("setsockopt(\(name))")
        }
    }

    /// `bind(descriptor, {AF_NETLINK, pid 0, groups})`: the kernel picks our port id, and every
    /// message of the multicast `groups` is queued on this socket from now on.
    static func bindNetlink(_ descriptor: Int32, groups: UInt32) throws(PathMonitorError) {
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = groups
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
            }
        }
        guard result == 0 else { throw failure("bind") }
    }

    /// `getsockname(descriptor)`: the port id the kernel gave this netlink socket at bind, which
    /// the replies to our own requests carry in `nlmsg_pid`.
    static func netlinkPortID(_ descriptor: Int32) throws(PathMonitorError) -> UInt32 {
        var address = sockaddr_nl()
        var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw failure("getsockname") }
        return address.nl_pid
    }

    /// `sendto(descriptor, bytes, …, {AF_NETLINK, pid 0})`: a request to the kernel.
    static func sendToKernel(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(PathMonitorError) {
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        while true {
            let sent = withUnsafePointer(to: &kernel) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                }
            }
            if sent >= 0 { return }
            if errno != EINTR { throw failure("sendto") }
        }
    }

    /// What one `recvfrom(2)` got.
    enum Datagram {
        /// `length` bytes from the netlink port `sender` (0 is the kernel); `length` is the
        /// datagram's full size, larger than the buffer when it was truncated (`MSG_TRUNC`).
        case received(length: Int, sender: UInt32)
        /// Nothing queued (`EAGAIN`).
        case nothingQueued
        /// The kernel dropped messages because the receive queue was full (`ENOBUFS`).
        case overflowed
    }

    /// `recvfrom(descriptor, buffer, …, MSG_TRUNC, &sender)`.
    static func receiveDatagram(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(PathMonitorError) -> Datagram {
        while true {
            var sender = sockaddr_nl()
            var senderLength = socklen_t(MemoryLayout<sockaddr_nl>.size)
            let length = withUnsafeMutablePointer(to: &sender) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &senderLength)
                }
            }
            if length >= 0 { return .received(length: length, sender: sender.nl_pid) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .nothingQueued
            case ENOBUFS: return .overflowed
            default: throw failure("recvfrom")
            }
        }
    }

    /// `poll(descriptors, count, timeout)`: which of `descriptors` are readable (or hung up).
    /// A negative timeout waits without limit; an interrupted wait reports nothing ready.
    static func waitForInput(_ descriptors: [Int32], timeoutMilliseconds: Int32) throws(PathMonitorError) -> [Bool] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        if result < 0 {
            if errno == EINTR { return descriptors.map { _ in false } }
            throw failure("poll")
        }
        return entries.map { $0.revents != 0 }
    }

    /// `close(descriptor)`. Errors are ignored: the descriptor is gone either way.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// `pipe(ends)`, then `fcntl(F_SETFD, FD_CLOEXEC)` and `fcntl(F_SETFL, O_NONBLOCK)` on both
    /// ends (Glibc's Swift module has no `pipe2`): not inherited by children, and a full pipe
    /// never blocks its writer.
    static func makePipe() throws(PathMonitorError) -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw failure("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// `write(descriptor, "!", 1)`. A full pipe already wakes its reader, so failure is harmless.
    static func writeWakeByte(_ descriptor: Int32) {
        var byte: UInt8 = 0x21
        _ = write(descriptor, &byte, 1)
    }

    /// `pthread_create` + `pthread_detach`: runs `body` on a new thread of its own, which ends
    /// when `body` returns.
    static func startDetachedThread(_ body: sending @escaping () -> Void) throws(PathMonitorError) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw PathMonitorError(operation: "pthread_create", code: result)
        }
        pthread_detach(thread)
    }

    /// Carries a thread's closure through pthread_create's `void *` argument.
    private final class ThreadBody {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
