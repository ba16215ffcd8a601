// One private desktop and an observer on it, for running the real `window-banner` the way a
// script would and looking at what the user sees: the work area the window manager
// publishes and the banner's windows. Waiting is woken by X events or by the process ending.

import Foundation
import Glibc
import ProcessTestSupport
import X11TestSupport

final class Fixture {
    let desktop: TestDesktop
    let observer: XObserver
    /// `_NET_WORKAREA` before any banner, one rectangle per desktop.
    let originalWorkAreas: [Rect]

    /// A 1280×800 openbox desktop; `setup` runs before the WM starts (`xrandr --setmonitor …`).
    init(setup: [[String]] = [], windowManager: TestDesktop.WindowManager = .openbox) throws {
        desktop = try TestDesktop(windowManager: windowManager, setup: setup)
        observer = try XObserver(displayName: desktop.displayName)
        originalWorkAreas = observer.workAreas()
    }

    deinit {
        observer.close()
        desktop.stop()
    }

    /// How the child's environment differs from the desktop's.
    enum Display: Sendable {
        /// `DISPLAY` names this desktop.
        case desktop
        /// No `DISPLAY` at all.
        case unset
        /// `DISPLAY` names another display.
        case named(String)
    }

    /// Added to every child's environment (`XDG_RUNTIME_DIR`, `XDG_CONFIG_HOME`, …).
    var extraEnvironment: [String: String] = [:]

    func environment(_ display: Display) -> [String: String] {
        var environment = desktop.environment.merging(extraEnvironment) { $1 }
        switch display {
        case .desktop: break
        case .unset:
            environment["DISPLAY"] = nil
            // Nor a session to find in its place (docs/scripts.md): not the machine's own
            // desktop through its runtime directory or logind.
            if environment["XDG_RUNTIME_DIR"] == nil { environment["XDG_RUNTIME_DIR"] = (environment["HOME"] ?? "/tmp") + "/no-runtime-directory" }
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/no-system-bus-here"
        case .named(let name): environment["DISPLAY"] = name
        }
        return environment
    }

    /// Starts `window-banner` with `arguments`.
    func launch(_ arguments: [String], display: Display = .desktop) throws -> Subprocess {
        try Subprocess(executable: windowBannerExecutable(), arguments: arguments, environment: environment(display))
    }

    /// Starts `window-banner` with arguments given as raw bytes (invalid UTF-8 included).
    func launch(rawArguments: [[UInt8]]) throws -> Subprocess {
        try Subprocess(executable: windowBannerExecutable(), rawArguments: rawArguments, environment: environment(.desktop))
    }

    /// The original work areas with `height` px taken off the top of each.
    func workAreas(shrunkBy height: Int) -> [Rect] {
        originalWorkAreas.map { Rect(x: $0.x, y: $0.y + height, width: $0.width, height: $0.height - height) }
    }

    /// Where the banner window is, if there is one.
    var bannerGeometry: Rect? {
        observer.windows(named: "window-banner").first.flatMap(observer.geometry(of:))
    }

    /// Waits until the window manager reserves exactly `height` px at the top of every desktop.
    @discardableResult
    func waitForReservation(height: Int = 80) -> Bool {
        observer.wait { observer.workAreas() == workAreas(shrunkBy: height) }
    }

    /// Waits until the banner is fully in: reserved `height` px and its window at the top, full width.
    func waitForBanner(height: Int = 80) -> Bool {
        observer.wait {
            observer.workAreas() == workAreas(shrunkBy: height)
                && bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: height)
        }
    }

    /// Waits until the work area is exactly the original and no banner window is left.
    func waitForRestoredDesktop() -> Bool {
        observer.wait {
            observer.workAreas() == originalWorkAreas
                && observer.windows(named: "window-banner").isEmpty
                && observer.windows(named: "window-banner-reservation").isEmpty
        }
    }

    /// Forgets the windows mapped so far, to ask later whether any appeared.
    func startRecordingMaps() {
        observer.clearRecords()
    }

    /// Top-level windows mapped since `startRecordingMaps()`, up to every request the server
    /// has handled (a property read is a round trip, so no earlier event is still in flight).
    func mappedWindows() -> [UInt] {
        _ = observer.workAreas()
        observer.drainEvents()
        return observer.maps
    }
}

/// The process id a test's command writes to `marker` (`echo $$ > marker`), in its own time:
/// nothing announces the write, so the file is looked at every 10 ms, for at most 10 s; 0 when
/// none came.
func awaitPID(writtenTo marker: String) -> pid_t {
    func written() -> pid_t {
        pid_t((try? String(contentsOfFile: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }
    let deadline = monotonicSeconds() + 10
    while written() <= 0, monotonicSeconds() < deadline { poll(nil, 0, 10) }
    return written()
}
