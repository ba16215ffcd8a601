// Screen sharing on GNOME, for real (issue 55): Debian's gnome-shell (headless, a virtual
// monitor) with PipeWire and WirePlumber in its session, and an app that shares the screen
// through Mutter's own org.gnome.Mutter.ScreenCast (Tests/Clients/mutter-screencast.py: the API
// GNOME's portal backend and gnome-remote-desktop use) and reads Mutter's stream with GStreamer's
// pipewiresrc. `monitor --calls` must see sharing (never a camera) and its end. pw-dump is the
// oracle for the graph.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Screen sharing on GNOME: Mutter's ScreenCast", .serialized,
       .needsProgram("/usr/bin/gnome-shell", package: "gnome-shell"),
       .needsProgram("/usr/bin/pipewire", package: "pipewire-bin"), .needsProgram("/usr/bin/wireplumber", package: "wireplumber"),
       .needsProgram("/usr/bin/gst-launch-1.0", package: "gstreamer1.0-tools"),
       .needsFile(["/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpipewire.so"], package: "gstreamer1.0-pipewire"),
       .needsFile(["/usr/lib/python3/dist-packages/dbus/__init__.py"], package: "python3-dbus"))
struct GnomeScreenCastTests {
    static let client: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Clients/mutter-screencast.py"
    }()

    /// pw-dump has a compositor's cast (`Stream/Output/Video`) linked, over an active link, to
    /// a running `Stream/Input/Video` whose application is `app`.
    static func castIsRead(by app: String, in dump: String) throws -> Bool {
        guard let objects = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]] else { return false }
        func info(_ object: [String: Any]) -> [String: Any] { object["info"] as? [String: Any] ?? [:] }
        func props(_ object: [String: Any]) -> [String: Any] { info(object)["props"] as? [String: Any] ?? [:] }
        let nodes = Dictionary(objects.filter { ($0["type"] as? String)?.hasSuffix(":Node") == true }.compactMap { node in
            (node["id"] as? Int).map { ($0, node) }
        }) { first, _ in first }
        return objects.contains { link in
            guard (link["type"] as? String)?.hasSuffix(":Link") == true, info(link)["state"] as? String == "active",
                  let output = (info(link)["output-node-id"] as? Int).flatMap({ nodes[$0] }),
                  let input = (info(link)["input-node-id"] as? Int).flatMap({ nodes[$0] }) else { return false }
            return props(output)["media.class"] as? String == "Stream/Output/Video"
                && props(input)["media.class"] as? String == "Stream/Input/Video" && info(input)["state"] as? String == "running"
                && props(input)["application.name"] as? String == app
        }
    }

    /// The sharing banner on the real shell: under the top bar (Mutter's work area shrinks by
    /// its height), orange, naming the app, and gone with the share (the work area given back).
    @Test func anAppReadingMuttersCastBringsTheSharingBannerAndItsEndTakesItAway() throws {
        let shell = try TestGnomeShell(withExtension: .enabled, busForEveryone: true, withPortal: false, withPipeWire: true)
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let area = try #require(before.first)
        // The session's user runs the monitor, as its autostart entry would; PipeWire is the session's.
        let monitor = try MonitorProcess(try shell.start([windowBannerExecutable(), "monitor", "--calls", "--no-network"]))
        #expect(monitor.source == "calls from PipeWire")

        let environment = shell.environment.merging(["PIPEWIRE_REMOTE": shell.runtimeDirectory + "/pipewire-0"]) { $1 }
        let app = try Subprocess(executable: "/usr/bin/python3", arguments: [Self.client, "Meta-0", "Zoom"], environment: environment)
        defer { app.killGroup() }
        guard let line = app.readLine(timeout: 90), line.hasPrefix("streaming ") else {
            throw TestFailure("Mutter started no screen cast: \(app.standardError)")
        }
        #expect(try monitor.nextEvent(timeout: 30) == "screen shared by Zoom")
        #expect(try monitor.nextEvent(timeout: 30) == "sharing banner shown (Zoom)")
        let dump = try Subprocess.run("/usr/bin/env", environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["pw-dump"])
        #expect(try Self.castIsRead(by: "Zoom", in: dump), "pw-dump shows no running reader of Mutter's cast")

        let shared = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > area.y }
        let height = (shared.first?.y ?? area.y) - area.y
        #expect(height > 0, "Mutter's work area stayed \(shared)")
        #expect(shared.first?.height == area.height - height)
        let screen = try GnomeShellExtensionTests.screen(of: shell, row: area.y + height - 1, showing: Self.orange, width: area.width)
        #expect(screen.pixel(area.width / 2, area.y + height - 1) == Self.orange, "the sharing banner is systemOrange")
        let status = try shell.run([windowBannerExecutable(), "status", "--format", "{title}|{subtitle}"])
        #expect(status.output == "You are sharing your screen|Zoom\n")

        app.killGroup()
        _ = app.waitForExit(timeout: 5)
        #expect(try monitor.nextEvent(timeout: 30) == "screen sharing ended")
        #expect(try monitor.nextEvent(timeout: 30) == "sharing banner hidden")
        #expect(shell.awaitWorkAreas { $0 == before } == before)
        #expect(monitor.terminate().status == 0)
    }

    /// The extension sees the share as the shell does (Mutter's remote-access handle: its
    /// `Sharing` property), and its `StopSharing` ends it as GNOME's own "Turn off" does: Mutter
    /// closes the app's session, and PipeWire's cast is gone.
    @Test func theExtensionSeesTheShareAndStopsIt() throws {
        let shell = try TestGnomeShell(withExtension: .enabled, busForEveryone: true, withPortal: false, withPipeWire: true)
        let environment = shell.environment.merging(["PIPEWIRE_REMOTE": shell.runtimeDirectory + "/pipewire-0"]) { $1 }
        #expect(try Self.extensionSays(shell, sharing: false))
        let app = try Subprocess(executable: "/usr/bin/python3", arguments: [Self.client, "Meta-0", "Zoom"], environment: environment)
        defer { app.killGroup() }
        guard let line = app.readLine(timeout: 90), line.hasPrefix("streaming ") else {
            throw TestFailure("Mutter started no screen cast: \(app.standardError)")
        }
        #expect(try Self.extensionSays(shell, sharing: true))
        let stopped = try shell.run(["gdbus", "call", "--session", "--dest", "org.windowbanner.Shell", "--object-path", "/org/windowbanner/Shell",
                                     "--method", "org.windowbanner.Shell1.StopSharing"])
        #expect(stopped.output == "(uint32 1,)\n", "\(stopped.error)")
        #expect(app.readLine(timeout: 30) == "closed", "Mutter did not close the app's session: \(app.standardError)")
        #expect(app.waitForExit(timeout: 30) == 0)
        #expect(try Self.extensionSays(shell, sharing: false))
        let dump = try Subprocess.run("/usr/bin/env", environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["pw-dump"])
        #expect(!dump.contains("\"Stream/Output/Video\""), "Mutter's cast is still in PipeWire's graph")
    }

    /// Whether the extension's `Sharing` property comes to read `sharing` (within 20 s).
    static func extensionSays(_ shell: TestGnomeShell, sharing: Bool) throws -> Bool {
        let deadline = monotonicSeconds() + 20
        while true {
            let answer = try shell.run(["gdbus", "call", "--session", "--dest", "org.windowbanner.Shell", "--object-path", "/org/windowbanner/Shell",
                                        "--method", "org.freedesktop.DBus.Properties.Get", "org.windowbanner.Shell1", "Sharing"])
            if answer.output == "(<\(sharing)>,)\n" { return true }
            guard monotonicSeconds() < deadline else {
                Issue.record("the extension's Sharing stayed \(answer.output)\(answer.error)")
                return false
            }
            poll(nil, 0, 50)
        }
    }

    /// systemOrange, the sharing style's background.
    static let orange: UInt32 = 0xFF9500
}
