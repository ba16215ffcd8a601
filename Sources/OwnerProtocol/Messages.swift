// What clients and the owner say to each other, version 3. A client sends one request frame;
// the owner answers with one response frame, and for `show --wait` a second one when the banner
// is gone; a `subscribe` (`status --follow`) gets a status frame now and one per change; a
// `sharing` report (a watcher saying whether the screen is shared) is answered and its
// connection kept, the watcher's for as long as it watches. Frames
// a client asked for with `keepalive` tell it the owner still runs while nothing changes. Every frame carries `v`, the protocol version; the owner reads `v` before anything
// else, so a client of another version gets a clear `version` error instead of a decoding one.
// docs/owner.md's "Wire protocol" section documents these shapes. Some of them are frozen —
// the same in every version, past and future — so that a client can replace an owner of
// another version (`handover`, `quit`, the `version` error): see "Versions" there.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BannerCore
import Glibc

/// The protocol's version and codec.
public enum OwnerProtocol {
    /// Bumped whenever a message changes shape. 1: up to issue 21; 2: `handover`, paged
    /// `stats`, the `action` request and the `secondary-action` ending; 3: the `sharing` report,
    /// `show`'s `private`, the `held` answer and state, and `status`'s `waiting` banners. `WINDOW_BANNER_TEST_PROTOCOL_VERSION` makes a process speak another number,
    /// so that tests can run a real owner of another version beside this one.
    public static let version: Int = getenv(testVersionVariable).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } ?? 3

    /// See `version`.
    public static let testVersionVariable = "WINDOW_BANNER_TEST_PROTOCOL_VERSION"

    /// `message` as a frame body.
    public static func encode(_ message: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding these plain structs cannot fail; an empty object keeps the peer's decoder honest.
        return (try? Array(encoder.encode(message))) ?? Array("{}".utf8)
    }

    /// The protocol version a frame body claims, `nil` when it is not a JSON object with `v`.
    public static func version(of body: [UInt8]) -> Int? {
        (try? JSONDecoder().decode(Versioned.self, from: Data(body)))?.v
    }

    /// `body` decoded as `type`, or a one-line reason.
    public static func decode<Message: Decodable>(_ type: Message.Type, from body: [UInt8]) -> Result<Message, DecodeFailure> {
        do {
            return .success(try JSONDecoder().decode(type, from: Data(body)))
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(DecodeFailure(reason: "missing field '\(key.stringValue)'"))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            return .failure(DecodeFailure(reason: "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"))
        } catch DecodingError.dataCorrupted(let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(DecodeFailure(reason: path.isEmpty ? "not JSON" : "bad value at '\(path)'"))
        } catch {
            return .failure(DecodeFailure(reason: "not a \(Message.self)"))
        }
    }

    private struct Versioned: Decodable { var v: Int }
}

/// Why a frame body is not the expected message.
public struct DecodeFailure: Error, Sendable, Equatable {
    public var reason: String

    public init(reason: String) { self.reason = reason }
}

/// One thing a client asks of the owner: the protocol version and the message, one case per
/// command with exactly the fields it needs. On the wire it is today's JSON object — `v`,
/// `command`, and the fields under the command's key (`{"v":2,"command":"show","show":{…}}`) —
/// so owners and clients of the same version read each other whichever side is older code.
public struct OwnerRequest: Codable, Sendable, Equatable {
    /// The `command` string of each message.
    public enum Command: String, Codable, Sendable {
        case show, dismiss, status
        /// Dismiss everything and exit (`dismiss --all --quit`).
        case quit
        /// The per-key counts (`window-banner stats`).
        case stats
        /// `show` as typed: the owner parses the arguments itself (see ShowArgumentsRequest).
        case showArguments = "show-arguments"
        /// `status --follow`: the status now and after every change, until the client goes.
        case subscribe
        /// Frozen: describe every banner as `show` arguments, then exit (see `Handover`).
        case handover
        /// `window-banner action`: what a click on an action button does.
        case action
        /// A watcher (`window-banner monitor`) says whether the screen is shared now; the
        /// connection stays open for as long as it watches (see SharingReport).
        case sharing
    }

    /// What is asked.
    public enum Message: Sendable, Equatable {
        case show(ShowRequest)
        case showArguments(ShowArgumentsRequest)
        case dismiss(DismissRequest)
        /// Dismiss everything and exit; the fields `dismiss --all --quit` sends, none when frozen.
        case quit(DismissRequest?)
        case status
        /// Which page (nil: the first).
        case stats(StatsRequest?)
        case subscribe(SubscribeRequest)
        case handover
        case action(ActionRequest)
        case sharing(SharingReport)

        public var command: Command {
            switch self {
            case .show: .show
            case .showArguments: .showArguments
            case .dismiss: .dismiss
            case .quit: .quit
            case .status: .status
            case .stats: .stats
            case .subscribe: .subscribe
            case .handover: .handover
            case .action: .action
            case .sharing: .sharing
            }
        }
    }

    public var v: Int
    public var message: Message

    public init(_ message: Message, version: Int = OwnerProtocol.version) {
        v = version
        self.message = message
    }

    public init(_ show: ShowRequest) { self.init(.show(show)) }
    public init(_ showArguments: ShowArgumentsRequest) { self.init(.showArguments(showArguments)) }
    public init(_ subscribe: SubscribeRequest) { self.init(.subscribe(subscribe)) }
    public init(_ action: ActionRequest) { self.init(.action(action)) }
    public init(_ dismiss: DismissRequest) { self.init(.dismiss(dismiss)) }
    public init(_ sharing: SharingReport) { self.init(.sharing(sharing)) }

    /// A `status` request.
    public static var status: OwnerRequest { OwnerRequest(.status) }

    /// A `stats` request for the page after `key` (nil: the first page).
    public static func stats(after key: String?) -> OwnerRequest { OwnerRequest(.stats(key.map { StatsRequest(after: $0) })) }

    /// The requests whose shape is frozen in every version.
    public enum Frozen: Sendable { case quit, handover }

    /// `quit` or `handover` in protocol `version`: the frozen shape every owner understands
    /// (`{"v":N,"command":"quit"}`), whatever version this client speaks.
    public static func frozen(_ command: Frozen, version: Int) -> OwnerRequest {
        OwnerRequest(command == .quit ? .quit(nil) : .handover, version: version)
    }

    /// The command's name on the wire.
    public var command: Command { message.command }

    /// The fields of a `show`; nil for any other message.
    public var show: ShowRequest? {
        if case .show(let show) = message { show } else { nil }
    }

    /// The fields of a `show-arguments`; nil for any other message.
    public var showArguments: ShowArgumentsRequest? {
        if case .showArguments(let forwarded) = message { forwarded } else { nil }
    }

    private enum CodingKeys: String, CodingKey {
        case v, command, show, dismiss, showArguments, subscribe, stats, action, sharing
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        switch try container.decode(Command.self, forKey: .command) {
        case .show: message = .show(try container.decode(ShowRequest.self, forKey: .show))
        case .showArguments: message = .showArguments(try container.decode(ShowArgumentsRequest.self, forKey: .showArguments))
        // The fields every client sends; an owner always took them as optional.
        case .dismiss: message = .dismiss(try container.decodeIfPresent(DismissRequest.self, forKey: .dismiss) ?? DismissRequest())
        case .quit: message = .quit(try container.decodeIfPresent(DismissRequest.self, forKey: .dismiss))
        case .status: message = .status
        case .stats: message = .stats(try container.decodeIfPresent(StatsRequest.self, forKey: .stats))
        case .subscribe: message = .subscribe(try container.decodeIfPresent(SubscribeRequest.self, forKey: .subscribe) ?? SubscribeRequest())
        case .handover: message = .handover
        case .action: message = .action(try container.decodeIfPresent(ActionRequest.self, forKey: .action) ?? ActionRequest())
        case .sharing: message = .sharing(try container.decode(SharingReport.self, forKey: .sharing))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        try container.encode(message.command, forKey: .command)
        switch message {
        case .show(let show): try container.encode(show, forKey: .show)
        case .showArguments(let forwarded): try container.encode(forwarded, forKey: .showArguments)
        case .dismiss(let dismiss): try container.encode(dismiss, forKey: .dismiss)
        case .quit(let dismiss): try container.encodeIfPresent(dismiss, forKey: .dismiss)
        case .stats(let page): try container.encodeIfPresent(page, forKey: .stats)
        case .subscribe(let subscribe): try container.encode(subscribe, forKey: .subscribe)
        case .action(let action): try container.encode(action, forKey: .action)
        case .sharing(let report): try container.encode(report, forKey: .sharing)
        case .status, .handover: break
        }
    }
}

/// `window-banner stats`, one page: the keys after `after` in name order (the last key of the
/// page before), as many as fit in a frame.
public struct StatsRequest: Codable, Sendable, Equatable {
    public var after: String?

    public init(after: String?) {
        self.after = after
    }
}

/// The answer to `handover` (frozen): each banner the owner had, visible ones first, then the
/// queued ones in order, as the `show` arguments that show it again (with the environment and
/// directory they need). After sending it the owner slides its banners away and exits.
public struct Handover: Codable, Sendable, Equatable {
    public var banners: [ShowArgumentsRequest]

    public init(banners: [ShowArgumentsRequest]) {
        self.banners = banners
    }
}

/// `window-banner show`.
public struct ShowRequest: Codable, Sendable, Equatable {
    /// The flags as written; the owner lays them over the config file's defaults and style.
    public var settings: AppearanceSettings
    /// `--style NAME`.
    public var style: String?
    /// The config file the client would read (`nil` with `--no-config`). The owner reads it,
    /// so a running owner always uses the caller's current file.
    public var configPath: String?
    /// `--sticky`: stays until dismissed, whatever the style says.
    public var sticky: Bool
    /// `--transient` without `--timeout`: the style's timeout, else 2.5 s.
    public var transient: Bool
    /// `--timeout S`, seconds.
    public var timeout: Double?
    /// `--monitor`: a RandR monitor name, `primary` or `all`.
    public var monitor: String
    /// `--id KEY`.
    public var id: String?
    /// `--enqueue`: wait for the visible banner to go instead of replacing it.
    public var enqueue: Bool
    /// `--wait`: keep the connection until the banner is gone and send its `ended` reason.
    public var wait: Bool
    /// `--on-click -- COMMAND ARGS…`: run when the user clicks the banner (nil: nothing runs).
    /// The action button's command travels in `settings.action`.
    public var onClick: [String]?
    /// The client's environment, for the commands a click runs; sent only with a command
    /// (nil: the owner's own environment).
    public var environment: [String: String]?
    /// The client's working directory, where those commands run and where a relative `--icon`
    /// path is found; sent only with a command or an icon.
    public var directory: String?
    /// `--strict-contrast`: a title below WCAG's contrast is an error, not a warning.
    public var strictContrast: Bool?
    /// `--once KEY`: show at most once per key, ever (kept in the owner's state directory).
    public var once: String?
    /// The client's XDG data directories (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`), where icon
    /// theme names (`--icon NAME`, a style's `icon`) are looked up (nil: the owner's own).
    public var dataDirectories: [String]?
    /// The client's locale variables that are set (`UserLocale.variableNames`: LANGUAGE,
    /// LC_ALL, LC_MESSAGES, LANG): the language of the text window-banner supplies, the
    /// built-in styles' titles. nil, from a client that sets none of them (a system service,
    /// a NetworkManager dispatcher script): the owner's own.
    public var locale: [String: String]?
    /// With `wait`: send a `keepalive` frame every this many seconds until the `ended` one, so
    /// that the client can tell a stalled owner from a banner still up (nil: none).
    public var keepalive: Double?
    /// The processes whose window a click on the banner raises, as `monitor --calls` sends its
    /// calling apps (nil: a click only dismisses it). The owner looks for their windows and
    /// then their parents' (a browser's audio runs in a child process), where the display
    /// server lets a client activate another's window (docs/calls.md).
    public var raise: [Int32]?
    /// `--private` (true): words that must not reach a shared screen. While a watcher says the
    /// screen is shared the owner holds the banner back; nil or false: the style decides (its
    /// `private` key), else not private. An owner of version 2 never sees it (the version
    /// differs, and the client replaces that owner first).
    public var `private`: Bool?
    /// The sharing banner's (`monitor --sharing`): where the desktop lets a client stop a screen
    /// share (GNOME's extension), the owner gives it a "Stop sharing" action that does (nil: no).
    public var stopsSharing: Bool?

    public init(
        settings: AppearanceSettings, style: String? = nil, configPath: String? = nil,
        sticky: Bool = false, transient: Bool = false, timeout: Double? = nil, monitor: String = "primary",
        id: String? = nil, enqueue: Bool = false, wait: Bool = false,
        onClick: [String]? = nil, environment: [String: String]? = nil, directory: String? = nil,
        strictContrast: Bool? = nil, once: String? = nil, dataDirectories: [String]? = nil,
        locale: [String: String]? = nil, keepalive: Double? = nil, private isPrivate: Bool? = nil
    ) {
        self.settings = settings
        self.style = style
        self.configPath = configPath
        self.sticky = sticky
        self.transient = transient
        self.timeout = timeout
        self.monitor = monitor
        self.id = id
        self.enqueue = enqueue
        self.wait = wait
        self.onClick = onClick
        self.environment = environment
        self.directory = directory
        self.strictContrast = strictContrast
        self.once = once
        self.dataDirectories = dataDirectories
        self.locale = locale
        self.keepalive = keepalive
        self.private = isPrivate
    }
}

/// A watcher's report: whether the screen is shared now (a screen cast, a portal's remote
/// desktop: `window-banner monitor`'s sharing watch, or GNOME's extension). The owner answers
/// `held` (how many private banners it holds back now) and keeps the connection: every later
/// report comes on it, and its close means this watcher watches no more — with no watcher left
/// saying the screen is shared, the held banners come back. One boolean and nothing else: a
/// report of any other shape is a `protocol` error and the connection is closed.
public struct SharingReport: Codable, Sendable, Equatable {
    /// The screen is shared now.
    public var sharing: Bool

    public init(sharing: Bool) {
        self.sharing = sharing
    }
}

/// `window-banner show ARGUMENTS…` as typed, for a running owner to parse: the client then
/// needs no argument parser of its own, so a `show` costs little more than a process start. The
/// owner parses exactly as the client would (the same ShowCommand), answers like a `show` — or
/// with a `redirect` error when the client must handle the command itself (help, or arguments
/// that name another display).
public struct ShowArgumentsRequest: Codable, Sendable, Equatable {
    /// Everything after `show`.
    public var arguments: [String]
    /// The client's environment: where its config file, icon themes and `DISPLAY` are, and
    /// what the commands a click runs get.
    public var environment: [String: String]
    /// The client's working directory (commands a click runs, relative `--icon` paths).
    public var directory: String?

    public init(arguments: [String], environment: [String: String], directory: String?) {
        self.arguments = arguments
        self.environment = environment
        self.directory = directory
    }
}

/// `window-banner status --follow`.
public struct SubscribeRequest: Codable, Sendable, Equatable {
    /// Send a `keepalive` frame after this many seconds without another frame (nil: none).
    public var keepalive: Double?

    public init(keepalive: Double? = nil) {
        self.keepalive = keepalive
    }
}

/// `window-banner dismiss`.
public struct DismissRequest: Codable, Sendable, Equatable {
    /// `--monitor`; `nil` means every monitor.
    public var monitor: String?
    /// `--id KEY`: only banners (visible or queued) with this key.
    public var id: String?
    /// `--all`: the queue too.
    public var all: Bool

    public init(monitor: String? = nil, id: String? = nil, all: Bool = false) {
        self.monitor = monitor
        self.id = id
        self.all = all
    }
}

/// `window-banner action`: click an action button of the banner on screen, without the pointer.
public struct ActionRequest: Codable, Sendable, Equatable {
    /// The button's label, exactly as shown before ellipsizing; nil: by position (`secondary`).
    public var label: String?
    /// Without a label: the secondary action button rather than the primary one.
    public var secondary: Bool
    /// `--monitor`; `nil` means every monitor.
    public var monitor: String?
    /// `--id KEY`: only the banner shown with this key.
    public var id: String?

    public init(label: String? = nil, secondary: Bool = false, monitor: String? = nil, id: String? = nil) {
        self.label = label
        self.secondary = secondary
        self.monitor = monitor
        self.id = id
    }
}

