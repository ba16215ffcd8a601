// The watcher against Debian's real PipeWire (TestPipeWire: pipewire, wireplumber and
// pipewire-pulse on a private runtime directory and bus): a caller on a virtual microphone is
// a call named as it named itself, a meter and an ignored app are not, and PipeWire killed
// under the watcher is a lost connection, after which a new watch derives the state afresh.
// A camera is SPA's video test source as a Video/Source node, watched by GStreamer's
// pipewiresrc with the media type a video call's stream has.

import BannerCore
import Foundation
import Glibc
import PipeWireCalls
import ProcessTestSupport
import Testing

@Suite(
    "PipeWire: who is in a call", .serialized,
    .needsProgram("/usr/bin/pipewire", package: "pipewire-bin"), .needsProgram("/usr/bin/wireplumber", package: "wireplumber"),
    .needsProgram("/usr/bin/pipewire-pulse", package: "pipewire-pulse"), .needsProgram("/usr/bin/pactl", package: "pulseaudio-utils"))
struct PipeWireWatchTests {
    /// Serves `watch` (its descriptor, 20 ms at a time) until `condition` holds for the call
    /// state, at most `timeout` seconds; the last state.
    static func serve(_ watch: PipeWireWatch, rule: CallRule = CallRule(), timeout: Double = 20, until condition: (CallState) -> Bool) throws -> CallState {
        let deadline = monotonicSeconds() + timeout
        var state = rule.state(of: watch.graph)
        while !(watch.isSynced && condition(state)), monotonicSeconds() < deadline {
            var descriptor = pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20)
            try watch.dispatch()
            state = rule.state(of: watch.graph)
        }
        return state
    }

    @Test func aCallerOnTheMicrophoneIsACallAndItsEndIsNot() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        #expect(try Self.serve(watch) { _ in true } == .none)
        let caller = try pipewire.startCaller("Zoom")
        let state = try Self.serve(watch) { $0.apps == ["Zoom"] }
        #expect(state.apps == ["Zoom"] && !state.camera && state.pids == [caller.pid])
        caller.killGroup()
        _ = caller.waitForExit(timeout: 5)
        #expect(try Self.serve(watch) { !$0.isCall } == .none)
    }

    @Test func aPeakMeterIsNotACallAndAnIgnoredAppIsNot() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        _ = try pipewire.startPulseRecorder("Volume Control", stream: "Peak detect")
        _ = try pipewire.startCaller("Discord")
        _ = try pipewire.startCaller("Signal")
        let rule = CallRule(ignoring: ["discord"])
        // pipewire-pulse makes the meter's stream a while after the recorder connects: the
        // answer is read once the watch has heard of all three streams capturing, the meter's
        // peak-detect stream among them.
        let capturing = { (name: String) in
            { (watch: PipeWireWatch) in
                watch.graph.nodes.values.contains { node in
                    node.state == .running && node.mediaClass.hasPrefix("Stream/Input")
                        && (node.applicationName == name || node.clientID.flatMap { watch.graph.clients[$0]?.applicationName } == name)
                }
            }
        }
        _ = try Self.serve(watch, rule: rule) { _ in
            ["Volume Control", "Discord", "Signal"].allSatisfy { capturing($0)(watch) }
        }
        #expect(["Volume Control", "Discord", "Signal"].allSatisfy { capturing($0)(watch) }, "\(watch.graph.nodes.values.map(\.applicationName))")
        #expect(rule.state(of: watch.graph).apps == ["Signal"])
        // PipeWire's own view: three capturing streams, one of them a meter.
        let dump = try pipewire.dump()
        #expect(dump.contains("\"application.name\": \"Volume Control\"") && dump.contains("\"application.name\": \"Discord\""))
    }

    /// A real client naming itself with 40 KB of escapes, bidi overrides and emoji: the banner
    /// gets a name of 32 characters at most, nothing invisible in it.
    @Test func aHostileNameFromARealClientIsBoundedAndCleaned() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        // SPA JSON's escapes (`\u001b`) put the raw control characters in the property.
        _ = try pipewire.startCaller(String(repeating: #"Zo\u001b[31m\u202eom \#u{1F4DE} "#, count: 2000))
        let name = try #require(try Self.serve(watch) { $0.isCall }.apps.first)
        #expect(name == "Zo [31m om \u{1F4DE} Zo [31m om \u{1F4DE} Zo [3…", "\(name)")
        #expect(name.count == CallRule.longestName)
    }

    @Test(.needsProgram("/usr/bin/gst-launch-1.0", package: "gstreamer1.0-tools"),
          .needsFile(["/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpipewire.so"], package: "gstreamer1.0-pipewire"),
          .needsFile(["/usr/lib/x86_64-linux-gnu/spa-0.2/videotestsrc/libspa-videotestsrc.so"], package: "libspa-0.2-modules"))
    func aCameraWatchedIsACallThatSaysCamera() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addCamera()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        #expect(try Self.serve(watch) { _ in true } == .none)
        let viewer = try pipewire.startViewer("Cheese")
        let state = try Self.serve(watch) { $0.camera }
        #expect(state.apps == ["Cheese"] && state.camera && state.pids == [viewer.pid], "\(state)")
        viewer.killGroup()
        _ = viewer.waitForExit(timeout: 5)
        #expect(try Self.serve(watch) { !$0.isCall } == .none)
    }

    /// What tells a screen cast from a camera (issue 55) is read as PipeWire says it: each
    /// client's `pipewire.access`, and whether a node is a device's (`device.id`), held to
    /// pw-dump's view of the same objects.
    @Test func howEachClientsAccessIsControlledAndWhichNodesAreDevicesAreReadAsPwDumpSaysThem() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        _ = try pipewire.startCaller("Zoom")
        _ = try Self.serve(watch) { $0.apps == ["Zoom"] }
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(pipewire.dump().utf8)) as? [[String: Any]])
        let props = { (object: [String: Any]) in (object["info"] as? [String: Any])?["props"] as? [String: Any] ?? [:] }
        var clients = 0
        for object in dump where (object["type"] as? String)?.hasSuffix(":Client") == true {
            guard let id = (object["id"] as? Int).map(UInt32.init), let client = watch.graph.clients[id] else { continue }
            #expect(client.access == props(object)["pipewire.access"] as? String ?? "", "client \(id)")
            clients += 1
        }
        var nodes = 0
        for object in dump where (object["type"] as? String)?.hasSuffix(":Node") == true {
            guard let id = (object["id"] as? Int).map(UInt32.init), let node = watch.graph.nodes[id] else { continue }
            #expect(node.isDevice == (props(object)["device.id"] != nil), "node \(id)")
            nodes += 1
        }
        // The caller's client and its stream at least, and the microphone.
        #expect(clients >= 1 && nodes >= 2, "\(clients) clients, \(nodes) nodes compared")
        let zoom = try #require(watch.graph.nodes.values.first { $0.applicationName == "Zoom" })
        #expect(zoom.clientID.flatMap { watch.graph.clients[$0] }?.access == "unrestricted")
    }

    @Test func pipeWireKilledIsALostConnectionAndANewWatchSeesTheCallAgain() throws {
        let pipewire = try TestPipeWire()
        try pipewire.addMicrophone()
        let watch = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        _ = try pipewire.startCaller("Zoom")
        #expect(try Self.serve(watch) { $0.apps == ["Zoom"] }.apps == ["Zoom"])
        pipewire.killDaemons()
        #expect(throws: PipeWireError.lost) { _ = try Self.serve(watch) { _ in false } }
        #expect(throws: PipeWireError.self) { try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0") }
        try pipewire.restartDaemons()
        try pipewire.addMicrophone()
        _ = try pipewire.startCaller("Zoom")
        let again = try PipeWireWatch(remote: pipewire.runtimeDirectory + "/pipewire-0")
        #expect(try Self.serve(again) { $0.apps == ["Zoom"] }.apps == ["Zoom"])
    }
}
