// The tools in the race, each as a user would type it, with what "its window" is and how each
// run is cleared away before the next:
// - window-banner show, warm (its owner already running) and cold (no owner: a fresh
//   XDG_RUNTIME_DIR, and `dismiss --all --quit` after each run), and window-banner run: the
//   override-redirect window of class window-banner (the dock that reserves the space is not it);
// - notify-send → dunst on the private session bus: dunst's override-redirect window (Dunst);
//   and cold, on a second bus that starts dunst for the notification (D-Bus activation);
// - osd_cat -p top: xosd's override-redirect window (WM_NAME XOSD);
// - the floor (bench/floor.c): its override-redirect window (bench-floor).

import Glibc

final class Lineup {
    static let title = "No Internet Connection"
    static let newTitle = "Back Online"
    /// The offline title as an Arabic desktop shows it: joined, right to left, shaped.
    static let arabicTitle = "لا يوجد اتصال بالإنترنت"

    let screen: ScreenLatency
    /// The window-banner executable under test.
    let banner: String
    let floor: String
    private let titleFile: String
    private let coldRuntime: String
    private var dunstID = ""
    private var freshTitles = 0
    var desktop: Desktop { screen.desktop }
    var supervisor: Supervisor { desktop.supervisor }
    var recorder: Recorder { desktop.recorder }

    static let bannerWindow = WindowMatch.overrideRedirect(instance: "window-banner")
    static let dunstWindow = WindowMatch.overrideRedirect(instance: "Dunst")
    static let osdWindow = WindowMatch.overrideRedirect(name: "XOSD")
    static let floorWindow = WindowMatch.overrideRedirect(instance: "bench-floor")
    static let shapedFloorWindow = WindowMatch.overrideRedirect(instance: "bench-floor-shaped")
    /// The floor the cold start is held to (bench/floor-shaped.c): a command that starts a
    /// process which shapes (HarfBuzz, FriBidi), draws (Xft) and stays, linking exactly
    /// `pkg-config --libs` of these — pinned here and in the Makefile, so the floor does not
    /// move when the owner changes what it loads.
    static let shapedFloorLibraries = ["x11", "xft", "xrender", "fontconfig", "freetype2", "harfbuzz", "fribidi"]
    static let shapedFloorName = "C shaped floor (launcher + HarfBuzz, FriBidi, Xft; stays)"

    init(screen: ScreenLatency, banner: String, floor: String) throws {
        self.screen = screen
        self.banner = banner
        self.floor = floor
        titleFile = "\(screen.desktop.work)/title.txt"
        coldRuntime = "\(screen.desktop.work)/runtime-cold"
        try writeFile(titleFile, Self.title + "\n")
    }

    /// `window-banner show` as a script runs it (the tall banner: `--compact never`, like dunst's).
    func showCommand(_ title: String = Lineup.title) -> [String] {
        [banner, "show", "--title", title, "--compact", "never"]
    }

    var warmShow: ScreenTool {
        ScreenTool(name: "window-banner show (warm)", window: Self.bannerWindow, command: showCommand(), clear: { [unowned self] child, appearance in
            try returned(child, "show")
            try screen.run([banner, "dismiss"])
            try screen.waitUntilGone(appearance.window, what: "window-banner dismiss")
        }, follow: 0.4)
    }

    /// `base` with a number no run has used: a title the owner has never shaped or laid out,
    /// so its first frame includes shaping it.
    func freshTitle(_ base: String) -> String {
        freshTitles += 1
        return "\(base) \(freshTitles)"
    }

    /// A warm show of a title never shown before, `base` and a number.
    func warmShowOfNewTitle(_ name: String, _ base: String) -> ScreenTool {
        ScreenTool(
            name: "window-banner show (warm, new \(name) title)", window: Self.bannerWindow, command: showCommand(base + " N"),
            makeCommand: { [unowned self] in showCommand(freshTitle(base)) },
            clear: { [unowned self] child, appearance in
                try returned(child, "show")
                try screen.run([banner, "dismiss"])
                try screen.waitUntilGone(appearance.window, what: "window-banner dismiss")
            })
    }

    var coldShow: ScreenTool {
        var environment = desktop.environment
        environment["XDG_RUNTIME_DIR"] = coldRuntime
        return ScreenTool(
            name: "window-banner show (cold)", window: Self.bannerWindow, command: showCommand(), environment: environment,
            prepare: { [unowned self] in
                try screen.run(["rm", "-rf", coldRuntime])
                try makeDirectory(coldRuntime)
            },
            clear: { [unowned self] child, appearance in
                try returned(child, "show")
                try screen.run([banner, "dismiss", "--all", "--quit"], environment: environment)
                try screen.waitUntilDisconnected(appearance.client, what: "dismiss --all --quit")
            })
    }

    var run: ScreenTool {
        ScreenTool(
            name: "window-banner run", window: Self.bannerWindow,
            command: [banner, "run", "--title", Self.title, "--compact", "never"],
            clear: { [unowned self] child, _ in
                supervisor.stop(child, grace: 5)
            })
    }

    var notifySend: ScreenTool {
        ScreenTool(name: "notify-send → dunst", window: Self.dunstWindow, command: ["notify-send", Self.title], clear: { [unowned self] child, appearance in
            try returned(child, "notify-send")
            try screen.run(["dunstctl", "close-all"])
            try screen.waitUntilGone(appearance.window, unmapIsEnough: true, what: "dunstctl close-all")
        })
    }

    /// dunst (pango: HarfBuzz and FriBidi too) showing the Arabic title.
    var notifySendArabic: ScreenTool {
        ScreenTool(name: "notify-send → dunst (Arabic)", window: Self.dunstWindow, command: ["notify-send", Self.arabicTitle], clear: { [unowned self] child, appearance in
            try returned(child, "notify-send")
            try screen.run(["dunstctl", "close-all"])
            try screen.waitUntilGone(appearance.window, unmapIsEnough: true, what: "dunstctl close-all")
        })
    }

    static let dunstCold = "notify-send → dunst (cold: started by D-Bus activation)"

    /// dunst not running: the notification makes the bus start it, as at a login. Ended after
    /// each run (and its X connection awaited gone), so every run starts it again.
    var notifySendCold: ScreenTool {
        var environment = desktop.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = desktop.activatedDunst?.address
        return ScreenTool(name: Self.dunstCold, window: Self.dunstWindow, command: ["notify-send", Self.title], environment: environment,
                          clear: { [unowned self] child, appearance in
            try returned(child, "notify-send")
            try desktop.activatedDunst?.endServer()
            try screen.waitUntilDisconnected(appearance.client, what: "dunst, ended")
        })
    }

    var osdCat: ScreenTool {
        ScreenTool(
            name: "osd_cat -p top", window: Self.osdWindow,
            command: ["osd_cat", "-p", "top", "-A", "center", "-d", "60", titleFile],
            clear: { [unowned self] child, _ in supervisor.stop(child) })
    }

    var shapedFloorClient: ScreenTool {
        let shaped = floor + "-shaped"
        return ScreenTool(name: Self.shapedFloorName, window: Self.shapedFloorWindow, command: [shaped, Self.title], clear: { [unowned self] child, appearance in
            try returned(child, "floor-shaped")
            // The process it started stays, in a session of its own, as an owner does.
            _ = try? supervisor.run(["pkill", "-f", "\(shaped) --stay"], environment: ["PATH": basePath])
            // Killed, it sends no DestroyWindow: its X connection closing is what shows it gone.
            try screen.waitUntilDisconnected(appearance.client, what: "SIGTERM to the shaped floor's process")
        })
    }

    var floorClient: ScreenTool {
        ScreenTool(name: "C Xlib+Xft floor", window: Self.floorWindow, command: [floor, Self.title], clear: { [unowned self] child, _ in
            supervisor.stop(child)
        })
    }

    /// Every tool of item 1, in the order each round runs them.
    var appearanceTools: [ScreenTool] {
        [warmShow, warmShowOfNewTitle("Latin", Self.title), warmShowOfNewTitle("Arabic", Self.arabicTitle), coldShow, run,
         notifySend, notifySendArabic, notifySendCold, osdCat, floorClient, shapedFloorClient]
    }

    // MARK: Update in place

    var bannerUpdate: UpdateTool {
        UpdateTool(
            name: "window-banner show (update)", window: Self.bannerWindow,
            present: { [unowned self] in
                let window = try presentBanner()
                try quiet(window, "window-banner show")
                return window
            },
            update: { [unowned self] in showCommand(Self.newTitle) },
            clear: { [unowned self] window in
                try screen.run([banner, "dismiss"])
                try screen.waitUntilGone(window, what: "window-banner dismiss")
            },
            follow: 0.35)
    }

    var dunstifyReplace: UpdateTool {
        UpdateTool(
            name: "dunstify -r ID", window: Self.dunstWindow,
            present: { [unowned self] in
                try recorder.mark()
                let child = try supervisor.spawn(["dunstify", "-p", Self.title], environment: desktop.environment, stdout: .pipe)
                let window = try mapped(Self.dunstWindow, "dunstify")
                guard supervisor.waitForExit(child, timeout: 5) == 0, let id = child.lines.first, Int(id) != nil else {
                    throw BenchFailure("dunstify -p printed no notification id")
                }
                dunstID = id
                try drawn(window, "dunstify")
                // dunst draws a new notification several times over a few milliseconds.
                try quiet(window, "dunstify")
                return window
            },
            update: { [unowned self] in ["dunstify", "-r", dunstID, Self.newTitle] },
            clear: { [unowned self] window in
                try screen.run(["dunstctl", "close-all"])
                try screen.waitUntilGone(window, unmapIsEnough: true, what: "dunstctl close-all")
            })
    }

    /// Shows the banner with the warm owner and waits until it has slid all the way down.
    @discardableResult
    func presentBanner(_ arguments: [String] = []) throws -> UInt32 {
        try recorder.mark()
        let log = "\(desktop.work)/show.log"
        let child = try supervisor.spawn(showCommand() + arguments, environment: desktop.environment, stderr: .file(log))
        let window: UInt32
        do { window = try mapped(Self.bannerWindow, "window-banner show") } catch {
            let status = child.exit.map { "exited \($0.status)" } ?? "still running"
            throw BenchFailure("\(error) (the command \(status); it said: \(readFile(log)?.split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""))")
        }
        try returned(child, "show")
        try settled(window)
        return window
    }

    /// The banner is all the way down: the slide is over.
    func settled(_ window: UInt32) throws {
        guard let content = recorder.children(of: window).first, let height = recorder.windows[content]?.height else {
            throw BenchFailure("the banner window has no content window")
        }
        // Down when the banner's window reaches the monitor's top edge (y 0 here) at the full
        // height: as a whole (a move, no size), or as a clip that has grown to it.
        let down = { (record: Record) in
            record.target == window && record.configured(1) == 0 && (record.configured(3) ?? height) == height
        }
        guard recorder.waitForRecord(timeout: 3, where: down) != nil else {
            throw BenchFailure("the banner did not finish sliding in within 3 s")
        }
    }

    /// The first window matching `match` mapped on the root since the last marker.
    func mapped(_ match: WindowMatch, _ what: String) throws -> UInt32 {
        guard let index = screen.firstMap(of: match) else { throw BenchFailure("\(what): no window (\(match.description)) mapped within 10 s") }
        return recorder.records[index].target
    }

    /// Waits for `window`'s first frame since the last marker.
    func drawn(_ window: UInt32, _ what: String) throws {
        let map = recorder.records.firstIndex { $0.kind == .mapnotify && $0.target == window } ?? 0
        guard screen.firstFrame(of: window, mappedAt: map) != nil else { throw BenchFailure("\(what): nothing drawn within 5 s") }
    }

    /// Waits until nothing has been drawn into `window` for `seconds`: the end of a burst of
    /// redraws that announces itself no other way.
    func quiet(_ window: UInt32, _ what: String, seconds: Double = 0.1) throws {
        var seen = recorder.records.count
        for _ in 0..<30 {
            let draw = recorder.waitForRecord(from: seen, timeout: seconds) {
                $0.kind == .draw && recorder.isInside(recorder.drawable(of: $0), window)
            }
            guard let draw else { return }
            seen = draw + 1
        }
        throw BenchFailure("\(what): still drawing after 3 s")
    }

    private func returned(_ child: Child, _ what: String) throws {
        guard let status = supervisor.waitForExit(child, timeout: 5) else {
            supervisor.stop(child)
            throw BenchFailure("\(what) did not return within 5 s")
        }
        guard status == 0 else { throw BenchFailure("\(what) exited \(status)") }
    }
}
