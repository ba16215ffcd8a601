// gnome-frame-order: GNOME's host held to the controller's one frame path in-process, as the
// X11 and Wayland suites hold theirs — run by GnomeFrameOrderTests in a real GNOME session as
// the session's user (the extension serves no other). It connects to the shell named by
// WAYLAND_DISPLAY and the session bus, runs `frameOrderProblems` (EmbeddedTestSupport) on the
// primary monitor's host, and prints each problem on a line: exit 0 when there are none, 1 when
// there are, 2 when GNOME could not be reached.

import BannerCore
import BannerGnomeShell
import BannerWayland
import EmbeddedTestSupport
import Glibc

do {
    let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
    let mutter = try WaylandConnection(displayName: name, requiringLayerShell: false)
    // A 1 s fade: frames land part-way through it however slow the machine.
    let display = try GnomeShellDisplay(compositor: mutter, waylandDisplay: name, timing: BannerTiming(crossFadeDuration: 1))
    defer { display.close() }
    guard let host = display.preferredHost else {
        print("gnome-frame-order: the shell reports no monitor")
        exit(2)
    }
    let problems = try frameOrderProblems(on: host) { condition in display.loop.run(timeout: 20, until: condition) }
    for problem in problems { print(problem) }
    exit(problems.isEmpty ? 0 : 1)
} catch {
    print("gnome-frame-order: \(error)")
    exit(2)
}
