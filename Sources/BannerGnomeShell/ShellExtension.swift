// The owner's side of the GNOME Shell extension's D-Bus interface (Resources/gnome-shell):
// `org.windowbanner.Shell` on the session bus. The owner asks for the monitors, shows an image
// per monitor with its reserved height and its slide, hides it; the extension tells the owner,
// and only the owner (unicast signals), where the user clicked and when an image was painted,
// and whether the screen is shared (and stops the shares when asked).
// Every call is sent without waiting: the loop goes on drawing, and a refusal is a warning.
// Start reading at `ShellExtension.connect(bus:)`.

import BannerPixman
import CSDBus
import Glibc
import SDBus

/// A monitor as the shell lays it out: its connector name, its place in stage pixels, the UI's
/// scale factor and the bottom of the top bar on it (0 where it has none).
public struct ShellMonitor: Sendable, Hashable {
    public var name: String
    public var isPrimary: Bool
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var scale: Double
    public var topInset: Int
}

/// Why GNOME Shell is not running the extension, as the shell itself says (its
/// `org.gnome.Shell.Extensions` interface, what `gnome-extensions info` reads).
public enum ExtensionRefusal: Sendable, Equatable {
    /// The shell knows no extension of this UUID: not installed, or installed after it started.
    case unknownToShell
    /// Installed and loaded, not enabled (by the user, or never).
    case disabled
    /// Enabled, but the shell has every user extension turned off (`disable-user-extensions`).
    case userExtensionsOff
    /// Its metadata does not name this shell's version (`shellVersion`, e.g. `51.0`).
    case outOfDate(shellVersion: String)
    /// The shell tried to load it and failed, with this error.
    case failed(String)
    /// The shell did not answer (no GNOME Shell on this bus).
    case noShell

    /// The state in a few words, after "the GNOME Shell extension UUID".
    public var description: String {
        switch self {
        case .unknownToShell: "is not loaded by GNOME Shell"
        case .disabled: "is not enabled"
        case .userExtensionsOff: "is enabled, but GNOME Shell has its extensions turned off"
        case .outOfDate(let version): "is out of date for GNOME Shell \(version) (its metadata does not name that version)"
        case .failed(let error): "failed to load (\(error))"
        case .noShell: "is not on the session bus, and GNOME Shell does not answer there"
        }
    }
}

/// Why the extension cannot be used.
public enum ShellExtensionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nobody owns `org.windowbanner.Shell`; why, as the shell says.
    case unavailable(ExtensionRefusal)
    /// The extension speaks another version of the interface than this program.
    case otherVersion(UInt32)
    case bus(String)

    public var description: String {
        switch self {
        case .unavailable(let refusal): "the GNOME Shell extension \(ShellExtension.uuid) \(refusal.description)"
        case .otherVersion(let version):
            "the GNOME Shell extension \(ShellExtension.uuid) speaks version \(version) of its interface, this program \(ShellExtension.version)"
        case .bus(let reason): "the session bus: \(reason)"
        }
    }
}

/// What one `Show` call changes on a monitor: always its serial, reserved height and policies;
/// a new image when the content changed; the image's offset, or a slide, when it moves.
struct ShowFields {
    var serial: UInt32
    /// Logical pixels reserved below the top bar (or the screen's edge): the strut's height.
    var reserve: Int
    var placement: String
    var fullscreen: String
    /// Where the image's top is, from the reserved area's top (negative: partly hidden).
    var offset: Double?
    /// A slide from where the image is to here, over `slideDuration` seconds along `curve`.
    var slideTo: Double?
    var slideDuration: Double = 0
    var curve: String = "ease-out"
    /// The image to show from now on, when it changed.
    var image: BannerImage?
}

/// One connection to the session bus, talking to the extension.
final class ShellExtension {
    /// The extension's UUID (its directory under `gnome-shell/extensions`).
    static let uuid = "window-banner@window-banner"
    static let service = "org.windowbanner.Shell"
    static let path = "/org/windowbanner/Shell"
    static let interface = "org.windowbanner.Shell1"
    /// The interface version this program speaks (the extension's `Version` property).
    static let version: UInt32 = 1

    /// A press or release over the banner of `monitor`, in the image's pixels.
    var onPointer: ((_ monitor: String, _ button: String, _ pressed: Bool, _ x: Int, _ y: Int) -> Void)?
    /// The shell painted the image of `monitor` sent with `serial`.
    var onPainted: ((_ monitor: String, _ serial: UInt32) -> Void)?
    var onMonitorsChanged: (() -> Void)?
    /// The extension left the bus (disabled, the shell restarting) or came back.
    var onPresence: ((_ present: Bool) -> Void)?
    /// A call the extension refused or never answered.
    var onRefused: ((String) -> Void)?
    /// The screen started or stopped being shared, as the shell sees it (`SharingChanged`).
    var onSharing: ((Bool) -> Void)?

    let connection: BusConnection
    private var bus: OpaquePointer { connection.bus }
    private let matches: BusMatches
    /// The extension's unique name now; signals from anyone else are ignored.
    private(set) var owner: String?

    /// The extension on the session bus, checked for its version; throws when it is not there.
    init(connection: BusConnection) throws(ShellExtensionError) {
        self.connection = connection
        matches = BusMatches(on: connection)
        try start()
    }

    /// The extension on the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    static func connect() throws(ShellExtensionError) -> ShellExtension {
        let connection: BusConnection
        do { connection = try BusConnection.session(callTimeout: 2_000_000) } catch { throw .bus(error.reason) }
        return try ShellExtension(connection: connection)
    }

    /// Subscribes to its signals and to its name's owner, then checks it is there (in that order:
    /// nothing said in between is missed).
    private func start() throws(ShellExtensionError) {
        do {
            try matches.add("type='signal',path='\(Self.path)',interface='\(Self.interface)'", target: self) { message, userdata, _ in
                if let message, let userdata { (BusMatches.target(userdata) as ShellExtension).signal(message) }
                return 0
            }
            try matches.add(BusMatches.ownerChanges(of: Self.service), target: self) { message, userdata, _ in
                if let message, let userdata { (BusMatches.target(userdata) as ShellExtension).ownerChanged(message) }
                return 0
            }
            owner = try nameOwner()
        } catch {
            throw .bus(error.reason)
        }
        guard owner != nil else { throw .unavailable(refusal()) }
        let version = try interfaceVersion()
        guard version == Self.version else { throw .otherVersion(version) }
    }

    /// What the shell says of the extension (its `GetExtensionInfo` state and error, its
    /// `UserExtensionsEnabled` and `ShellVersion`); bounded: a string field is cut at 200 bytes.
    private func refusal() -> ExtensionRefusal {
        let shell = (service: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions")
        guard let reply = try? connection.call(shell.service, shell.path, shell.interface, "GetExtensionInfo", strings: [Self.uuid]) else {
            return .noShell
        }
        defer { sd_bus_message_unref(reply) }
        let message = BusMessage(pointer: reply)
        var state: Double?
        var error = ""
        _ = message.entering("a", "{sv}") {
            var entries = 0
            var readable = true
            while readable, entries < 256, message.entering("e", "sv", {
                entries += 1
                let read: Bool
                switch message.readString() {
                case "state": read = message.entering("v", "d") { state = message.readDouble() }
                case "error": read = message.entering("v", "s") { error = String((message.readString() ?? "").prefix(200)) }
                default: read = false
                }
                // Any other field, or one of another type than expected, is skipped whole.
                readable = read || message.skip("v")
            }) {}
        }
        // The shell's ExtensionState: 1 enabled/active, 2 disabled/inactive, 3 error, 4 out of
        // date, 6 initialized (loaded, never enabled), 99 uninstalled.
        switch state {
        case 3: return .failed(error.isEmpty ? "no reason given" : error)
        case 4:
            let version = (try? connection.stringProperty(shell.service, shell.path, shell.interface, "ShellVersion")) ?? "?"
            return .outOfDate(shellVersion: String(version.prefix(32)))
        case 1, 2, 6:
            if (try? connection.booleanProperty(shell.service, shell.path, shell.interface, "UserExtensionsEnabled")) == false { return .userExtensionsOff }
            return .disabled
        default: return .unknownToShell
        }
    }

    private func nameOwner() throws(BusError) -> String? {
        guard try connection.nameHasOwner(Self.service) else { return nil }
        let reply = try connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", strings: [Self.service])
        defer { sd_bus_message_unref(reply) }
        return try BusConnection.readString(reply, what: "GetNameOwner")
    }

    private func interfaceVersion() throws(ShellExtensionError) -> UInt32 {
        do {
            let reply = try connection.property(Self.service, Self.path, Self.interface, "Version", type: "u")
            defer { sd_bus_message_unref(reply) }
            return BusMessage(pointer: reply).readInt32("u").map { UInt32(bitPattern: $0) } ?? 0
        } catch {
            throw .bus(error.description)
        }
    }

    // MARK: Calls

    /// The shell's monitors, in its order (a synchronous call: at start-up and after they change).
    func monitors() throws(ShellExtensionError) -> [ShellMonitor] {
        let reply: OpaquePointer
        do { reply = try connection.call(Self.service, Self.path, Self.interface, "GetMonitors") } catch { throw .bus(error.description) }
        defer { sd_bus_message_unref(reply) }
        let message = BusMessage(pointer: reply)
        var monitors: [ShellMonitor] = []
        _ = message.entering("a", "(sbiiiidi)") {
            while monitors.count < 64, message.entering("r", "sbiiiidi", {
                if let name = message.readString(), let primary = message.readBool(), let x = message.readInt32(), let y = message.readInt32(),
                   let width = message.readInt32(), let height = message.readInt32(), let scale = message.readDouble(),
                   let inset = message.readInt32(), width > 0, height > 0, scale > 0, scale <= 8 {
                    monitors.append(ShellMonitor(
                        name: String(name.prefix(64)), isPrimary: primary, x: Int(x), y: Int(y), width: Int(width), height: Int(height),
                        scale: scale, topInset: max(0, min(Int(inset), Int(height)))))
                }
            }) {}
        }
        return monitors
    }

    /// Shows (or changes) the banner of `monitor`.
    func show(_ monitor: String, _ fields: ShowFields) {
        call("Show") { message in
            message.append(monitor)
            message.inContainer("a", "{sv}") {
                entry(message, "serial", "u") { message.append(fields.serial) }
                entry(message, "reserve", "i") { message.append(Int32(clamping: fields.reserve)) }
                entry(message, "placement", "s") { message.append(fields.placement) }
                entry(message, "fullscreen", "s") { message.append(fields.fullscreen) }
                if let offset = fields.offset { entry(message, "offset", "d") { message.append(offset) } }
                if let slideTo = fields.slideTo {
                    entry(message, "slideTo", "d") { message.append(slideTo) }
                    entry(message, "slideDuration", "d") { message.append(fields.slideDuration) }
                    entry(message, "curve", "s") { message.append(fields.curve) }
                }
                _ = fields.image?.withPixels { bytes, width, height, stride in
                    entry(message, "width", "i") { message.append(Int32(width)) }
                    entry(message, "height", "i") { message.append(Int32(height)) }
                    entry(message, "stride", "i") { message.append(Int32(stride)) }
                    entry(message, "pixels", "ay") { message.append(bytes: bytes) }
                }
            }
        }
    }

    /// Removes the banner of `monitor`, and its strut.
    func hide(_ monitor: String) {
        call("Hide") { message in message.append(monitor) }
    }

    /// Activates the window of the first of `pids` that has one (the shell's own
    /// `Main.activateWindow`, as a click in the dash does).
    func raise(_ pids: [Int32]) {
        call("Raise") { message in
            message.inContainer("a", "i") {
                for pid in pids.prefix(Self.mostPIDs) { message.append(pid) }
            }
        }
    }

    /// Whether an app shares the screen, as the shell sees it (the extension's `Sharing`); nil
    /// when the extension does not say (one older than this program).
    func sharing() -> Bool? {
        try? connection.booleanProperty(Self.service, Self.path, Self.interface, "Sharing")
    }

    /// Stops every share, as the shell's own "Turn off" does.
    func stopSharing() {
        call("StopSharing") { _ in }
    }

    /// As many processes as the extension looks at in one `Raise`.
    static let mostPIDs = 64

    private func entry(_ message: BusMessage, _ key: String, _ type: String, _ value: () -> Void) {
        message.inContainer("e", "sv") {
            message.append(key)
            message.inContainer("v", type, value)
        }
    }

    /// Sends `member` without waiting; a refusal comes back through ``onRefused``.
    private func call(_ member: String, _ arguments: (BusMessage) -> Void) {
        var created: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &created, Self.service, Self.path, Self.interface, member) >= 0, let message = created else {
            onRefused?("\(member): cannot build the call")
            return
        }
        defer { sd_bus_message_unref(message) }
        arguments(BusMessage(pointer: message))
        let sent = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let reply, let userdata, sd_bus_message_is_method_error(reply, nil) != 0 else { return 0 }
            let error = sd_bus_message_get_error(reply)
            let reason = error?.pointee.message.map { String(cString: $0) } ?? error?.pointee.name.map { String(cString: $0) } ?? "failed"
            (BusMatches.target(userdata) as ShellExtension).onRefused?("the GNOME Shell extension refused a call: \(reason)")
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), 0)
        if sent < 0 { onRefused?("\(member): \(String(cString: strerror(-sent)))") }
    }

    // MARK: Signals

    /// Pointer, Painted, MonitorsChanged or SharingChanged, from the extension itself.
    private func signal(_ pointer: OpaquePointer) {
        guard let sender = sd_bus_message_get_sender(pointer), String(cString: sender) == owner,
              let member = sd_bus_message_get_member(pointer) else { return }
        let message = BusMessage(pointer: pointer)
        switch String(cString: member) {
        case "Pointer":
            guard let monitor = message.readString(), message.readInt32("u") != nil, let button = message.readString(),
                  let pressed = message.readBool(), let x = message.readInt32(), let y = message.readInt32() else { return }
            onPointer?(monitor, button, pressed, Int(x), Int(y))
        case "Painted":
            guard let monitor = message.readString(), let serial = message.readInt32("u") else { return }
            onPainted?(monitor, UInt32(bitPattern: serial))
        case "MonitorsChanged":
            onMonitorsChanged?()
        case "SharingChanged":
            guard let sharing = message.readBool() else { return }
            onSharing?(sharing)
        default:
            return
        }
    }

    /// `NameOwnerChanged` of the service: the extension left (disabled, the shell restarting)
    /// or came back.
    private func ownerChanged(_ pointer: OpaquePointer) {
        let message = BusMessage(pointer: pointer)
        guard message.readString() != nil, message.readString() != nil, let new = message.readString() else { return }
        owner = new.isEmpty ? nil : new
        onPresence?(owner != nil)
    }
}
