// A frame's pixels in memory the compositor reads directly: an anonymous file (memfd) mapped
// here and shared with the compositor as a wl_shm pool holding one ARGB8888 wl_buffer. The
// compositor owns it from `attach` until `release`; a surface keeps two and draws into the free
// one (mako's pool-buffer.c does the same).

import CPixman
import CWayland
import CWaylandProtocols
import Glibc

/// One shared-memory buffer with a pixman image over its pixels.
final class ShmBuffer {
    let width: Int
    let height: Int
    /// The `wl_buffer`.
    let buffer: OpaquePointer
    /// pixman's view of the pixels (premultiplied a8r8g8b8, which is wl_shm's ARGB8888).
    let image: OpaquePointer
    /// Whether the compositor holds it (attached and not yet released).
    private(set) var isBusy = false
    /// Called when the compositor lets go of it.
    var onRelease: (() -> Void)?
    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int
    private let listener: UnsafeMutablePointer<wl_buffer_listener>

    /// The widest and tallest buffer made: what wl_shm's 32-bit sizes and strides can hold,
    /// with room; a compositor asking for more gets no frame rather than a trap.
    static let maximumSide = 32768

    init(shm: OpaquePointer, width: Int, height: Int) throws {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw WaylandError.cannotAllocateBuffer(errno: EINVAL)
        }
        self.width = width
        self.height = height
        let stride = width * 4
        byteCount = stride * height
        let file = wb_memfd_create("window-banner")
        guard file >= 0 else { throw WaylandError.cannotAllocateBuffer(errno: errno) }
        // The pool keeps its own reference to the file; the mapping stays valid after close.
        defer { close(file) }
        guard ftruncate(file, off_t(byteCount)) == 0 else { throw WaylandError.cannotAllocateBuffer(errno: errno) }
        guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0), mapped != MAP_FAILED else {
            throw WaylandError.cannotAllocateBuffer(errno: errno)
        }
        memory = mapped
        let pool = wl_shm_create_pool(shm, file, Int32(byteCount))
        guard let made = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue),
              let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                   mapped.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            wl_shm_pool_destroy(pool)
            munmap(mapped, byteCount)
            throw WaylandError.cannotAllocateBuffer(errno: ENOMEM)
        }
        // The buffer keeps the pool's memory alive; the pool object itself is not needed again.
        wl_shm_pool_destroy(pool)
        buffer = made
        self.image = image
        listener = .allocate(capacity: 1)
        listener.initialize(to: wl_buffer_listener(release: { data, _ in
            guard let data else { return }
            let buffer = Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue()
            buffer.isBusy = false
            buffer.onRelease?()
        }))
        wl_buffer_add_listener(made, listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Marks it as handed to the compositor (just before `wl_surface.attach`).
    func markBusy() { isBusy = true }

    deinit {
        pixman_image_unref(image)
        wl_buffer_destroy(buffer)
        munmap(memory, byteCount)
        listener.deallocate()
    }
}
