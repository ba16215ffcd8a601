// The banner's surface on a layer-shell compositor: anchored to the top edge of one output, as
// wide as it, `height` logical pixels tall, with an exclusive zone of that height — the
// compositor's strut — or none, reaching up instead over the zone a `ReservedZone` holds (the
// banner under the status bars). The zone is set once and kept, so other windows move down once
// when it appears and back once when it goes, however the banner animates inside it (changing
// the zone per frame re-lays a terminal out every frame; see docs/wayland.md).
//
// Frames are paced by the compositor: `requestFrame(draw:)` draws at once when the compositor
// is ready for a frame, else when its frame callback says so; nothing wakes the process while
// no frame is asked for.

import BannerCore
import BannerPixman
import CWayland
import CWaylandProtocols
import Glibc

/// A wlr-layer-shell surface along the top edge of an output, drawn into shared memory.
public final class LayerSurface {
    /// The layer-shell layer the surface sits in. The layer also orders the exclusive zones
    /// along the edge: sway 1.7 stacks the overlay layer's nearest the edge, then top's, then
    /// bottom's, and within one layer the newest surface nearest the edge (docs/wayland.md).
    public enum Layer: Sendable {
        /// Above windows, under full-screen ones (`--fullscreen delay`); in the same layer as
        /// waybar's default, so a banner there pushes the bar down on sway 1.7.
        case top
        /// Above everything but the lock screen, full-screen windows included.
        case overlay
        /// Under floating windows but beside tiled ones (its zone keeps them out): the layer
        /// whose zone sway places under a status bar in the top layer.
        case bottom

        var protocolValue: UInt32 {
            switch self {
            case .top: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue
            case .overlay: ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue
            case .bottom: ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM.rawValue
            }
        }
    }

    /// Held strongly: the surface's proxies must be destroyed on a live connection, whichever of
    /// the two its owner lets go of first.
    private let connection: WaylandConnection
    /// The output asked for, or nil to let the compositor choose (its focused output).
    public let output: WaylandOutput?
    /// The surface's height in logical pixels, and its exclusive zone when it reserves its height.
    public private(set) var height: Int
    /// Whether the surface's exclusive zone is its height; if not, it has none (zone 0: the
    /// compositor places it where the other surfaces' zones end, and a `ReservedZone` holds the
    /// space).
    public let reservesItsHeight: Bool
    /// Logical pixels the surface reaches up above where the compositor would place it (a
    /// negative top margin): over the zone a `ReservedZone` holds for it.
    public private(set) var overlap = 0
    /// The tallest surface asked for: no banner is taller than a screen.
    public static let maximumHeight = 4096
    /// The width the compositor gave the surface (the output's logical width), 0 until configured.
    public private(set) var width = 0
    /// Whether the compositor has configured the surface: frames are drawn from then on.
    public private(set) var isConfigured = false
    /// Called once if the compositor takes the surface away (its output went, or the compositor
    /// decided so); the surface shows nothing more and should be destroyed.
    public var onClosed: (() -> Void)?
    /// Called when the last frame no longer fits: the compositor gave the surface a new width
    /// (the output's mode or scale changed), or the surface showed on an output of another
    /// scale. The next frame should be laid out for `pixelWidth` × `pixelHeight`.
    public var onResize: (() -> Void)?
    /// Pointer events over the surface, in buffer pixels.
    public var onPointer: ((PointerEvent) -> Void)?
    /// Called when the compositor's frame callback comes, before the frame waiting for it is
    /// drawn: the frame before is on screen.
    public var onFrameShown: (() -> Void)?

    private let surface: OpaquePointer
    private var layerSurface: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    /// The compositor's preferred scale in 120ths, when it offers fractional scaling.
    private var preferredScale120: UInt32?
    /// The output the surface was last shown on, for its scale when none was asked for.
    private weak var enteredOutput: WaylandOutput?
    /// The frame callback asked for with the last frame, until the compositor answers it.
    private(set) var frameCallback: OpaquePointer?
    private var pendingDraw: ((PixmanCanvas) -> Void)?
    private var buffers: [ShmBuffer] = []
    private let glyphs = GlyphCache()
    /// Whether a frame is being drawn: `requestFrame` from inside `draw` must not draw into the
    /// buffer being drawn.
    private var isDrawing = false
    /// The scale of the last frame drawn, or of the frame `onResize` asked for since.
    private var drawnScale: Double?
    /// The compositor's clock (milliseconds, its own origin) when it last asked for a frame: the
    /// `wl_callback.done` of the frame before. Frames drawn by one callback each are one per
    /// compositor frame, each with a later time.
    public private(set) var lastFrameTime: UInt32?
    /// How many frames were committed: what the tests count to see an idle surface draw nothing.
    private(set) var framesCommitted = 0
    private let listeners: Listeners

    /// The C listener structs libwayland keeps pointers to, for as long as the surface lives.
    private struct Listeners {
        let surface = UnsafeMutablePointer<wl_surface_listener>.allocate(capacity: 1)
        let layerSurface = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
        let frame = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        let fractionalScale = UnsafeMutablePointer<wp_fractional_scale_v1_listener>.allocate(capacity: 1)

        func deallocate() {
            surface.deallocate()
            layerSurface.deallocate()
            frame.deallocate()
            fractionalScale.deallocate()
        }
    }

    /// Makes the surface on `output` (nil: the compositor's choice) in `layer`, anchored
    /// top|left|right, `height` logical pixels tall with an exclusive zone of `height` (or none,
    /// unless `reservesItsHeight`), taking no keyboard input, and commits it without a buffer;
    /// the compositor's configure follows. `namespace` is what the compositor's rules and
    /// `swaymsg` see.
    public init(
        connection: WaylandConnection, output: WaylandOutput?, layer: Layer, height: Int, reservesItsHeight: Bool = true,
        namespace: String = "window-banner"
    ) throws {
        guard (1...Self.maximumHeight).contains(height) else { throw WaylandError.invalidHeight(height) }
        // A gone output's wl_output is destroyed: naming it in a request would be a use after free.
        if let output, output.isGone { throw WaylandError.outputGone(output.name ?? "?") }
        guard let compositor = connection.compositor, let layerShell = connection.layerShell else {
            throw WaylandError.noLayerShell
        }
        self.connection = connection
        self.output = output
        self.height = height
        self.reservesItsHeight = reservesItsHeight
        // libwayland returns no proxy only when it cannot allocate one.
        guard let surface = wl_compositor_create_surface(compositor) else { throw WaylandError.connectionLost(errno: ENOMEM) }
        self.surface = surface
        listeners = Listeners()
        let this = Unmanaged.passUnretained(self).toOpaque()

        var surfaceSlots = wl_surface_listener()
        surfaceSlots.enter = { data, _, output in
            guard let surface = LayerSurface.from(data) else { return }
            surface.enteredOutput = surface.connection.outputs.first { $0.proxy == output }
            surface.redrawIfScaleChanged()
        }
        surfaceSlots.leave = { _, _, _ in }
        listeners.surface.initialize(to: surfaceSlots)
        wl_surface_add_listener(surface, listeners.surface, this)

        if let manager = connection.fractionalScaleManager, let viewporter = connection.viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            listeners.fractionalScale.initialize(to: wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
                guard let surface = LayerSurface.from(data), surface.preferredScale120 != scale else { return }
                surface.preferredScale120 = scale
                if surface.isConfigured { surface.onResize?() }
            }))
            wp_fractional_scale_v1_add_listener(fractionalScale, listeners.fractionalScale, this)
        }

        layerSurface = zwlr_layer_shell_v1_get_layer_surface(layerShell, surface, output?.proxy, layer.protocolValue, namespace)
        listeners.layerSurface.initialize(to: zwlr_layer_surface_v1_listener(
            configure: { data, layerSurface, serial, width, _ in
                zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
                LayerSurface.from(data)?.configured(width: Int(width))
            },
            closed: { data, _ in LayerSurface.from(data)?.onClosed?() }
        ))
        zwlr_layer_surface_v1_add_listener(layerSurface, listeners.layerSurface, this)
        listeners.frame.initialize(to: wl_callback_listener(done: { data, callback, time in
            wl_callback_destroy(callback)
            guard let surface = LayerSurface.from(data) else { return }
            surface.frameCallback = nil
            surface.lastFrameTime = time
            surface.onFrameShown?()
            surface.drawPendingFrame()
        }))

        let edges = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_anchor(layerSurface, edges)
        // Width 0 with both side anchors: as wide as the output.
        zwlr_layer_surface_v1_set_size(layerSurface, 0, UInt32(height))
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, reservesItsHeight ? Int32(height) : 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
        wl_surface_commit(surface)
        connection.register(self, for: surface)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> LayerSurface? {
        data.map { Unmanaged<LayerSurface>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Buffer pixels per logical pixel: the compositor's fractional scale where it offers one
    /// (and a viewport to map it), else the output's integer scale.
    public var scale: Double {
        if viewport != nil, let preferredScale120 { return Double(preferredScale120) / 120 }
        return Double((output ?? enteredOutput)?.scale ?? 1)
    }

    /// The buffer's width in pixels: what a frame is drawn at.
    public var pixelWidth: Int { Int((Double(width) * scale).rounded()) }
    /// The buffer's height in pixels.
    public var pixelHeight: Int { Int((Double(height) * scale).rounded()) }

    /// Draws a frame with `draw` as soon as the compositor is ready for one: now, if the surface
    /// is configured and no frame is in flight; else when the compositor's frame callback comes
    /// (or the configure). A frame asked for while one waits replaces it, so a slow compositor
    /// gets the latest frame, never a queue of stale ones.
    ///
    /// A frame asked for from inside `draw` (the next frame of an animation) waits for the
    /// compositor's frame callback like any other.
    public func requestFrame(draw: @escaping (PixmanCanvas) -> Void) {
        pendingDraw = draw
        if isConfigured, frameCallback == nil, !isDrawing { drawPendingFrame() }
    }

    private func configured(width newWidth: Int) {
        let resized = isConfigured && newWidth != width
        width = newWidth
        if !isConfigured {
            isConfigured = true
            drawPendingFrame()
        } else if resized {
            onResize?()
        } else {
            redrawIfScaleChanged()
        }
    }

    /// Asks for a new frame when the scale differs from the last frame's (a surface placed by the
    /// compositor learns its output, and so its scale, only after its first frame).
    private func redrawIfScaleChanged() {
        guard let drawnScale, drawnScale != scale else { return }
        self.drawnScale = scale
        onResize?()
    }

    private func drawPendingFrame() {
        guard let draw = pendingDraw, isConfigured, layerSurface != nil else { return }
        let bufferWidth = pixelWidth
        let bufferHeight = pixelHeight
        guard bufferWidth > 0, bufferHeight > 0 else { return }
        // Both buffers held by the compositor: the frame is drawn when one is released.
        guard let buffer = freeBuffer(width: bufferWidth, height: bufferHeight) else { return }
        pendingDraw = nil
        isDrawing = true
        draw(PixmanCanvas(image: buffer.image, width: bufferWidth, height: bufferHeight, glyphs: glyphs))
        isDrawing = false
        drawnScale = scale
        // `draw` may have ended the surface (the banner's last frame was drawn).
        guard layerSurface != nil else { return }
        if let viewport {
            wl_surface_set_buffer_scale(surface, 1)
            wp_viewport_set_destination(viewport, Int32(width), Int32(height))
        } else {
            wl_surface_set_buffer_scale(surface, Int32(scale))
        }
        buffer.markBusy()
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(bufferWidth), Int32(bufferHeight))
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, listeners.frame, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
        framesCommitted += 1
    }

    /// A buffer of this size the compositor does not hold: one of the two kept, or a new one.
    /// Buffers of an old size are dropped once the compositor lets go of them.
    private func freeBuffer(width: Int, height: Int) -> ShmBuffer? {
        buffers.removeAll { !$0.isBusy && ($0.width != width || $0.height != height) }
        if let free = buffers.first(where: { !$0.isBusy }) { return free }
        guard buffers.filter({ $0.width == width && $0.height == height }).count < 2,
              let shm = connection.shm,
              let made = try? ShmBuffer(shm: shm, width: width, height: height) else { return nil }
        made.onRelease = { [weak self] in
            guard let self, self.frameCallback == nil else { return }
            self.drawPendingFrame()
        }
        buffers.append(made)
        return made
    }

    /// Makes the surface, and its exclusive zone if it reserves its height, `newHeight` logical
    /// pixels tall, and reaching `newOverlap` pixels up (when given), in one commit: the
    /// compositor re-lays other windows out once, and frames are drawn at the new height from
    /// the next one on. A height outside 1…`maximumHeight` (which `init` refuses), or an overlap
    /// outside 0…`maximumHeight`, leaves the surface as it is.
    public func resize(height newHeight: Int, overlap newOverlap: Int? = nil) {
        let overlapWanted = newOverlap ?? overlap
        guard let layerSurface, newHeight != height || overlapWanted != overlap,
              (1...Self.maximumHeight).contains(newHeight), (0...Self.maximumHeight).contains(overlapWanted) else { return }
        if newHeight != height {
            zwlr_layer_surface_v1_set_size(layerSurface, 0, UInt32(newHeight))
            if reservesItsHeight { zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, Int32(newHeight)) }
        }
        if overlapWanted != overlap { zwlr_layer_surface_v1_set_margin(layerSurface, Int32(-overlapWanted), 0, 0, 0) }
        height = newHeight
        overlap = overlapWanted
        wl_surface_commit(surface)
    }

    /// Takes the surface off the screen and gives back what it holds: the compositor gives the
    /// exclusive zone back and other windows move up. Nothing is drawn after this.
    public func destroy() {
        guard let layerSurface else { return }
        pendingDraw = nil
        onFrameShown = nil
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        fractionalScale = nil
        viewport = nil
        zwlr_layer_surface_v1_destroy(layerSurface)
        self.layerSurface = nil
        connection.unregister(surface)
        wl_surface_destroy(surface)
        buffers.removeAll()
    }

    deinit {
        destroy()
        listeners.deallocate()
    }
}
