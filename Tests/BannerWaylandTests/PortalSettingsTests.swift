// How the banner reads the desktop's preferences from xdg-desktop-portal's Settings: GNOME's,
// the standard and KDE's keys mapped to one DesktopPreferences, and the portal's answers treated
// as another program's — against a stand-in portal on a private bus (Tests/Fakes/fake-portal.py)
// that sends what a real one never would: values of the wrong type, huge strings, thousands of
// keys, NaN. (The real portal, with GNOME's GSettings behind it, is WaylandPreferencesTests'.)

import BannerCore
import DesktopPortal
import Glibc
import ProcessTestSupport
import SDBus
import Testing

extension BannerWaylandTests {
    @Suite("The portal's settings")
    struct PortalSettingsTests {
        typealias Value = PortalSettingValue

        @Test func gnomesKeysGiveEveryPreference() {
            let preferences = PortalSettings.preferences(from: [
                "org.gnome.desktop.interface": [
                    "text-scaling-factor": .double(1.25), "enable-animations": .boolean(false),
                    "icon-theme": .string("Papirus"), "font-name": .string("Cantarell Bold 11"), "gtk-theme": .string("Adwaita"),
                ],
                "org.gnome.desktop.a11y.interface": ["high-contrast": .boolean(true)],
            ])
            #expect(preferences == DesktopPreferences(textScale: 1.25, animationsEnabled: false, themeName: "HighContrast",
                                                      iconThemeName: "Papirus", fontFamily: "Cantarell"))
        }

        @Test func theStandardKeysAskForReducedMotionAndHigherContrast() {
            let preferences = PortalSettings.preferences(from: [
                "org.freedesktop.appearance": ["reduced-motion": .integer(1), "contrast": .integer(1), "color-scheme": .integer(1)],
            ])
            #expect(preferences.animationsEnabled == false)
            #expect(preferences.themeName == "HighContrast")
            #expect(PortalSettings.preferences(from: ["org.freedesktop.appearance": ["reduced-motion": .integer(0)]]).animationsEnabled == true)
        }

        @Test func kdesKeysGiveItsFontIconsAndAnimationSpeed() {
            let preferences = PortalSettings.preferences(from: [
                "org.kde.kdeglobals.General": ["font": .string("Noto Sans,10,-1,5,50,0,0,0,0,0")],
                // As Plasma's portal relays kdeglobals: every value a string.
                "org.kde.kdeglobals.KDE": ["AnimationDurationFactor": .string("0")],
                "org.kde.kdeglobals.Icons": ["Theme": .string("breeze-dark")],
            ])
            #expect(preferences == DesktopPreferences(animationsEnabled: false, iconThemeName: "breeze-dark", fontFamily: "Noto Sans"))
            let slower = PortalSettings.preferences(from: ["org.kde.kdeglobals.KDE": ["AnimationDurationFactor": .double(0.5)]])
            #expect(slower.animationsEnabled == true)
            let unreadable = PortalSettings.preferences(from: ["org.kde.kdeglobals.KDE": ["AnimationDurationFactor": .string("nan")]])
            #expect(unreadable.animationsEnabled == nil)
        }

        @Test func valuesNoDesktopMeansAreIgnored() {
            let preferences = PortalSettings.preferences(from: [
                "org.gnome.desktop.interface": [
                    "text-scaling-factor": .double(.infinity), "icon-theme": .string("../../etc"), "font-name": .string("Evil\u{1}Font 10"),
                    "enable-animations": .string("false"),
                ],
            ])
            #expect(preferences == DesktopPreferences())
            for scale in [0.0, -1, 0.1, 5, .nan] {
                #expect(PortalSettings.preferences(from: ["org.gnome.desktop.interface": ["text-scaling-factor": .double(scale)]]).textScale == nil)
            }
        }

        /// Serves `settings`' bus until `done` holds, or 10 s pass.
        static func process(_ settings: PortalSettings, until done: () -> Bool) throws {
            let deadline = monotonicSeconds() + 10
            while !done(), monotonicSeconds() < deadline {
                var entry = pollfd(fd: settings.fileDescriptors[0], events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 100)
                try settings.process()
            }
        }

        /// The stand-in portal's ReadAll and signals, read over a real bus.
        @Test func aHostilePortalIsReadWithinBoundsAndFollowedLive() throws {
            let bus = try PrivateSystemBus()
            let huge = "'" + String(repeating: "x", count: 100_000) + "'"
            let portal = try FakePortal(on: bus, settings: """
                {'org.gnome.desktop.interface': {'text-scaling-factor': dbus.String('big'), 'font-name': dbus.String(\(huge)),
                 'enable-animations': dbus.Array([dbus.Boolean(False)], signature='b'), 'icon-theme': dbus.Int32(7),
                 'nested': dbus.Dictionary({'a': dbus.Double(1.0)}, signature='sv', variant_level=1)},
                 'org.kde.kdeglobals.General': dict((dbus.String('key%d' % n), dbus.Int32(n)) for n in range(5000)),
                 'org.example.unasked': {'text-scaling-factor': dbus.Double(2.0)}}
                """)
            let settings = try PortalSettings(connection: try BusConnection(address: bus.address))
            // Nothing of the wrong type counts; a string is cut; a namespace keeps at most 512 keys;
            // a namespace not asked for is not kept.
            #expect(settings.preferences == DesktopPreferences())
            #expect(settings.values["org.gnome.desktop.interface"]?["font-name"] == .string(String(repeating: "x", count: 1024)))
            #expect(settings.values["org.kde.kdeglobals.General"]?.count == 512)
            #expect(settings.values["org.example.unasked"] == nil)

            var seen: [DesktopPreferences] = []
            settings.onChange = { seen.append($0) }
            try portal.emit("('org.gnome.desktop.interface', 'text-scaling-factor', dbus.Double(1.5))")
            try portal.emit("('org.gnome.desktop.interface', 'enable-animations', dbus.String('no'))")
            try portal.emit("('org.gnome.desktop.interface', 'enable-animations', dbus.Boolean(False))")
            try portal.emit("('org.example.unasked', 'text-scaling-factor', dbus.Double(3.0))")
            try portal.emit("('org.gnome.desktop.interface', 'text-scaling-factor', dbus.Double(float('nan')))")
            try Self.process(settings) { seen.count == 3 }
            // Only changes of what the banner follows are reported, in order; NaN is no scale.
            #expect(seen == [
                DesktopPreferences(textScale: 1.5),
                DesktopPreferences(textScale: 1.5, animationsEnabled: false),
                DesktopPreferences(animationsEnabled: false),
            ])
        }

        /// A portal the bus is still starting answers after the call timeout: the banner does not
        /// wait, and follows its settings once they come, over a change sent before them.
        @Test func aPortalSlowToStartIsFollowedOnceItAnswers() throws {
            let bus = try PrivateSystemBus()
            let portal = try FakePortal(on: bus, settings: """
                {'org.gnome.desktop.interface': {'text-scaling-factor': dbus.Double(1.5), 'enable-animations': dbus.Boolean(True)}}
                """, delay: 1)
            let started = monotonicSeconds()
            let settings = try PortalSettings(connection: try BusConnection(address: bus.address, callTimeout: 200_000))
            #expect(monotonicSeconds() - started < 1, "the portal was waited for")
            #expect(settings.preferences == DesktopPreferences())
            var seen: [DesktopPreferences] = []
            settings.onChange = { seen.append($0) }
            try portal.emit("('org.gnome.desktop.interface', 'enable-animations', dbus.Boolean(False))")
            try Self.process(settings) { seen.count == 2 }
            #expect(seen == [
                DesktopPreferences(animationsEnabled: false),
                DesktopPreferences(textScale: 1.5, animationsEnabled: true),
            ])
        }
    }
}
