// A pointer for KWin, which offers no wlr-virtual-pointer: KDE's own fake-input protocol
// (org_kde_kwin_fake_input, the one KDE Connect and krdp use), on a connection of its own. KWin
// offers that global only to clients it trusts, so TestPlasma starts KWin with
// KWIN_WAYLAND_NO_PERMISSION_CHECKS. KWin accepts `authenticate` from anyone it lets bind.

import CWayland
import CWaylandTestProtocols
import ProcessTestSupport

/// KWin's fake-input device on the compositor at `socketPath`, there until released.
public final class KWinFakePointer {
    private let display: OpaquePointer
    private var device: OpaquePointer?

    public init(socketPath: String) throws {
        guard let display = wl_display_connect(socketPath) else { throw TestFailure("cannot connect to \(socketPath)") }
        self.display = display
        // Version 3 brings pointer_motion_absolute; the glue knows up to 4.
        device = bindGlobal(on: display, named: "org_kde_kwin_fake_input") { registry, name, version in
            version >= 3 ? OpaquePointer(wl_registry_bind(registry, name, wb_org_kde_kwin_fake_input_interface(), min(version, 4))) : nil
        }
        guard let device else {
            throw TestFailure("KWin offers no org_kde_kwin_fake_input (version 3 or later) to this client")
        }
        org_kde_kwin_fake_input_authenticate(device, "window-banner tests", "clicks the banner")
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("KWin refused the fake-input device") }
    }

    /// Moves the pointer to (`x`, `y`) in the compositor's logical coordinates and clicks the
    /// left button there.
    public func click(x: Int, y: Int) throws {
        guard let device else { throw TestFailure("no fake-input device") }
        let leftButton: UInt32 = 0x110  // BTN_LEFT
        org_kde_kwin_fake_input_pointer_motion_absolute(device, wl_fixed_from_int(Int32(x)), wl_fixed_from_int(Int32(y)))
        // KWin has the pointer over the surface (and told it so) before the press.
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("KWin closed the fake-input connection") }
        org_kde_kwin_fake_input_button(device, leftButton, 1)
        org_kde_kwin_fake_input_button(device, leftButton, 0)
        guard wl_display_roundtrip(display) >= 0 else { throw TestFailure("KWin closed the fake-input connection") }
    }

    deinit {
        if let device { org_kde_kwin_fake_input_destroy(device) }
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
    }
}
