// `window-banner monitor --calls` through the whole real chain: Debian's PipeWire on a private
// runtime directory (TestPipeWire), a virtual microphone, `pw-record` as the calling app, the
// monitor asking the display's owner on a private Xvfb + openbox. What a user sees is read
// back: `status --json` (title, subtitle, id) and the work area; each step awaited.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite(
        "monitor --calls: the call banner from PipeWire", .serialized,
        .needsProgram("/usr/bin/pipewire", package: "pipewire-bin"), .needsProgram("/usr/bin/wireplumber", package: "wireplumber"),
        .needsProgram("/usr/bin/pipewire-pulse", package: "pipewire-pulse"), .needsProgram("/usr/bin/pactl", package: "pulseaudio-utils"))
    struct CallMonitorTests {
        /// A monitor of calls alone on `owner`'s desktop, reaching `pipewire`; its first line read.
        static func monitor(_ owner: OwnerFixture, _ pipewire: TestPipeWire, _ arguments: [String] = []) throws -> MonitorProcess {
            let process = try Subprocess(
                executable: windowBannerExecutable(), arguments: ["monitor", "--calls", "--no-network", "--monitor", "primary"] + arguments,
                environment: owner.fixture.environment(.desktop).merging(["PIPEWIRE_REMOTE": pipewire.runtimeDirectory + "/pipewire-0"]) { $1 })
            return try MonitorProcess(process)
        }

        /// The call banner as `status --json` has it once `condition` holds (20 s at most).
        static func status(_ owner: OwnerFixture, until condition: (StatusJSON) -> Bool) throws -> StatusJSON {
            let deadline = monotonicSeconds() + 20
            var status = try owner.status()
            while !condition(status), monotonicSeconds() < deadline {
                poll(nil, 0, 50)
                status = try owner.status()
            }
            return status
        }

        @Test func aCallShowsTheCallBannerNamingTheAppsAndItGoesWhenTheCallEnds() throws {
            let pipewire = try TestPipeWire()
            try pipewire.addMicrophone()
            let owner = try OwnerFixture()
            let monitor = try Self.monitor(owner, pipewire)
            #expect(monitor.source == "calls from PipeWire")

            let zoom = try pipewire.startCaller("Zoom")
            #expect(try monitor.nextEvent() == "call banner shown (Zoom)")
            let shown = try Self.status(owner) { $0.subtitle == "Zoom" }
            #expect(shown.title == "Call in progress" && shown.subtitle == "Zoom" && shown.id == "window-banner-calls")
            // The space it takes, title and subtitle: the window manager's work area says so.
            let height = try #require(shown.height)
            #expect(height > 0 && owner.fixture.waitForReservation(height: height))
            #expect(shown.style == "call")
            // A status bar's module needs nothing new: waybar's JSON has the call class.
            let waybar = try owner.run(["status", "--waybar"])
            let module = try JSONSerialization.jsonObject(with: Data(waybar.output.utf8)) as? [String: Any]
            #expect(module?["class"] as? [String] == ["banner", "call"], "\(waybar.output)")

            // A second app joins: the banner says both, in place.
            let signal = try pipewire.startCaller("Signal")
            #expect(try monitor.nextEvent() == "call banner shown (Signal, Zoom)")
            #expect(try Self.status(owner) { $0.subtitle == "Signal, Zoom" }.subtitle == "Signal, Zoom")

            for caller in [zoom, signal] {
                caller.killGroup()
                _ = caller.waitForExit(timeout: 5)
            }
            // The last app gone: hidden after the hide delay (one app may go first).
            var events: [String] = []
            while let event = try monitor.event(within: 10) {
                events.append(event)
                if event == "call banner hidden" { break }
            }
            #expect(events.last == "call banner hidden", "\(events)")
            #expect(try Self.status(owner) { !$0.presented }.presented == false)
            let ended = monitor.terminate()
            #expect(ended.status == 0)
        }

        @Test func aCallAlreadyGoingShowsAtOnceAndMetersAndIgnoredAppsDoNot() throws {
            let pipewire = try TestPipeWire()
            try pipewire.addMicrophone()
            _ = try pipewire.startPulseRecorder("Volume Control", stream: "Peak detect")
            _ = try pipewire.startCaller("Discord")
            _ = try pipewire.startCaller("Teams")
            let owner = try OwnerFixture()
            let monitor = try Self.monitor(owner, pipewire, ["--calls-ignore", "discord"])
            #expect(try monitor.nextEvent() == "call banner shown (Teams)")
            #expect(try Self.status(owner) { $0.subtitle == "Teams" }.subtitle == "Teams")
            let ended = monitor.terminate()
            #expect(ended.events.contains("call banner hidden") && ended.status == 0)
            #expect(try Self.status(owner) { !$0.presented }.presented == false)
        }

        @Test func pipeWireRestartedUnderItLeavesNoStaleBannerAndTheCallComesBack() throws {
            let pipewire = try TestPipeWire()
            try pipewire.addMicrophone()
            let owner = try OwnerFixture()
            let monitor = try Self.monitor(owner, pipewire)
            _ = try pipewire.startCaller("Zoom")
            #expect(try monitor.nextEvent() == "call banner shown (Zoom)")

            pipewire.killDaemons()
            #expect(try monitor.nextEvent().hasPrefix("lost PipeWire"))
            #expect(try Self.status(owner) { !$0.presented }.presented == false, "no stale banner")
            try pipewire.restartDaemons()
            try pipewire.addMicrophone()
            _ = try pipewire.startCaller("Zoom")
            #expect(try Self.status(owner) { $0.subtitle == "Zoom" }.subtitle == "Zoom")
            #expect(monitor.terminate().status == 0)
        }

        @Test func withoutPipeWireItWaitsQuietlyAndStartsWhenPipeWireDoes() throws {
            let pipewire = try TestPipeWire()
            pipewire.killDaemons()
            let owner = try OwnerFixture()
            let monitor = try Self.monitor(owner, pipewire)
            #expect(try monitor.nextEvent().hasPrefix("waiting for PipeWire ("))
            #expect(try monitor.event(within: 1) == nil, "quiet while it waits")
            try pipewire.restartDaemons()
            try pipewire.addMicrophone()
            #expect(try monitor.nextEvent() == "PipeWire is back")
            _ = try pipewire.startCaller("Zoom")
            #expect(try monitor.nextEvent() == "call banner shown (Zoom)")
            #expect(monitor.terminate().status == 0)
        }

        @Test(.needsProgram("/usr/bin/gst-launch-1.0", package: "gstreamer1.0-tools"),
              .needsFile(["/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpipewire.so"], package: "gstreamer1.0-pipewire"),
              .needsFile(["/usr/lib/x86_64-linux-gnu/spa-0.2/videotestsrc/libspa-videotestsrc.so"], package: "libspa-0.2-modules"))
        func aCameraWatchedShowsTheGreenCallBannerSayingCamera() throws {
            let pipewire = try TestPipeWire()
            try pipewire.addMicrophone()
            try pipewire.addCamera()
            let owner = try OwnerFixture()
            let monitor = try Self.monitor(owner, pipewire, ["--call-compact", "never"])
            _ = try pipewire.startViewer("Cheese")
            #expect(try monitor.nextEvent() == "call banner shown (Cheese, camera)")
            let shown = try Self.status(owner) { $0.subtitle == "Cheese · camera" }
            #expect(shown.title == "Call in progress" && shown.subtitle == "Cheese · camera")
            // The call style's green, on the screen where the banner is.
            let height = try #require(shown.height)
            #expect(owner.fixture.waitForBanner(height: height))
            let screen = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: height)))
            #expect(screen.pixel(x: 4, y: height / 2).distance(to: Pixel(red: 0x34, green: 0xC7, blue: 0x59)) < 12, "\(screen.pixel(x: 4, y: height / 2))")

            // Someone joins on the microphone: both, in place.
            _ = try pipewire.startCaller("Zoom")
            #expect(try Self.status(owner) { $0.subtitle == "Cheese, Zoom · camera" }.subtitle == "Cheese, Zoom · camera")
            #expect(monitor.terminate().status == 0)
        }

        /// The client window (as the window manager lists it) whose `_NET_WM_PID` is `pid`; 0 when none.
        static func clientWindow(of pid: pid_t, on observer: XObserver) -> Int {
            let clients = observer.cardinals(observer.root, "_NET_CLIENT_LIST") ?? []
            return clients.first { observer.cardinals(UInt($0), "_NET_WM_PID")?.first == Int(pid) } ?? 0
        }

        @Test(.needsProgram("/usr/bin/xterm", package: "xterm"), .needsProgram("/usr/bin/xdotool", package: "xdotool"))
        func aClickOnTheCallBannerRaisesTheCallingAppsWindow() throws {
            let pipewire = try TestPipeWire()
            try pipewire.addMicrophone()
            let owner = try OwnerFixture()
            let observer = owner.observer
            let monitor = try Self.monitor(owner, pipewire)
            // The calling app has a window (xterm) and records in a child process, as a browser does.
            let display = try #require(owner.fixture.desktop.environment["DISPLAY"])
            let app = try pipewire.startCaller("Jitsi", window: ("/usr/bin/xterm", ["-e"], ["DISPLAY": display]))
            // (xterm, started cold, may take a while to run its command.)
            #expect(try monitor.nextEvent(timeout: 30) == "call banner shown (Jitsi)")
            let height = try #require(try Self.status(owner) { $0.subtitle == "Jitsi" }.height)
            // Slid all the way in: a click lands on it.
            #expect(owner.fixture.waitForBanner(height: height))
            var appWindow = 0
            #expect(observer.wait { appWindow = Self.clientWindow(of: app.pid, on: observer); return appWindow != 0 })

            // The user goes on in another window.
            let other = observer.mapClientWindow(maximized: false)
            #expect(observer.wait { observer.isViewable(other) && observer.cardinals(other, "_NET_FRAME_EXTENTS") != nil })
            observer.sendToRoot(other, "_NET_ACTIVE_WINDOW", [2, 0, 0])
            #expect(observer.wait { observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first == Int(other) })

            // A click on the banner: the window manager says the calling app's window is active.
            try owner.fixture.desktop.run(["xdotool", "mousemove", "640", "\(height / 2)", "click", "1"])
            let clicked = try? monitor.nextEvent()
            #expect(clicked == "call banner dismissed by the user (clicked): hidden until this call ends")
            #expect(observer.wait { observer.cardinals(observer.root, "_NET_ACTIVE_WINDOW")?.first == appWindow })
            #expect(try Self.status(owner) { !$0.presented }.presented == false)
            #expect(monitor.terminate().status == 0)
        }

        @Test func badCallFlagsAreOneLineAndSixtyFour() throws {
            let owner = try OwnerFixture()
            let delay = try owner.run(["monitor", "--calls", "--calls-hide-delay", "soon"])
            #expect(delay.status == 64 && delay.error == "window-banner: bad --calls-hide-delay 'soon' (seconds, 0 to 3600)\n")
            let alone = try owner.run(["monitor", "--no-network", "--calls-ignore", ""])
            #expect(alone.status == 64 && alone.error == "window-banner: bad --calls-ignore '' (an app name of 1 to 256 characters)\n")
        }
    }
}
