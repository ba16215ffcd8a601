// A stand-in xdg-desktop-portal on a private bus (Tests/Fakes/fake-portal.py), for the tests of
// how the banner reads the portal's Settings: what a real portal would never send — values of
// the wrong type, huge strings, thousands of keys — is sent here on purpose.

import Glibc

/// A fake portal on `bus`: its Settings' `ReadAll` answers `settings`, and ``emit(_:)`` sends
/// `SettingChanged`.
public final class FakePortal {
    private let process: Subprocess

    /// Starts it; `settings` is a Python expression of dbus-python values (a dict of namespaces,
    /// each a dict of keys); ReadAll answers `delay` seconds late. Returns once it owns its name.
    public init(on bus: PrivateSystemBus, settings: String, delay: Double = 0) throws {
        process = try Subprocess(
            executable: python, arguments: [fakesDirectory + "/fake-portal.py", settings, String(delay)],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        guard process.readLine(timeout: 10) == "ready" else {
            throw TestFailure("the fake portal did not start: \(process.standardError)")
        }
    }

    /// Emits `SettingChanged(namespace, key, value)` from a Python expression of that tuple;
    /// returns once it has.
    public func emit(_ change: String) throws {
        process.writeToStandardInput(change + "\n")
        guard process.readLine(timeout: 10) == "sent" else {
            throw TestFailure("the fake portal did not send \(change): \(process.standardError)")
        }
    }

    deinit {
        process.closeStandardInput()
        process.waitForExit()
    }
}
