// What a call is, decided from PipeWire's graph as the watcher last heard it: the capturing
// streams (their state and who they are), the sources (microphones and cameras) and the links
// between them. Pure Swift, no PipeWire: the rule is tested on graphs built by hand, and the
// watcher (PipeWireWatch) only feeds it. Start reading at `CallRule.state(of:)`.

/// A PipeWire node's state, as `enum pw_node_state`.
public enum NodeState: Int32, Sendable {
    case error = -1
    case creating = 0
    case suspended = 1
    case idle = 2
    case running = 3
}

/// A node the rule looks at: a stream capturing (`Stream/Input/…`) or a source (`Audio/Source`,
/// `Video/Source`), with the properties that say who it is.
public struct GraphNode: Sendable, Hashable {
    public var mediaClass: String
    public var state: NodeState
    /// `application.name`, `application.process.binary`, Flatpak's `pipewire.access.portal.app_id`.
    public var applicationName: String
    public var binary: String
    public var appID: String
    /// `application.process.id`; 0 when unknown (its client's is used then).
    public var pid: Int32
    /// The node's client (`client.id`), whose process it is; nil when unknown.
    public var clientID: UInt32?
    /// `media.name` and `node.name`: meters and peak detectors are known by these.
    public var mediaName: String
    public var nodeName: String
    /// `stream.monitor`, `node.passive`, `node.virtual`.
    public var isMonitor: Bool
    public var isPassive: Bool
    public var isVirtual: Bool
    /// `device.id` is set: a device's node (a real camera or microphone), not a stream an app made.
    public var isDevice: Bool

    public init(
        mediaClass: String, state: NodeState = .creating, applicationName: String = "", binary: String = "", appID: String = "",
        pid: Int32 = 0, clientID: UInt32? = nil, mediaName: String = "", nodeName: String = "", isMonitor: Bool = false, isPassive: Bool = false,
        isVirtual: Bool = false, isDevice: Bool = false
    ) {
        self.isDevice = isDevice
        self.clientID = clientID
        self.mediaClass = mediaClass
        self.state = state
        self.applicationName = applicationName
        self.binary = binary
        self.appID = appID
        self.pid = pid
        self.mediaName = mediaName
        self.nodeName = nodeName
        self.isMonitor = isMonitor
        self.isPassive = isPassive
        self.isVirtual = isVirtual
    }
}

/// A process connected to PipeWire: its pid as its socket vouches for it, its name, its binary
/// (from /proc), its Flatpak app id, and how its access is controlled (`pipewire.access`:
/// "portal" for a remote that a portal opened for an app).
public struct GraphClient: Sendable, Hashable {
    public var pid: Int32
    public var applicationName: String
    public var binary: String
    public var appID: String
    public var access: String

    public init(pid: Int32 = 0, applicationName: String = "", binary: String = "", appID: String = "", access: String = "") {
        self.pid = pid
        self.applicationName = applicationName
        self.binary = binary
        self.appID = appID
        self.access = access
    }
}

/// The graph as last heard: nodes, clients and links by their PipeWire ids.
public struct CallGraph: Sendable {
    public private(set) var nodes: [UInt32: GraphNode] = [:]
    public private(set) var clients: [UInt32: GraphClient] = [:]
    /// Link id → (the node it comes out of, the node it goes into).
    public private(set) var links: [UInt32: (output: UInt32, input: UInt32)] = [:]

    public init() {}

    /// A node as it is now (new, or changed).
    public mutating func update(node id: UInt32, _ node: GraphNode) { nodes[id] = node }
    /// A client as it is now.
    public mutating func update(client id: UInt32, _ client: GraphClient) { clients[id] = client }
    /// A link from `output` to `input`.
    public mutating func link(_ id: UInt32, from output: UInt32, to input: UInt32) { links[id] = (output, input) }
    /// A node or link that is gone.
    public mutating func remove(_ id: UInt32) {
        nodes[id] = nil
        clients[id] = nil
        links[id] = nil
    }
}

/// Who is in a call now: the apps capturing a microphone or a camera, and whether a camera is;
/// and, apart, the apps reading a screen cast.
public struct CallState: Sendable, Hashable {
    /// The capturing apps' names, shortened and cleaned, sorted, each once.
    public var apps: [String]
    public var camera: Bool
    /// The processes capturing (for raising a window), sorted.
    public var pids: [Int32]
    /// The apps reading a screen cast (named as ``apps`` are): sharing the screen, never a camera.
    public var sharing: [String]
    /// Their processes, sorted.
    public var sharingPIDs: [Int32]

    public init(apps: [String] = [], camera: Bool = false, pids: [Int32] = [], sharing: [String] = [], sharingPIDs: [Int32] = []) {
        self.apps = apps
        self.camera = camera
        self.pids = pids
        self.sharing = sharing
        self.sharingPIDs = sharingPIDs
    }

    /// No call.
    public static let none = CallState()
    public var isCall: Bool { !apps.isEmpty || camera }
    /// Who shares the screen, apart from any call.
    public var sharingState: SharingState { SharingState(apps: sharing, pids: sharingPIDs) }
}

/// Who shares the screen now: the apps reading a screen cast, and their processes.
public struct SharingState: Sendable, Hashable {
    /// The apps' names (as ``CallState/apps`` are), sorted, each once.
    public var apps: [String]
    /// Their processes (for raising a window), sorted.
    public var pids: [Int32]

    public init(apps: [String] = [], pids: [Int32] = []) {
        self.apps = apps
        self.pids = pids
    }

    /// Nobody shares the screen.
    public static let none = SharingState()
    public var isSharing: Bool { !apps.isEmpty }
}

/// What counts as a call (docs/calls.md): an application stream capturing, running, from a
/// microphone (`Audio/Source…`) or a camera (`Video/Source…`) — not a monitor stream, a meter or
/// peak detector, a passive or virtual stream, this process's own, or an app the user ignores.
/// And what counts as sharing the screen: such a stream reading a screen cast that another
/// process makes (an app's thumbnail of its own window is not sharing).
public struct CallRule: Sendable {
    /// Names matched (case-insensitively, whole) against `application.name`, the binary and the
    /// Flatpak app id (`--calls-ignore`, `calls-ignore`).
    public var ignored: Set<String>
    /// The same for screen sharing (`--sharing-ignore`, `sharing-ignore`): a recorder such as OBS.
    public var sharingIgnored: Set<String>
    /// This process's pid: its own streams are never a call.
    public var ownPID: Int32
    /// The longest app name shown (more is cut with an ellipsis).
    public static let longestName = 32

    public init(ignoring ignored: [String] = [], ignoringSharing sharingIgnored: [String] = [], ownPID: Int32 = 0) {
        self.ignored = Set(ignored.map { $0.lowercased() })
        self.sharingIgnored = Set(sharingIgnored.map { $0.lowercased() })
        self.ownPID = ownPID
    }

    /// What feeds a capturing stream.
    private enum Feed { case microphone, camera, screen }

    public func state(of graph: CallGraph) -> CallState {
        var fedBy: [UInt32: Set<Feed>] = [:] // stream → what feeds it
        for link in graph.links.values {
            guard let producer = graph.nodes[link.output], let feed = Self.feed(from: producer, into: graph.nodes[link.input], graph) else { continue }
            fedBy[link.input, default: []].insert(feed)
        }
        var apps: Set<String> = []
        var sharing: Set<String> = []
        var pids: Set<Int32> = []
        var sharingPIDs: Set<Int32> = []
        var camera = false
        for (id, stream) in graph.nodes where stream.state == .running {
            // What the stream leaves unsaid, its client says.
            let node = Self.completed(stream, by: stream.clientID.flatMap { graph.clients[$0] })
            guard countsAsCapture(node), let feeds = fedBy[id] else { continue }
            if node.mediaClass == "Stream/Input/Video" {
                if feeds.contains(.screen), !isIgnored(node, by: sharingIgnored) {
                    sharing.insert(Self.displayName(of: node))
                    if node.pid > 0 { sharingPIDs.insert(node.pid) }
                }
                guard feeds.contains(.camera), !isIgnored(node, by: ignored) else { continue }
                camera = true
            } else {
                guard feeds.contains(.microphone), !isIgnored(node, by: ignored) else { continue }
            }
            apps.insert(Self.displayName(of: node))
            if node.pid > 0 { pids.insert(node.pid) }
        }
        return CallState(apps: apps.sorted(), camera: camera, pids: pids.sorted(), sharing: sharing.sorted(), sharingPIDs: sharingPIDs.sorted())
    }

    /// What `producer` is to the stream it feeds (`consumer`), by what PipeWire says of them, not
    /// by app names (docs/calls.md): a microphone; a screen cast (a compositor's cast stream,
    /// `Stream/Output/Video`: Mutter's, KWin's; or a `Video/Source` that is no device's node, read
    /// through a remote a portal opened: xdg-desktop-portal-wlr's); else a camera.
    private static func feed(from producer: GraphNode, into consumer: GraphNode?, _ graph: CallGraph) -> Feed? {
        if producer.mediaClass.hasPrefix("Audio/Source") { return .microphone }
        if producer.mediaClass == "Stream/Output/Video" {
            // An app reading a video stream it makes itself (a thumbnail of its own window) shares nothing.
            return sameProcess(producer, consumer, graph) ? nil : .screen
        }
        guard producer.mediaClass.hasPrefix("Video/Source") else { return nil }
        let throughPortal = consumer?.clientID.flatMap { graph.clients[$0] }?.access == "portal"
        return !producer.isDevice && throughPortal ? .screen : .camera
    }

    /// Whether two nodes are one process's (by their pids, or their clients').
    private static func sameProcess(_ one: GraphNode, _ other: GraphNode?, _ graph: CallGraph) -> Bool {
        guard let other else { return false }
        func pid(_ node: GraphNode) -> Int32 { node.pid > 0 ? node.pid : node.clientID.flatMap { graph.clients[$0] }?.pid ?? 0 }
        let first = pid(one)
        return first > 0 && first == pid(other)
    }

    private static func completed(_ node: GraphNode, by client: GraphClient?) -> GraphNode {
        guard let client else { return node }
        var node = node
        if node.pid <= 0 { node.pid = client.pid }
        if node.binary.isEmpty { node.binary = client.binary }
        if node.appID.isEmpty { node.appID = client.appID }
        if node.applicationName.isEmpty { node.applicationName = client.applicationName }
        return node
    }

    private func countsAsCapture(_ node: GraphNode) -> Bool {
        guard node.mediaClass == "Stream/Input/Audio" || node.mediaClass == "Stream/Input/Video" else { return false }
        if node.isMonitor || node.isPassive || node.isVirtual { return false }
        if ownPID > 0, node.pid == ownPID { return false }
        // Level meters and peak detectors (pavucontrol, GNOME Settings) read a microphone to
        // draw a bar; PulseAudio clients name those streams so.
        let names = (node.mediaName + " " + node.nodeName).lowercased()
        return !(names.contains("peak detect") || names.contains("level meter") || names.contains("peak meter"))
    }

    /// Whether the user asked that `node`'s app be ignored, by one of `names`.
    private func isIgnored(_ node: GraphNode, by names: Set<String>) -> Bool {
        [node.applicationName, node.binary, node.appID].contains { !$0.isEmpty && names.contains($0.lowercased()) }
    }

    /// The app as the banner names it: `application.name`, else the binary, else the Flatpak
    /// app id; control characters removed, spaces folded, at most ``longestName`` characters;
    /// empty when it has no name at all (the banner then says "an app", translated).
    public static func displayName(of node: GraphNode) -> String {
        let raw = [node.applicationName, node.binary, node.appID].first { !clean($0).isEmpty } ?? ""
        let name = clean(raw)
        guard !name.isEmpty else { return "" }
        return name.count > longestName ? String(name.prefix(longestName - 1)) + "…" : name
    }

    private static func clean(_ text: String) -> String {
        let visible = text.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? " " : Character($0) }
        return String(visible).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
