// The space a banner under the status bars reserves, held by a surface of its own: a transparent
// layer surface one pixel tall in the background layer, anchored top|left|right, whose
// exclusive zone is the banner's height. The banner itself is a top-layer surface with no zone,
// reaching up over this one's zone by a negative top margin (`LayerSurface.resize(height:overlap:)`).
//
// Why two surfaces: compositors arrange the exclusive zones of an edge layer by layer — overlay,
// top, bottom, background — and place surfaces without a zone after all of them, so a zone in
// the background layer is the last along the edge, under every status bar (waybar in the top
// layer, swaybar in the bottom one), and the banner drawn over it is in the top layer, above the
// windows — on screen with its first frame, not after the windows under it have redrawn lower
// down (a banner in the bottom layer is covered by them until then: docs/wayland.md).

import CWayland
import CWaylandProtocols
import Glibc

/// A transparent background-layer surface whose exclusive zone moves other windows down.
public final class ReservedZone {
    /// Held strongly: the proxies must be destroyed on a live connection.
    private let connection: WaylandConnection
    /// The zone's height in logical pixels.
    public private(set) var height: Int
    /// Called once if the compositor takes the surface away (its output went).
    public var onClosed: (() -> Void)?

    private let surface: OpaquePointer
    private var layerSurface: OpaquePointer?
    /// The one transparent row shown, made at the first configure.
    private var buffer: ShmBuffer?
    private let listener = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)

    /// Reserves `height` logical pixels along the top of `output` (nil: the compositor's
    /// choice), under every other zone of that edge, in one commit.
    public init(connection: WaylandConnection, output: WaylandOutput?, height: Int) throws {
        guard (1...LayerSurface.maximumHeight).contains(height) else { throw WaylandError.invalidHeight(height) }
        if let output, output.isGone { throw WaylandError.outputGone(output.name ?? "?") }
        guard let compositor = connection.compositor, let layerShell = connection.layerShell else { throw WaylandError.noLayerShell }
        guard let surface = wl_compositor_create_surface(compositor) else { throw WaylandError.connectionLost(errno: ENOMEM) }
        self.connection = connection
        self.height = height
        self.surface = surface
        // Nothing of it takes the pointer: it is one transparent row under everything.
        if let empty = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, empty)
            wl_region_destroy(empty)
        }
        layerSurface = zwlr_layer_shell_v1_get_layer_surface(
            layerShell, surface, output?.proxy, ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue, "window-banner-zone")
        listener.initialize(to: zwlr_layer_surface_v1_listener(
            configure: { data, layerSurface, serial, width, _ in
                zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
                ReservedZone.from(data)?.configured(width: Int(width))
            },
            closed: { data, _ in ReservedZone.from(data)?.onClosed?() }
        ))
        zwlr_layer_surface_v1_add_listener(layerSurface, listener, Unmanaged.passUnretained(self).toOpaque())
        zwlr_layer_surface_v1_set_anchor(
            layerSurface,
            ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue)
        zwlr_layer_surface_v1_set_size(layerSurface, 0, 1)
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, Int32(height))
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
        wl_surface_commit(surface)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> ReservedZone? {
        data.map { Unmanaged<ReservedZone>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The first configure maps the surface with one transparent row as wide as it was given (a
    /// fresh memfd is zeros: ARGB 0, transparent); later ones change nothing it shows.
    private func configured(width: Int) {
        guard buffer == nil, layerSurface != nil, let shm = connection.shm,
              let made = try? ShmBuffer(shm: shm, width: max(width, 1), height: 1) else { return }
        buffer = made
        made.markBusy()
        wl_surface_attach(surface, made.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(made.width), 1)
        wl_surface_commit(surface)
    }

    /// Reserves `newHeight` logical pixels instead, in one commit (1…`LayerSurface.maximumHeight`;
    /// another height leaves the zone as it is).
    public func resize(height newHeight: Int) {
        guard let layerSurface, newHeight != height, (1...LayerSurface.maximumHeight).contains(newHeight) else { return }
        height = newHeight
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, Int32(newHeight))
        wl_surface_commit(surface)
    }

    /// Gives the space back: the compositor moves other windows up.
    public func destroy() {
        guard let layerSurface else { return }
        zwlr_layer_surface_v1_destroy(layerSurface)
        self.layerSurface = nil
        wl_surface_destroy(surface)
        buffer = nil
    }

    deinit {
        destroy()
        listener.deallocate()
    }
}
