// `window-banner monitor` through the whole real chain: the monitor runs inside a private
// network namespace, the test changes that namespace's default route with `ip`, the kernel tells
// the monitor over rtnetlink, the monitor asks the display's owner process, and the owner's
// banner takes space on a private Xvfb + openbox. Each step is awaited on something that
// announces it — a line the monitor prints, an X event, a process exit — never on a sleep;
// the user-visible result is read back from `status --json` and the work area.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

/// `window-banner monitor` started inside `namespace` as a client of `owner`'s desktop. The
/// owner it starts lives in the namespace too: the X server and the owner socket are reached
/// through Unix sockets in the file system, which every network namespace shares.
final class MonitorProcess {
    let process: Subprocess
    /// The first line: where connectivity comes from (`connectivity from routes (…)`).
    private(set) var source = ""

    /// What every monitor under test gets: the test hook that refuses a check URL that is not
    /// local, and a system bus that is not there — so `auto` means routes (never the machine's
    /// own NetworkManager) unless a test passes its private bus.
    static let testEnvironment = [
        "WINDOW_BANNER_TEST_LOCAL_ONLY": "1",
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/window-banner-test-no-bus",
    ]

    /// The first line of a monitor in `auto` with no system bus.
    static let routesWithoutBus = "connectivity from routes (cannot connect to the system bus: No such file or directory)"

    convenience init(_ owner: OwnerFixture, in namespace: NetworkNamespace, _ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        let command = namespace.command([windowBannerExecutable(), "monitor"] + arguments)
        let process = try Subprocess(
            executable: command[0], arguments: Array(command.dropFirst()),
            environment: owner.fixture.environment(.desktop).merging(Self.testEnvironment) { $1 }.merging(extra) { $1 })
        try self.init(process)
    }

    /// A monitor the test started itself.
    init(_ process: Subprocess) throws {
        self.process = process
        source = try nextEvent()
    }

    /// The next event the monitor printed, its timestamp checked and removed.
    func nextEvent(timeout: Double = 10) throws -> String {
        guard let event = try event(within: timeout) else {
            throw TestFailure("no line from the monitor within \(timeout) s; stderr: \(process.standardError)")
        }
        return event
    }

    /// The next event if one comes within `timeout` seconds: for "nothing more happens".
    func event(within timeout: Double) throws -> String? {
        guard let line = process.readLine(timeout: timeout) else { return nil }
        guard let match = line.wholeMatch(of: #/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (.+)/#) else {
            throw TestFailure("not `TIMESTAMP EVENT`: \(line)")
        }
        return String(match.output.2)
    }

    /// SIGTERM, then every line up to its exit and the exit status.
    func terminate() -> (events: [String], status: Int32?) {
        process.signal(SIGTERM)
        var events: [String] = []
        while let event = try? event(within: 10) { events.append(event) }
        return (events, process.waitForExit())
    }
}

extension WindowBannerCLITests {
    @Suite(
        "monitor: route changes drive the banner",
        .needsRoot("creating network namespaces")
    )
    struct MonitorCommandTests {
        static let offlineTitle = "No Internet Connection"
        static let restoredTitle = "Back Online"

        @Test func offlineBannerFollowsTheDefaultRouteAndBackOnlineHidesAfterTheDelay() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let monitor = try MonitorProcess(owner, in: namespace, ["--hide-delay", "1"])

            // Online at start-up: nothing shown, not even an owner started.
            #expect(monitor.source == MonitorProcess.routesWithoutBus)
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try owner.status().presented == false)
            #expect(owner.ownerProcesses().isEmpty)

            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            let offline = try owner.status()
            #expect(offline.presented)
            #expect(offline.title == Self.offlineTitle)
            #expect(offline.id == "window-banner-monitor")
            #expect(offline.mode == "sticky")
            let height = try #require(offline.height)
            // The work area shrinks by the banner's height on the 1280×800 desktop.
            #expect(owner.fixture.waitForBanner(height: height))

            // "Back Online" lasts the 1 s hide delay: a follower subscribed before it sees it
            // (title, and no time left: the monitor hides it, not a timeout), where a later
            // `status` of a slow machine could come after it is gone.
            let follower = try owner.fixture.launch(["status", "--follow", "--format", "{title}|{remaining}"])
            #expect(follower.readLine(timeout: 20) == Self.offlineTitle + "|")
            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "restored banner shown")
            #expect(follower.readLine(timeout: 20) == Self.restoredTitle + "|")
            #expect(try monitor.nextEvent() == "restored banner hidden")
            #expect(follower.readLine(timeout: 20) == "")
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(try owner.status().presented == false)

            let ending = monitor.terminate()
            #expect(ending.events == ["stopped (SIGTERM)"])
            #expect(ending.status == 0)
        }

        @Test func offlineAtStartShowsTheOfflineBannerAndSigtermTakesItAway() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            // A link with an address but no default route: no path to the internet.
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            let monitor = try MonitorProcess(owner, in: namespace)

            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            let status = try owner.status()
            #expect(status.title == Self.offlineTitle)
            #expect(owner.fixture.waitForBanner(height: try #require(status.height)))

            let ending = monitor.terminate()
            #expect(ending.events == ["offline banner hidden", "stopped (SIGTERM)"])
            #expect(ending.status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
            #expect(try owner.status().presented == false)
        }

        @Test func bothBannersSpeakTheMonitorsLanguageNotTheOwners() throws {
            let owner = try WindowBannerCLITests.TranslationCLITests.makeOwner()
            // An owner already running in English serves the monitor's Hebrew.
            try owner.show(["--title", "Started in English"])
            try owner.run(["dismiss"])
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let hebrew = try #require(TestLocales.titles["he"])
            let monitor = try MonitorProcess(owner, in: namespace, ["--hide-delay", "5"], environment: ["LANG": TestLocales.lang("he")])
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")

            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(try owner.status().title == hebrew.offline)

            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "restored banner shown")
            #expect(try owner.status().title == hebrew.online)
            // The monitor's own titles still win over the translation.
            #expect(monitor.terminate().status == 0)
            let titled = try MonitorProcess(owner, in: namespace, ["--offline-title", "Kein Netz"], environment: ["LANG": TestLocales.lang("he")])
            #expect(try titled.nextEvent() == "online via veth0 ipv4")
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try titled.nextEvent() == "offline")
            #expect(try titled.nextEvent() == "offline banner shown")
            #expect(try owner.status().title == "Kein Netz")
            #expect(titled.terminate().status == 0)
        }

        @Test func monitorAndOwnerEndWithTheXServer() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            let monitor = try MonitorProcess(owner, in: namespace)
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            let ownerPID = try #require(owner.ownerProcesses().first)

            owner.observer.close()
            owner.fixture.desktop.stop()
            #expect(monitor.process.waitForExit(timeout: 2) == 69)
            #expect(monitor.process.standardError.contains("lost the connection to the X display"))
            #expect(owner.waitForExit(of: ownerPID, timeout: 2))
            #expect(!FileManager.default.fileExists(atPath: owner.socketPath))
        }

        @Test func dropDuringBackOnlineShowsTheOfflineBannerAgainAndKeepsIt() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            // A hide delay long enough for the drop to come during "Back Online" on a slow
            // machine too (the test's next step, not a race with it).
            let monitor = try MonitorProcess(owner, in: namespace, ["--hide-delay", "3"])
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")

            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "restored banner shown")
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            // The hide that was due three seconds after coming back never comes.
            #expect(try monitor.event(within: 4) == nil)
            let status = try owner.status()
            #expect(status.presented)
            #expect(status.title == Self.offlineTitle)
            #expect(monitor.terminate().status == 0)
        }

        @Test func offlineBannerDismissedByTheUserIsNotFollowedByBackOnline() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            let monitor = try MonitorProcess(owner, in: namespace, ["--hide-delay", "1"])
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")

            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(try monitor.nextEvent() == "offline banner dismissed by another client")
            #expect(owner.fixture.waitForRestoredDesktop())

            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            // Nothing to confirm: no "Back Online" appears.
            #expect(try monitor.event(within: 1) == nil)
            #expect(try owner.status().presented == false)

            // Offline again is news: the banner comes back.
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(monitor.terminate().status == 0)
        }

        @Test func unreachableOwnerIsAWarningAndMonitoringGoesOn() throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            // Loopback up, as on any real machine: Xlib falls back to TCP on localhost when a
            // display's Unix socket is missing, and that must be refused at once, not routed.
            try namespace.ip("link set lo up")
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            var template = Array("/tmp/wb-runtime-XXXXXX".utf8CString)
            let runtime = String(cString: try #require(mkdtemp(&template)))
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            // No X server answers on :987, so no owner can start.
            let command = namespace.command([windowBannerExecutable(), "monitor", "--no-config"])
            let monitor = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: [
                "PATH": String(cString: getenv("PATH")), "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "DISPLAY": ":987",
            ].merging(MonitorProcess.testEnvironment) { $1 })
            let events = try MonitorProcess(monitor)
            #expect(try events.nextEvent() == "offline")
            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try events.nextEvent() == "online via veth0 ipv4")
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try events.nextEvent() == "offline")
            let ending = events.terminate()
            #expect(ending.events == ["stopped (SIGTERM)"])
            #expect(ending.status == 0)
            // One warning per attempt: at start-up and at the next drop.
            let warning = "window-banner: warning: cannot show the offline banner: cannot open display ':987'; trying again at the next change"
            #expect(monitor.standardError == warning + "\n" + warning + "\n")
        }

        @Test func everyFlagOfBothBannersReachesTheScreen() throws {
            let owner = try OwnerFixture()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.addVeth()
            try namespace.ip("addr add 10.1.0.2/24 dev veth0")
            let monitor = try MonitorProcess(owner, in: namespace, [
                "--offline-title", "Kein Netz", "--offline-background", "#112233", "--offline-text-color", "#FFFF00",
                "--offline-height", "40", "--offline-title-top-inset", "2", "--offline-font", "DejaVu Sans:bold:size=11",
                "--offline-compact", "never",
                "--restored-title", "Wieder da", "--restored-background", "#446688", "--restored-text-color", "#00FFFF",
                "--restored-height", "60", "--restored-title-top-inset", "6", "--restored-font", "DejaVu Sans:size=13",
                "--restored-compact", "never", "--hide-delay", "30",
            ])
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            var status = try owner.status()
            #expect(status.title == "Kein Netz")
            #expect(status.height == 40)
            #expect(status.compact == false)
            #expect(owner.fixture.waitForBanner(height: 40))
            #expect(showsColours(owner, height: 40, background: Pixel(hex: 0x112233), text: Pixel(hex: 0xFFFF00)))

            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "restored banner shown")
            status = try owner.status()
            #expect(status.title == "Wieder da")
            #expect(status.height == 60)
            #expect(owner.fixture.waitForBanner(height: 60))
            #expect(showsColours(owner, height: 60, background: Pixel(hex: 0x446688), text: Pixel(hex: 0x00FFFF)))
            #expect(monitor.terminate().events == ["restored banner hidden", "stopped (SIGTERM)"])
        }

        /// Waits until the banner's corner has `background` and some title pixels have `text`
        /// (a cross-fade takes a moment to settle).
        private func showsColours(_ owner: OwnerFixture, height: Int, background: Pixel, text: Pixel) -> Bool {
            owner.observer.wait {
                guard let shot = owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: height)) else { return false }
                return shot.pixel(x: 2, y: height - 2) == background && shot.count(matching: text, tolerance: 8) > 20
            }
        }
    }

    @Suite("monitor: bad values")
    struct MonitorCommandUsageTests {
        @Test(arguments: [
            (["--hide-delay", "0"], "window-banner: bad duration '0' (seconds, greater than 0 and at most 604800)"),
            (["--hide-delay", "soon"], "window-banner: bad duration 'soon' (seconds, greater than 0 and at most 604800)"),
            (["--hide-delay", "1e10"], "window-banner: bad duration '1e10' (seconds, greater than 0 and at most 604800)"),
            (["--offline-height", "-5"], "window-banner: bad height '-5' (points, greater than 0 and at most 1000)"),
            (["--restored-background", "#12345"], "window-banner: unknown colour '#12345' (use #RRGGBB, #RRGGBBAA, an iOS name like systemRed, or an X11 name like SteelBlue)"),
            (["--restored-compact", "sideways"], "window-banner: bad compact policy 'sideways' (auto, always or never)"),
            (["--offline-style", "nope"], "window-banner: unknown style 'nope' (known: call, offline, online, portal, sharing)"),
            (["--portal-background", "#1234"], "window-banner: unknown colour '#1234' (use #RRGGBB, #RRGGBBAA, an iOS name like systemRed, or an X11 name like SteelBlue)"),
            (["--connectivity", "sometimes"], "window-banner: bad connectivity source 'sometimes' (auto, networkmanager, http or routes)"),
            (["--check-url", "ftp://10.1.0.1/check"], "window-banner: bad check URL 'ftp://10.1.0.1/check' (http:// or https://HOST[:PORT][/PATH])"),
            (["--check-url", "http://10.1.0.1:99999/"], "window-banner: bad check URL 'http://10.1.0.1:99999/' (http:// or https://HOST[:PORT][/PATH])"),
            (["--check-interval", "0"], "window-banner: bad check interval '0' (seconds, 1 to 604800)"),
            (["--check-interval", "0.5"], "window-banner: bad check interval '0.5' (seconds, 1 to 604800)"),
            (["--check-interval", "nan"], "window-banner: bad check interval 'nan' (seconds, 1 to 604800)"),
            (["--check-timeout", "-1"], "window-banner: bad check timeout '-1' (seconds, 0.1 to 300)"),
            // Once a trap (issue 21): a number no timer can hold.
            (["--check-timeout", "1e10"], "window-banner: bad check timeout '1e10' (seconds, 0.1 to 300)"),
            (["--check-timeout", "inf"], "window-banner: bad check timeout 'inf' (seconds, 0.1 to 300)"),
            (["--check-timeout", "0.01"], "window-banner: bad check timeout '0.01' (seconds, 0.1 to 300)"),
            // The test hook: the default check URL is public, so a test that forgets --check-url
            // is refused before anything is contacted.
            (["--connectivity", "http"], "window-banner: check URL 'http://connectivity-check.ubuntu.com/' is not local (WINDOW_BANNER_TEST_LOCAL_ONLY=1: localhost, loopback and private addresses only)"),
            (["--connectivity", "http", "--check-url", "http://example.com/"], "window-banner: check URL 'http://example.com/' is not local (WINDOW_BANNER_TEST_LOCAL_ONLY=1: localhost, loopback and private addresses only)"),
        ])
        func badValueExitsSixtyFourWithOneLine(arguments: [String], message: String) throws {
            // Refused before anything else: no display, no network monitor, no owner needed.
            let monitor = try Subprocess(
                executable: windowBannerExecutable(), arguments: ["monitor", "--no-config"] + arguments,
                environment: MonitorProcess.testEnvironment)
            #expect(monitor.waitForExit() == 64)
            #expect(monitor.standardError == message + "\n")
            #expect(monitor.standardOutput == "")
        }

        @Test func helpDocumentsEveryFlagOfBothBannersAndTheOutput() throws {
            let help = try Subprocess(executable: windowBannerExecutable(), arguments: ["monitor", "--help"], environment: [:])
            #expect(help.waitForExit() == 0)
            let entries = HelpTests.optionEntries(help.standardOutput)
            for banner in ["offline", "restored", "portal"] {
                for field in ["style", "title", "background", "text-color", "height", "title-top-inset", "font", "subtitle", "subtitle-font", "compact"] {
                    #expect(entries["--\(banner)-\(field)"] != nil, "--\(banner)-\(field) missing from help")
                }
            }
            #expect(entries["--hide-delay"]?.contains("Default: 2") == true)
            #expect(entries["--monitor"]?.contains("Default: all") == true)
            #expect(entries["--offline-style"]?.contains("No Internet Connection") == true)
            #expect(entries["--restored-style"]?.contains("Back Online") == true)
            #expect(entries["--portal-style"]?.contains("Sign in to Network") == true)
            #expect(entries["--connectivity"]?.contains("auto") == true)
            #expect(entries["--check-url"]?.contains("http://connectivity-check.ubuntu.com/") == true)
            #expect(entries["--check-interval"]?.contains("Default: the config file's, else 300") == true)
            #expect(entries["--check-timeout"]?.contains("Default: the config file's, else 10") == true)
            #expect(entries["--check-expect"] != nil)
            let text = help.standardOutput.split(separator: "\n").joined(separator: " ")
            for event in ["offline banner shown", "restored banner hidden", "portal banner shown", "connectivity from SOURCE", "Exit codes"] {
                #expect(text.contains(event), "\(event) missing from help")
            }
        }
    }
}
