// `window-banner monitor --connectivity`: a default route is not the internet. The monitor
// runs in a private network namespace with a route, and what lies beyond it is played by real
// programs the test starts: a fake NetworkManager on a private D-Bus daemon (its Connectivity
// property and PropertiesChanged), or an HTTP server on the namespace's own loopback answering
// the check like the internet (204), a captive portal (a redirect, a wrong body) or a dead
// upstream (nothing). The user-visible result is read from the monitor's lines and the owner's
// `status --json`; a click on the portal banner runs a stand-in `xdg-open` that writes down
// what it was asked to open. Nothing here reaches beyond loopback and the namespace.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

/// A stand-in `xdg-open` first on PATH: it writes its arguments to a file instead of opening
/// a browser.
private final class OpenRecorder {
    let directory: String

    init() throws {
        var template = Array("/tmp/wb-xdg-open-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"\(directory)/opened.partial\" && mv \"\(directory)/opened.partial\" \"\(directory)/opened\"\n"
        let path = directory + "/xdg-open"
        guard FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]) else {
            throw TestFailure("cannot write \(path)")
        }
    }

    deinit { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }

    /// PATH with the stand-in first.
    var environment: [String: String] { ["PATH": directory + ":" + String(cString: getenv("PATH"))] }

    /// What xdg-open was asked to open, once it was. Nothing announces that a detached command
    /// wrote its file, so this looks every 10 ms, for at most `timeout` seconds.
    func opened(timeout: Double = 10) -> String? {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let text = try? String(contentsOfFile: directory + "/opened", encoding: .utf8) { return text }
            poll(nil, 0, 10)
        }
        return nil
    }
}

extension WindowBannerCLITests {
    @Suite(
        "monitor: connectivity from NetworkManager and the HTTP check",
        .needsRoot("creating network namespaces")
    )
    struct MonitorConnectivityTests {
        static let offlineTitle = "No Internet Connection"
        static let restoredTitle = "Back Online"
        static let portalTitle = "Sign in to Network"

        /// Clicks the middle of our banner, whatever its height.
        private func clickBanner(_ owner: OwnerFixture) throws {
            let height = try #require(try owner.status().height)
            #expect(owner.fixture.waitForBanner(height: height))
            try owner.fixture.desktop.run(["xdotool", "mousemove", "640", "\(height / 2)", "click", "1"])
        }

        // MARK: NetworkManager

        @Test func networkManagersConnectivityDrivesTheBannersAndAPortalClickOpensTheCheckURL() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .full)
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let opener = try OpenRecorder()
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--check-url", "http://10.1.0.1/check", "--hide-delay", "30"],
                environment: opener.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
            #expect(monitor.source == "connectivity from networkmanager")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (networkmanager)")
            #expect(try owner.status().presented == false)

            try manager.set(.portal)
            #expect(try monitor.nextEvent() == "connectivity portal (networkmanager)")
            #expect(try monitor.nextEvent() == "portal banner shown")
            let portal = try owner.status()
            #expect(portal.title == Self.portalTitle)
            #expect(portal.id == "window-banner-monitor")
            #expect(portal.mode == "sticky")

            // A route that leads nowhere is offline.
            try manager.set(.limited)
            #expect(try monitor.nextEvent() == "connectivity limited (networkmanager)")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(try owner.status().title == Self.offlineTitle)

            try manager.set(.full)
            #expect(try monitor.nextEvent() == "connectivity full (networkmanager)")
            #expect(try monitor.nextEvent() == "restored banner shown")
            #expect(try owner.status().title == Self.restoredTitle)

            try manager.set(.none)
            #expect(try monitor.nextEvent() == "connectivity none (networkmanager)")
            #expect(try monitor.nextEvent() == "offline banner shown")

            // NetworkManager does not say where its check was redirected: the click opens the
            // check URL, which the portal intercepts too.
            try manager.set(.portal)
            #expect(try monitor.nextEvent() == "connectivity portal (networkmanager)")
            #expect(try monitor.nextEvent() == "portal banner shown")
            try clickBanner(owner)
            #expect(try monitor.nextEvent() == "portal banner dismissed by the user (clicked)")
            #expect(opener.opened() == "http://10.1.0.1/check\n")
            #expect(owner.fixture.waitForRestoredDesktop())

            let ending = monitor.terminate()
            #expect(ending.events == ["stopped (SIGTERM)"])
            #expect(ending.status == 0)
        }

        @Test func thePortalBannerSpeaksTheMonitorsLanguage() throws {
            let owner = try WindowBannerCLITests.TranslationCLITests.makeOwner()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .portal)
            defer { manager.stop() }
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--check-url", "http://10.1.0.1/check"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "LANG": TestLocales.lang("de")])
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity portal (networkmanager)")
            #expect(try monitor.nextEvent() == "portal banner shown")
            #expect(try owner.status().title == "Beim Netzwerk anmelden")
            #expect(monitor.terminate().status == 0)
        }

        @Test func withoutARouteItIsOfflineWhateverNetworkManagerSaid() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .full)
            defer { manager.stop() }
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--connectivity", "networkmanager", "--check-url", "http://10.1.0.1/check"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            #expect(monitor.source == "connectivity from networkmanager")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (networkmanager)")

            // The kernel knows first: the banner does not wait for NetworkManager to notice.
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(try owner.status().title == Self.offlineTitle)
            #expect(monitor.terminate().status == 0)
        }

        @Test func networkManagerLeavingTheBusLeavesItToTheRoutes() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .limited)
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--check-url", "http://10.1.0.1/check", "--hide-delay", "30"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            #expect(monitor.source == "connectivity from networkmanager")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity limited (networkmanager)")
            #expect(try monitor.nextEvent() == "offline banner shown")

            manager.stop()
            #expect(try monitor.nextEvent() == "connectivity unknown (networkmanager left the system bus; routes decide)")
            #expect(try monitor.nextEvent() == "restored banner shown")
            #expect(monitor.terminate().status == 0)
        }

        @Test func autoWithoutNetworkManagerOnTheBusFallsBackToRoutes() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            // No --check-url: routes never check, so the public default is never near.
            let monitor = try MonitorProcess(owner, in: namespace, [], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            #expect(monitor.source == "connectivity from routes (NetworkManager is not on the system bus)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(monitor.terminate().status == 0)
        }

        @Test func networkManagerAskedForButAbsentIsAnError() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let command = namespace.command([windowBannerExecutable(), "monitor", "--connectivity", "networkmanager", "--check-url", "http://10.1.0.1/"])
            let monitor = try Subprocess(
                executable: command[0], arguments: Array(command.dropFirst()),
                environment: owner.fixture.environment(.desktop).merging(MonitorProcess.testEnvironment) { $1 }
                    .merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
            #expect(monitor.waitForExit() == 71)
            #expect(monitor.standardError == "window-banner: NetworkManager is not on the system bus\n")
            #expect(monitor.standardOutput == "")
            #expect(owner.ownerProcesses().isEmpty)
        }

        @Test func theTestHookRefusesAPublicCheckURLBeforeUsingNetworkManager() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .full)
            defer { manager.stop() }
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            // A portal click would open the default (public) URL: under the hook, no start.
            let command = namespace.command([windowBannerExecutable(), "monitor"])
            let monitor = try Subprocess(
                executable: command[0], arguments: Array(command.dropFirst()),
                environment: owner.fixture.environment(.desktop).merging(MonitorProcess.testEnvironment) { $1 }
                    .merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
            #expect(monitor.waitForExit() == 64)
            #expect(monitor.standardError.hasPrefix("window-banner: check URL 'http://connectivity-check.ubuntu.com/' is not local"))
        }

        // MARK: HTTP check

        /// A namespace with a route and loopback up, and the check server on its 127.0.0.1.
        private func namespaceWithCheckServer(_ mode: CheckServer.Mode) throws -> (NetworkNamespace, CheckServer) {
            let namespace = try NetworkNamespace()
            try namespace.ip("link set lo up")
            try namespace.connectIPv4()
            return (namespace, try CheckServer(mode: mode, in: namespace.command([])))
        }

        @Test func httpCheckTellsTheInternetFromAPortalAndADeadUpstream() throws {
            let owner = try OwnerFixture()
            let (namespace, server) = try namespaceWithCheckServer(.online)
            defer { namespace.remove() }
            let opener = try OpenRecorder()
            let url = server.url
            let monitor = try MonitorProcess(
                owner, in: namespace,
                ["--connectivity", "http", "--check-url", url, "--check-interval", "1", "--check-timeout", "1", "--hide-delay", "30"],
                environment: opener.environment)
            #expect(monitor.source == "connectivity from \(url) every 1 s")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (http: 204 from \(url))")
            #expect(try owner.status().presented == false)

            // A redirect: the portal banner, and a click opens the redirect's target.
            try server.switchTo(.redirect)
            let login = "http://127.0.0.1:\(server.port)/portal/login?from=check"
            #expect(try monitor.nextEvent() == "connectivity portal (http: 302 to \(login))")
            #expect(try monitor.nextEvent() == "portal banner shown")
            #expect(try owner.status().title == Self.portalTitle)
            try clickBanner(owner)
            #expect(try monitor.nextEvent() == "portal banner dismissed by the user (clicked)")
            #expect(opener.opened() == login + "\n")

            // Another answer than 204: a portal answering in the internet's place; its sign-in
            // page is the check URL itself.
            try server.switchTo(.wrong)
            #expect(try monitor.nextEvent() == "connectivity portal (http: unexpected 200 from \(url))")
            #expect(try monitor.nextEvent() == "portal banner shown")

            // No answer within the timeout: offline.
            try server.switchTo(.silent)
            #expect(try monitor.nextEvent() == "connectivity limited (http: no answer within 1 s at \(url))")
            #expect(try monitor.nextEvent() == "offline banner shown")
            #expect(try owner.status().title == Self.offlineTitle)

            try server.switchTo(.online)
            #expect(try monitor.nextEvent() == "connectivity full (http: 204 from \(url))")
            #expect(try monitor.nextEvent() == "restored banner shown")
            #expect(try owner.status().title == Self.restoredTitle)
            #expect(monitor.terminate().status == 0)
        }

        @Test func noCheckWhileOfflineAndARouteThatComesBackIsCheckedAtOnce() throws {
            let owner = try OwnerFixture()
            let (namespace, server) = try namespaceWithCheckServer(.online)
            defer { namespace.remove() }
            let url = server.url
            // A day between checks: only route changes check.
            let monitor = try MonitorProcess(
                owner, in: namespace, ["--connectivity", "http", "--check-url", url, "--check-interval", "86400", "--check-timeout", "2"])
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (http: 204 from \(url))")
            #expect(server.waitForRequest() == "/check")

            try namespace.ip("route del \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "offline")
            #expect(try monitor.nextEvent() == "offline banner shown")
            try server.switchTo(.redirect)
            // The server is still reachable on loopback, but with no route nothing is checked.
            #expect(server.waitForRequest(timeout: 1.5) == nil)

            try namespace.ip("route add \(NetworkNamespace.ipv4DefaultRoute)")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity portal (http: 302 to http://127.0.0.1:\(server.port)/portal/login?from=check)")
            #expect(try monitor.nextEvent() == "portal banner shown")
            #expect(try owner.status().title == Self.portalTitle)
            #expect(monitor.terminate().events == ["portal banner hidden", "stopped (SIGTERM)"])
        }

        @Test func anExpectedBodyAndTheConfigFilesMonitorKeys() throws {
            let owner = try OwnerFixture()
            let (namespace, server) = try namespaceWithCheckServer(.body)
            defer { namespace.remove() }
            let url = server.url
            try owner.writeConfig("""
                [monitor]
                connectivity = "http"
                check-url = "\(url)"
                check-expect = "NetworkManager is online"
                check-interval = 1
                check-timeout = 2
                """)
            let monitor = try MonitorProcess(owner, in: namespace)
            #expect(monitor.source == "connectivity from \(url) every 1 s")
            #expect(try monitor.nextEvent() == "online via veth0 ipv4")
            #expect(try monitor.nextEvent() == "connectivity full (http: 200 with the expected body from \(url))")

            try server.switchTo(.wrong)
            #expect(try monitor.nextEvent() == "connectivity portal (http: 200 without the expected body from \(url))")
            #expect(try monitor.nextEvent() == "portal banner shown")
            // 204 is not the expected body either.
            try server.switchTo(.online)
            #expect(try monitor.nextEvent() == "connectivity portal (http: 204 without the expected body from \(url))")
            #expect(monitor.terminate().status == 0)
        }
    }
}
