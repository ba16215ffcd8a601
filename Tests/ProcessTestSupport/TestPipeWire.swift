// A private PipeWire for one test, Debian's real one: `pipewire`, `wireplumber` and
// `pipewire-pulse`, started in that order (each awaited) on a private XDG_RUNTIME_DIR and
// session bus, so nothing of the machine's sound is touched; a virtual microphone made with
// pactl; callers and meters (`pw-record` with an application name and properties). What
// PipeWire itself says is read back with `pw-dump`. Everything it starts is killed when it goes.
// From a chroot when given (a newer Debian's PipeWire and the clients beside it, as root there),
// on a runtime directory under /tmp, which both sides see.

import Foundation
import Glibc

public final class TestPipeWire {
    /// The private runtime directory (PipeWire's socket `pipewire-0` is there).
    public let runtimeDirectory: String
    public private(set) var sessionBus = ""
    private var bus: Subprocess?
    private var daemons: [Subprocess] = []
    private var clients: [Subprocess] = []
    /// The newer Debian whose PipeWire, bus and clients run, or nil for this machine's.
    public let chroot: DebianChroot?

    /// Starts the session bus, then PipeWire, WirePlumber and the PulseAudio server.
    public init(from chroot: DebianChroot? = nil) throws {
        self.chroot = chroot
        var template = Array("/tmp/window-banner-pw-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        runtimeDirectory = String(cString: made)
        do {
            let bus = try launch(["/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                 bare: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtimeDirectory])
            self.bus = bus
            guard let address = bus.readLine(timeout: 10), address.hasPrefix("unix:") else { throw TestFailure("dbus-daemon did not start") }
            sessionBus = address
            try startDaemons()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What a client of this PipeWire needs.
    public var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": sessionBus, "HOME": runtimeDirectory,
         "PIPEWIRE_RUNTIME_DIR": runtimeDirectory, "LANG": "C.UTF-8"]
    }

    private func startDaemons() throws {
        daemons.append(try launch(["/usr/bin/pipewire"]))
        try waitFor("PipeWire's socket") { access(self.runtimeDirectory + "/pipewire-0", F_OK) == 0 }
        // Under load WirePlumber sometimes never registers its session, and pipewire-pulse,
        // started again right after a killed one, sometimes never answers: each is given three
        // tries (the failing one killed), each awaited.
        try startWithRetries("/usr/bin/wireplumber", until: "WirePlumber's session", timeout: 20) {
            (try? self.dump())?.contains("\"wireplumber\"") == true
        }
        try startWithRetries("/usr/bin/pipewire-pulse", until: "pipewire-pulse", timeout: 15) { (try? self.pactl(["info"])) != nil }
    }

    /// Starts `executable` and waits `timeout` s for `ready`; kills it and starts it again, up to
    /// three times. What a killed pipewire-pulse leaves behind is removed before the next try.
    private func startWithRetries(_ executable: String, until what: String, timeout: Double, _ ready: () -> Bool) throws {
        for attempt in 1...3 {
            let daemon = try launch([executable])
            daemons.append(daemon)
            do {
                try waitFor(what, timeout: timeout, ready)
                return
            } catch where attempt < 3 {
                daemon.killGroup()
                _ = daemon.waitForExit(timeout: 5)
                daemons.removeLast()
                _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory + "/pulse"])
            }
        }
    }

    /// Kills the daemons (PipeWire gone, as when it crashes), leaving the bus and the clients.
    /// What a killed pipewire-pulse leaves in the runtime directory (its socket and pid file) is
    /// removed, as a session's tmpfiles would on restart: a new one would wait on the old socket.
    public func killDaemons() {
        for daemon in daemons.reversed() {
            daemon.killGroup()
            _ = daemon.waitForExit(timeout: 5)
        }
        daemons = []
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory + "/pulse"])
    }

    /// Starts them again, as `systemctl --user restart pipewire` does.
    public func restartDaemons() throws {
        killDaemons()
        try startDaemons()
    }

    /// Ends everything this started.
    public func stop() {
        for client in clients {
            client.killGroup()
            _ = client.waitForExit(timeout: 5)
        }
        clients = []
        killDaemons()
        bus?.killGroup()
        _ = bus?.waitForExit(timeout: 5)
        bus = nil
        _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory])
    }

    // MARK: Devices and clients

    /// `pactl arguments…`; its output.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> String {
        try runToEnd(["pactl"] + arguments)
    }

    /// PipeWire's own account of its graph (`pw-dump`), as JSON text.
    public func dump() throws -> String {
        try runToEnd(["pw-dump"])
    }

    /// A virtual microphone called `name` (an `Audio/Source/Virtual` node).
    public func addMicrophone(_ name: String = "mic") throws {
        try pactl(["load-module", "module-null-sink", "media.class=Audio/Source/Virtual", "sink_name=\(name)", "channel_map=front-left,front-right"])
        try waitFor("the microphone \(name)") { (try? self.dump())?.contains("\"node.name\": \"\(name)\"") == true }
    }

    /// A camera called `name`: SPA's video test source as a `Video/Source` node, as a webcam's
    /// node is, kept after pw-cli, which made it, exits.
    public func addCamera(_ name: String = "camera") throws {
        try runToEnd([
            "pw-cli", "create-node", "adapter",
            "{ factory.name = videotestsrc library.name = videotestsrc/libspa-videotestsrc node.name = \(name) media.class = Video/Source object.linger = true }",
        ])
        try waitFor("the camera \(name)") { (try? self.dump())?.contains("\"node.name\": \"\(name)\"") == true }
    }

    /// An app watching the camera, as a video call or Cheese does: GStreamer's `pipewiresrc`
    /// with `application.name` = `name` and the stream's media type Video, which WirePlumber
    /// links to the camera; running once PipeWire says its link is active.
    public func startViewer(_ name: String, camera: String = "camera") throws -> Subprocess {
        let viewer = try launch(["/usr/bin/gst-launch-1.0", "-q", "pipewiresrc", "client-name=\(name)",
                                 "stream-properties=props,media.type=Video,media.category=Capture,media.role=Camera,application.name=\(name)",
                                 "!", "fakesink"])
        clients.append(viewer)
        try waitFor("\(name) watching \(camera)") { (try? self.dump()).map { Self.hasActiveLink(in: $0) } == true }
        return viewer
    }

    /// Whether PipeWire's dump has a link in state active.
    private static func hasActiveLink(in dump: String) -> Bool {
        guard let objects = try? JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]] else { return false }
        return objects.contains { object in
            (object["type"] as? String)?.hasSuffix(":Link") == true && ((object["info"] as? [String: Any])?["state"] as? String) == "active"
        }
    }

    /// An app capturing from `target`: `pw-record` with `application.name` = `name` and the
    /// process binary `binary`; running once PipeWire says its stream runs.
    /// With `window`, the recorder runs inside that program (`xterm -e`, `foot`), whose window
    /// is then the calling app's, as a browser's is when it records in a child process.
    public func startCaller(
        _ name: String, target: String = "mic", properties: [String: String] = [:], window: (program: String, arguments: [String], environment: [String: String])? = nil
    ) throws -> Subprocess {
        var all = properties
        all["application.name"] = name
        let list = all.sorted { $0.key < $1.key }.map { "\($0.key) = \"\($0.value)\"" }.joined(separator: " ")
        let record = ["/usr/bin/pw-record", "--target", target, "-P", "{ \(list) }", runtimeDirectory + "/\(UInt32.random(in: 0...UInt32.max)).wav"]
        let caller = try launch(window.map { [$0.program] + $0.arguments + record } ?? record, environment: window?.environment ?? [:])
        clients.append(caller)
        return caller
    }

    /// A PulseAudio client recording `device` through pipewire-pulse (`parec`), its stream
    /// called `stream`, as pavucontrol's and GNOME Settings' level meters are ("Peak detect").
    public func startPulseRecorder(_ name: String, stream: String, device: String = "mic") throws -> Subprocess {
        let recorder = try launch(["/usr/bin/parec", "--device=\(device)", "--client-name=\(name)", "--stream-name=\(stream)", "--raw", "/dev/null"])
        clients.append(recorder)
        return recorder
    }

    /// Starts `command` beside this PipeWire (in its chroot, if any) with its environment and
    /// `extra`; ended with the rest.
    public func start(_ command: [String], environment extra: [String: String] = [:]) throws -> Subprocess {
        let client = try launch(command, environment: extra)
        clients.append(client)
        return client
    }

    /// `command` run here or in the chroot, with this PipeWire's environment and `extra` (or
    /// with only `bare`).
    private func launch(_ command: [String], environment extra: [String: String] = [:], bare: [String: String]? = nil) throws -> Subprocess {
        let line = commandLine(command, extra, bare: bare)
        return try Subprocess(executable: line[0], arguments: Array(line.dropFirst()), environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// `command` run to its end, here or in the chroot; its output.
    private func runToEnd(_ command: [String]) throws -> String {
        let line = commandLine(command, [:])
        return try Subprocess.run(line[0], Array(line.dropFirst()))
    }

    private func commandLine(_ command: [String], _ extra: [String: String], bare: [String: String]? = nil) -> [String] {
        let variables = bare ?? environment.merging(extra) { $1 }
        if let chroot { return chroot.command(command, user: nil, environment: variables) }
        return ["/usr/bin/env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command
    }

    /// Waits (bounded, looking every 20 ms: nothing announces these to another process) until
    /// `condition` holds.
    private func waitFor(_ what: String, timeout: Double = 40, _ condition: () -> Bool) throws {
        let deadline = monotonicSeconds() + timeout
        while !condition() {
            guard monotonicSeconds() < deadline else { throw TestFailure("\(what) did not come within \(timeout) s") }
            poll(nil, 0, 20)
        }
    }
}
