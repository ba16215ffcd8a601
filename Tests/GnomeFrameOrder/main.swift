// gnome-frame-order: GNOME's host held to the controller's one frame path in-process, as the
// X11 and Wayland suites hold theirs — run by GnomeFrameOrderTests in a real GNOME session as
// the session's user (the extension serves no other). It connects to the shell named by
// WAYLAND_DISPLAY and the session bus, runs `frameOrderProblems` (EmbeddedTestSupport) on the
// primary monitor's host, and prints each problem on a line: exit 0 when there are none, 1 when
// there are, 2 when GNOME could not be reached.

import BannerCore
import BannerGnomeShell
import BannerRuntime
import BannerWayland
import EmbeddedTestSupport
import Glibc
import MonotonicClock

/// The shell runs a slide itself (Clutter's easing): once the host has handed it over, its
/// next frame is the slide's end, so the owner sleeps through it — on the loop's deadlines, not
/// by counting frames.
func wakeupsDuringTheShellsSlide(on host: GnomeShellHost, serve: (() -> Bool) throws -> Bool) throws -> [String] {
    var frames: [RenderedFrame] = []
    // frameOrderProblems' listener is gone: none of its callbacks may be called again.
    host.onMilestone = nil
    host.onDismiss = nil
    host.onFrame = { frames.append($0) }
    defer { host.onFrame = nil }
    try host.presentTopBanner(try TopBannerConfigBuilder().title("Sharing your screen").height(40).build())
    // The first frame hands the slide over, wherever the loop's first turn finds it.
    guard try serve({ !frames.isEmpty }) else { return ["the slide was never handed to the shell"] }
    guard let slide = host.controller.runningSlide else { return [] }
    var problems: [String] = []
    if let due = host.frameDeadline, due < slide.end {
        problems.append("the owner wakes \(slide.end - due) s before the end of the slide the shell runs")
    }
    guard try serve({ !host.isAnimating }) else { return problems + ["the slide never ended"] }
    if frames.count > 2 { problems.append("\(frames.count) frames went to the shell for one slide, not at most 2 (its start and its end)") }
    host.dismissTopBanner()
    _ = try serve({ !host.isAnimating })
    return problems
}

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
    let serve = { (condition: () -> Bool) in display.loop.run(timeout: 20, until: condition) }
    var problems = try frameOrderProblems(on: host, serve: serve)
    problems += try wakeupsDuringTheShellsSlide(on: host, serve: serve)
    for problem in problems { print(problem) }
    exit(problems.isEmpty ? 0 : 1)
} catch {
    print("gnome-frame-order: \(error)")
    exit(2)
}
