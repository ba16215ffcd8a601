// What the banner's windows are made of. Without a compositing manager the X server shows a
// window's pixels as they are: the screen's default visual, opaque, corners cut with XShape
// (1-bit edges). While a compositing manager owns `_NET_WM_CM_S<screen>`, windows of a 32-bit
// ARGB visual are blended over what lies beneath by their alpha: the banner then gets
// anti-aliased corners and translucent `#RRGGBBAA` backgrounds. The choice is made when a
// presentation starts (one GetSelectionOwner round trip), so a compositor started or stopped
// while a banner shows is picked up by the next one.

import CX11

/// A visual, its colormap and depth, and whether its pixels carry alpha a compositor blends.
struct Surface: Equatable {
    let visual: UnsafeMutablePointer<Visual>
    let colormap: Colormap
    let depth: Int32
    let hasAlpha: Bool

    /// Window attributes and their mask for a window of this surface: a visual other than the
    /// parent's needs its own colormap and a border pixel.
    func windowAttributes(_ attributes: inout XSetWindowAttributes) -> UInt {
        guard hasAlpha else { return 0 }
        attributes.colormap = colormap
        attributes.border_pixel = 0
        return UInt(CWColormap | CWBorderPixel)
    }
}

extension XConnection {
    /// The screen's default visual: opaque.
    var opaqueSurface: Surface {
        Surface(visual: visual, colormap: colormap, depth: depth, hasAlpha: false)
    }

    /// Whether a compositing manager runs on this screen now (it owns `_NET_WM_CM_S<screen>`).
    var compositorRuns: Bool {
        XGetSelectionOwner(display, atom("_NET_WM_CM_S\(screen)")) != Window(None)
    }

    /// The surface a banner presented now is made of: ARGB while a compositor runs (and the
    /// server has a 32-bit TrueColor visual with an alpha channel), else opaque.
    func surfaceForNewBanner() -> Surface {
        guard compositorRuns, let argb = argbSurface else { return opaqueSurface }
        return argb
    }

    /// The server's 32-bit TrueColor visual whose Render format has alpha, with a colormap of
    /// its own (made once); nil when there is none.
    var argbSurface: Surface? {
        if let known = argbSurfaceCache { return known }
        var info = XVisualInfo()
        guard XMatchVisualInfo(display, screen, 32, TrueColor, &info) != 0, let visual = info.visual,
              let format = XRenderFindVisualFormat(display, visual), format.pointee.direct.alphaMask != 0 else { return nil }
        let surface = Surface(visual: visual, colormap: XCreateColormap(display, root, visual, AllocNone), depth: 32, hasAlpha: true)
        argbSurfaceCache = surface
        return surface
    }
}
