// One output (monitor) as the compositor describes it with wl_output: its name, what the user
// reads in settings, its current mode in pixels and its integer scale. Values arrive as a batch
// ended by `done`; the connection announces an output only after its first one.

import CWayland
import CWaylandProtocols

/// An output of the compositor: what `--monitor NAME` names, and where a banner can go.
public final class WaylandOutput {
    /// The `wl_output`.
    let proxy: OpaquePointer
    /// Its name in the registry, which `global_remove` names when it goes.
    let registryName: UInt32
    private let listener: UnsafeMutablePointer<wl_output_listener>
    private var onFirstDone: ((WaylandOutput) -> Void)?

    /// The compositor's name for it (`HEADLESS-1`, `DP-2`; wl_output version 4), or nil from an
    /// older compositor.
    public private(set) var name: String?
    /// A human-readable description (make, model, connector), when the compositor gives one.
    public private(set) var description: String?
    /// The current mode's width in physical pixels.
    public private(set) var pixelWidth = 0
    /// The current mode's height in physical pixels.
    public private(set) var pixelHeight = 0
    /// The integer scale clients should draw at (`wl_output.scale`): a buffer of N logical
    /// pixels holds N × scale pixels.
    public private(set) var scale = 1
    /// Called after every later batch of changes (a new mode, a new scale).
    public var onChange: ((WaylandOutput) -> Void)?

    init(proxy: OpaquePointer, registryName: UInt32, onFirstDone: @escaping (WaylandOutput) -> Void) {
        self.proxy = proxy
        self.registryName = registryName
        self.onFirstDone = onFirstDone
        listener = .allocate(capacity: 1)
        var slots = wl_output_listener()
        slots.geometry = { _, _, _, _, _, _, _, _, _, _ in }
        slots.mode = { data, _, flags, width, height, _ in
            guard let output = WaylandOutput.from(data), flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
            output.pixelWidth = Int(width)
            output.pixelHeight = Int(height)
        }
        slots.done = { data, _ in
            guard let output = WaylandOutput.from(data) else { return }
            if let first = output.onFirstDone {
                output.onFirstDone = nil
                first(output)
            } else {
                output.onChange?(output)
            }
        }
        slots.scale = { data, _, factor in WaylandOutput.from(data)?.scale = max(1, Int(factor)) }
        slots.name = { data, _, name in WaylandOutput.from(data)?.name = name.map { String(cString: $0) } }
        slots.description = { data, _, text in WaylandOutput.from(data)?.description = text.map { String(cString: $0) } }
        listener.initialize(to: slots)
        wl_output_add_listener(proxy, listener, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> WaylandOutput? {
        data.map { Unmanaged<WaylandOutput>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Whether the output went away (or the connection closed): no surface can be put on it.
    public private(set) var isGone = false

    /// Lets go of the `wl_output` (release from version 3 on, else destroy).
    func release() {
        guard !isGone else { return }
        isGone = true
        if wl_proxy_get_version(proxy) >= 3 { wl_output_release(proxy) } else { wl_proxy_destroy(proxy) }
        listener.deallocate()
    }
}
