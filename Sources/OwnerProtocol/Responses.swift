// What the owner answers a client (see Messages.swift for what clients ask, and the protocol's
// version and codec): the response frame, its errors, the shown reply and the status a
// subscriber follows. docs/owner.md's "Wire protocol" section documents these shapes.

import BannerCore

/// What the owner answers.
public struct OwnerResponse: Codable, Sendable, Equatable {
    /// What the owner answers: one case per kind of answer, with exactly its fields. On the
    /// wire, today's JSON object (`{"v":2,"shown":{…},"warnings":[…]}`).
    public enum Message: Sendable, Equatable {
        /// The request failed; nothing changed on screen.
        case error(OwnerError)
        /// Answer to `show`, with the problems worth a line on stderr that did not stop it (low
        /// contrast, an icon that cannot be read).
        case shown(ShownReply, warnings: [String]?)
        /// Answer to `dismiss`: how many banners (visible or queued) went away; to `action`: how
        /// many had the button clicked (1, or 0 never: an error says why).
        case dismissed(Int)
        /// Answer to `status` (and each change for `subscribe`).
        case status(OwnerStatus)
        /// Second frame of `show --wait`: why the banner is gone.
        case ended(BannerEndReason)
        /// Answer to `stats`, one page; `more`: another page follows (ask for the keys after
        /// this page's last).
        case stats(BannerStats, more: Bool)
        /// Nothing changed, and the owner still runs: sent only to clients that asked for it.
        case keepalive
        /// Answer to `handover`.
        case handover(Handover)
        /// Answer to a `sharing` report: how many private banners the owner holds back now.
        case held(Int)
    }

    public var v: Int
    public var message: Message

    public init(_ message: Message, version: Int = OwnerProtocol.version) {
        v = version
        self.message = message
    }

    public init(error: OwnerError) { self.init(.error(error)) }
    public init(shown: ShownReply, warnings: [String]? = nil) { self.init(.shown(shown, warnings: warnings)) }
    public init(dismissed: Int) { self.init(.dismissed(dismissed)) }
    public init(status: OwnerStatus) { self.init(.status(status)) }
    public init(ended: BannerEndReason) { self.init(.ended(ended)) }
    public init(stats: BannerStats, more: Bool = false) { self.init(.stats(stats, more: more)) }
    public init(handover: Handover) { self.init(.handover(handover)) }
    public init(held: Int) { self.init(.held(held)) }
    /// A keepalive frame.
    public static var keepalive: OwnerResponse { OwnerResponse(.keepalive) }

    // What each case carries, for a client that expects one answer and reports any other.

    public var error: OwnerError? { if case .error(let error) = message { error } else { nil } }
    public var shown: ShownReply? { if case .shown(let shown, _) = message { shown } else { nil } }
    public var warnings: [String]? { if case .shown(_, let warnings) = message { warnings } else { nil } }
    public var dismissed: Int? { if case .dismissed(let count) = message { count } else { nil } }
    public var status: OwnerStatus? { if case .status(let status) = message { status } else { nil } }
    public var ended: BannerEndReason? { if case .ended(let reason) = message { reason } else { nil } }
    public var stats: BannerStats? { if case .stats(let stats, _) = message { stats } else { nil } }
    public var more: Bool { if case .stats(_, let more) = message { more } else { false } }
    public var isKeepalive: Bool { message == .keepalive }
    public var handover: Handover? { if case .handover(let handover) = message { handover } else { nil } }
    public var held: Int? { if case .held(let count) = message { count } else { nil } }

    private enum CodingKeys: String, CodingKey {
        case v, error, shown, dismissed, status, ended, warnings, stats, keepalive, more, handover, held
    }

    /// The first answer present, in this order (an owner only ever sends one, `warnings` with
    /// `shown` and `more` with `stats`); none is not a response.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        if let error = try container.decodeIfPresent(OwnerError.self, forKey: .error) {
            message = .error(error)
        } else if let shown = try container.decodeIfPresent(ShownReply.self, forKey: .shown) {
            message = .shown(shown, warnings: try container.decodeIfPresent([String].self, forKey: .warnings))
        } else if let count = try container.decodeIfPresent(Int.self, forKey: .dismissed) {
            message = .dismissed(count)
        } else if let status = try container.decodeIfPresent(OwnerStatus.self, forKey: .status) {
            message = .status(status)
        } else if let reason = try container.decodeIfPresent(BannerEndReason.self, forKey: .ended) {
            message = .ended(reason)
        } else if let stats = try container.decodeIfPresent(BannerStats.self, forKey: .stats) {
            message = .stats(stats, more: try container.decodeIfPresent(Bool.self, forKey: .more) ?? false)
        } else if let handover = try container.decodeIfPresent(Handover.self, forKey: .handover) {
            message = .handover(handover)
        } else if let count = try container.decodeIfPresent(Int.self, forKey: .held) {
            message = .held(count)
        } else if try container.decodeIfPresent(Bool.self, forKey: .keepalive) == true {
            message = .keepalive
        } else {
            throw DecodingError.keyNotFound(AnswerKey(), DecodingError.Context(codingPath: [], debugDescription: "no answer"))
        }
    }

    /// What a response without any answer lacks, as `OwnerProtocol.decode` names it.
    private struct AnswerKey: CodingKey {
        var stringValue = "error, shown, dismissed, status, ended, stats, handover, held or keepalive"
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        switch message {
        case .error(let error): try container.encode(error, forKey: .error)
        case .shown(let shown, let warnings):
            try container.encode(shown, forKey: .shown)
            try container.encodeIfPresent(warnings, forKey: .warnings)
        case .dismissed(let count): try container.encode(count, forKey: .dismissed)
        case .status(let status): try container.encode(status, forKey: .status)
        case .ended(let reason): try container.encode(reason, forKey: .ended)
        case .stats(let stats, let more):
            try container.encode(stats, forKey: .stats)
            if more { try container.encode(true, forKey: .more) }
        case .keepalive: try container.encode(true, forKey: .keepalive)
        case .handover(let handover): try container.encode(handover, forKey: .handover)
        case .held(let count): try container.encode(count, forKey: .held)
        }
    }
}

/// A failed request, with the exit code the client reports.
public struct OwnerError: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// A bad value or unknown monitor/style: exit 64.
        case usage
        /// The config file is broken: exit 78.
        case config
        /// Client and owner speak different protocol versions: exit 76.
        case version
        /// The request could not be read: exit 76.
        case `protocol`
        /// Too many clients at once; try again: exit 75.
        case busy
        /// The owner's display went away (the owner is ending): exit 69. Sent to the clients
        /// waiting on a banner (`show --wait`, the network monitor).
        case displayLost = "display-lost"
        /// A `show-arguments` request the client must carry out itself (`--help`, another
        /// display): it parses the arguments and sends a `show`.
        case redirect
    }

    public var kind: Kind
    /// One line naming the bad value.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Where a `show` went.
public struct ShownReply: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        /// Slid in: nothing was visible.
        case presented
        /// Replaced the visible banner in place (cross-fade).
        case updated
        /// Waiting behind the visible banner (`--enqueue`).
        case queued
        /// Not shown: its `--once` key was shown before.
        case skipped
        /// Held back: a private banner while the screen is shared; it shows once sharing ends.
        case held
    }

    public var state: State
    /// Position in the queue (1 = next) when queued.
    public var position: Int?
    /// The monitors it is on, or queued for.
    public var monitors: [String]
    /// True when the request asked to `--wait`: an `ended` frame follows (unless skipped).
    public var wait: Bool?
    /// The seconds between the `keepalive` frames that come until then, when asked for (an
    /// owner from before keepalives leaves it out and sends none).
    public var keepalive: Double?

    public init(state: State, position: Int? = nil, monitors: [String], wait: Bool? = nil, keepalive: Double? = nil) {
        self.state = state
        self.position = position
        self.monitors = monitors
        self.wait = wait
        self.keepalive = keepalive
    }
}

/// `window-banner status`: the owner and each monitor.
public struct OwnerStatus: Codable, Sendable, Equatable {
    public var pid: Int
    public var display: String
    public var monitors: [MonitorStatus]
    /// The banners held back, oldest first (private banners while the screen is shared); nil
    /// when none is.
    public var waiting: [HeldBannerStatus]?

    public init(pid: Int, display: String, monitors: [MonitorStatus], waiting: [HeldBannerStatus]? = nil) {
        self.pid = pid
        self.display = display
        self.monitors = monitors
        self.waiting = waiting
    }
}

/// A banner the owner holds back instead of showing it.
public struct HeldBannerStatus: Codable, Sendable, Equatable {
    /// Why it is held: `sharing` (a private banner while the screen is shared).
    public var held: String
    public var title: String
    public var subtitle: String?
    public var id: String?
    public var style: String?
    /// The monitors it goes to once it shows.
    public var monitors: [String]

    public init(held: String, title: String, subtitle: String? = nil, id: String? = nil, style: String? = nil, monitors: [String]) {
        self.held = held
        self.title = title
        self.subtitle = subtitle
        self.id = id
        self.style = style
        self.monitors = monitors
    }
}

/// One monitor's banner and queue.
public struct MonitorStatus: Codable, Sendable, Equatable {
    public var monitor: String
    public var primary: Bool
    public var presented: Bool
    public var title: String?
    public var subtitle: String?
    public var id: String?
    /// Banner height in pixels as laid out on this monitor.
    public var height: Int?
    /// Space reserved at the top of this monitor right now, pixels.
    public var reserved: Int
    public var compact: Bool?
    /// `sticky` or `transient`.
    public var mode: String?
    /// Seconds until a transient banner times out.
    public var remaining: Double?
    public var queue: Int
    /// Why a presented banner is not on screen: `locked` (a screen locker or the screensaver
    /// is up); nil when it shows, or none is presented.
    public var hidden: String?
    /// The `--style` the banner was shown with; nil for none.
    public var style: String?
    /// The progress bar's fraction, 0...1; nil for none.
    public var progress: Double?
    /// The action buttons' labels, the primary first; nil for none.
    public var actions: [String]?

    public init(
        monitor: String, primary: Bool, presented: Bool, title: String?, subtitle: String? = nil, id: String?, height: Int?,
        reserved: Int, compact: Bool?, mode: String?, remaining: Double?, queue: Int, hidden: String? = nil,
        style: String? = nil, progress: Double? = nil, actions: [String]? = nil
    ) {
        self.monitor = monitor
        self.primary = primary
        self.presented = presented
        self.title = title
        self.subtitle = subtitle
        self.id = id
        self.height = height
        self.reserved = reserved
        self.compact = compact
        self.mode = mode
        self.remaining = remaining
        self.queue = queue
        self.hidden = hidden
        self.style = style
        self.progress = progress
        self.actions = actions
    }
}
