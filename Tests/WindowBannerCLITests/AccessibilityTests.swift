// Screen readers and the owner, with the real AT-SPI stack from Debian: a private session bus
// (dbus-daemon's session configuration, so at-spi2-core's bus launcher is started on demand, as
// on a desktop, and starts the registry), and at-spi2-core's own client library (Atspi, through
// GObject introspection, Tests/Clients/atspi-client.py) listening the way Orca does, registered
// before any banner shows. What it hears and what it can press is what a blind user gets. And the
// keyboard: docs/accessibility.md's i3, Openbox and sway bindings pressed in a real i3, Openbox
// and sway.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

extension WindowBannerCLITests {
    @Suite(
        "accessibility: screen readers",
        .needsProgram("/usr/libexec/at-spi-bus-launcher", package: "at-spi2-core"),
        .needsProgram("/usr/libexec/at-spi2-registryd", package: "at-spi2-core"),
        .needsProgram("/usr/bin/dbus-daemon", package: "dbus-daemon"),
        .needsFile(["/usr/lib/x86_64-linux-gnu/girepository-1.0/Atspi-2.0.typelib", "/usr/lib/aarch64-linux-gnu/girepository-1.0/Atspi-2.0.typelib"],
                   package: "gir1.2-atspi-2.0"))
    struct AccessibilityTests {
        /// Three monitors side by side, defined before the WM starts.
        static var threeMonitors: [[String]] {
            [("left", 0, "screen"), ("middle", 427, "none"), ("right", 854, "none")].map { name, x, output in
                ["xrandr", "--setmonitor", name, "426/113x800/212+\(x)+0", output]
            }
        }

        static func showing(_ events: [ScreenReaderClient.Event]) -> [ScreenReaderClient.Event] {
            events.filter { $0.event.hasPrefix("object:state-changed:showing") || $0.event.hasPrefix("object:announcement") }
        }

        static func announcement(_ name: String, _ description: String = "") -> ScreenReaderClient.Event {
            ScreenReaderClient.Event(event: "object:state-changed:showing", detail1: 1, app: "window-banner", role: "notification", name: name, description: description)
        }

        @Test func aBannerOnThreeMonitorsIsAnnouncedOnceAndAgainOnlyWhenItsWordsChange() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture(setup: Self.threeMonitors)
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }

            try owner.show(["--id", "net", "--style", "offline", "--title", "Network down", "--subtitle", "Wi-Fi lost", "--monitor", "all"])
            #expect(try owner.status().monitors.filter(\.presented).count == 3)
            let first = Self.announcement("Network down", "Wi-Fi lost")
            #expect(Self.showing(reader.events { Self.showing($0).contains(first) }) == [first])

            // The tree says what is on screen, and how urgently: offline interrupts.
            let tree = try #require(try reader.tree())
            #expect(tree.role == "application")
            #expect(tree.children.map(\.name) == ["Network down"])
            #expect(tree.children.first?.attributes["live"] == "assertive")
            #expect(tree.children.first?.showing == true)

            // The same banner with other words, in place: heard once more. The same words: not.
            try owner.show(["--id", "net", "--style", "offline", "--title", "Network back", "--subtitle", "Wi-Fi lost", "--monitor", "all"])
            try owner.show(["--id", "net", "--style", "offline", "--title", "Network back", "--subtitle", "Wi-Fi lost", "--monitor", "all"])
            // A dismissal is not spoken; the next banner is (and tells that nothing came between).
            #expect(try owner.run(["dismiss", "--id", "net"]).status == 0)
            try owner.show(["--id", "mail", "--title", "New mail", "--monitor", "all"])
            let last = Self.announcement("New mail")
            let heard = Self.showing(reader.events { Self.showing($0).contains(last) })
            #expect(heard == [first, Self.announcement("Network back", "Wi-Fi lost"), last])
            #expect(try reader.tree()?.children.map(\.name) == ["New mail"])
            #expect(try reader.tree()?.children.first?.attributes["live"] == "polite")
        }

        /// The `live` attribute a screen reader reads: `--politeness` over the config file's style
        /// key over the built-in choice, changed by an in-place update; a bad value is one line,
        /// exit 64, and the banner on screen stays as it was.
        @Test func politenessComesFromTheFlagThenTheStyleThenTheBuiltInDefault() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            _ = try owner.writeConfig("""
                [style.build]
                title = "Build failed"
                background = "#a00000"
                politeness = "assertive"

                [style.offline]
                title = "Offline, quietly"
                background = "#a00000"
                politeness = "polite"
                """)
            func live(after arguments: [String], heard title: String) throws -> String? {
                try owner.show(["--id", "one", "--compact", "never"] + arguments)
                _ = reader.events { Self.showing($0).contains { $0.name == title } }
                #expect(try owner.status().monitors.first?.title == title)
                return try reader.tree()?.children.first?.attributes["live"]
            }
            #expect(try live(after: ["--style", "build"], heard: "Build failed") == "assertive")
            #expect(try live(after: ["--style", "build", "--politeness", "polite", "--title", "Build fixed"], heard: "Build fixed") == "polite")
            #expect(try live(after: ["--style", "offline"], heard: "Offline, quietly") == "polite")
            #expect(try live(after: ["--style", "call", "--title", "Call"], heard: "Call") == "assertive")
            #expect(try live(after: ["--style", "sharing"], heard: "You are sharing your screen") == "assertive")
            #expect(try live(after: ["--title", "Plain"], heard: "Plain") == "polite")
            // In place, the same words: only the urgency changes, and the reader sees it.
            #expect(try live(after: ["--title", "Plain", "--politeness", "ASSERTIVE"], heard: "Plain") == "assertive")

            let bad = try owner.run(["show", "--id", "one", "--title", "Loud", "--politeness", "loud"])
            #expect(bad.status == 64)
            #expect(bad.error == "window-banner: bad politeness 'loud' (assertive or polite)\n", "\(bad.error)")
            #expect(try owner.status().monitors.first?.title == "Plain")
            #expect(try reader.tree()?.children.first?.attributes["live"] == "assertive")
        }

        @Test func theButtonsAreReachableAndCloseDismissesAsAClickOnItWould() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            let waiting = try owner.fixture.launch(
                ["show", "--wait", "--compact", "never", "--title", "Incoming call", "--close-button", "--action", "Join", "--action", "Decline",
                 "--on-click", "--", "true"])
            #expect(Self.showing(reader.events { Self.showing($0).contains(Self.announcement("Incoming call")) }).count == 1)

            let banner = try #require(try reader.tree()?.children.first)
            #expect(banner.role == "notification")
            #expect(banner.actions == ["click"])
            #expect(banner.children.map(\.role) == ["push button", "push button", "push button"])
            #expect(banner.children.map(\.name) == ["Join", "Decline", "Close"])
            #expect(banner.children.map(\.actions) == [["click"], ["click"], ["click"]])

            #expect(try reader.press("Close"))
            #expect(waiting.waitForExit(timeout: 10) == 13, "show --wait: \(waiting.standardError)")
            #expect(owner.fixture.observer.wait { owner.fixture.observer.workAreas() == owner.fixture.originalWorkAreas })
            #expect(try reader.tree()?.children.isEmpty == true)
        }

        @Test func theBannersOwnActionIsItsClickAndRunsItsCommand() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            let clicked = owner.runtimeDirectory + "/clicked"
            let waiting = try owner.fixture.launch(["show", "--wait", "--title", "Backup failed", "--on-click", "--", "/usr/bin/touch", clicked])
            _ = reader.events { Self.showing($0).contains(Self.announcement("Backup failed")) }
            #expect(try reader.press("Backup failed"))
            #expect(waiting.waitForExit(timeout: 10) == 12, "show --wait: \(waiting.standardError)")
            #expect(owner.fixture.observer.wait { access(clicked, F_OK) == 0 })
        }

        @Test func aGermanCallersBannerIsHeardInGermanWithItsCloseButtonInGerman() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            owner.fixture.extraEnvironment["LOCPATH"] = try TestLocales.locpath()
            let german = ["LANG": TestLocales.lang("de"), "LANGUAGE": "de"]
            let shown = try TranslationCLITests.run(owner, ["show", "--style", "call", "--close-button"], locale: german)
            #expect(shown.status == 0, "\(shown.error)")
            let heard = Self.showing(reader.events { !Self.showing($0).isEmpty })
            #expect(heard == [Self.announcement("Laufender Anruf")])
            let banner = try #require(try reader.tree()?.children.first)
            #expect(banner.children.map(\.name) == ["Schließen"])
            #expect(banner.attributes["live"] == "assertive")
        }

        @Test func anActionPressedByTheScreenReaderEndsWaitAsAnAction() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            let waiting = try owner.fixture.launch(["show", "--wait", "--title", "Update ready", "--action", "Restart", "--action", "Later"])
            _ = reader.events { Self.showing($0).contains(Self.announcement("Update ready")) }
            #expect(try reader.press("Later"))
            #expect(waiting.waitForExit(timeout: 10) == 16, "show --wait: \(waiting.standardError)")
        }

        /// Calls a screen reader would never make — out-of-range indexes, arguments missing or of
        /// the wrong type, unknown properties and objects, writes to read-only properties — each
        /// answered (a reply or an error, never silence) and the banner untouched.
        @Test func nonsenseCallsAreAnsweredAndChangeNothing() throws {
            let bus = try PrivateSessionBus()
            let reader = try ScreenReaderClient(on: bus)
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            let waiting = try owner.fixture.launch(["show", "--wait", "--title", "Still here", "--close-button", "--action", "Join"])
            _ = reader.events { Self.showing($0).contains(Self.announcement("Still here")) }

            let address = try #require(bus.call(["--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"]).split(separator: "\"").dropFirst().first)
            let registryChildren = try bus.call(
                ["--dest=org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible.GetChildren"], address: String(address))
            let name = try #require(registryChildren.split(separator: "\"").first { $0.hasPrefix(":") }.map(String.init))
            let root = "/org/a11y/atspi/accessible/root"
            let banner = try #require(try bus.call(["--dest=\(name)", root, "org.a11y.atspi.Accessible.GetChildren"], address: String(address))
                .split(separator: "\"").first { $0.hasPrefix("/org/a11y/atspi/accessible/banner") }.map(String.init))
            let nonsense: [[String]] = [
                [root, "org.a11y.atspi.Accessible.GetChildAtIndex", "int32:-5"],
                [root, "org.a11y.atspi.Accessible.GetChildAtIndex", "int32:2147483647"],
                [root, "org.a11y.atspi.Accessible.GetChildAtIndex"],
                [root, "org.a11y.atspi.Accessible.GetChildAtIndex", "string:0"],
                [banner + "_0", "org.a11y.atspi.Action.DoAction", "int32:99"],
                [banner + "_0", "org.a11y.atspi.Action.DoAction", "string:click"],
                [banner + "_1", "org.a11y.atspi.Action.GetName", "int32:-1"],
                [banner, "org.freedesktop.DBus.Properties.Get", "string:org.a11y.atspi.Accessible", "string:Nope"],
                [banner, "org.freedesktop.DBus.Properties.Get", "string:org.a11y.atspi.Application", "string:Id"],
                [banner, "org.freedesktop.DBus.Properties.Set", "string:org.a11y.atspi.Accessible", "string:Name", "variant:string:Gone"],
                [root, "org.freedesktop.DBus.Properties.Set", "string:org.a11y.atspi.Application", "string:Id", "variant:string:x"],
                [banner, "org.freedesktop.DBus.Properties.GetAll", "string:org.example.Nothing"],
                ["/org/a11y/atspi/accessible/banner999", "org.a11y.atspi.Accessible.GetRole"],
                [banner, "org.a11y.atspi.Accessible.NoSuchMethod"],
            ]
            for call in nonsense {
                // dbus-send exits 0 on a reply and 1 on an error reply; a call nobody answers ends it late (no status).
                let answered = try bus.answered(["--dest=\(name)"] + call, address: String(address))
                #expect(answered, "no answer to \(call)")
            }
            let tree = try #require(try reader.tree()?.children.first)
            #expect(tree.name == "Still here")
            #expect(tree.children.map(\.name) == ["Join", "Close"])
            #expect(try owner.status().monitors.first?.title == "Still here")
            #expect(try reader.press("Close"))
            #expect(waiting.waitForExit(timeout: 10) == 13)
        }

        @Test func withoutAnAccessibilityBusNothingIsRegisteredAndNothingStarted() throws {
            let bus = try PrivateSessionBus()
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            try owner.show(["--title", "Nobody listens", "--compact", "never"])
            #expect(owner.fixture.waitForBanner())
            // The owner asked whether an accessibility bus runs, which starts none, and left.
            let names = try bus.names()
            #expect(names.filter { !$0.hasPrefix(":") } == ["org.freedesktop.DBus"])
            #expect(names.filter { $0.hasPrefix(":") }.count == 1, "connections besides dbus-send's: \(names)")
            #expect(access(bus.runtimeDirectory + "/at-spi", F_OK) != 0)
        }
    }

    @Suite(
        "accessibility: keyboards", .needsProgram("/usr/bin/i3", package: "i3-wm"), .needsProgram("/usr/bin/openbox", package: "openbox"),
        .needsProgram("/usr/bin/xdotool", package: "xdotool"))
    struct KeyboardBindingTests {
        /// The documented lines of `file` whose block starts with `prefix`, with the program named
        /// by its path and this fixture's runtime directory (a window manager runs commands in its
        /// own environment).
        static func documentedBindings(startingWith prefix: String, for owner: OwnerFixture) throws -> String {
            let documented = try #require(try DocumentedExamplesTests.blocks().first {
                $0.file == "docs/accessibility.md" && $0.body.hasPrefix(prefix)
            })
            let program = "env XDG_RUNTIME_DIR=\(owner.runtimeDirectory) \(windowBannerExecutable())"
            return documented.body
                .replacingOccurrences(of: "exec --no-startup-id window-banner", with: "exec --no-startup-id \(program)")
                .replacingOccurrences(of: "<command>window-banner", with: "<command>\(program)")
        }

        /// Presses each key with XTEST on a banner with two actions: each ends `show --wait` as
        /// its command does.
        static func pressEachKey(_ owner: OwnerFixture) throws {
            for (key, outcome) in [("super+shift+Return", Int32(16)), ("super+Return", 15), ("super+Escape", 10)] {
                let waiting = try owner.fixture.launch(["show", "--wait", "--title", "Incoming call", "--action", "Join", "--action", "Decline"])
                #expect(owner.fixture.observer.wait { (try? owner.status().monitors.contains(where: \.presented)) == true })
                try owner.fixture.desktop.run(["xdotool", "key", key])
                #expect(waiting.waitForExit(timeout: 10) == outcome, "\(key): \(waiting.standardError)")
            }
        }

        /// docs/accessibility.md's i3 lines, added to a real i3's config and reloaded.
        @Test func theDocumentedI3KeysPressTheActionsAndDismiss() throws {
            let owner = try OwnerFixture(windowManager: .i3)
            let bindings = try Self.documentedBindings(startingWith: "bindsym", for: owner)
            let config = owner.fixture.desktop.home + "/.config/i3.config"
            let existing = try String(contentsOfFile: config, encoding: .utf8)
            try (existing + bindings + "\n").write(toFile: config, atomically: true, encoding: .utf8)
            // i3-msg answers once the config is read again.
            try owner.fixture.desktop.run(["i3-msg", "reload"])
            try Self.pressEachKey(owner)
        }

        /// docs/accessibility.md's Openbox lines, in the `<keyboard>` of an rc.xml that Openbox reads
        /// as it starts (`--reconfigure` would not say when it is done).
        @Test func theDocumentedOpenboxKeysPressTheActionsAndDismiss() throws {
            let owner = try OwnerFixture()
            let bindings = try Self.documentedBindings(startingWith: "<keybind", for: owner)
            let directory = owner.fixture.desktop.home + "/.config/openbox"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let rc = "<?xml version=\"1.0\"?>\n<openbox_config xmlns=\"http://openbox.org/3.4/rc\">\n<keyboard>\n\(bindings)\n</keyboard>\n</openbox_config>\n"
            try rc.write(toFile: directory + "/rc.xml", atomically: true, encoding: .utf8)
            owner.fixture.desktop.killWindowManager()
            try owner.fixture.desktop.startWindowManager(.openbox)
            try Self.pressEachKey(owner)
        }
    }
}

extension WindowBannerCLITests {
    /// docs/accessibility.md's Xfce block run as it is written, in an Xfce session's settings
    /// parts: xfconfd (started on demand by a private session bus, as in a session) and
    /// xfsettingsd, whose keyboard-shortcuts helper grabs xfconf's `/commands/custom` keys and
    /// runs their commands, with xfwm4 managing the desktop. The keys are pressed with XTEST.
    @Suite(
        "accessibility: keyboards in Xfce", .needsProgram("/usr/bin/xfwm4", package: "xfwm4"),
        .needsProgram("/usr/bin/xfsettingsd", package: "xfce4-settings"), .needsProgram("/usr/bin/xfconf-query", package: "xfconf"),
        .needsProgram("/usr/bin/dbus-daemon", package: "dbus-daemon"), .needsProgram("/usr/bin/xdotool", package: "xdotool"))
    struct XfceKeyboardBindingTests {
        @Test func theDocumentedXfceShortcutsPressTheActionsAndDismiss() throws {
            let owner = try OwnerFixture(windowManager: .xfwm4)
            let settings = owner.runtimeDirectory + "/xfce"
            for directory in [settings, settings + "/bin", settings + "/config", settings + "/home"] { mkdir(directory, 0o700) }
            let bus = try PrivateSessionBus(activation: ["XDG_CONFIG_HOME": settings + "/config", "HOME": settings + "/home"])
            // The commands xfsettingsd runs find `window-banner` on its PATH, and the owner in its
            // XDG_RUNTIME_DIR, as in a session.
            symlink(windowBannerExecutable(), settings + "/bin/window-banner")
            let daemon = try Subprocess(executable: "/usr/bin/xfsettingsd", arguments: ["--no-daemon", "--disable-wm-check"], environment: bus.environment.merging([
                "PATH": settings + "/bin:/usr/bin:/bin", "DISPLAY": owner.fixture.desktop.displayName, "XDG_RUNTIME_DIR": owner.runtimeDirectory,
                "XDG_CONFIG_HOME": settings + "/config", "HOME": settings + "/home", "NO_AT_BRIDGE": "1",
            ]) { $1 })
            defer {
                daemon.killGroup()
                daemon.waitForExit()
            }
            // xfsettingsd's first start makes the user's own shortcuts from Xfce's defaults
            // (`/commands/custom`, with `override`): what the documented lines add to.
            let query = ["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=\(bus.address)", "/usr/bin/xfconf-query", "-c", "xfce4-keyboard-shortcuts"]
            #expect(owner.fixture.observer.wait(timeout: 20) {
                (try? Subprocess.run(query[0], Array(query.dropFirst()) + ["-p", "/commands/custom/override"]))?.hasPrefix("true") == true
            }, "xfsettingsd did not set up the shortcuts: \(daemon.standardError)")

            let documented = try #require(try DocumentedExamplesTests.blocks().first {
                $0.file == "docs/accessibility.md" && $0.body.hasPrefix("xfconf-query -c xfce4-keyboard-shortcuts")
            })
            let shell = try Subprocess(executable: "/bin/bash", arguments: ["-e", "-c", documented.body], environment: bus.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
            #expect(shell.waitForExit(timeout: 20) == 0, "\(documented): \(shell.standardError)")

            // A shortcut of the test's own, added last: once xfsettingsd runs it, it has grabbed
            // the documented ones before it (it takes xfconf's changes in order).
            let probe = owner.runtimeDirectory + "/probe"
            _ = try Subprocess.run(query[0], Array(query.dropFirst()) + ["-p", "/commands/custom/<Super>F12", "-n", "-t", "string", "-s", "/usr/bin/touch \(probe)"])
            #expect(owner.fixture.observer.wait(timeout: 20) {
                (try? owner.fixture.desktop.run(["xdotool", "key", "super+F12"])) != nil && access(probe, F_OK) == 0
            }, "xfsettingsd never ran a shortcut: \(daemon.standardError)")
            try KeyboardBindingTests.pressEachKey(owner)
        }
    }
}

/// docs/accessibility.md's sway lines in a real headless sway, pressed with a virtual keyboard
/// (wtype). sway runs as an unprivileged user (it refuses root), and what it binds runs as that
/// user in its session: so the banners are shown by that user too, from a client of that sway,
/// and the bound commands find their owner as the user's own scripts would.
@Suite(
    "accessibility: keyboards on sway", .serialized, .needsProgram("/usr/bin/sway", package: "sway"),
    .needsProgram("/usr/bin/wtype", package: "wtype"))
struct SwayKeyboardBindingTests {
    /// The documented block, with the program named by its path (sway's PATH has no build directory).
    static func documentedBindings() throws -> String {
        let documented = try #require(try WindowBannerCLITests.DocumentedExamplesTests.blocks().first {
            $0.file == "docs/accessibility.md" && $0.body.hasPrefix("bindsym Mod4+Escape exec window-banner")
        })
        return documented.body.replacingOccurrences(of: "exec window-banner", with: "exec \(windowBannerExecutable())")
    }

    /// `window-banner arguments…` as sway's user on its socket; its exit status and output.
    static func windowBanner(_ sway: TestSway, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        let process = try sway.startClient([windowBannerExecutable()] + arguments)
        process.closeStandardInput()
        let status = process.waitForExit(timeout: 20)
        return (status, process.standardOutput)
    }

    @Test func theDocumentedSwayKeysPressTheActionsAndDismiss() throws {
        let sway = try TestSway(extraConfig: try Self.documentedBindings())
        var owner: pid_t?
        defer {
            // The owner left its starter's process group (it outlives a `show`).
            if let owner { kill(owner, SIGKILL) }
        }
        let keys: [(press: [String], outcome: Int32)] = [
            (["-M", "logo", "-M", "shift", "-k", "Return", "-m", "shift", "-m", "logo"], 16),
            (["-M", "logo", "-k", "Return", "-m", "logo"], 15),
            (["-M", "logo", "-k", "Escape", "-m", "logo"], 10),
        ]
        for (press, outcome) in keys {
            let waiting = try sway.startClient([windowBannerExecutable(), "show", "--wait", "--title", "Incoming call", "--action", "Join", "--action", "Decline"])
            let deadline = monotonicSeconds() + 20
            var status: [String: Any]?
            while monotonicSeconds() < deadline {
                let answer = try Self.windowBanner(sway, ["status", "--json"])
                status = try? JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
                if (status?["monitors"] as? [[String: Any]])?.contains(where: { $0["presented"] as? Bool == true }) == true { break }
                poll(nil, 0, 20)
            }
            owner = owner ?? (status?["pid"] as? Int).map { pid_t($0) }
            #expect((status?["monitors"] as? [[String: Any]])?.first?["title"] as? String == "Incoming call", "status: \(String(describing: status))")
            let typed = try sway.startClient(["wtype"] + press)
            #expect(typed.waitForExit(timeout: 10) == 0, "wtype: \(typed.standardError)")
            #expect(waiting.waitForExit(timeout: 10) == outcome, "\(press): \(waiting.standardError) \(sway.log.suffix(1500))")
        }
        #expect(try Self.windowBanner(sway, ["dismiss", "--all", "--quit"]).status == 0)
    }
}
