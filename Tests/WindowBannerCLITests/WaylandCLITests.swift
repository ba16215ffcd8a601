// The command line in a Wayland session, on Debian's headless sway: `window-banner show` with
// WAYLAND_DISPLAY set starts an owner on the compositor (never an Xwayland window a compositor
// would tile, even with DISPLAY set too), the banner reserves its height above a real terminal
// (foot), `status --json` reports it on the output by name, and `dismiss` gives the space back.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Wayland command line", .serialized, .needsProgram("/usr/bin/sway", package: "sway"), .needsProgram("/usr/bin/foot", package: "foot"))
struct WaylandCLITests {
    /// A sway with foot, and the environment of a script in that session.
    final class Session {
        let sway: TestSway
        let script: WaylandScript
        var runtimeDirectory: String { script.runtimeDirectory }
        var environment: [String: String] { script.environment }

        /// A new headless sway with a full-screen foot, or `nested` as it is.
        init(nested: TestSway? = nil) throws {
            if let nested {
                sway = nested
            } else {
                sway = try TestSway()
                _ = try sway.startFoot()
                try sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
            }
            // An X display that does not exist: in a Wayland session it must not be used.
            script = try WaylandScript(socketPath: sway.socketPath, extra: ["DISPLAY": ":93"])
        }

        deinit {
            // The owner is not our child (it outlives the `show` that started it).
            for pid in owners() { kill(pid, SIGKILL) }
        }

        func run(_ arguments: [String], timeout: Double = 20) throws -> (status: Int32?, output: String, error: String) {
            try script.run(arguments, timeout: timeout)
        }

        /// Owner processes serving this sway.
        func owners() -> [pid_t] { WaylandCLITests.owners(on: sway.socketPath) }
    }

    /// Owner processes serving the compositor at `socket` (their command lines name it).
    static func owners(on socket: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.count > 2 && arguments[1] == "daemon" && arguments.contains(socket) ? pid : nil
        }
    }

    @Test func showReservesTheBannerOnTheCompositorAndDismissGivesItBack() throws {
        let session = try Session()
        let shown = try session.run(["show", "--title", "No Internet Connection", "--style", "offline"])
        #expect(shown.status == 0, "show: \(shown.error)")
        let moved = try session.sway.awaitWindowRect(appID: "foot") { $0.y > 0 }
        let status = try session.run(["status", "--json"])
        #expect(status.status == 0, "status: \(status.error)")
        let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        let monitors = report?["monitors"] as? [[String: Any]] ?? []
        let output = try #require(monitors.first, "\(status.output)")
        #expect(output["monitor"] as? String == "HEADLESS-1")
        #expect(output["title"] as? String == "No Internet Connection")
        let reserved = try #require(output["reserved"] as? Int)
        #expect(moved == SwayRect(x: 0, y: reserved, width: 1280, height: 720 - reserved))
        // No X11 window anywhere: sway's tree has foot alone.
        #expect(try session.sway.swaymsg(["-t", "get_tree"]).contains("\"app_id\": \"foot\""))
        #expect(!(try session.sway.swaymsg(["-t", "get_tree"]).contains("\"shell\": \"xwayland\"")))

        let dismissed = try session.run(["dismiss"])
        #expect(dismissed.status == 0, "dismiss: \(dismissed.error)")
        try session.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
    }

    /// `monitor --calls` on the Wayland backend: a real PipeWire's caller brings the call banner,
    /// its space taken from foot (sway's tree says so), and the call's end gives it back.
    @Test(.needsProgram("/usr/bin/pipewire", package: "pipewire-bin"), .needsProgram("/usr/bin/wireplumber", package: "wireplumber"),
          .needsProgram("/usr/bin/pipewire-pulse", package: "pipewire-pulse"), .needsProgram("/usr/bin/pactl", package: "pulseaudio-utils"))
    func theCallBannerFromPipeWireTakesItsSpaceAndGivesItBackWhenTheCallEnds() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let session = try Session()
        let monitor = try MonitorProcess(try Subprocess(
            executable: windowBannerExecutable(), arguments: ["monitor", "--calls", "--no-network"],
            environment: session.environment.merging(["PIPEWIRE_REMOTE": pipewire.runtimeDirectory + "/pipewire-0"]) { $1 }))
        #expect(monitor.source == "calls from PipeWire")
        let caller = try pipewire.startCaller("Zoom")
        #expect(try monitor.nextEvent() == "call banner shown (Zoom)")
        let moved = try session.sway.awaitWindowRect(appID: "foot") { $0.y > 0 }
        let status = try session.run(["status", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        let output = try #require((report?["monitors"] as? [[String: Any]])?.first, "\(status.output)")
        #expect(output["title"] as? String == "Call in progress" && output["subtitle"] as? String == "Zoom")
        #expect(output["id"] as? String == "window-banner-calls")
        #expect(moved == SwayRect(x: 0, y: try #require(output["reserved"] as? Int), width: 1280, height: 720 - moved.y))

        caller.killGroup()
        _ = caller.waitForExit(timeout: 5)
        #expect(try monitor.nextEvent() == "call banner hidden")
        try session.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
        #expect(monitor.terminate().status == 0)
    }

    @Test(.needsProgram("/usr/bin/cage", package: "cage"))
    func aCompositorWithoutLayerShellIsRefusedInOneLine() throws {
        let cage = try TestCage()
        var template = Array("/tmp/wb-wayland-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let runtime = String(cString: made)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
        let process = try Subprocess(
            executable: windowBannerExecutable(), arguments: ["show", "--title", "Call in progress"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": cage.socketPath])
        process.closeStandardInput()
        #expect(process.waitForExit(timeout: 20) == 69)
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(process.standardError)")
        #expect(process.standardError.contains("no layer-shell"), "\(process.standardError)")
    }

    /// The banner sits under a real status bar (waybar, 30 px, green, in its default top layer)
    /// by default, and over it at the screen's edge with `--placement screen-edge`.
    @Test(.needsProgram("/usr/bin/waybar", package: "waybar"), arguments: [false, true])
    func theBannerSitsUnderWaybarUnlessAskedForTheEdge(atEdge: Bool) throws {
        let session = try Session()
        try TestSway.write(#"{"layer": "top", "position": "top", "height": 30, "modules-left": [], "modules-center": [], "modules-right": []}"#,
                           to: session.sway.directory + "/waybar.json")
        try TestSway.write("window#waybar { background: #00ff00; }", to: session.sway.directory + "/waybar.css")
        _ = try session.sway.startClient(["waybar", "-c", session.sway.directory + "/waybar.json", "-s", session.sway.directory + "/waybar.css"])
        try session.sway.awaitWindowRect(appID: "foot", timeout: 20) { $0.y == 30 }
        let shown = try session.run(["show", "--title", "Call in progress", "--background", "#cc3311", "--height", "30", "--compact", "never"]
                                    + (atEdge ? ["--placement", "screen-edge"] : []))
        #expect(shown.status == 0, "show: \(shown.error)")
        try session.sway.awaitWindowRect(appID: "foot") { $0.y > 30 }
        let bannerRow = atEdge ? 2 : 32
        let barRow = atEdge ? 42 : 2
        let shot = try session.sway.awaitScreenshot { $0.pixel(4, bannerRow) == 0xCC3311 }
        #expect(shot.pixel(4, bannerRow) == 0xCC3311)
        #expect(shot.pixel(4, barRow) == 0x00FF00)
    }

    /// A locked session shows nothing of ours: swaylock (sway 1.7 has no ext-session-lock, so it
    /// locks with overlay-layer surfaces) covers a banner shown before the lock, wherever it sits.
    @Test(.needsProgram("/usr/bin/swaylock", package: "swaylock"), arguments: [false, true])
    func swaylockCoversTheBanner(atEdge: Bool) throws {
        let session = try Session()
        let shown = try session.run(["show", "--title", "Backup running", "--background", "#cc3311", "--height", "40", "--compact", "never"]
                                    + (atEdge ? ["--placement", "screen-edge"] : []))
        #expect(shown.status == 0, "show: \(shown.error)")
        let unlocked = try session.sway.awaitScreenshot { $0.pixel(4, 10) == 0xCC3311 }
        try #require(unlocked.pixel(4, 10) == 0xCC3311, "the banner never showed")
        _ = try session.sway.startClient(["swaylock", "--color", "000000"])
        let locked = try session.sway.awaitScreenshot { $0.pixel(640, 400) == 0x000000 }
        #expect(locked.pixel(640, 400) == 0x000000, "swaylock never covered the desktop")
        #expect(locked.pixel(4, 10) == 0x000000)
        #expect(locked.pixel(640, 20) == 0x000000)
    }

    /// `run` draws the banner itself on the compositor for as long as its command runs, and
    /// exits with the command's status once the banner and its space are gone.
    @Test func runShowsTheBannerWhileItsCommandRuns() throws {
        let session = try Session()
        let run = try Subprocess(
            executable: windowBannerExecutable(),
            arguments: ["run", "--title", "Backup running", "--", "/bin/sh", "-c", "read line; exit 3"], environment: session.environment)
        let moved = try session.sway.awaitWindowRect(appID: "foot") { $0.y > 0 }
        #expect(moved.y > 0)
        run.closeStandardInput()
        #expect(run.waitForExit(timeout: 20) == 3, "\(run.standardError)")
        try session.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
    }

    /// The compositor dying ends `run` as losing the X server does: exit 69 with one line, and
    /// its command does not outlive it; an owner ends too and takes its socket with it.
    @Test func losingTheCompositorEndsRunItsCommandAndTheOwnerWithSixtyNine() throws {
        let session = try Session()
        let marker = session.runtimeDirectory + "/command.pid"
        let run = try Subprocess(
            executable: windowBannerExecutable(),
            arguments: ["run", "--title", "Working", "--", "/bin/sh", "-c", "echo $$ > \(marker); exec sleep 600"],
            environment: session.environment)
        #expect(try session.sway.awaitWindowRect(appID: "foot") { $0.y > 0 }.y > 0)
        let shown = try session.run(["show", "--title", "Owner's banner", "--sticky"])
        #expect(shown.status == 0, "\(shown.error)")
        let owner = try #require(session.owners().first)
        let waiting = try Subprocess(
            executable: windowBannerExecutable(), arguments: ["show", "--wait", "--sticky", "--id", "waiting", "--title", "Waiting"],
            environment: session.environment)
        let asked = monotonicSeconds() + 15
        while try session.run(["status", "--format", "{title}"]).output != "Waiting\n", monotonicSeconds() < asked { poll(nil, 0, 20) }
        #expect(try session.run(["status", "--format", "{title}"]).output == "Waiting\n")
        let socket = try #require(try FileManager.default.contentsOfDirectory(atPath: session.runtimeDirectory + "/window-banner")
            .first { $0.hasSuffix(".sock") }.map { session.runtimeDirectory + "/window-banner/" + $0 })
        let child = awaitPID(writtenTo: marker)
        #expect(child > 0)

        session.sway.kill()
        #expect(run.waitForExit(timeout: 10) == 69)
        #expect(run.standardError.hasPrefix("window-banner: lost the connection to the Wayland compositor"), "\(run.standardError)")
        let deadline = monotonicSeconds() + 10
        while kill(child, 0) == 0 || kill(owner, 0) == 0, monotonicSeconds() < deadline { poll(nil, 0, 10) }
        #expect(kill(child, 0) != 0, "the command was left running")
        #expect(kill(owner, 0) != 0, "the owner was left running")
        #expect(access(socket, F_OK) != 0, "the owner's socket was left behind")
        // A script waiting on its banner hears it from the owner, and ends with 69 too.
        #expect(waiting.waitForExit(timeout: 10) == 69)
        #expect(waiting.standardError.hasPrefix("window-banner: lost the connection to the Wayland compositor"), "\(waiting.standardError)")
    }

    /// A banner asked for on one output moves to the other when its output is unplugged (a
    /// nested sway's output window closed: a headless sway 1.7 cannot remove an output).
    @Test func aBannerWhoseOutputIsUnpluggedMovesToTheOther() throws {
        let outer = try TestSway()
        let session = try Session(nested: try TestSway(nestedIn: outer, outputs: 2))
        let shown = try session.run(["show", "--monitor", "WL-2", "--title", "Call in progress", "--id", "call"])
        try #require(shown.status == 0, "show: \(shown.error)")
        func monitors() throws -> [(name: String, id: String?)] {
            let status = try session.run(["status", "--json"])
            let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
            return (report?["monitors"] as? [[String: Any]] ?? []).map { ($0["monitor"] as? String ?? "?", $0["id"] as? String) }
        }
        #expect(try monitors().map(\.name) == ["WL-1", "WL-2"])
        #expect(try monitors().first { $0.name == "WL-2" }?.id == "call")
        try outer.swaymsg(["[title=\".*WL-2\"] kill"])
        let deadline = monotonicSeconds() + 20
        var now = try monitors()
        while now.map(\.name) != ["WL-1"] || now.first?.id != "call", monotonicSeconds() < deadline {
            poll(nil, 0, 20)
            now = try monitors()
        }
        #expect(now.map(\.name) == ["WL-1"])
        #expect(now.first?.id == "call")
    }

    /// `--monitor all`: an output created while the banner shows gets it too.
    @Test func anOutputAddedUnderMonitorAllGetsTheBanner() throws {
        let session = try Session()
        let shown = try session.run(["show", "--monitor", "all", "--title", "No Internet Connection", "--id", "offline"])
        try #require(shown.status == 0, "show: \(shown.error)")
        try session.sway.swaymsg(["create_output"])
        let deadline = monotonicSeconds() + 20
        var ids: [String: String] = [:]
        while ids["HEADLESS-2"] != "offline", monotonicSeconds() < deadline {
            let status = try session.run(["status", "--json"])
            let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
            ids = [:]
            for monitor in report?["monitors"] as? [[String: Any]] ?? [] {
                if let name = monitor["monitor"] as? String, let id = monitor["id"] as? String { ids[name] = id }
            }
            poll(nil, 0, 20)
        }
        #expect(ids == ["HEADLESS-1": "offline", "HEADLESS-2": "offline"])
    }

    /// `--fullscreen delay`: a full-screen window covers the banner (its layer is under
    /// full-screen windows); when it leaves full screen the banner shows again.
    @Test func aFullScreenWindowCoversADelayedBanner() throws {
        let session = try Session()
        let shown = try session.run(["show", "--title", "Updates tonight", "--background", "#cc3311", "--fullscreen", "delay",
                                     "--height", "40", "--compact", "never"])
        try #require(shown.status == 0, "show: \(shown.error)")
        let before = try session.sway.awaitScreenshot { $0.pixel(4, 10) == 0xCC3311 }
        try #require(before.pixel(4, 10) == 0xCC3311, "the banner never showed")
        try session.sway.swaymsg(["[app_id=foot] fullscreen enable"])
        let covered = try session.sway.awaitScreenshot { $0.pixel(4, 10) != 0xCC3311 }
        #expect(covered.pixel(4, 10) != 0xCC3311)
        try session.sway.swaymsg(["[app_id=foot] fullscreen disable"])
        let back = try session.sway.awaitScreenshot { $0.pixel(4, 10) == 0xCC3311 }
        #expect(back.pixel(4, 10) == 0xCC3311)
    }
}

