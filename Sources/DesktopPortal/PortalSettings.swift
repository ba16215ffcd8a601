// The desktop's preferences as xdg-desktop-portal's Settings interface gives them on the session
// bus (org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop), read with sd-bus: the
// namespaces the banner follows, all at once with `ReadAll`, then each change through
// `SettingChanged`. The portal relays its backend's view: GNOME's GSettings
// (xdg-desktop-portal-gnome or -gtk: `org.gnome.desktop.interface`, `…a11y.interface`), KDE's
// kdeglobals (xdg-desktop-portal-kde: `org.kde.kdeglobals.<group>`), and the standard
// `org.freedesktop.appearance` keys. Plasma's portal does not signal every kdeglobals change, so
// KConfig's own change notice for kdeglobals has everything read again. What comes over the bus is another program's: values of
// the wrong type are ignored, strings and counts are bounded, and nothing here can fail on them.
// Nothing is polled: the caller's loop watches ``PortalSettings/fileDescriptors`` and calls
// ``PortalSettings/process()``. Start reading at `PortalSettings.init(connection:)`.

import BannerCore
import CSDBus
import Glibc
import MonotonicClock
import Reactor
import SDBus

/// One value of a portal setting, as far as the banner reads them.
public enum PortalSettingValue: Sendable, Equatable {
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
}

/// Where a session's desktop preferences are read and followed: xdg-desktop-portal's Settings
/// (``PortalSettings``) or, where no portal runs, GSettings itself (``DesktopGSettings``).
/// The caller's loop serves it (a LoopSource: `fileDescriptors` polled for reading, `process()`
/// when one is readable); a change that changes `preferences` calls `onChange`.
public protocol DesktopSettingsReader: LoopSource {
    /// What the desktop asks of banners now.
    var preferences: DesktopPreferences { get }
    /// Called, while `process()` runs, when a change changed `preferences`.
    var onChange: ((DesktopPreferences) -> Void)? { get set }
    /// The descriptors to poll for reading.
    var fileDescriptors: [Int32] { get }
    /// Handles what came. Throws when the source is gone (the session bus closed).
    func process() throws
}

/// The portal's settings of the namespaces the banner follows, kept current.
public final class PortalSettings: DesktopSettingsReader {
    /// The portal's well-known name and object on the session bus.
    public static let service = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    /// The namespaces read: GNOME's, KDE's and the standard appearance keys.
    public static let namespaces = [
        "org.freedesktop.appearance", "org.gnome.desktop.interface", "org.gnome.desktop.a11y.interface",
        "org.kde.kdeglobals.General", "org.kde.kdeglobals.KDE", "org.kde.kdeglobals.Icons",
    ]
    /// At most this many keys a namespace, and this many bytes a string, are kept.
    static let keysPerNamespace = 512
    static let stringBytes = 1024

    private let connection: BusConnection
    /// The subscriptions: the portal's `SettingChanged`, and KConfig's change notice.
    private var slots: [OpaquePointer] = []
    /// Whether a `ReadAll` sent without waiting (a portal slow to start, or a reread after
    /// KConfig's notice) is still unanswered, and whether another is wanted once it is.
    private var readingIsAnswered = true
    private var readAgain = false
    /// Every value read so far, by namespace and key.
    public private(set) var values: [String: [String: PortalSettingValue]] = [:]
    /// What the desktop asks of banners, from the values read.
    public private(set) var preferences = DesktopPreferences()
    /// Called, while the bus is processed, when a change of setting changed ``preferences``.
    public var onChange: ((DesktopPreferences) -> Void)?

    /// Reads the settings over `connection` (the session bus): subscribes to their changes,
    /// then reads them all (in that order, so no change falls in between). Throws when no
    /// portal answers: none runs or can be started, or it has no Settings interface. A portal
    /// that is slower to start than the connection's call timeout is not waited for: its
    /// settings come later, as a change. Changes come in while the connection is processed
    /// (``process()``, or whoever serves it).
    public init(connection: BusConnection) throws(BusError) {
        self.connection = connection
        let context = Unmanaged.passUnretained(self).toOpaque()
        let changed = "type='signal',sender='\(Self.service)',path='\(Self.objectPath)',interface='\(Self.interface)',member='SettingChanged'"
        try subscribe(changed, context) { message, userdata, _ in
            if let message, let userdata {
                Unmanaged<PortalSettings>.fromOpaque(userdata).takeUnretainedValue().settingChanged(BusMessage(pointer: message))
            }
            return 0
        }
        // Plasma's portal sends `SettingChanged` only for some kdeglobals changes (a font only
        // when the font settings also say so on KGlobalSettings, the animation speed never):
        // KConfig's own notice that kdeglobals changed (what Plasma's settings send, and
        // `kwriteconfig6 --notify`) has the settings read again.
        try subscribe(Self.kdeglobalsChanged, context) { _, userdata, _ in
            if let userdata { Unmanaged<PortalSettings>.fromOpaque(userdata).takeUnretainedValue().readAgainWithoutWaiting() }
            return 0
        }
        try readAll()
        preferences = Self.preferences(from: values)
    }

    /// KConfig's change notice for kdeglobals (KConfigWatcher's).
    static let kdeglobalsChanged = "type='signal',path='/kdeglobals',interface='org.kde.kconfig.notify',member='ConfigChanged'"

    private func subscribe(_ rule: String, _ context: UnsafeMutableRawPointer, _ handler: sd_bus_message_handler_t) throws(BusError) {
        var slot: OpaquePointer?
        let added = sd_bus_add_match(connection.bus, &slot, rule, handler, context)
        guard added >= 0, let slot else { throw BusError("AddMatch", code: added) }
        slots.append(slot)
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
    }

    /// The bus connection's descriptor, to poll for reading.
    public var fileDescriptors: [Int32] { [connection.fileDescriptor] }
    /// Served on a loop, the connection as sd-bus wants it polled (writing too), and its deadline.
    public var descriptors: [PollDescriptor] { connection.descriptors }
    public var deadline: MonotonicTime? { connection.deadline }

    /// Handles every message that came on the connection. Throws when it is gone.
    public func process() throws(BusError) {
        try connection.process()
    }

    /// `ReadAll(as namespaces) → a{sa{sv}}`, waited for as long as the connection's call
    /// timeout. A portal the bus is still starting when that runs out (a slow first start) is
    /// asked again without waiting: its answer then comes while the connection is processed,
    /// as a change.
    private func readAll() throws(BusError) {
        let message = try readAllMessage()
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(connection.bus, message, 0, &error, &reply)
        if result == -ETIMEDOUT {
            try sendReadAll()
            return
        }
        guard result >= 0, let reply else { throw BusError("the portal's Settings.ReadAll", error: &error, code: result) }
        defer { sd_bus_message_unref(reply) }
        values = Self.namespaces(in: BusMessage(pointer: reply))
    }

    /// Sends `ReadAll` without waiting for its answer, which comes while the connection is
    /// processed (`answered`).
    private func sendReadAll() throws(BusError) {
        let message = try readAllMessage()
        defer { sd_bus_message_unref(message) }
        // The call's slot belongs to the bus (floating); it reaches this object through a weak
        // reference, released with the answer, so an answer after this object went is dropped.
        let answer = Unmanaged.passRetained(WeakPortalSettings(self)).toOpaque()
        let sent = sd_bus_call_async(connection.bus, nil, message, { reply, userdata, _ in
            guard let userdata else { return 0 }
            let settings = Unmanaged<WeakPortalSettings>.fromOpaque(userdata).takeRetainedValue().settings
            if let reply { settings?.answered(BusMessage(pointer: reply)) }
            return 0
        }, answer, Self.lateAnswerTimeout)
        guard sent >= 0 else {
            Unmanaged<WeakPortalSettings>.fromOpaque(answer).release()
            throw BusError("the portal's Settings.ReadAll", code: sent)
        }
        readingIsAnswered = false
    }

    /// kdeglobals changed: the settings are read again (once more after the answer, when one is
    /// still awaited).
    private func readAgainWithoutWaiting() {
        guard readingIsAnswered else {
            readAgain = true
            return
        }
        try? sendReadAll()
    }

    /// How long a portal still starting may take to answer, in microseconds.
    static let lateAnswerTimeout: UInt64 = 60_000_000

    private func readAllMessage() throws(BusError) -> OpaquePointer {
        var message: OpaquePointer?
        let result = sd_bus_message_new_method_call(connection.bus, &message, Self.service, Self.objectPath, Self.interface, "ReadAll")
        guard result >= 0, let message else { throw BusError("ReadAll", code: result) }
        BusMessage(pointer: message).inContainer("a", "s") {
            for namespace in Self.namespaces + Self.alsoAskedFor { BusMessage(pointer: message).append(namespace) }
        }
        return message
    }

    /// Asked for besides ``namespaces``, and not kept: Plasma's newest portal (6.7) answers with
    /// kdeglobals' groups (`org.kde.kdeglobals.General`…) only when the name its kdeglobals
    /// reader goes by, `org.kde.kdeglobals`, is asked for too (6.3 answers without).
    static let alsoAskedFor = ["org.kde.kdeglobals"]

    /// The answer to a `ReadAll` sent without waiting: what it holds, over the changes that came
    /// before it (the portal answered after sending them). An error (no portal after all, or it
    /// timed out) changes nothing.
    private func answered(_ reply: BusMessage) {
        readingIsAnswered = true
        defer {
            if readAgain {
                readAgain = false
                try? sendReadAll()
            }
        }
        guard sd_bus_message_get_error(reply.pointer) == nil else { return }
        // Merged, not replaced: Plasma 6.7's portal answers from kdeglobals as it last parsed
        // it, which may be older than a change it has signalled since.
        for (namespace, keys) in Self.namespaces(in: reply) {
            values[namespace] = (values[namespace] ?? [:]).merging(keys) { _, answered in answered }
        }
        let new = Self.preferences(from: values)
        guard new != preferences else { return }
        preferences = new
        onChange?(new)
    }

    /// The namespaces the banner follows in a `ReadAll` reply, by namespace and key.
    private static func namespaces(in read: BusMessage) -> [String: [String: PortalSettingValue]] {
        var values: [String: [String: PortalSettingValue]] = [:]
        _ = read.entering("a", "{sa{sv}}") {
            while read.entering("e", "sa{sv}", {
                guard let namespace = read.readString(), Self.namespaces.contains(namespace) else {
                    _ = read.skip("a{sv}")
                    return
                }
                var keys: [String: PortalSettingValue] = [:]
                _ = read.entering("a", "{sv}") {
                    while read.entering("e", "sv", {
                        guard let key = read.readString() else { return }
                        if let value = Self.readValue(read), keys.count < Self.keysPerNamespace { keys[key] = value }
                    }) {}
                }
                values[namespace] = keys
            }) {}
        }
        return values
    }

    /// `SettingChanged(s namespace, s key, v value)`.
    private func settingChanged(_ message: BusMessage) {
        guard let namespace = message.readString(), Self.namespaces.contains(namespace), let key = message.readString() else { return }
        let value = Self.readValue(message)
        var keys = values[namespace] ?? [:]
        guard keys[key] != value, value == nil || keys[key] != nil || keys.count < Self.keysPerNamespace else { return }
        keys[key] = value
        values[namespace] = keys
        let new = Self.preferences(from: values)
        guard new != preferences else { return }
        preferences = new
        onChange?(new)
    }

    /// A variant (`v`) holding a boolean, a number or a string, read and left; nil (and
    /// skipped) when it holds anything else.
    static func readValue(_ message: BusMessage) -> PortalSettingValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message.pointer, &type, &contents) > 0, type == CChar(UInt8(ascii: "v")),
              let contents, let code = String(cString: contents).first, String(cString: contents).count == 1 else {
            _ = message.skip("v")
            return nil
        }
        var value: PortalSettingValue?
        _ = message.entering("v", String(code)) {
            value = readBasic(message, code)
        }
        return value
    }

    private static func readBasic(_ message: BusMessage, _ code: Character) -> PortalSettingValue? {
        let pointer = message.pointer
        let type = CChar(code.asciiValue ?? 0)
        switch code {
        case "b":
            return message.readBool().map(PortalSettingValue.boolean)
        case "d":
            return message.readDouble().map(PortalSettingValue.double)
        case "s":
            return message.readString().map { .string(String(decoding: $0.utf8.prefix(stringBytes), as: UTF8.self)) }
        case "y":
            var byte: UInt8 = 0
            return sd_bus_message_read_basic(pointer, type, &byte) > 0 ? .integer(Int64(byte)) : nil
        case "n", "q":
            var half: UInt16 = 0
            guard sd_bus_message_read_basic(pointer, type, &half) > 0 else { return nil }
            return .integer(code == "n" ? Int64(Int16(bitPattern: half)) : Int64(half))
        case "i", "u":
            var word: UInt32 = 0
            guard sd_bus_message_read_basic(pointer, type, &word) > 0 else { return nil }
            return .integer(code == "i" ? Int64(Int32(bitPattern: word)) : Int64(word))
        case "x", "t":
            var long: UInt64 = 0
            guard sd_bus_message_read_basic(pointer, type, &long) > 0 else { return nil }
            return .integer(code == "x" ? Int64(bitPattern: long) : Int64(clamping: long))
        default:
            _ = message.skip(String(code))
            return nil
        }
    }
}

/// A weak reference to a ``PortalSettings``, for a call answered after it may have gone.
private final class WeakPortalSettings {
    weak var settings: PortalSettings?
    init(_ settings: PortalSettings) { self.settings = settings }
}

extension PortalSettings {
    /// What `values` (by namespace and key, as the portal gives them) ask of banners.
    /// GNOME's keys first, then the standard appearance keys, then KDE's: a desktop sets its own.
    public static func preferences(from values: [String: [String: PortalSettingValue]]) -> DesktopPreferences {
        let gnome = values["org.gnome.desktop.interface"] ?? [:]
        let gnomeAccessibility = values["org.gnome.desktop.a11y.interface"] ?? [:]
        let appearance = values["org.freedesktop.appearance"] ?? [:]
        let kde = values["org.kde.kdeglobals.KDE"] ?? [:]
        let kdeGeneral = values["org.kde.kdeglobals.General"] ?? [:]
        let kdeIcons = values["org.kde.kdeglobals.Icons"] ?? [:]
        var preferences = DesktopPreferences()
        preferences.textScale = DesktopPreferences.validTextScale(gnome["text-scaling-factor"]?.number)
        // Motion: GNOME's switch, the standard `reduced-motion` (1: reduce), KDE's animation
        // speed (0: instant, its "Animations off").
        var animations: Bool?
        if case .boolean(let enabled)? = gnome["enable-animations"] { animations = enabled }
        if let reduced = appearance["reduced-motion"]?.number { animations = (animations ?? true) && reduced != 1 }
        if let factor = kde["AnimationDurationFactor"]?.kdeNumber { animations = (animations ?? true) && factor > 0 }
        preferences.animationsEnabled = animations
        // Contrast: GNOME's high-contrast switch, the standard `contrast` (1: higher), or a
        // high-contrast GTK theme chosen by name.
        let theme = gnome["gtk-theme"]?.text
        if HighContrastTheme(themeName: theme) != nil {
            preferences.themeName = theme
        } else if case .boolean(true)? = gnomeAccessibility["high-contrast"] {
            preferences.themeName = HighContrastTheme.highContrast.rawValue
        } else if appearance["contrast"]?.number == 1 {
            preferences.themeName = HighContrastTheme.highContrast.rawValue
        } else {
            preferences.themeName = theme
        }
        preferences.iconThemeName = Self.themeDirectoryName(gnome["icon-theme"]?.text ?? kdeIcons["Theme"]?.text)
        preferences.fontFamily = DesktopPreferences.family(ofPangoFont: gnome["font-name"]?.text)
            ?? DesktopPreferences.family(ofQtFont: kdeGeneral["font"]?.text)
        return preferences
    }

    /// `name` when it can be a theme directory's name (no slash, not `.` or `..`, no control
    /// characters, not empty), else nil.
    static func themeDirectoryName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, name != ".", name != "..", !name.contains("/"), name.utf8.count <= 255,
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return name
    }
}

extension PortalSettingValue {
    /// The value as a number, where it is one.
    var number: Double? {
        switch self {
        case .double(let value): value.isFinite ? value : nil
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The value as a number, where it is one or a string of one (kdeglobals' values are
    /// strings as Plasma's portal relays them: `"0.5"`).
    var kdeNumber: Double? {
        guard case .string(let text) = self else { return number }
        return Double(text.filter { $0 != " " }).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The value as a string, where it is one.
    var text: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension DesktopSettingsReader {
    public var descriptors: [PollDescriptor] { fileDescriptors.map { PollDescriptor(fd: $0, events: Int16(POLLIN)) } }
    public var deadline: MonotonicTime? { nil }
    public func process(ready: [PollDescriptor]) throws { try process() }
}
