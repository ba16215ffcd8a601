// The banner's side of a Wayland compositor: one connection, the globals the banner needs
// (compositor, shm, layer shell; seat, viewporter and fractional scale when offered), the
// outputs as they come and go, and the pointer routed to the layer surface under it. Start
// reading at `init(displayName:)`, then `LayerSurface`.
//
// Everything runs on the thread that made the connection: libwayland calls the listeners below
// from `dispatch()`, which an external poll loop calls when `fileDescriptor` is readable.

import BannerRuntime
import CPixman
import CWayland
import CWaylandProtocols
import Glibc
import MonotonicClock
import Reactor

/// Why the Wayland backend cannot run: each case is a sentence the command line prints as is.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// No compositor answers on the socket (`WAYLAND_DISPLAY`, or the name given).
    case cannotConnect(display: String)
    /// The compositor offers no `zwlr_layer_shell_v1` (GNOME's Mutter, weston, cage): no
    /// surface of ours can reserve space there.
    case noLayerShell
    /// A core global every compositor should offer is missing (`wl_compositor`, `wl_shm`).
    case missingGlobal(String)
    /// The compositor closed the connection, or the protocol failed (errno).
    case connectionLost(errno: Int32)
    /// A shared-memory buffer could not be made (memfd, ftruncate or mmap failed: errno).
    case cannotAllocateBuffer(errno: Int32)
    /// A layer surface was asked for with a height outside 1…`LayerSurface.maximumHeight`.
    case invalidHeight(Int)
    /// A layer surface was asked for on an output that has gone (unplugged since it was listed).
    case outputGone(String)
    /// pixman, which every frame is drawn with, cannot be loaded (why, in the loader's words).
    case noPixman(String)

    public var description: String {
        switch self {
        case .cannotConnect(let display): "cannot connect to the Wayland compositor at \(display)"
        case .noLayerShell: "the Wayland compositor has no layer-shell (zwlr_layer_shell_v1): it cannot show a banner that reserves space"
        case .missingGlobal(let name): "the Wayland compositor offers no \(name)"
        case .connectionLost(let code): "the Wayland connection was lost: \(String(cString: strerror(code)))"
        case .cannotAllocateBuffer(let code): "cannot allocate a shared-memory buffer: \(String(cString: strerror(code)))"
        case .invalidHeight(let height): "invalid banner height \(height): it must be 1 to \(LayerSurface.maximumHeight) pixels"
        case .outputGone(let name): "the output \(name) is gone"
        case .noPixman(let reason): "cannot draw on Wayland without pixman: \(reason)"
        }
    }
}

/// A connection to a Wayland compositor with the globals a banner needs.
public final class WaylandConnection: WatchedConnection {
    /// The `wl_display`.
    let display: OpaquePointer
    private var registry: OpaquePointer?
    private var registryListener: UnsafeMutablePointer<wl_registry_listener>?
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var layerShell: OpaquePointer?
    /// `wp_viewporter`, when offered: with fractional scale, the surface's logical size.
    private(set) var viewporter: OpaquePointer?
    /// `wp_fractional_scale_manager_v1`, when offered: the preferred scale in 120ths.
    private(set) var fractionalScaleManager: OpaquePointer?
    private var seat: Seat?

    /// Whether the compositor offers ext-session-lock: its lockers then hide every other surface
    /// while the session is locked. Without it (sway 1.7) swaylock locks with overlay-layer
    /// surfaces, which an overlay surface made before the lock stays over (docs/wayland.md).
    public private(set) var offersSessionLock = false
    /// The outputs the compositor announced and described, in the order they came.
    public private(set) var outputs: [WaylandOutput] = []
    /// Outputs bound but not yet described completely (their first `done` has not come).
    private var pendingOutputs: [WaylandOutput] = []
    /// Called when an output appears after start-up (those there at start are in `outputs` when
    /// `init` returns), once its name, size and scale are known.
    public var onOutputAdded: ((WaylandOutput) -> Void)?
    /// Called when an output goes away (unplugged, disabled): surfaces on it get `closed` too.
    public var onOutputRemoved: ((WaylandOutput) -> Void)?

    /// The layer surfaces made on this connection, by their `wl_surface`, for pointer events.
    private var surfaces: [OpaquePointer: Weak<LayerSurface>] = [:]

    /// Connects to `displayName` (a socket name in `XDG_RUNTIME_DIR`, or a path), or to
    /// `WAYLAND_DISPLAY` (else `wayland-0`) when nil, and reads its globals and outputs in two
    /// round trips. Throws `.noLayerShell` where the compositor has no layer shell, and
    /// `.noPixman` before connecting where pixman cannot be loaded (it would reserve space it
    /// could never draw in). With `requiringLayerShell` false, a compositor without layer shell
    /// is a connection too: GNOME's, which the GNOME backend holds only to learn when it ends.
    public init(displayName: String? = nil, requiringLayerShell: Bool = true) throws {
        if let reason = cpixman_unavailable() { throw WaylandError.noPixman(String(cString: reason)) }
        let shown = displayName ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        guard let display = wl_display_connect(displayName) else { throw WaylandError.cannotConnect(display: shown) }
        self.display = display
        let registry = wl_display_get_registry(display)
        self.registry = registry
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let data, let interface else { return }
                Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue()
                    .announced(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { data, _, name in
                guard let data else { return }
                Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue().removed(name: name)
            }
        ))
        registryListener = listener
        wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(self).toOpaque())
        // The first round trip brings the globals; the second, the outputs' descriptions.
        try roundtrip()
        try roundtrip()
        guard compositor != nil else { throw WaylandError.missingGlobal("wl_compositor") }
        guard shm != nil else { throw WaylandError.missingGlobal("wl_shm") }
        guard layerShell != nil || !requiringLayerShell else { throw WaylandError.noLayerShell }
    }

    deinit {
        for output in outputs + pendingOutputs { output.release() }
        seat?.release()
        [compositor, shm, layerShell, viewporter, fractionalScaleManager, registry].forEach { proxy in
            if let proxy { wl_proxy_destroy(proxy) }
        }
        registryListener?.deallocate()
        wl_display_disconnect(display)
    }

    /// The connection's socket, for an external poll loop: call `dispatch()` when it is readable,
    /// and `prepareToSleep()` before every sleep.
    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Before the loop sleeps: runs the listeners of events already read (a round trip may have
    /// queued some), then sends the requests made since. Returns the poll(2) events to wait for
    /// on `fileDescriptor`: POLLIN, and POLLOUT while the socket is too full to take them all.
    public func prepareToSleep() throws -> Int16 {
        guard wl_display_dispatch_pending(display) >= 0 else { throw lost() }
        if wl_display_flush(display) < 0 {
            guard errno == EAGAIN else { throw lost() }
            return Int16(POLLIN | POLLOUT)
        }
        return Int16(POLLIN)
    }

    /// When `fileDescriptor` is readable (or writable after `prepareToSleep()` asked so): reads
    /// what arrived without blocking, runs its listeners and sends what they requested. One
    /// thread reads here, so libwayland's prepare/read pair needs no waiting for other readers.
    public func dispatch() throws {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { throw lost() }
        }
        guard wl_display_read_events(display) == 0 else { throw lost() }
        guard wl_display_dispatch_pending(display) >= 0 else { throw lost() }
        if wl_display_flush(display) < 0, errno != EAGAIN { throw lost() }
    }

    /// Sends every request and waits until the compositor has handled them and its answers
    /// have run their listeners: for start-up, not for the loop.
    public func roundtrip() throws {
        guard wl_display_roundtrip(display) >= 0 else { throw lost() }
    }

    /// Serves the connection alone until `condition` holds or `timeout` seconds pass, sleeping
    /// in poll(2) between events; returns whether `condition` held. For start-up and tests:
    /// the owner serves the connection from its own event loop.
    @discardableResult
    public func dispatch(until condition: () -> Bool, timeout: Double) throws -> Bool {
        let deadline = PollWait.deadline(in: timeout)
        while !condition() {
            guard !PollWait.hasPassed(deadline) else { return false }
            if case .ready = PollWait.wait(fd: fileDescriptor, events: try prepareToSleep(), until: deadline) { try dispatch() }
        }
        return true
    }

    private func lost() -> WaylandError {
        let code = wl_display_get_error(display)
        return .connectionLost(errno: code != 0 ? code : errno)
    }

    // MARK: Globals

    private func announced(name: UInt32, interface: String, version: UInt32) {
        func bind(_ wanted: UnsafePointer<wl_interface>?, upTo highest: UInt32) -> OpaquePointer? {
            OpaquePointer(wl_registry_bind(registry, name, wanted, min(version, highest)))
        }
        switch interface {
        case "wl_compositor": compositor = bind(wb_wl_compositor_interface(), upTo: 4)
        case "wl_shm": shm = bind(wb_wl_shm_interface(), upTo: 1)
        case "zwlr_layer_shell_v1": layerShell = bind(wb_zwlr_layer_shell_v1_interface(), upTo: 4)
        case "wp_viewporter": viewporter = bind(wb_wp_viewporter_interface(), upTo: 1)
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager = bind(wb_wp_fractional_scale_manager_v1_interface(), upTo: 1)
        case "wl_seat" where seat == nil:
            if let proxy = bind(wb_wl_seat_interface(), upTo: 5) { seat = Seat(proxy: proxy, connection: self) }
        case "ext_session_lock_manager_v1": offersSessionLock = true
        case "wl_output":
            // Version 4 names the output ("HEADLESS-1", "DP-2"): what --monitor matches.
            guard let proxy = bind(wb_wl_output_interface(), upTo: 4) else { return }
            let output = WaylandOutput(proxy: proxy, registryName: name) { [weak self] output in self?.described(output) }
            pendingOutputs.append(output)
        default: break
        }
    }

    private func described(_ output: WaylandOutput) {
        guard let index = pendingOutputs.firstIndex(where: { $0 === output }) else { return }
        pendingOutputs.remove(at: index)
        outputs.append(output)
        onOutputAdded?(output)
    }

    private func removed(name: UInt32) {
        if let index = pendingOutputs.firstIndex(where: { $0.registryName == name }) {
            pendingOutputs.remove(at: index).release()
        }
        guard let index = outputs.firstIndex(where: { $0.registryName == name }) else { return }
        let output = outputs.remove(at: index)
        onOutputRemoved?(output)
        output.release()
    }

    // MARK: Surfaces and the pointer

    func register(_ surface: LayerSurface, for wlSurface: OpaquePointer) {
        surfaces[wlSurface] = Weak(surface)
    }

    func unregister(_ wlSurface: OpaquePointer) {
        surfaces[wlSurface] = nil
    }

    func layerSurface(for wlSurface: OpaquePointer?) -> LayerSurface? {
        wlSurface.flatMap { surfaces[$0]?.value }
    }
}

/// A weak reference, to keep in a dictionary.
struct Weak<Value: AnyObject> {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
}
