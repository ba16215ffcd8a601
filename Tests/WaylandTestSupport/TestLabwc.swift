// A private labwc (or wayfire) for one test: a newer Debian's labwc (from a chroot, see
// DebianChroot) on the wlroots headless backend with the pixman renderer and one 1280×720 output,
// as TestSway's unprivileged user in a runtime directory of its own, with no configuration of the
// user's. labwc has no IPC to ask for window geometry, so what a user sees is read from the clients:
// a real foot's configure events (ResizeCountingTerminal) and grim's screenshots. Clients run in
// the same chroot; the test's own Wayland connections (the banner's owner, a virtual pointer)
// reach the socket by path. Everything is torn down when released.

import Foundation
import Glibc
import ProcessTestSupport

public final class TestLabwc {
    /// The directory holding the runtime directory, HOME, the logs and the files tests write.
    public let directory: String
    /// `XDG_RUNTIME_DIR` of labwc and its clients.
    public let runtimeDirectory: String
    /// The Wayland socket's full path, and its name in `runtimeDirectory`.
    public private(set) var socketPath = ""
    public private(set) var socketName = ""
    public let chroot: DebianChroot
    /// The headless output's mode in pixels (wlroots' headless default unless asked) and its scale.
    public let width: Int, height: Int, scale: Double
    private let labwc: Subprocess
    private var clients: [Subprocess] = []
    private var bus: SessionBus?

    /// The compositors this harness runs: labwc, and wayfire (Debian unstable's 0.10, whose
    /// pixman renderer runs headless), which likewise has no IPC a test could ask.
    public enum Compositor: String, Sendable { case labwc, wayfire }

    /// Starts labwc (or `compositor`) from `chroot` and waits until its start-up command has run
    /// (the compositor is up, its output made); an output of another mode or scale than
    /// 1280×720 at 1 is set with the chroot's wlr-randr, as a user's kanshi or display settings
    /// would. wayfire runs with the plugins its own panel needs (wayfire-shell) and the one that
    /// fits maximized windows to the work area as panels come and go (grid), as its default
    /// configuration has them, and no others.
    public init(from chroot: DebianChroot, width: Int = 1280, height: Int = 720, scale: Double = 1, compositor: Compositor = .labwc) throws {
        self.chroot = chroot
        (self.width, self.height, self.scale) = (width, height, scale)
        (directory, runtimeDirectory) = try TestSway.makeSessionDirectory(compositor.rawValue, subdirectories: ["labwc"])
        let ready = directory + "/ready"
        let command: [String]
        switch compositor {
        case .labwc:
            command = ["labwc", "--config-dir", directory + "/labwc", "--startup", "touch \(ready)"]
        case .wayfire:
            try TestSway.write("""
                [core]
                plugins = autostart wayfire-shell grid
                xwayland = false

                [autostart]
                autostart_wf_shell = false
                ready = touch \(ready)

                """, to: directory + "/wayfire.ini")
            command = ["wayfire", "-c", directory + "/wayfire.ini"]
        }
        labwc = try TestSway.spawn(
            command, in: directory, runtime: runtimeDirectory,
            extra: ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"],
            log: directory + "/\(compositor.rawValue).log", chroot: chroot)
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if access(ready, F_OK) == 0, let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                socketName = socket
                socketPath = runtimeDirectory + "/" + socket
                bus = try SessionBus(in: directory, runtime: runtimeDirectory)
                if (width, height, scale) != (1280, 720, 1) {
                    try configureOutput(["--custom-mode", "\(width)x\(height)", "--scale", TestSway.decimal(scale)])
                }
                return
            }
            if labwc.hasEnded { throw TestFailure("\(compositor.rawValue) exited at start: \(logs)") }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        throw TestFailure("\(compositor.rawValue) did not start within 30 s: \(logs)")
    }

    deinit {
        for client in clients { client.killGroup() }
        bus = nil
        labwc.killGroup()
        _ = labwc.waitForExit(timeout: 5)
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }

    /// Runs the chroot's wlr-randr on the headless output with `options` (`--scale 1.5`).
    public func configureOutput(_ options: [String]) throws {
        let randr = try startClient(["wlr-randr", "--output", "HEADLESS-1"] + options)
        randr.closeStandardInput()
        guard randr.waitForExit(timeout: 20) == 0 else { throw TestFailure("wlr-randr \(options.joined(separator: " ")) failed: \(randr.standardError)") }
    }

    /// The end of every log in the directory (labwc's, foot's), for a failure's message.
    public var logs: String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".log") }.sorted()
        return names.map { name in
            "\(name): …\(((try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "").suffix(1500))"
        }.joined(separator: "\n")
    }

    /// Starts `command` from the chroot as the session's user on this labwc's socket, killed when
    /// the labwc is released; its standard error goes to `log` in `directory` when given.
    @discardableResult
    public func startClient(_ command: [String], environment extra: [String: String] = [:], log: String? = nil) throws -> Subprocess {
        var environment = extra
        environment["WAYLAND_DISPLAY"] = socketName
        if let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        let client = try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: environment,
                                        log: log.map { directory + "/" + $0 }, chroot: chroot)
        clients.append(client)
        return client
    }

    /// A maximized, resize-counting foot (TestSway.startFoot), its configures in its log.
    public func startMaximizedFoot(appID: String = "foot") throws -> ResizeCountingTerminal {
        let terminal = try TestSway.startFoot(in: directory, runtime: runtimeDirectory, environment: ["WAYLAND_DISPLAY": socketName],
                                              appID: appID, footArguments: ["--maximized"], chroot: chroot)
        clients.append(terminal.process)
        return terminal
    }

    /// A screenshot of the output, taken with the chroot's grim.
    public func screenshot() throws -> Screenshot {
        let path = directory + "/shot-\(UInt32.random(in: 0...UInt32.max)).ppm"
        let grim = try startClient(["grim", "-t", "ppm", path])
        grim.closeStandardInput()
        guard grim.waitForExit(timeout: 20) == 0 else { throw TestFailure("grim failed: \(grim.standardError)") }
        defer { unlink(path) }
        return try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
