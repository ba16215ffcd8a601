// What counts as a call (CallRule) on graphs built by hand, and the call banner's timing
// (CallBannerPolicy) on a test clock. The same rule against the real PipeWire is in
// PipeWireWatchTests.

import BannerCore
import MonotonicClock
import PipeWireCalls
import Testing

struct CallRuleTests {
    /// A microphone (1), a camera (2), a sink (3) and the given streams linked as `links` says.
    static func graph(_ streams: [UInt32: GraphNode], links: [(UInt32, UInt32)]) -> CallGraph {
        var graph = CallGraph()
        graph.update(node: 1, GraphNode(mediaClass: "Audio/Source", nodeName: "alsa_input.usb-mic"))
        graph.update(node: 2, GraphNode(mediaClass: "Video/Source", nodeName: "v4l2_input.webcam"))
        graph.update(node: 3, GraphNode(mediaClass: "Audio/Sink", nodeName: "alsa_output.speakers"))
        for (id, node) in streams { graph.update(node: id, node) }
        for (index, link) in links.enumerated() { graph.link(UInt32(100 + index), from: link.0, to: link.1) }
        return graph
    }

    static func capture(_ name: String, _ state: NodeState = .running, video: Bool = false, pid: Int32 = 4242) -> GraphNode {
        GraphNode(mediaClass: video ? "Stream/Input/Video" : "Stream/Input/Audio", state: state, applicationName: name, binary: name.lowercased(), pid: pid)
    }

    @Test func anAppCapturingTheMicrophoneIsACall() {
        let state = CallRule().state(of: Self.graph([10: Self.capture("Zoom")], links: [(1, 10)]))
        #expect(state == CallState(apps: ["Zoom"], camera: false, pids: [4242]))
    }

    @Test func onlyRunningStreamsFedByAMicrophoneOrCameraCount() {
        let rule = CallRule()
        #expect(!rule.state(of: Self.graph([10: Self.capture("Zoom", .idle)], links: [(1, 10)])).isCall)
        #expect(!rule.state(of: Self.graph([10: Self.capture("Zoom")], links: [])).isCall, "not linked to anything")
        #expect(!rule.state(of: Self.graph([10: Self.capture("OBS")], links: [(3, 10)])).isCall, "recording the speakers' monitor")
        #expect(!rule.state(of: Self.graph([10: Self.capture("Cheese", video: true)], links: [(1, 10)])).isCall, "a video stream fed audio")
    }

    @Test func monitorsMetersPassiveVirtualOwnAndIgnoredStreamsAreNotCalls() {
        var meter = Self.capture("PulseAudio Volume Control")
        meter.mediaName = "Peak detect"
        var monitor = Self.capture("Recorder")
        monitor.isMonitor = true
        var passive = Self.capture("Effects")
        passive.isPassive = true
        var virtualStream = Self.capture("Loopback")
        virtualStream.isVirtual = true
        let own = Self.capture("window-banner", pid: 77)
        let ignored = Self.capture("Discord")
        let graph = Self.graph([10: meter, 11: monitor, 12: passive, 13: virtualStream, 14: own, 15: ignored],
                               links: [(1, 10), (1, 11), (1, 12), (1, 13), (1, 14), (1, 15)])
        #expect(!CallRule(ignoring: ["DISCORD"], ownPID: 77).state(of: graph).isCall)
        #expect(CallRule(ownPID: 77).state(of: graph).apps == ["Discord"])
    }

    /// Screen casts (issue 55): read by an app, they are sharing, never a camera. xdg-desktop-
    /// portal-wlr's stream is a `Video/Source` too, but no device's node, and the app reads it
    /// through a remote the portal opened; Mutter's and KWin's are `Stream/Output/Video`.
    @Test func aScreenCastIsSharingAndNeverACamera() {
        var graph = Self.graph([10: Self.capture("Zoom", video: true)], links: [])
        graph.update(node: 20, GraphNode(mediaClass: "Video/Source", clientID: 31, nodeName: "xdpw-stream"))
        graph.update(client: 31, GraphClient(pid: 500, applicationName: "xdg-desktop-portal-wlr"))
        var reader = Self.capture("Zoom", video: true)
        reader.clientID = 30
        graph.update(node: 10, reader)
        graph.update(client: 30, GraphClient(pid: 4242, access: "portal"))
        graph.link(100, from: 20, to: 10)
        #expect(CallRule().state(of: graph) == CallState(apps: [], camera: false, pids: [], sharing: ["Zoom"], sharingPIDs: [4242]))

        // The same stream read without a portal: a program's own video source, as a camera.
        graph.update(client: 30, GraphClient(pid: 4242))
        #expect(CallRule().state(of: graph) == CallState(apps: ["Zoom"], camera: true, pids: [4242]))

        // Mutter's cast, read by anyone, and with a microphone in the same call.
        var mutter = Self.graph([10: Self.capture("Zoom", video: true), 11: Self.capture("Zoom")], links: [(1, 11)])
        mutter.update(node: 21, GraphNode(mediaClass: "Stream/Output/Video", nodeName: "meta-screen-cast-src"))
        mutter.link(101, from: 21, to: 10)
        #expect(CallRule().state(of: mutter) == CallState(apps: ["Zoom"], camera: false, pids: [4242], sharing: ["Zoom"], sharingPIDs: [4242]))
    }

    /// `--sharing-ignore` (a recorder such as OBS) and `--calls-ignore` are apart: an app whose
    /// calls are ignored still shares, a recorder's cast is no share and no call.
    @Test func sharingIgnoredAndCallsIgnoredAreApart() {
        var graph = Self.graph([10: Self.capture("OBS", video: true, pid: 600), 11: Self.capture("Zoom", video: true)], links: [])
        graph.update(node: 21, GraphNode(mediaClass: "Stream/Output/Video", pid: 100, nodeName: "meta-screen-cast-src"))
        graph.link(101, from: 21, to: 10)
        graph.link(102, from: 21, to: 11)
        #expect(CallRule().state(of: graph).sharing == ["OBS", "Zoom"])
        let state = CallRule(ignoring: ["zoom"], ignoringSharing: ["obs"]).state(of: graph)
        #expect(state == CallState(sharing: ["Zoom"], sharingPIDs: [4242]))
    }

    /// An app reading a cast it makes itself (a thumbnail of its own window) shares nothing.
    @Test func anAppsThumbnailOfItsOwnWindowIsNoShare() {
        var graph = Self.graph([10: Self.capture("Browser", video: true, pid: 700)], links: [])
        graph.update(node: 21, GraphNode(mediaClass: "Stream/Output/Video", clientID: 40, nodeName: "tab-thumbnail"))
        graph.update(client: 40, GraphClient(pid: 700))
        graph.link(101, from: 21, to: 10)
        #expect(CallRule().state(of: graph) == .none)
    }

    /// A camera device read through the camera portal (a Flatpak app) stays a camera.
    @Test func aCameraDeviceThroughThePortalIsACamera() {
        var graph = Self.graph([:], links: [])
        graph.update(node: 2, GraphNode(mediaClass: "Video/Source", nodeName: "v4l2_input.webcam", isDevice: true))
        var reader = Self.capture("org.gnome.Snapshot", video: true)
        reader.clientID = 30
        graph.update(node: 10, reader)
        graph.update(client: 30, GraphClient(pid: 4242, access: "portal"))
        graph.link(100, from: 2, to: 10)
        #expect(CallRule().state(of: graph) == CallState(apps: ["org.gnome.Snapshot"], camera: true, pids: [4242]))
    }

    @Test func aCameraCountsAndIsSaid() {
        let graph = Self.graph([10: Self.capture("Zoom"), 11: Self.capture("Zoom", video: true)], links: [(1, 10), (2, 11)])
        #expect(CallRule().state(of: graph) == CallState(apps: ["Zoom"], camera: true, pids: [4242]))
    }

    @Test func namesComeFromTheAppThenTheBinaryThenTheFlatpakIDCleanedAndShortened() {
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", applicationName: "Firefox", binary: "firefox-esr")) == "Firefox")
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", binary: "signal-desktop")) == "signal-desktop")
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", appID: "com.slack.Slack")) == "com.slack.Slack")
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", applicationName: "Evil\u{1B}[2J\nName\u{202E}")) == "Evil [2J Name")
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", applicationName: String(repeating: "A", count: 5000))).count == CallRule.longestName)
        #expect(CallRule.displayName(of: GraphNode(mediaClass: "", applicationName: "\u{7}\u{7}")) == "")
    }
}

struct CallBannerPolicyTests {
    static let zoom = CallState(apps: ["Zoom"], pids: [1])
    static let both = CallState(apps: ["Signal", "Zoom"], pids: [1, 2])

    @Test func aCallShowsAfterTheStartDelayAndGoesAfterTheHideDelay() {
        var policy = CallBannerPolicy(startDelay: 0.15, hideDelay: 1)
        let start = MonotonicTime(seconds: 100)
        #expect(policy.observe(Self.zoom, at: start) == [])
        #expect(policy.nextDeadline == start + 0.15)
        #expect(policy.advance(to: start + 0.15) == [.show(Self.zoom)])
        #expect(policy.observe(Self.both, at: start + 2) == [.show(Self.both)], "a change of apps updates it at once")
        #expect(policy.observe(.none, at: start + 3) == [])
        #expect(policy.advance(to: start + 3.5) == [])
        #expect(policy.advance(to: start + 4) == [.hide])
        #expect(policy.nextDeadline == nil)
    }

    @Test func aMomentaryCaptureShowsNothingAndAMutedGapDoesNotFlicker() {
        var policy = CallBannerPolicy(startDelay: 0.15, hideDelay: 1)
        let start = MonotonicTime(seconds: 0)
        #expect(policy.observe(Self.zoom, at: start) == [])
        #expect(policy.observe(.none, at: start + 0.1) == [])
        #expect(policy.advance(to: start + 1) == [], "a probe of the microphone")
        #expect(policy.observe(Self.zoom, at: start + 2) == [])
        #expect(policy.advance(to: start + 2.2) == [.show(Self.zoom)])
        #expect(policy.observe(.none, at: start + 3) == [])
        #expect(policy.observe(Self.zoom, at: start + 3.5) == [], "muted for half a second: the banner stayed")
        #expect(policy.advance(to: start + 10) == [])
    }

    @Test func closedByTheUserItStaysAwayUntilThisCallEnds() {
        var policy = CallBannerPolicy(startDelay: 0, hideDelay: 1)
        let start = MonotonicTime(seconds: 0)
        #expect(policy.observe(Self.zoom, at: start) == [.show(Self.zoom)])
        policy.userDismissed()
        #expect(policy.observe(Self.both, at: start + 1) == [])
        #expect(policy.observe(.none, at: start + 2) == [])
        #expect(policy.advance(to: start + 5) == [])
        #expect(policy.observe(Self.zoom, at: start + 6) == [.show(Self.zoom)], "the next call shows")
    }
}
