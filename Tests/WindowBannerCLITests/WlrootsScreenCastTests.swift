// Screen sharing on a wlroots desktop, for real (issue 55): Debian unstable's headless sway with
// its xdg-desktop-portal and xdg-desktop-portal-wlr (0.8 reads the screen over
// ext-image-copy-capture, so it needs no GPU; Debian 13's 0.7 refuses a renderer without
// DMA-BUF, upstream #289), the chooser set to the headless output so no dialog asks, and the
// suite's PipeWire and WirePlumber, all from a chroot (scripts/debian-chroot.sh's @screencast).
// An app asks the portal for a ScreenCast session and reads the stream
// (Tests/Clients/screencast-client.py: D-Bus, then GStreamer's pipewiresrc on the portal's
// remote). xdpw's stream is a `Video/Source` node, as a camera's is: the call watcher must see
// sharing, never a camera. Oracles: the suite's own pw-dump for the graph, foot's configure
// events and grim's pixels for the banner.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("Screen sharing on sway: xdg-desktop-portal-wlr", .serialized,
       .needsRoot("running Debian unstable's sway, portal and PipeWire from a chroot"),
       .needsProgram("/usr/bin/gst-launch-1.0", package: "gstreamer1.0-tools"),
       .needsFile(["/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpipewire.so"], package: "gstreamer1.0-pipewire"),
       .needsFile(["/usr/lib/python3/dist-packages/dbus/__init__.py"], package: "python3-dbus"))
struct WlrootsScreenCastTests {
    /// sway with a maximized foot, its PipeWire (a virtual microphone in it) and the portal.
    final class Desktop {
        let session: NewestCompositorsTests.Session
        let pipewire: TestPipeWire
        /// xdg-desktop-portal-wlr, started here (not by the bus) so that what it says is kept.
        let backend: Subprocess
        let log: String
        /// What xdpw said.
        var said: String { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(3000).description }

        init() throws {
            let chroot = try DebianChroot.prepared(suite: "sid", packages: ["@screencast"])
            session = try NewestCompositorsTests.Session(.init(compositor: .sway, suite: "sid"), packages: ["@screencast"])
            pipewire = try TestPipeWire(from: chroot)
            try pipewire.addMicrophone()
            // The portals' configuration: wlr's backend for everything, and xdpw's chooser set to
            // the headless output, chosen without asking.
            let configHome = pipewire.runtimeDirectory + "/config"
            for (path, text) in [
                "/xdg-desktop-portal/portals.conf": "[preferred]\ndefault=wlr\n",
                "/xdg-desktop-portal-wlr/config": "[screencast]\noutput_name=HEADLESS-1\nchooser_type=none\n",
            ] {
                try FileManager.default.createDirectory(atPath: configHome + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: configHome + path, atomically: true, encoding: .utf8)
            }
            let variables = ["WAYLAND_DISPLAY": session.socketPath, "XDG_CURRENT_DESKTOP": "sway", "XDG_CONFIG_HOME": configHome]
            let dictionary = "dict:string:string:" + variables.sorted { $0.key < $1.key }.map { "\($0.key),\($0.value)" }.joined(separator: ",")
            try Self.busCall(pipewire, "UpdateActivationEnvironment", dictionary)
            log = pipewire.runtimeDirectory + "/xdpw.log"
            backend = try pipewire.start(["/bin/sh", "-c", "exec /usr/libexec/xdg-desktop-portal-wlr --loglevel INFO 2>\"$0\"", log],
                                         environment: variables)
            let deadline = monotonicSeconds() + 30
            while monotonicSeconds() < deadline {
                if try Self.busCall(pipewire, "NameHasOwner", "string:org.freedesktop.impl.portal.desktop.wlr").contains("boolean true") { return }
                if backend.hasEnded { break }
                poll(nil, 0, 50)
            }
            throw TestFailure("xdg-desktop-portal-wlr never took its bus name: \(said)")
        }

        /// `method` of the bus itself on PipeWire's session bus, with `argument`; the reply.
        @discardableResult
        static func busCall(_ pipewire: TestPipeWire, _ method: String, _ argument: String) throws -> String {
            try Subprocess.run("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + pipewire.sessionBus, "dbus-send", "--session", "--print-reply",
                                                "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus." + method, argument])
        }

        static let client: String = {
            var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
            parts.removeLast(2)
            return parts.joined(separator: "/") + "/Clients/screencast-client.py"
        }()

        /// An app called `name` sharing the screen through the portal; returns once the portal
        /// has started the cast and the suite's pw-dump says the app's stream reads it.
        func startSharing(_ name: String = "Zoom") throws -> Subprocess {
            let environment = pipewire.environment.merging(["PIPEWIRE_REMOTE": pipewire.runtimeDirectory + "/pipewire-0"]) { $1 }
            let app = try Subprocess(executable: "/usr/bin/python3", arguments: [Self.client, name], environment: environment)
            guard let line = app.readLine(timeout: 90), line.hasPrefix("streaming ") else {
                app.killGroup()
                throw TestFailure("the portal started no screen cast: \(app.standardError); xdg-desktop-portal-wlr said: \(said)")
            }
            let deadline = monotonicSeconds() + 40
            while monotonicSeconds() < deadline {
                if try GnomeScreenCastTests.castIsRead(by: name, producer: "Video/Source", in: pipewire.dump()) { return app }
                poll(nil, 0, 50)
            }
            app.killGroup()
            throw TestFailure("PipeWire never linked the cast to \(name)'s stream: \(app.standardError); xdg-desktop-portal-wlr said: \(said)")
        }

        /// `monitor ARGUMENTS` as the session's scripts run it, on this PipeWire.
        func monitor(_ arguments: [String]) throws -> MonitorProcess {
            try MonitorProcess(try Subprocess(
                executable: windowBannerExecutable(), arguments: ["monitor"] + arguments,
                environment: session.environment.merging(["PIPEWIRE_REMOTE": pipewire.runtimeDirectory + "/pipewire-0"]) { $1 }))
        }

        /// The banner's title and subtitle, once `status --format` says `wanted` (within 20 s).
        func status(until wanted: String) throws -> String {
            let deadline = monotonicSeconds() + 20
            while true {
                let said = try session.run(["status", "--format", "{title}|{subtitle}"]).output
                if said == wanted || monotonicSeconds() > deadline { return said }
                poll(nil, 0, 50)
            }
        }
    }

    /// The wlroots false positive (issue 55): before the fix, an app sharing the screen through
    /// xdpw was a call with a camera ("Zoom · camera"). Now the sharing banner comes, orange,
    /// taking its space under nothing; a microphone call of the same app is one banner, the
    /// call's, saying the screen is shared and no camera; each end takes its part away.
    @Test func sharingTheScreenThroughTheWlrootsPortalIsNeverACamera() throws {
        let desktop = try Desktop()
        let session = desktop.session
        let monitor = try desktop.monitor(["--calls", "--no-network"])
        #expect(monitor.source == "calls from PipeWire")

        let app = try desktop.startSharing()
        defer { app.killGroup() }
        #expect(try GnomeScreenCastTests.awaitEvent("sharing banner shown (Zoom)", from: monitor).first == "screen shared by Zoom")
        #expect(try desktop.status(until: "You are sharing your screen|Zoom\n") == "You are sharing your screen|Zoom\n")
        let reserved = try #require(try session.reserved())
        #expect(reserved > 0)
        try session.foot.awaitConfiguredSize { $0.height == session.full.height - reserved }
        let shot = try session.awaitScreenshot { $0.pixel(640, reserved - 1) == GnomeScreenCastTests.orange }
        #expect(shot.pixel(640, reserved - 1) == GnomeScreenCastTests.orange, "the sharing banner is not systemOrange")

        let caller = try desktop.pipewire.startCaller("Zoom")
        defer { caller.killGroup() }
        let joined = try GnomeScreenCastTests.awaitEvent("sharing banner hidden", from: monitor)
        #expect(joined.contains("call banner shown (Zoom, sharing)"), "\(joined)")
        #expect(try desktop.status(until: "Call in progress|Zoom · sharing your screen\n") == "Call in progress|Zoom · sharing your screen\n")

        app.killGroup()
        _ = app.waitForExit(timeout: 5)
        #expect(try GnomeScreenCastTests.awaitEvent("screen sharing ended", from: monitor).last == "screen sharing ended")
        #expect(try desktop.status(until: "Call in progress|Zoom\n") == "Call in progress|Zoom\n")
        caller.killGroup()
        _ = caller.waitForExit(timeout: 5)
        #expect(try GnomeScreenCastTests.awaitEvent("call banner hidden", from: monitor).last == "call banner hidden")
        try session.foot.awaitConfiguredSize { $0.height == session.full.height }
        #expect(monitor.terminate().status == 0)
    }

    /// A private banner (a one-time code) on screen slides away the moment an app shares the
    /// screen, is held while the share lasts, and comes back when it ends.
    @Test func aPrivateBannerIsHeldWhileTheScreenIsShared() throws {
        let desktop = try Desktop()
        let session = desktop.session
        let monitor = try desktop.monitor(["--sharing", "--no-network"])
        #expect(monitor.source == "screen sharing from PipeWire")
        let blue: UInt32 = 0x2050D0
        let shown = try session.run(["show", "--private", "--sticky", "--id", "code", "--title", "Your code is 424242", "--background", "#2050d0"])
        #expect(shown.status == 0 && shown.error == "", "a watcher is connected: no warning; \(shown.error)")
        #expect(try session.awaitScreenshot { $0.pixel(4, 4) == blue }.pixel(4, 4) == blue)

        let app = try desktop.startSharing()
        defer { app.killGroup() }
        #expect(try GnomeScreenCastTests.awaitEvent("sharing banner shown (Zoom)", from: monitor).first == "screen shared by Zoom")
        #expect(try desktop.status(until: "You are sharing your screen|Zoom\n") == "You are sharing your screen|Zoom\n")
        let held = try session.run(["status"]).output
        #expect(held.contains("held while the screen is shared: \"Your code is 424242\", id code"), "\(held)")
        let shared = try session.awaitScreenshot { $0.pixel(640, 4) == GnomeScreenCastTests.orange }
        #expect(shared.pixel(640, 4) == GnomeScreenCastTests.orange && shared.pixel(4, 4) != blue, "the private banner's blue is on the shared screen")

        app.killGroup()
        _ = app.waitForExit(timeout: 5)
        #expect(try GnomeScreenCastTests.awaitEvent("screen sharing ended", from: monitor).last == "screen sharing ended")
        #expect(try desktop.status(until: "Your code is 424242|\n") == "Your code is 424242|\n")
        #expect(try session.awaitScreenshot { $0.pixel(4, 4) == blue }.pixel(4, 4) == blue)
        #expect(monitor.terminate().status == 0)
    }

    /// The owner killed during a share (a crash): the monitor hears its connections close, starts
    /// a new owner, tells it the screen is shared and shows the sharing banner there again, so
    /// the indicator stays and a private banner shown next is still held, without a warning,
    /// and comes down when the share ends.
    @Test func aNewOwnerAfterACrashStillHoldsPrivateBanners() throws {
        let desktop = try Desktop()
        let session = desktop.session
        let monitor = try desktop.monitor(["--sharing", "--no-network"])
        let app = try desktop.startSharing()
        defer { app.killGroup() }
        #expect(try GnomeScreenCastTests.awaitEvent("sharing banner shown (Zoom)", from: monitor).first == "screen shared by Zoom")
        let crashed = WaylandCLITests.owners(on: session.socketPath)
        try #require(!crashed.isEmpty, "no owner runs on sway")
        for pid in crashed { kill(pid, SIGKILL) }
        #expect(try GnomeScreenCastTests.awaitEvent("sharing banner gone: the owner exited", from: monitor).last == "sharing banner gone: the owner exited")
        // The indicator comes back on the new owner, still orange at the top.
        #expect(try GnomeScreenCastTests.awaitEvent("sharing banner shown (Zoom)", from: monitor).last == "sharing banner shown (Zoom)")
        #expect(try desktop.status(until: "You are sharing your screen|Zoom\n") == "You are sharing your screen|Zoom\n")
        #expect(try session.awaitScreenshot { $0.pixel(640, 4) == GnomeScreenCastTests.orange }.pixel(640, 4) == GnomeScreenCastTests.orange)
        #expect(WaylandCLITests.owners(on: session.socketPath).contains { !crashed.contains($0) })

        let shown = try session.run(["show", "--private", "--sticky", "--id", "code", "--title", "Your code is 424242"])
        #expect(shown.status == 0 && shown.error == "", "the new owner knows the screen is shared: no warning; \(shown.error)")
        let held = try session.run(["status"]).output
        #expect(held.contains("held while the screen is shared: \"Your code is 424242\", id code"), "\(held)")
        app.killGroup()
        _ = app.waitForExit(timeout: 5)
        #expect(try GnomeScreenCastTests.awaitEvent("screen sharing ended", from: monitor).last == "screen sharing ended")
        #expect(try desktop.status(until: "Your code is 424242|\n") == "Your code is 424242|\n")
        #expect(monitor.terminate().status == 0)
    }
}
