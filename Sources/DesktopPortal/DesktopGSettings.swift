// The desktop's preferences read from GSettings directly (GIO, through CGSettings), where no
// portal relays them: a Wayland session without xdg-desktop-portal — a bare sway or labwc —
// whose GTK applications read the same keys from dconf the same way. The keys are the ones the
// portal relays under the same names (a GSettings schema is the portal's namespace), so
// `PortalSettings.preferences(from:)` makes the preferences of both. Changes come from dconf
// through GIO's bus thread, handed over on GLib's main context: the caller's loop watches
// ``DesktopGSettings/fileDescriptors`` and calls ``DesktopGSettings/process()``.

import BannerCore
import CGSettings

/// GNOME's interface settings, as GSettings gives them, kept current.
public final class DesktopGSettings: DesktopSettingsReader {
    /// The schemas and keys read: what the portal relays of GNOME's.
    static let keys: [(schema: String, keys: [String])] = [
        ("org.gnome.desktop.interface", ["text-scaling-factor", "enable-animations", "gtk-theme", "icon-theme", "font-name"]),
        ("org.gnome.desktop.a11y.interface", ["high-contrast"]),
    ]

    private var opened: [(schema: String, settings: OpaquePointer)] = []
    /// Every value read, by schema and key.
    public private(set) var values: [String: [String: PortalSettingValue]] = [:]
    /// What the desktop asks of banners, from the values read.
    public private(set) var preferences = DesktopPreferences()
    /// Called, while ``process()`` runs, when a change of setting changed ``preferences``.
    public var onChange: ((DesktopPreferences) -> Void)?
    /// The descriptors to poll for reading; ``process()`` when one is readable.
    public private(set) var fileDescriptors: [Int32] = []

    /// Opens the schemas; nil when GIO cannot be loaded, neither schema is installed, or
    /// settings are not kept anywhere a desktop writes them (GIO's memory backend: no dconf).
    public init?() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for (schema, _) in Self.keys {
            guard let settings = cgsettings_open(schema, { context in
                guard let context else { return }
                Unmanaged<DesktopGSettings>.fromOpaque(context).takeUnretainedValue().changed()
            }, context) else { continue }
            opened.append((schema, settings))
        }
        guard !opened.isEmpty else { return nil }
        values = read()
        preferences = PortalSettings.preferences(from: values)
        var descriptors = [Int32](repeating: -1, count: 8)
        let count = cgsettings_descriptors(&descriptors, Int32(descriptors.count))
        fileDescriptors = Array(descriptors.prefix(Int(max(count, 0))))
    }

    deinit {
        for (_, settings) in opened { cgsettings_close(settings) }
    }

    /// Runs GIO's pending work: the changes it received are read, and ``onChange`` called.
    public func process() {
        cgsettings_dispatch()
    }

    private func read() -> [String: [String: PortalSettingValue]] {
        var values: [String: [String: PortalSettingValue]] = [:]
        var value = cgsettings_value()
        for (schema, settings) in opened {
            var keys: [String: PortalSettingValue] = [:]
            for key in Self.keys.first(where: { $0.schema == schema })?.keys ?? [] {
                cgsettings_read(settings, key, &value)
                if let read = Self.portalValue(&value) { keys[key] = read }
            }
            values[schema] = keys
        }
        return values
    }

    private static func portalValue(_ value: inout cgsettings_value) -> PortalSettingValue? {
        switch value.kind {
        case CGSETTINGS_BOOLEAN: .boolean(value.boolean != 0)
        case CGSETTINGS_DOUBLE: .double(value.number)
        case CGSETTINGS_INTEGER: .integer(value.integer)
        case CGSETTINGS_STRING:
            withUnsafeBytes(of: &value.text) { .string(String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)) }
        default: nil
        }
    }

    private func changed() {
        values = read()
        let new = PortalSettings.preferences(from: values)
        guard new != preferences else { return }
        preferences = new
        onChange?(new)
    }
}
