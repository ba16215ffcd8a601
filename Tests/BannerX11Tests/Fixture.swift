// One private desktop, an observer on it, and the X11Display under test, all served by the
// display's own event loop so waiting is woken by X events, not by sleeping.

import BannerCore
@testable import BannerX11
import CX11
import Testing
import X11TestSupport

/// Every suite of this module nests in here and runs one test at a time: Xft keeps
/// process-wide state without locks, so two in-process banner displays must never draw at once.
@Suite(.serialized)
struct BannerX11Tests {}

final class Fixture {
    let desktop: TestDesktop
    let observer: XObserver
    let display: X11Display

    init(_ windowManager: TestDesktop.WindowManager = .openbox, width: Int = 1280, height: Int = 800,
         setup: [[String]] = [], timing: BannerTiming = .standard, before: (XObserver) -> Void = { _ in }) throws {
        desktop = try TestDesktop(windowManager: windowManager, width: width, height: height, setup: setup)
        observer = try XObserver(displayName: desktop.displayName)
        before(observer)
        display = try X11Display(name: desktop.displayName, timing: timing)
        display.loop.watch(fd: observer.fileDescriptor) { [observer] in observer.drainEvents() }
    }

    deinit {
        display.close()
        observer.close()
        desktop.stop()
    }

    var host: X11Host { display.primaryHost }

    /// Serves the banner's loop until `condition` holds (false after `timeout` seconds).
    @discardableResult
    func run(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        display.loop.run(timeout: timeout) {
            observer.drainEvents()
            guard condition() else { return false }
            // The condition's own round trips may have queued events: record them too.
            observer.drainEvents()
            return true
        }
    }

    /// Serves the loop until the banner's process has caught up with the server
    /// (`X11Display.runUntilQuiet`), then records what the observer has been sent by then:
    /// anything the test is about to assert did not happen would have happened by now.
    /// False when the process never quiets (a raise war).
    @discardableResult
    func settle() -> Bool {
        let quiet = display.runUntilQuiet()
        observer.sync()
        observer.drainEvents()
        return quiet
    }

    /// The visible banner's rectangle as the server has it.
    var bannerGeometry: Rect? {
        observer.windows(named: "window-banner").first.flatMap(observer.geometry(of:))
    }

    /// The full-height banner inside the visible clip window (nil before the first frame),
    /// its moves recorded in `observer.configures` from now on.
    func watchBannerContent() -> Window? {
        guard let content = observer.children(of: Window(host.bannerWindowID)).first else { return nil }
        observer.watchStructure(of: content)
        return content
    }

    /// `areas` with `height` px taken off the top of each.
    static func shrunk(_ areas: [Rect], by height: Int) -> [Rect] {
        areas.map { Rect(x: $0.x, y: $0.y + height, width: $0.width, height: $0.height - height) }
    }

    /// Whether `client` is maximized in `area`: filling it once the WM's frame is accounted for.
    func fills(_ client: Window, _ area: Rect) -> Bool {
        guard let expected = observer.maximizedGeometry(of: client, in: area) else { return false }
        return observer.geometry(of: client) == expected
    }

    /// Maps an ordinary client, has the WM maximize it, and serves the loop until it fills
    /// `workArea`; nil if it never does.
    func mapMaximizedClient(filling workArea: Rect) -> Window? {
        let client = observer.mapClientWindow(maximized: true)
        guard run(until: { observer.cardinals(client, "_NET_FRAME_EXTENTS") != nil }) else { return nil }
        observer.requestMaximize(client)
        return run { fills(client, workArea) } ? client : nil
    }

    /// Presents and serves the loop until the slide-in finished and the WM applied the strut.
    func presentAndSettle(height: Int, _ config: @escaping (inout TopBannerConfigBuilder) -> Void) throws -> Bool {
        let before = observer.workAreas()
        try host.presentTopBanner(config: config)
        return run {
            host.phase == .presented && (before.isEmpty || observer.workAreas() == Fixture.shrunk(before, by: height))
        } && waitUntilBannerIsOnTop()
    }

    /// Serves the loop until the server shows the banner of `host` (the primary one by default)
    /// as last drawn, for a screenshot: every request of its frames carried out (the loop only
    /// flushes them), and the banner above its dock, which the window manager maps — over the
    /// banner, perhaps — in its own time, the banner going back on top once it hears of it.
    func waitUntilBannerIsOnTop(of host: X11Host? = nil) -> Bool {
        display.connection.sync()
        let banner = Window((host ?? self.host).bannerWindowID)
        return run {
            let stack = observer.children(of: observer.root)
            let docks = observer.windows(named: "window-banner-reservation")
            guard let bannerIndex = stack.firstIndex(of: banner), !docks.isEmpty else { return false }
            return docks.allSatisfy { dock in
                observer.isViewable(dock) && stack.firstIndex(of: observer.topLevel(of: dock)).map { $0 < bannerIndex } == true
            }
        }
    }
}

