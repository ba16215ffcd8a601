// Screen sharing on GNOME, for real (issue 55): Debian's gnome-shell — 43 (Debian 12), 48
// (Debian 13) and the newest (unstable), headless on a virtual monitor — with PipeWire and
// WirePlumber in its session, and an app that shares the screen through Mutter's own
// org.gnome.Mutter.ScreenCast (Tests/Clients/mutter-screencast.py: the API GNOME's portal
// backend and gnome-remote-desktop use) and reads Mutter's stream with GStreamer's pipewiresrc.
// `monitor --calls` must see sharing (never a camera), show the sharing banner and take it away
// at the share's end; the extension must see the share and stop it. pw-dump is the oracle for
// the graph, Mutter's work area and the shell's screenshot for the banner, Mutter closing the
// app's session for "stop".

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

    /// pw-dump has a compositor's cast (`producer`: Mutter's `Stream/Output/Video`, xdpw's
    /// `Video/Source` of no device) linked, over an active link, to a running
    /// `Stream/Input/Video` whose application is `app`.
    static func castIsRead(by app: String, producer: String = "Stream/Output/Video", in dump: String) throws -> Bool {
        // Newer pw-dumps (Debian 13's, unstable's) write some params without their keys, which is
        // no JSON: the params (which the test does not read) go before it is parsed.
        let repaired = Self.withoutParams(dump)
        guard let objects = try JSONSerialization.jsonObject(with: Data(repaired.utf8)) as? [[String: Any]] else { return false }
        func info(_ object: [String: Any]) -> [String: Any] { object["info"] as? [String: Any] ?? [:] }
        func props(_ object: [String: Any]) -> [String: Any] { info(object)["props"] as? [String: Any] ?? [:] }
        let nodes = Dictionary(objects.filter { ($0["type"] as? String)?.hasSuffix(":Node") == true }.compactMap { node in
            (node["id"] as? Int).map { ($0, node) }
        }) { first, _ in first }
        return objects.contains { link in
            guard (link["type"] as? String)?.hasSuffix(":Link") == true, info(link)["state"] as? String == "active",
                  let output = (info(link)["output-node-id"] as? Int).flatMap({ nodes[$0] }),
                  let input = (info(link)["input-node-id"] as? Int).flatMap({ nodes[$0] }) else { return false }
            return props(output)["media.class"] as? String == producer && props(output)["device.id"] == nil
                && props(input)["media.class"] as? String == "Stream/Input/Video" && info(input)["state"] as? String == "running"
                && props(input)["application.name"] as? String == app
        }
    }

    /// The sharing banner on the real shell: under the top bar (Mutter's work area shrinks by
    /// its height), orange, naming the app, with "Stop sharing", which ends the share and so
    /// the banner (the work area given back).
    @Test(arguments: GnomeShellExtensionTests.releases)
    func anAppReadingMuttersCastBringsTheSharingBannerAndItsEndTakesItAway(release: TestGnomeShell.Release) throws {
        let shell = try TestGnomeShell(release: release, withExtension: .enabled, busForEveryone: true, withPortal: false, withPipeWire: true)
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let area = try #require(before.first)
        // The session's user runs the monitor, as its autostart entry would; PipeWire is the session's.
        let monitor = try MonitorProcess(try shell.start([windowBannerExecutable(), "monitor", "--calls", "--no-network"]))
        #expect(monitor.source == "calls from PipeWire")

        let app = try Self.startSharing(on: shell)
        defer { app.killGroup() }
        // A cast's stream may pause while it settles its format (the log says each change): the
        // banner comes once it has run for the start delay.
        #expect(try Self.awaitEvent("sharing banner shown (Zoom)", from: monitor).first == "screen shared by Zoom")
        // The session's own pw-dump, of the PipeWire it runs (an older one misreads a newer's graph).
        let dump = try shell.run(["pw-dump"]).output
        #expect(try Self.castIsRead(by: "Zoom", in: dump), "pw-dump shows no running reader of Mutter's cast")

        let shared = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > area.y }
        let height = (shared.first?.y ?? area.y) - area.y
        #expect(height > 0, "Mutter's work area stayed \(shared)")
        #expect(shared.first?.height == area.height - height)
        let screen = try GnomeShellExtensionTests.screen(of: shell, row: area.y + height - 1, showing: Self.orange, width: area.width)
        #expect(screen.pixel(area.width / 2, area.y + height - 1) == Self.orange, "the sharing banner is systemOrange")
        let status = try shell.run([windowBannerExecutable(), "status", "--format", "{title}|{subtitle}"])
        #expect(status.output == "You are sharing your screen|Zoom\n")
        // Its action, "Stop sharing" (pressed as a screen reader presses it), stops the share as
        // the shell's own "Turn off" does: Mutter closes the app's session.
        let json = try shell.run([windowBannerExecutable(), "status", "--json"]).output
        let actions = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["actions"] as? [String]
        #expect(actions == ["Stop sharing"], "\(json)")
        #expect(try shell.run([windowBannerExecutable(), "action", "--id", "window-banner-sharing"]).status == 0)
        #expect(Self.stopped.contains(app.readLine(timeout: 30) ?? ""), "Mutter did not end the app's cast: \(app.standardError)")
        // In either order: PipeWire's news and the owner's are two sources.
        let said = try Self.awaitEvent("sharing banner dismissed by the user (action): hidden until this share ends", from: monitor)
        if !said.contains("screen sharing ended") {
            #expect(try Self.awaitEvent("screen sharing ended", from: monitor).last == "screen sharing ended")
        }
        #expect(shell.awaitWorkAreas { $0 == before } == before)
        #expect(monitor.terminate().status == 0)
    }

    /// A private banner (a one-time code) on screen slides away the moment an app shares the
    /// screen, waits while the share lasts (`status` says it is held), and comes back when it
    /// ends; `show --private` says nothing when a monitor watches.
    @Test func aPrivateBannerIsHeldWhileTheScreenIsShared() throws {
        let shell = try TestGnomeShell(withExtension: .enabled, busForEveryone: true, withPortal: false, withPipeWire: true)
        let program = windowBannerExecutable()
        let before = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > 0 }
        let area = try #require(before.first)
        let monitor = try MonitorProcess(try shell.start([program, "monitor", "--sharing", "--no-network"]))
        #expect(monitor.source == "screen sharing from PipeWire")
        let shown = try shell.run([program, "show", "--private", "--sticky", "--id", "code", "--title", "Your code is 424242", "--background", "#2050d0"])
        #expect(shown.status == 0)
        #expect(shown.error == "", "a watcher is connected: no warning")
        let reserved = shell.awaitWorkAreas { $0.count == 1 && $0[0].y > area.y }
        try #require(reserved != before, "the private banner did not come down")
        #expect(try GnomeShellExtensionTests.status(of: shell, until: "Your code is 424242 \n") == "Your code is 424242 \n")

        let app = try Self.startSharing(on: shell)
        defer { app.killGroup() }
        // A cast's stream may pause while it settles its format (the log says each change): the
        // banner comes once it has run for the start delay.
        #expect(try Self.awaitEvent("sharing banner shown (Zoom)", from: monitor).first == "screen shared by Zoom")
        #expect(try GnomeShellExtensionTests.status(of: shell, until: "You are sharing your screen \n") == "You are sharing your screen \n")
        let held = try shell.run([program, "status"]).output
        #expect(held.contains("held while the screen is shared: \"Your code is 424242\", id code"), "\(held)")
        let screen = try GnomeShellExtensionTests.screen(of: shell, row: area.y + 2, notShowing: 0x2050d0, width: area.width)
        #expect(screen.pixel(area.width / 2, area.y + 2) != 0x2050d0, "the private banner's blue is on the shared screen")

        app.killGroup()
        _ = app.waitForExit(timeout: 5)
        #expect(try Self.awaitEvent("screen sharing ended", from: monitor).last == "screen sharing ended")
        #expect(try GnomeShellExtensionTests.status(of: shell, until: "Your code is 424242 \n") == "Your code is 424242 \n")
        #expect(monitor.terminate().status == 0)
    }

    /// The extension sees the share as the shell does (Mutter's remote-access handle: its
    /// `Sharing` property), and its `StopSharing` ends it as GNOME's own "Turn off" does: Mutter
    /// closes the app's session, and PipeWire's cast is gone.
    @Test(arguments: GnomeShellExtensionTests.releases)
    func theExtensionSeesTheShareAndStopsIt(release: TestGnomeShell.Release) throws {
        let shell = try TestGnomeShell(release: release, withExtension: .enabled, busForEveryone: true, withPortal: false, withPipeWire: true)
        #expect(try Self.extensionSays(shell, sharing: false))
        let app = try Self.startSharing(on: shell)
        defer { app.killGroup() }
        #expect(try Self.extensionSays(shell, sharing: true))
        // No monitor runs: the owner hears of the share from the extension itself, and holds a
        // private banner without a warning.
        let program = windowBannerExecutable()
        let shown = try shell.run([program, "show", "--private", "--sticky", "--id", "code", "--title", "Your code is 424242"])
        #expect(shown.status == 0 && shown.error == "", "\(shown.error)")
        #expect(try shell.run([program, "status"]).output.contains("held while the screen is shared: \"Your code is 424242\", id code"))
        let stopped = try shell.run(["gdbus", "call", "--session", "--dest", "org.windowbanner.Shell", "--object-path", "/org/windowbanner/Shell",
                                     "--method", "org.windowbanner.Shell1.StopSharing"])
        #expect(stopped.output == "(uint32 1,)\n", "\(stopped.error)")
        #expect(Self.stopped.contains(app.readLine(timeout: 30) ?? ""), "Mutter did not end the app's cast: \(app.standardError)")
        #expect(app.waitForExit(timeout: 30) == 0)
        #expect(try Self.extensionSays(shell, sharing: false))
        #expect(try GnomeShellExtensionTests.status(of: shell, until: "Your code is 424242 \n") == "Your code is 424242 \n")
        // The session's own pw-dump, of the PipeWire it runs (an older one misreads a newer's graph).
        let dump = try shell.run(["pw-dump"]).output
        #expect(!dump.contains("\"Stream/Output/Video\""), "Mutter's cast is still in PipeWire's graph")
    }

    /// `dump` with each object's `"params"` value replaced by `{}` (brackets counted outside strings).
    static func withoutParams(_ dump: String) -> String {
        let text = Array(dump.utf8)
        let key = Array("\"params\": {".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < text.count {
            guard text[index...].starts(with: key) else {
                out.append(text[index])
                index += 1
                continue
            }
            out += Array("\"params\": {}".utf8)
            var depth = 0
            var inString = false
            index += key.count - 1
            while index < text.count {
                let byte = text[index]
                index += 1
                if inString {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
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

    /// Zoom sharing `shell`'s screen through Mutter's ScreenCast, reading it (the client's first
    /// line said); kill its group when done.
    static func startSharing(on shell: TestGnomeShell) throws -> Subprocess {
        let environment = shell.environment.merging(["PIPEWIRE_REMOTE": shell.runtimeDirectory + "/pipewire-0"]) { $1 }
        let app = try Subprocess(executable: "/usr/bin/python3", arguments: [client, "Meta-0", "Zoom"], environment: environment)
        guard let line = app.readLine(timeout: 90), line.hasPrefix("streaming ") else {
            app.killGroup()
            throw TestFailure("Mutter started no screen cast: \(app.standardError)")
        }
        return app
    }

    /// The monitor's lines up to and with `wanted` (within 30 s); it fails the test without it.
    static func awaitEvent(_ wanted: String, from monitor: MonitorProcess) throws -> [String] {
        var seen: [String] = []
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline, let line = try monitor.event(within: max(0.1, deadline - monotonicSeconds())) {
            seen.append(line)
            if line == wanted { return seen }
        }
        Issue.record("the monitor never said \"\(wanted)\"; it said \(seen)")
        return seen
    }

    /// What the app says when Mutter ended its cast, not it: its session closed, or its reader's
    /// stream ended (whichever of the two news comes first).
    static let stopped: Set<String> = ["closed", "reader ended"]

    /// systemOrange, the sharing style's background.
    static let orange: UInt32 = 0xFF9500
}
