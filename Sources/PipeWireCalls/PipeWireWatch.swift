// The call watcher's connection to PipeWire (through CPipeWire): a source the event loop serves
// (`EventLoop.serve`), and the graph it keeps up to date from what PipeWire reports, telling
// `onChange` after each batch. When PipeWire goes away, `process` throws `.lost` and the loop
// stops serving it; the caller makes a new one later: nothing is carried over, so the state
// after a restart is derived afresh. Start reading at `init()`.

import CPipeWire
import Glibc
import MonotonicClock
import Reactor

/// Why PipeWire cannot be watched.
public enum PipeWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libpipewire cannot be loaded: the loader's reason.
    case unavailable(String)
    /// No PipeWire daemon answers (yet).
    case notRunning(String)
    /// The connection is lost.
    case lost

    public var description: String {
        switch self {
        case .unavailable(let reason): "cannot load libpipewire: \(reason)"
        case .notRunning(let reason): "PipeWire does not answer: \(reason)"
        case .lost: "lost the connection to PipeWire"
        }
    }
}

/// One connection to PipeWire and the graph heard on it.
public final class PipeWireWatch: LoopSource {
    public private(set) var graph = CallGraph()
    /// Runs after each batch of what PipeWire reported, the graph up to date.
    public var onChange: (() -> Void)?
    /// True once everything there was at connection time has been heard.
    public private(set) var isSynced = false
    private let connection: OpaquePointer

    /// Whether libpipewire can be loaded: nil when it can, else why not.
    public static var unavailableReason: String? { wbpw_unavailable().map { String(cString: $0) } }

    /// Connects to `remote` (a socket's name or path; nil: `PIPEWIRE_REMOTE`, else `pipewire-0`
    /// in the runtime directory).
    public init(remote: String? = nil) throws(PipeWireError) {
        if let reason = Self.unavailableReason { throw .unavailable(reason) }
        var error: Int32 = 0
        guard let made = wbpw_connect(remote, &error) else { throw .notRunning(String(cString: strerror(-error))) }
        connection = made
    }

    deinit { wbpw_disconnect(connection) }

    /// The descriptor to poll for reading.
    public var fileDescriptor: Int32 { wbpw_fd(connection) }

    public var descriptors: [PollDescriptor] { [PollDescriptor(fd: fileDescriptor, events: Int16(POLLIN))] }
    /// PipeWire's own timers run on its side: the watch only reads.
    public var deadline: MonotonicTime? { nil }

    /// Handles what PipeWire sent and tells `onChange`; throws `.lost` when the connection is gone.
    public func process(ready: [PollDescriptor]) throws {
        try dispatch()
        onChange?()
    }

    /// Handles what PipeWire sent; the graph is up to date after. Throws `.lost` when the
    /// connection is gone.
    public func dispatch() throws(PipeWireError) {
        if wbpw_dispatch(connection) < 0 { throw .lost }
        var events = [wbpw_event](repeating: wbpw_event(), count: 64)
        while true {
            let count = Int(events.withUnsafeMutableBufferPointer { wbpw_take_events(connection, $0.baseAddress, Int32($0.count)) })
            for event in events.prefix(count) { apply(event) }
            if count < events.count { break }
        }
        if wbpw_lost(connection) != 0 { throw .lost }
    }

    private func apply(_ event: wbpw_event) {
        switch Int32(event.kind) {
        case Int32(WBPW_NODE.rawValue):
            graph.update(node: event.id, Self.node(event))
        case Int32(WBPW_CLIENT.rawValue):
            var copy = event
            graph.update(client: event.id, GraphClient(
                pid: event.pid, applicationName: Self.text(&copy.application_name), binary: event.pid > 0 ? Self.binary(of: event.pid) : "",
                appID: Self.text(&copy.app_id), access: Self.text(&copy.access)))
        case Int32(WBPW_LINK.rawValue):
            graph.link(event.id, from: event.output_node, to: event.input_node)
        case Int32(WBPW_REMOVED.rawValue):
            graph.remove(event.id)
        case Int32(WBPW_SYNCED.rawValue):
            isSynced = true
        default:
            return
        }
    }

    /// The node a `WBPW_NODE` event describes.
    static func node(_ event: wbpw_event) -> GraphNode {
        var copy = event
        return GraphNode(
            mediaClass: text(&copy.media_class), state: NodeState(rawValue: event.state) ?? .error,
            applicationName: text(&copy.application_name), binary: text(&copy.binary), appID: text(&copy.app_id),
            pid: event.pid, clientID: event.client == UInt32.max ? nil : event.client, mediaName: text(&copy.media_name), nodeName: text(&copy.node_name),
            isMonitor: event.monitor != 0, isPassive: event.passive != 0, isVirtual: event.is_virtual != 0, isDevice: event.is_device != 0)
    }

    /// The node PipeWire would be heard to describe with `properties` (as it sends them: a key
    /// and any bytes as its value, or none; a NUL ends a value, as in C): the shim's reading
    /// and this one, without a daemon.
    public static func node(describedBy properties: [(key: String, value: [UInt8]?)]) -> GraphNode {
        func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        var storage = properties.flatMap { [cString(Array($0.key.utf8)), $0.value.flatMap(cString)] }
        defer { for pointer in storage { pointer?.deallocate() } }
        var event = wbpw_event()
        storage.withUnsafeMutableBufferPointer { pairs in
            pairs.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: pairs.count) {
                wbpw_describe($0, Int32(properties.count), &event)
            }
        }
        return node(event)
    }

    /// The name of process `pid`'s program (`/proc/PID/comm`, at most 15 bytes); empty when
    /// it cannot be read.
    static func binary(of pid: Int32) -> String {
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        let bytes = buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A fixed C text field as a String (it is always NUL-terminated; invalid UTF-8 repaired).
    private static func text<Field>(_ field: inout Field) -> String {
        withUnsafeBytes(of: &field) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
