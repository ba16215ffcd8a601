// The owner as an AT-SPI application, so a screen reader (Orca) hears every banner and reaches
// its buttons. No toolkit: the owner joins the accessibility bus itself with sd-bus, the way
// docs/accessibility.md describes — the session bus's `org.a11y.Bus.GetAddress`, a connection to that
// address, `Embed` on the registry — and answers the `Accessible`, `Application`, `Action` and
// `Properties` calls from the owner's loop at once (a screen reader drops the events of an
// application that does not answer).
//
// The tree: the application (root) has one child per banner on screen, role notification (name
// = title, description = subtitle); each banner has its buttons as push buttons with one action.
// A banner is announced by `object:state-changed:showing` with detail1 = 1 (every Orca speaks it
// as "notification <name>" and keeps it in its history; `object:announcement` is Orca 46+ only
// and, sent as well, makes it speak twice): once when it appears, once when its words change in
// place, never when it goes.
//
// No cost without an accessibility bus: ``join(applicationName:version:locale:)`` asks the session bus
// whether `org.a11y.Bus` has an owner (which starts nothing) and gives up there; with no session
// bus at all it asks nothing, and libsystemd is not even loaded (CSDBus loads it on first use).
// Start reading at `join`, then `show(_:)`.

import BannerCore
import CSDBus
import Glibc
import MonotonicClock
import Reactor
import SDBus

/// The owner's banners on the accessibility bus.
public final class AccessibleBanners {
    private static let prefix = "/org/a11y/atspi/accessible"
    static let rootPath = prefix + "/root"
    /// Seconds a call made while joining may take: the owner's loop waits for it.
    private static let callTimeout: UInt64 = 2_000_000

    /// AT-SPI roles (`AtspiRole`).
    enum Role: UInt32 {
        case pushButton = 43
        case application = 75
        case notification = 101

        var name: String {
            switch self {
            case .pushButton: "push button"
            case .application: "application"
            case .notification: "notification"
            }
        }
    }

    /// What a path names.
    enum Node {
        case root
        case banner(AccessibleBanner, index: Int)
        case button(AccessibleButton, index: Int, of: AccessibleBanner)
    }

    private let connection: BusConnection
    var bus: OpaquePointer { connection.bus }
    private var slot: OpaquePointer?
    private let uniqueName: String
    let applicationName: String
    let locale: String
    let version: String
    /// Set by the registry once it embedded us.
    var applicationID: Int32 = 0
    /// The banners in the tree, in order, each with the number its objects' paths carry (kept
    /// while the banner is updated in place, so a listener sees one object).
    private var banners: [(banner: AccessibleBanner, serial: Int)] = []
    private var lastSerial = 0

    /// Does what a click on `banner`'s button (or the banner itself) with `reason` does; false
    /// when that banner is no longer on screen or has no such button.
    public var onAction: (_ banner: Int, _ reason: BannerDismissReason) -> Bool = { _, _ in false }

    /// Joins the accessibility bus as `applicationName` at `version`, speaking `locale` (`en_US`), when one
    /// exists; nil (nothing registered, no bus besides the session bus asked) when none does, or
    /// when there is no session bus.
    public static func join(applicationName: String, version: String, locale: String) -> AccessibleBanners? {
        guard let address = accessibilityBusAddress(),
              let connection = try? BusConnection(address: address, callTimeout: callTimeout, waitingUntilReady: false, flushesOnClose: true),
              let uniqueName = try? connection.uniqueName() else { return nil }
        let banners = AccessibleBanners(connection: connection, uniqueName: uniqueName, applicationName: applicationName, version: version, locale: locale)
        guard banners.serve(), banners.embed() else { return nil }
        return banners
    }

    private init(connection: BusConnection, uniqueName: String, applicationName: String, version: String, locale: String) {
        self.connection = connection
        self.uniqueName = uniqueName
        self.applicationName = applicationName
        self.locale = locale
        self.version = version
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
    }

    /// The accessibility bus's address from the session bus (`org.a11y.Bus.GetAddress`), asked
    /// only when `org.a11y.Bus` already has an owner: asking a name nobody owns would have the
    /// bus daemon start at-spi-bus-launcher for a desktop that runs no assistive technology.
    private static func accessibilityBusAddress() -> String? {
        guard sessionBusExists(), let session = try? BusConnection.session(callTimeout: callTimeout),
              (try? session.nameHasOwner("org.a11y.Bus")) == true,
              let reply = try? session.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") else { return nil }
        defer { sd_bus_message_unref(reply) }
        return BusMessage(pointer: reply).readString().flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether there is a session bus where `sd_bus_open_user` looks for one:
    /// `DBUS_SESSION_BUS_ADDRESS`, else the `bus` socket in `XDG_RUNTIME_DIR`.
    private static func sessionBusExists() -> Bool {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 else { return false }
        return access(String(cString: runtime) + "/bus", F_OK) == 0
    }

    /// Answers every call to a path below /org/a11y/atspi/accessible.
    private func serve() -> Bool {
        sd_bus_add_fallback(bus, &slot, Self.prefix, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<AccessibleBanners>.fromOpaque(userdata).takeUnretainedValue().answer(BusMessage(pointer: message))
        }, Unmanaged.passUnretained(self).toOpaque()) >= 0
    }

    /// `org.a11y.atspi.Socket.Embed` on the registry, with our root: screen readers now find
    /// the application among the desktop's. Not waited for: the registry calls us back (to set
    /// our id) before it answers.
    private func embed() -> Bool {
        var created: OpaquePointer?
        guard sd_bus_message_new_method_call(
            bus, &created, "org.a11y.atspi.Registry", Self.rootPath, "org.a11y.atspi.Socket", "Embed") >= 0, let message = created else { return false }
        defer { sd_bus_message_unref(message) }
        BusMessage(pointer: message).appendReference(reference(Self.rootPath))
        return sd_bus_call_async(bus, nil, message, nil, nil, 0) >= 0
    }

    // MARK: The owner's loop

    /// The connection's descriptor, to poll for ``pollEvents``.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// What to poll the descriptor for now.
    public var pollEvents: Int16 { connection.pollEvents }

    /// When sd-bus wants ``process()`` called without I/O, in seconds on CLOCK_MONOTONIC; nil
    /// for never.
    public var deadline: MonotonicTime? { connection.deadline }

    /// Answers everything the bus has for us; false when the connection is gone (the
    /// accessibility bus stopped).
    public func process() -> Bool {
        (try? connection.process()) != nil
    }

    // MARK: Banners

    /// The banners on screen now, each once however many monitors show it: a new one is added
    /// to the tree and announced, one whose words changed is announced again, one that went is
    /// taken out silently.
    public func show(_ now: [AccessibleBanner]) {
        guard now != banners.map(\.banner) else { return }
        let before = banners
        for (index, gone) in before.enumerated().reversed() where !now.contains(where: { $0.identity == gone.banner.identity }) {
            banners.remove(at: index)
            childrenChanged("remove", index: index, child: path(of: gone.serial))
        }
        banners = now.map { banner in
            if let kept = before.first(where: { $0.banner.identity == banner.identity }) { return (banner, kept.serial) }
            lastSerial += 1
            return (banner, lastSerial)
        }
        for (index, entry) in banners.enumerated() {
            if let previous = before.first(where: { $0.banner.identity == entry.banner.identity }) {
                if entry.banner.readsDifferently(from: previous.banner) {
                    // Listeners keep the name and description they read: tell them the new words
                    // first (not spoken for an object without focus), then announce.
                    propertyChanged(entry.serial, "accessible-name", to: entry.banner.title)
                    propertyChanged(entry.serial, "accessible-description", to: entry.banner.subtitle)
                    announce(entry.serial)
                }
            } else {
                childrenChanged("add", index: index, child: path(of: entry.serial))
                announce(entry.serial)
            }
        }
        _ = sd_bus_flush(bus)
    }

    /// `object:state-changed:showing`, detail1 = 1: the one event a screen reader speaks a
    /// notification for.
    private func announce(_ serial: Int) {
        emit(from: path(of: serial), "StateChanged", kind: "showing", detail1: 1) { message in message.inContainer("v", "i") { message.append(Int32(0)) } }
    }

    /// `object:property-change:NAME` with the new value, which listeners put in their caches.
    private func propertyChanged(_ serial: Int, _ name: String, to value: String) {
        emit(from: path(of: serial), "PropertyChange", kind: name, detail1: 0) { message in message.inContainer("v", "s") { message.append(value) } }
    }

    private func childrenChanged(_ kind: String, index: Int, child: String) {
        emit(from: Self.rootPath, "ChildrenChanged", kind: kind, detail1: Int32(index)) { message in
            message.inContainer("v", "(so)") { message.appendReference(reference(child)) }
        }
    }

    /// An `org.a11y.atspi.Event.Object` signal, `(siiva{sv})`.
    private func emit(from path: String, _ member: String, kind: String, detail1: Int32, anyData: (BusMessage) -> Void) {
        var created: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &created, path, "org.a11y.atspi.Event.Object", member) >= 0, let signal = created else { return }
        defer { sd_bus_message_unref(signal) }
        let message = BusMessage(pointer: signal)
        message.append(kind)
        message.append(detail1)
        message.append(Int32(0))
        anyData(message)
        message.inContainer("a", "{sv}") {}
        _ = sd_bus_send(bus, signal, nil)
    }

    // MARK: Objects

    func reference(_ path: String) -> ObjectReference { ObjectReference(bus: uniqueName, path: path) }

    private func path(of serial: Int) -> String { Self.prefix + "/banner\(serial)" }

    private func path(of button: Int, in serial: Int) -> String { path(of: serial) + "_\(button)" }

    private func serial(of banner: AccessibleBanner) -> Int {
        banners.first { $0.banner.identity == banner.identity }?.serial ?? 0
    }

    func node(at path: String) -> Node? {
        if path == Self.rootPath { return .root }
        for (index, (banner, serial)) in banners.enumerated() {
            if path == self.path(of: serial) { return .banner(banner, index: index) }
            for (buttonIndex, button) in banner.buttons.enumerated() where path == self.path(of: buttonIndex, in: serial) {
                return .button(button, index: buttonIndex, of: banner)
            }
        }
        return nil
    }

    func role(of node: Node) -> Role {
        switch node {
        case .root: .application
        case .banner: .notification
        case .button: .pushButton
        }
    }

    func name(of node: Node) -> String {
        switch node {
        case .root: applicationName
        case .banner(let banner, _): banner.title
        case .button(let button, _, _): button.name
        }
    }

    func description(of node: Node) -> String {
        if case .banner(let banner, _) = node { return banner.subtitle }
        return ""
    }

    func parent(of node: Node) -> ObjectReference {
        switch node {
        case .root: ObjectReference(bus: "org.a11y.atspi.Registry", path: Self.rootPath)
        case .banner: reference(Self.rootPath)
        case .button(_, _, let banner): reference(path(of: serial(of: banner)))
        }
    }

    func children(of node: Node) -> [ObjectReference] {
        switch node {
        case .root: banners.map { reference(path(of: $0.serial)) }
        case .banner(let banner, _): banner.buttons.indices.map { reference(path(of: $0, in: serial(of: banner))) }
        case .button: []
        }
    }

    func indexInParent(of node: Node) -> Int32 {
        switch node {
        case .root: -1
        case .banner(_, let index), .button(_, let index, _): Int32(index)
        }
    }

    /// The clicks `node` offers through the Action interface.
    func actions(of node: Node) -> [BannerDismissReason] {
        switch node {
        case .root: []
        case .banner(let banner, _): banner.clickAction.map { [$0] } ?? []
        case .button(let button, _, _): [button.reason]
        }
    }

    func interfaces(of node: Node) -> [String] {
        var interfaces = ["org.a11y.atspi.Accessible"]
        if case .root = node { interfaces.append("org.a11y.atspi.Application") }
        if !actions(of: node).isEmpty { interfaces.append("org.a11y.atspi.Action") }
        return interfaces
    }

    /// The state set's two words: on screen (showing, visible), usable (enabled, sensitive),
    /// and buttons focusable.
    func states(of node: Node) -> [UInt32] {
        var bits: UInt32 = 1 << 25 | 1 << 30 | 1 << 8 | 1 << 24
        if case .button = node { bits |= 1 << 11 }
        if case .root = node { bits = 0 }
        return [bits, 0]
    }

    func attributes(of node: Node) -> [(String, String)] {
        if case .banner(let banner, _) = node { return [("live", banner.assertive ? "assertive" : "polite")] }
        return []
    }
}

extension AccessibleBanners: LoopSource {
    public var descriptors: [PollDescriptor] { [PollDescriptor(fd: fileDescriptor, events: pollEvents)] }

    /// Answers the screen reader's calls; throws when the accessibility bus went away.
    public func process(ready: [PollDescriptor]) throws {
        guard process() else { throw BusError("the accessibility bus", code: -ECONNRESET) }
    }
}
