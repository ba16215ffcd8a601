// What one benchmark run measured (Results: every row, by metric and tool) and the small
// helpers the tables share: a shell line for a command, the load average, the time in UTC.
// Report.swift turns it into the table, the targets and the chart.

import Glibc

/// Everything measured in one run.
final class Results {
    let options: Options
    var appearances: [String: [Appearance]] = [:]
    var updates: [String: [Update]] = [:]
    var slides: [AnimationTrace] = []
    var fades: [AnimationTrace] = []
    var idle: [IdleCost] = []
    var memory: [MemoryUse] = []
    var network: [Appearance] = []
    /// What a locked screen costs the banner processes, and unlock → the banner back.
    var lockedScreen: LockedScreen?
    /// New sizes a maximized application was given per show + dismiss, by tool.
    var relayouts: [(tool: String, counts: [Double])] = []
    var startup: [StartupStep] = []
    /// Where a cold show's time goes, step by step.
    var coldSteps: [ColdStep] = []
    /// Section 9, on sway.
    var sway: SwayResults?
    /// Section 11, on GNOME Shell.
    var gnome: [GnomeResults] = []
    /// Section 11's sharing banner on sway from Debian unstable: its sway and the samples, ms.
    var swaySharing: (sway: String, samples: [Double])?
    /// Section 12, calls from PipeWire.
    var calls: CallResults?
    /// Section 13, the administrator's broadcasts.
    var broadcasts: BroadcastResults?
    /// Section 10, the owner's accessibility connection.
    var accessibility: AccessibilityCost?
    var loader: LoaderStatistics?
    /// Sections that failed or were skipped, and why.
    var problems: [String] = []
    var clock = (consistent: 0, markers: 0)
    var date = ""
    var machine: [(String, String)] = []
    /// Tool, command line, and how each run starts and ends.
    var commands: [(tool: String, command: String, note: String)] = []
    var loadBefore = ""
    var loadAfter = ""

    init(options: Options) {
        self.options = options
        date = utcNow()
        loadBefore = loadAverage()
    }

    func describe(desktop: Desktop, lineup: Lineup) {
        let cpu = readFile("/proc/cpuinfo")?.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":").last }.map { String($0.trimmingCharacters) } ?? "unknown CPU"
        var system = utsname()
        uname(&system)
        let kernel = withUnsafePointer(to: system.release) { $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) } }
        let version = { (command: [String]) -> String in
            (try? desktop.supervisor.run(command, environment: desktop.environment))?.first ?? "?"
        }
        machine = [
            ("CPU", "\(cpu), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) online"), ("kernel", "Linux \(kernel)"),
            ("window-banner", version([lineup.banner, "--version"])), ("dunst", version(["dunst", "--version"])),
            ("X server", "Xvfb \(desktop.display) 1280x800x24 + openbox, private to this run"),
        ]
        let show = lineup.showCommand().dropFirst()
        commands = [
            ("window-banner show (warm)", shellLine(["window-banner"] + show), "with the owner running"),
            ("window-banner show (warm, new Latin title)", shellLine(["window-banner", "show", "--title", Lineup.title + " N", "--compact", "never"]),
             "with the owner running; N counts the runs, so every title is one the owner has never shaped or laid out"),
            ("window-banner show (warm, new Arabic title)", shellLine(["window-banner", "show", "--title", Lineup.arabicTitle + " N", "--compact", "never"]),
             "the same with the Arabic offline title: FriBidi, HarfBuzz with Noto Sans Arabic"),
            ("window-banner show (cold)", shellLine(["window-banner"] + show), "no owner: a fresh XDG_RUNTIME_DIR; `dismiss --all --quit` after each run"),
            ("window-banner run", shellLine(["window-banner"] + lineup.run.command.dropFirst()), "SIGTERM after each run"),
            ("notify-send → dunst", shellLine(lineup.notifySend.command),
             "dunst on a private session bus with a generated config: top edge, full width, 80 px, the banner's font and colours, sticky; `dunstctl close-all` after each run"),
            ("notify-send → dunst (Arabic)", shellLine(lineup.notifySendArabic.command), "the same dunst; pango shapes and orders the Arabic title"),
            (Lineup.dunstCold, shellLine(lineup.notifySendCold.command),
             "dunst not running: a second private bus whose service file starts it (the same config) for the notification, as a login's bus does; dunst ended after each run"),
            ("osd_cat -p top", shellLine(Array(lineup.osdCat.command.dropLast()) + ["title.txt"]), "title.txt holds the title; SIGTERM after each run"),
            ("C Xlib+Xft floor", shellLine(["floor", Lineup.title]),
             "bench/floor.c: XOpenDisplay, XftFontOpenName(sans-serif:semibold:size=17), an override-redirect window, map, one line"),
            (Lineup.shapedFloorName, shellLine(["floor-shaped", Lineup.title]),
             "bench/floor-shaped.c, the cold start's floor: a command that starts a process (its own session, as the owner's) which orders the title with FriBidi, "
             + "shapes it with HarfBuzz, draws it with Xft in an override-redirect window and stays; it links `pkg-config --libs "
             + Lineup.shapedFloorLibraries.joined(separator: " ") + "`, pinned"),
            ("update in place", shellLine(["window-banner"] + lineup.showCommand(Lineup.newTitle).dropFirst()),
             "over the settled first banner; vs `dunstify -r ID \"\(Lineup.newTitle)\"` over `dunstify -p`'s notification"),
            ("network path", "ip -n NS route del default via 10.1.0.1 dev veth0",
             "with `window-banner monitor --monitor primary --hide-delay 0.1` running in the namespace NS, against the warm owner"),
        ]
    }
}

extension Results {
    /// Section 9's versions and commands.
    func describe(sway: SwayDesktop, banner: String) {
        let version = { (package: String) -> String in
            (try? sway.supervisor.run(["dpkg-query", "-W", "-f", "${Version}", package], environment: ["PATH": basePath]))?.first ?? "?"
        }
        machine.append(("Wayland (section 9)", "headless sway \(version("sway")) (pixman renderer, \(SwayDesktop.width)x\(SwayDesktop.height) at \(sway.refresh) Hz) "
            + "as uid \(SwayDesktop.user), foot \(version("foot")) maximized, mako \(version("mako-notifier")), private to this run"))
        let show = shellLine(["window-banner", "show", "--title", Lineup.title, "--compact", "never"])
        commands += [
            (SwayBench.warm, show, "WAYLAND_DISPLAY set, owner running; left until foot settles, then `window-banner dismiss`"),
            (SwayBench.cold, show, "no owner: a fresh XDG_RUNTIME_DIR; `dismiss --all --quit` after each run. The session bus (mako's) "
             + "can start xdg-desktop-portal, which the owner asks for the desktop's preferences (started once, in the warm-up)"),
            (SwayBench.coldWithoutBus, show, "as the cold run, without DBUS_SESSION_BUS_ADDRESS: no portal asked; GSettings read through GIO instead"),
            (SwayBench.screenEdge, shellLine(["window-banner", "show", "--title", Lineup.title, "--compact", "never", "--placement", "screen-edge"]),
             "the same owner; the banner at the screen's edge, over the status bars, its own surface reserving its height, instead of under the bars"),
            (SwayBench.mako, shellLine(["notify-send", Lineup.title]),
             "mako on a private session bus with a generated config: top, full width, 80 px, the banner's font and colours, sticky; `makoctl dismiss --all` after each run"),
            (SwayBench.makoCold, shellLine(["notify-send", Lineup.title]),
             "mako not running: a second private bus whose service file starts it (the same config) for the notification, as a login's bus does; mako ended after each run"),
        ]
    }
}

/// One row of the table.
struct Row {
    var metric: String
    var tool: String
    var unit: String
    var samples: [Double]
    /// The row whose median this row's is divided by (same metric), nil for none.
    var reference: String?
    var note = ""
}

struct Target {
    var text: String
    var measured: String
    var met: Bool?
}

func shellLine(_ arguments: [String]) -> String {
    arguments.map { argument in
        argument.contains(where: { " \"'$\\".contains($0) }) ? "\"" + argument.replacingOccurrences("\"", "\\\"") + "\"" : argument
    }.joined(separator: " ")
}

extension String {
    /// Every `target` replaced by `replacement` (Foundation's, without Foundation).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// /proc/loadavg's three averages.
func loadAverage() -> String {
    (readFile("/proc/loadavg")?.split(separator: " ").prefix(3).joined(separator: " ")) ?? "?"
}

/// The time now, as "YYYY-MM-DD HH:MM UTC".
func utcNow() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M UTC", &parts)
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
