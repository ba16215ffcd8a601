// What a client holds on the X server, as the X-Resource extension counts it: the resource
// bases of the clients, and the windows, pixmaps and other resources each holds (XObserver.swift
// is the observer itself).

import CX11
import CXRes
import Glibc
import ProcessTestSupport

// MARK: What a client holds on the server (X-Resource extension)

extension XObserver {
    /// The resource base of the client that created `window` (every id it allocates shares it).
    public func clientBase(of window: Window) -> UInt? {
        clients().first { UInt(window) & ~$0.mask == $0.base }?.base
    }

    /// What the client with resource base `base` holds, by type (`WINDOW`, `PIXMAP`, `PICTURE`,
    /// `GC`, `GLYPHSET`, …); nil when no such client is connected.
    public func resourceCounts(ofClientWithBase base: UInt) -> [String: Int]? {
        guard clients().contains(where: { $0.base == base }) else { return nil }
        var count: Int32 = 0
        var types: UnsafeMutablePointer<XResType>?
        guard XResQueryClientResources(display, XID(base), &count, &types) != 0, let types else { return [:] }
        defer { XFree(types) }
        var result: [String: Int] = [:]
        for index in 0..<Int(count) {
            guard let name = XGetAtomName(display, types[index].resource_type) else { continue }
            result[String(cString: name)] = Int(types[index].count)
            XFree(name)
        }
        return result
    }

    private func clients() -> [(base: UInt, mask: UInt)] {
        var count: Int32 = 0
        var clients: UnsafeMutablePointer<XResClient>?
        guard XResQueryClients(display, &count, &clients) != 0, let clients else { return [] }
        defer { XFree(clients) }
        return (0..<Int(count)).map { (UInt(clients[$0].resource_base), UInt(clients[$0].resource_mask)) }
    }
}

extension XObserver {
    /// The banners on screen (our windows named "window-banner"), left to right.
    public func banners() -> [Rect] {
        windows(named: "window-banner").compactMap(geometry(of:)).sorted { $0.x < $1.x }
    }

    /// The `_NET_WM_STRUT_PARTIAL` of our reservation docks, left to right (by `top_start_x`).
    public func reservationStruts() -> [[Int]] {
        windows(named: "window-banner-reservation")
            .compactMap { cardinals($0, "_NET_WM_STRUT_PARTIAL") }
            .sorted { $0[8] < $1[8] }
    }
}
