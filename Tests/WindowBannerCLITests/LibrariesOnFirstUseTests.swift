// The libraries window-banner-full loads with dlopen only when something needs them: sd-bus's
// libsystemd (the system bus, the session bus), pixman (the Wayland backend), libcurl (the
// HTTP check) and libpipewire (`monitor --calls`). An X11 owner with no bus to talk to maps none
// of them; and where one is missing, what needs it says so in one line: the monitor for
// libsystemd, while an owner's banners go on; `show` on Wayland for pixman; `monitor --calls`
// for libpipewire (exit 71 with `--no-network`, else a warning and the network watched). "Missing" is made real in a private mount namespace, with
// /dev/null bound over the library.

import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("libraries loaded on first use")
    struct LibrariesOnFirstUseTests {
        /// The owner's mapped files (cat: /proc files report no size, and a sized read stops at
        /// the first page).
        static func maps(_ pid: pid_t) throws -> String {
            try Subprocess.run("/bin/cat", ["/proc/\(pid)/maps"])
        }

        /// `command` run with `library` (a soname) unloadable: in a mount namespace of its own
        /// where the file the loader would open is /dev/null.
        static func without(_ library: String, _ command: [String]) -> [String] {
            let script = """
                file=$(/sbin/ldconfig -p | awk -v name="$1" '$1 == name { print $NF; exit }')
                [ -n "$file" ] || { echo "no $1 in ldconfig -p" >&2; exit 90; }
                mount --bind /dev/null "$file" || exit 91
                shift
                exec "$@"
                """
            return ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", library] + command
        }

        static func withoutLibsystemd(_ command: [String]) -> [String] { without("libsystemd.so.0", command) }

        @Test func anX11OwnerWithNoSessionBusMapsNoLibsystemdAndNoPixman() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Nothing else loaded", "--compact", "never"])
            #expect(owner.fixture.waitForBanner())
            let owners = owner.ownerProcesses()
            #expect(owners.count == 1)
            for pid in owners {
                let maps = try Self.maps(pid)
                #expect(maps.contains("/libX11.so.6"), "\(maps)")
                for library in ["/libsystemd.so.0", "/libgcrypt.so.20", "/libpixman-1.so.0", "/libcurl.so.4", "/libpipewire-0.3.so.0"] {
                    #expect(!maps.contains(library), "the owner maps \(library)")
                }
            }
        }

        @Test(.needsRoot("a private mount namespace without libpipewire"))
        func withoutLibpipewireCallsAloneFailInOneLineAndWithTheNetworkAreOneWarning() throws {
            let owner = try OwnerFixture()
            let environment = owner.fixture.environment(.desktop).merging(MonitorProcess.testEnvironment) { $1 }
            let alone = Self.without("libpipewire-0.3.so.0", [windowBannerExecutable(), "monitor", "--calls", "--no-network"])
            let failed = try Subprocess(executable: alone[0], arguments: Array(alone.dropFirst()), environment: environment)
            #expect(failed.waitForExit() == 71)
            #expect(failed.standardError.hasPrefix("window-banner: cannot watch calls: cannot load libpipewire: "), "\(failed.standardError)")
            #expect(failed.standardError.filter { $0 == "\n" }.count == 1 && failed.standardOutput == "")

            let both = Self.without("libpipewire-0.3.so.0", [windowBannerExecutable(), "monitor", "--calls", "--check-url", "http://10.1.0.1/"])
            let monitor = try MonitorProcess(try Subprocess(executable: both[0], arguments: Array(both.dropFirst()), environment: environment))
            #expect(monitor.source.hasPrefix("connectivity from"), "\(monitor.source)")
            let ended = monitor.terminate()
            #expect(ended.status == 0)
            #expect(monitor.process.standardError.hasPrefix("window-banner: warning: calls are not watched: cannot load libpipewire: "), "\(monitor.process.standardError)")
            #expect(monitor.process.standardError.filter { $0 == "\n" }.count == 1)
        }

        @Test(.needsRoot("a private mount namespace without libsystemd"))
        func withoutLibsystemdMonitorWithNetworkManagerFailsInOneLine() throws {
            let owner = try OwnerFixture()
            let bus = try PrivateSystemBus()
            let manager = try FakeNetworkManager(on: bus, connectivity: .full)
            defer { manager.stop() }
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            try namespace.connectIPv4()
            let command = namespace.command(Self.withoutLibsystemd(
                [windowBannerExecutable(), "monitor", "--connectivity", "networkmanager", "--check-url", "http://10.1.0.1/"]))
            let monitor = try Subprocess(
                executable: command[0], arguments: Array(command.dropFirst()),
                environment: owner.fixture.environment(.desktop).merging(MonitorProcess.testEnvironment) { $1 }
                    .merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
            #expect(monitor.waitForExit() == 71)
            #expect(monitor.standardError == "window-banner: cannot connect to the system bus: Can not access a needed shared library\n")
            #expect(monitor.standardOutput == "")
            #expect(owner.ownerProcesses().isEmpty)
        }

        @Test(.needsRoot("a private mount namespace without libsystemd"),
              .needsProgram("/usr/bin/dbus-daemon", package: "dbus-daemon"))
        func withoutLibsystemdAnOwnerOnASessionBusStillShowsTheBanner() throws {
            let bus = try PrivateSessionBus()
            let owner = try OwnerFixture()
            owner.fixture.extraEnvironment.merge(bus.environment) { $1 }
            // The owner is started by this show, inside the namespace, and stays there.
            let command = Self.withoutLibsystemd([windowBannerExecutable(), "show", "--title", "No sd-bus here", "--compact", "never"])
            let show = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: owner.fixture.environment(.desktop))
            #expect(show.waitForExit(timeout: 20) == 0, "\(show.standardError)")
            #expect(show.standardError == "")
            #expect(owner.fixture.waitForBanner())
            // It asked the session bus for an accessibility bus, could not, and went on.
            try owner.show(["--title", "Still here", "--compact", "never"])
            #expect(try owner.status().title == "Still here")
            for pid in owner.ownerProcesses() {
                #expect(try !Self.maps(pid).contains("/libsystemd.so.0"))
            }
            #expect(try owner.run(["dismiss", "--all"]).status == 0)
            #expect(owner.fixture.waitForRestoredDesktop())
        }
    }
}

extension WaylandCLITests {
    @Test(.needsRoot("a private mount namespace without pixman"))
    func withoutPixmanShowFailsInOneLineAndReservesNothing() throws {
        let session = try Session()
        let command = WindowBannerCLITests.LibrariesOnFirstUseTests.without(
            "libpixman-1.so.0", [windowBannerExecutable(), "show", "--title", "No Internet Connection"])
        let show = try Subprocess(executable: command[0], arguments: Array(command.dropFirst()), environment: session.environment)
        // The owner refuses before it connects: no space reserved that it could never draw in.
        #expect(show.waitForExit(timeout: 20) == 69)
        #expect(show.standardError.hasPrefix("window-banner: cannot draw on Wayland without pixman: "), "\(show.standardError)")
        #expect(show.standardError.hasSuffix("libpixman-1.so.0: file too short\n"), "\(show.standardError)")
        #expect(session.owners().isEmpty)
        #expect(try session.sway.awaitWindowRect(appID: "foot") { _ in true } == SwayRect(x: 0, y: 0, width: 1280, height: 720))
    }
}
