// The config file, ~/.config/window-banner/config.toml: appearance defaults for every banner,
// named styles (`--style offline`), and the owner process's settings. This module is the model
// and its rules: what a config says, the built-in styles, how a style resolves, where the file
// is. Reading TOML is ConfigTOML's job, done in a process of its own: `BannerConfig.load(path:)`
// (ConfigLoading.swift) runs `window-banner-config`, so toml++ — and the
// Foundation and C++ runtime it brings — never loads into the owner or the commands that draw.
//
// A file's styles replace the built-in style of the same name whole, never field by field, so
// a style in the file reads as exactly what it shows.

import BannerCore

/// A named look for a banner, from `[style.NAME]`: appearance values plus how long it stays.
public struct BannerStyle: Sendable, Equatable, Codable {
    /// The style's appearance values as written; unset fields come from the layers below.
    public var appearance: AppearanceSettings
    /// Seconds before the banner goes away; a style with a timeout is transient by default.
    public var timeout: Double?
    /// `private = true`: its banners are held back while the screen is shared, as with
    /// `show --private` (never for the built-in styles, refused in their tables, nor for the
    /// watchers' own banners: ``BannerConfig/watcherBannerIDs``).
    public var `private`: Bool?

    /// A style with these values.
    public init(appearance: AppearanceSettings = AppearanceSettings(), timeout: Double? = nil, private isPrivate: Bool? = nil) {
        self.appearance = appearance
        self.timeout = timeout
        self.private = isPrivate
    }
}

/// Everything a config file says, merged over the built-in styles.
public struct BannerConfig: Sendable, Equatable, Codable {
    /// `[defaults]`: the layer under every style and flag; empty means TopBannerAppearance's own.
    public var defaults: AppearanceSettings
    /// `[style.NAME]` by name: the built-in styles plus the file's, the file's winning.
    public var styles: [String: BannerStyle]
    /// `[daemon] idle-exit`: seconds the owner process waits with no banner and no queue before
    /// exiting, 0 for never; nil when the file does not say.
    public var idleExit: Double?
    /// `[monitor]`: where `window-banner monitor` learns whether the internet answers; nil
    /// when the file has no such table.
    public var monitor: MonitorSettings?
    /// The file these settings came from; nil for the built-in config.
    public var file: String?

    /// A config with these values.
    public init(
        defaults: AppearanceSettings = AppearanceSettings(), styles: [String: BannerStyle] = [:],
        idleExit: Double? = nil, monitor: MonitorSettings? = nil, file: String? = nil
    ) {
        self.defaults = defaults
        self.styles = styles
        self.idleExit = idleExit
        self.monitor = monitor
        self.file = file
    }

    /// The styles every installation has, so `--style offline` works with no file; the same
    /// as `Resources/config.example.toml`. Their icons are window-banner's own
    /// (`Resources/icons`), found by name next to the binary; their titles are shown in the
    /// reader's language (``resolve(style:translating:)``, Resources/po).
    public static let builtIn = BannerConfig(styles: [
        "offline": BannerStyle(appearance: AppearanceSettings(title: "No Internet Connection", background: "systemRed", icon: "window-banner-offline")),
        "online": BannerStyle(appearance: AppearanceSettings(title: "Back Online", background: "systemTeal", icon: "window-banner-online"), timeout: 2.0),
        "call": BannerStyle(appearance: AppearanceSettings(title: "Call in progress", background: "systemGreen")),
        "portal": BannerStyle(appearance: AppearanceSettings(title: "Sign in to Network", background: "systemIndigo")),
        // Orange, as GNOME's own sharing indicator: never the call's green.
        "sharing": BannerStyle(appearance: AppearanceSettings(title: "You are sharing your screen", background: "systemOrange")),
    ])

    /// The `--id`s of the watchers' own banners (`window-banner monitor`'s network, call and
    /// screen-sharing banners): never held back while the screen is shared, whatever their
    /// style says, since they are what the user must see then.
    public static let watcherBannerIDs: Set<String> = ["window-banner-monitor", "window-banner-calls", "window-banner-sharing"]

    /// The largest config file read; anything bigger is surely not one.
    public static let maximumFileSize = 1 << 20

    /// Where the config file is: `$XDG_CONFIG_HOME/window-banner/config.toml` when that
    /// variable is an absolute path (the XDG spec ignores relative ones), else
    /// `$HOME/.config/window-banner/config.toml`; nil with neither.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return joined(configHome, "window-banner/config.toml")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return joined(home, ".config/window-banner/config.toml")
        }
        return nil
    }

    /// The appearance and timeout for a banner of style `name` (nil: no style): the style's
    /// values over `defaults`. Flags go on top with `appearance.overlaid(by:)`.
    public func resolve(style name: String?) throws(ConfigError) -> BannerStyle {
        guard let name else { return BannerStyle(appearance: defaults) }
        guard let style = styles[name] else {
            throw ConfigError(
                kind: .unknownStyle, file: file,
                message: "unknown style '\(name.printable)' (known: \(styles.keys.sorted().joined(separator: ", ")))"
            )
        }
        return BannerStyle(appearance: defaults.overlaid(by: style.appearance), timeout: style.timeout, private: style.private)
    }

    /// ``resolve(style:)`` with the text window-banner itself supplies passed through
    /// `translate` (gettext, in the programs that draw): the title of a built-in style the file
    /// left as built — not defined, or copied unchanged as from the example file. A style the
    /// file changes is the user's own words and stays as written; flags go on top of either.
    /// Under a high-contrast desktop theme (`highContrast`), such a built-in style takes that
    /// theme's colours (``HighContrastTheme``); a style the file defines keeps its own.
    public func resolve(
        style name: String?, highContrast: HighContrastTheme? = nil, translating translate: (String) -> String
    ) throws(ConfigError) -> BannerStyle {
        var resolved = try resolve(style: name)
        if let name, let builtIn = Self.builtIn.styles[name], styles[name] == builtIn {
            if let title = builtIn.appearance.title { resolved.appearance.title = translate(title) }
            if let colours = highContrast?.colours(ofStyle: name) {
                resolved.appearance.background = colours.background
                resolved.appearance.textColor = colours.text
            }
        }
        return resolved
    }

    /// How urgently a screen reader speaks a banner of style `name` whose settings (the style's
    /// and the flags, laid over each other) are `settings`: what they say, else assertive for
    /// the built-in styles that mean something stopped or started that the user must hear now
    /// (`offline`, `call`, `sharing` — also when the file redefines them), polite for every other banner.
    public static func politeness(of settings: AppearanceSettings, style name: String?) throws(BannerValueError) -> Politeness {
        if let chosen = try settings.politenessSetting() { return chosen }
        return ["offline", "call", "sharing"].contains(name ?? "") ? .assertive : .polite
    }

    /// The close button's name, as a screen reader reads it (the ✕ shows no text).
    public static let closeButtonName = "Close"

    /// Every text window-banner supplies for a banner, in English: the msgids of
    /// Resources/po/window-banner.pot.
    public static var builtInTexts: [String] {
        (builtIn.styles.values.compactMap(\.appearance.title) + [closeButtonName, stopSharingLabel] + callSubtitleWords + [sharingSubtitleWords]
            + systemNoticeWords).sorted()
    }

    /// The system notices' titles (`monitor`, docs/fleet.md): a scheduled restart and shutdown,
    /// each with `%s` for the time, and Debian's "restart required" after an update.
    public static let systemNoticeWords = ["Restarting at %s", "Shutting down at %s", "Restart required to finish updating"]

    /// The words of the call banner's subtitle that are not apps' names (`monitor --calls`).
    public static let callSubtitleWords = ["camera", "an app"]

    /// The sharing banner's action, where the desktop lets it stop the share (GNOME).
    public static let stopSharingLabel = "Stop sharing"

    /// Added to the call banner's subtitle while the screen is shared too (`monitor --calls`).
    public static let sharingSubtitleWords = "sharing your screen"

    /// `directory/name` without doubling a slash the environment already ends with.
    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// `[monitor]`: the connectivity keys of `window-banner monitor`, each checked when the file is
/// read; the monitor's flags of the same names win.
public struct MonitorSettings: Sendable, Equatable, Codable {
    /// `connectivity`: auto, networkmanager, http or routes (`--connectivity`).
    public var connectivity: ConnectivitySource?
    /// `check-url`: the HTTP check's URL (`--check-url`).
    public var checkURL: String?
    /// `check-expect`: the start of the body that means online (`--check-expect`).
    public var checkExpect: String?
    /// `check-interval`: seconds between checks while a route exists (`--check-interval`).
    public var checkInterval: Double?
    /// `check-timeout`: seconds one check may take (`--check-timeout`).
    public var checkTimeout: Double?
    /// `calls`: watch PipeWire for calls too (`--calls`).
    public var calls: Bool?
    /// `calls-ignore`: apps whose captures are no call (`--calls-ignore`).
    public var callsIgnore: [String]?
    /// `calls-hide-delay`: seconds the call banner stays after the last capture (`--calls-hide-delay`).
    public var callsHideDelay: Double?
    /// `sharing`: watch PipeWire for screen sharing (`--sharing`; `calls` turns it on unless false).
    public var sharing: Bool?
    /// `sharing-ignore`: apps whose screen casts are not sharing, as recorders (`--sharing-ignore`).
    public var sharingIgnore: [String]?

    /// Settings with these values.
    public init(
        connectivity: ConnectivitySource? = nil, checkURL: String? = nil, checkExpect: String? = nil,
        checkInterval: Double? = nil, checkTimeout: Double? = nil
    ) {
        self.connectivity = connectivity
        self.checkURL = checkURL
        self.checkExpect = checkExpect
        self.checkInterval = checkInterval
        self.checkTimeout = checkTimeout
    }
}
