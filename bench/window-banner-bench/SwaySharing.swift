// Section 11's sharing banner on sway (issue 55): Debian unstable's headless sway with its
// xdg-desktop-portal, xdg-desktop-portal-wlr 0.8 and PipeWire, from the tests' chroot
// (scripts/debian-chroot.sh sid @screencast; Debian 13's xdpw 0.7 casts nothing without a GPU).
// An app asks the portal for a ScreenCast session and reads the stream with pipewiresrc
// (Tests/Clients/screencast-client.py) while `monitor --sharing` runs; timed from the reader's
// start to the first frame sway composed with the banner's orange at the top
// (bench/screencopy-probe.c, sway's own timestamp, the same CLOCK_MONOTONIC as the app's).

import Glibc

/// sway, PipeWire and the portal from the chroot, the probe watching the top of the output
/// for the sharing banner's orange, and `monitor --sharing`. `stop()` ends all of it.
final class SwaySharingDesktop {
    /// The sharing style's background, systemOrange.
    static let orange = "FF9500"
    static let tool = "window-banner monitor --sharing (sway)"
    static let monitorCommand = ["window-banner", "monitor", "--sharing", "--no-network", "--no-system", "--calls-hide-delay", "0.1"]

    let supervisor: Supervisor
    /// The chroot's directory and its sway's version.
    let chroot: String
    private(set) var version = ""
    /// sway's directory (config, runtime directory, HOME), the user's; and PipeWire's, root's
    /// (its bus, its socket, the portals' configuration).
    let directory: String
    let pipewire: String
    private var probe: ScreencopyProbe?
    private var frames: [ScreenFrame] { probe?.frames ?? [] }
    private var children: [Child] = []
    /// What the monitor and the app run with: sway's socket, PipeWire's socket and bus.
    private(set) var environment: [String: String] = [:]
    private(set) var monitor: Child?

    init(supervisor: Supervisor, work: String, banner: String, probe: String) throws {
        self.supervisor = supervisor
        chroot = try supervisor.run(["scripts/debian-chroot.sh", "sid", "@screencast"], environment: ["PATH": basePath], timeout: 1800).last ?? ""
        version = (try? supervisor.run(["scripts/in-chroot.sh", chroot, "dpkg-query", "-W", "-f", "${Version}", "sway"], environment: ["PATH": basePath]))?.first ?? "?"
        directory = try temporaryDirectory("/tmp/wbb-share-XXXXXX")
        pipewire = try temporaryDirectory("/tmp/wbb-pw-XXXXXX")
        do { try start(work: work, banner: banner, probe: probe) } catch {
            stop()
            throw error
        }
    }

    private func start(work: String, banner: String, probe: String) throws {
        let runtime = directory + "/run"
        for path in [runtime, directory + "/home", pipewire + "/config", pipewire + "/config/xdg-desktop-portal", pipewire + "/config/xdg-desktop-portal-wlr"] {
            try makeDirectory(path)
        }
        try writeFile(directory + "/config", """
            xwayland disable
            default_border none
            output HEADLESS-1 resolution \(SwayDesktop.width)x\(SwayDesktop.height)@60Hz scale 1 bg #336699 solid_color

            """)
        if geteuid() == 0 {
            for path in [directory, runtime, directory + "/home", directory + "/config"] { chown(path, SwayDesktop.user, SwayDesktop.user) }
        }
        let sway = try supervisor.spawn(
            ["scripts/in-chroot.sh", chroot] + SwayDesktop.asUser + ["sway", "-c", directory + "/config"],
            environment: ["PATH": basePath, "LANG": "C.UTF-8", "HOME": directory + "/home", "XDG_RUNTIME_DIR": runtime,
                          "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"],
            name: "sway (unstable)", stderr: .file(work + "/sway-sharing.log"))
        children.append(sway)
        guard try supervisor.check(seconds: 20, until: {
            !sway.isRunning || directoryEntries(runtime).contains { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
        }), sway.isRunning, let socket = directoryEntries(runtime).first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
            throw BenchFailure("sway from \(chroot) did not start (see \(work)/sway-sharing.log)")
        }
        let socketPath = runtime + "/" + socket

        // PipeWire, WirePlumber and the session bus the portal answers on, as root in the chroot.
        let inside = ["scripts/in-chroot.sh", chroot]
        var session = ["PATH": basePath, "LANG": "C.UTF-8", "HOME": pipewire, "XDG_RUNTIME_DIR": pipewire]
        let bus = try supervisor.spawn(inside + ["dbus-daemon", "--session", "--nofork", "--print-address=1"], environment: session,
                                       name: "dbus-daemon (sway sharing)", stdout: .pipe)
        children.append(bus)
        guard supervisor.wait(seconds: 10, until: { !bus.lines.isEmpty || !bus.isRunning }), let address = bus.lines.first else {
            throw BenchFailure("the chroot's dbus-daemon did not print its address")
        }
        session["DBUS_SESSION_BUS_ADDRESS"] = address
        let log = work + "/sway-sharing-pipewire.log"
        children.append(try supervisor.spawn(inside + ["pipewire"], environment: session, name: "pipewire (sway sharing)", stderr: .file(log)))
        guard try supervisor.check(seconds: 20, until: { access(pipewire + "/pipewire-0", F_OK) == 0 }) else {
            throw BenchFailure("the chroot's pipewire did not start (see \(log))")
        }
        children.append(try supervisor.spawn(inside + ["wireplumber"], environment: session, name: "wireplumber (sway sharing)", stderr: .file(log)))
        // The portals: wlr's backend, its chooser set to the headless output (no dialog).
        try writeFile(pipewire + "/config/xdg-desktop-portal/portals.conf", "[preferred]\ndefault=wlr\n")
        try writeFile(pipewire + "/config/xdg-desktop-portal-wlr/config", "[screencast]\noutput_name=HEADLESS-1\nchooser_type=none\n")
        let portal = ["WAYLAND_DISPLAY": socketPath, "XDG_CURRENT_DESKTOP": "sway", "XDG_CONFIG_HOME": pipewire + "/config"]
        try supervisor.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus.UpdateActivationEnvironment",
                            "dict:string:string:" + portal.sorted { $0.key < $1.key }.map { "\($0.key),\($0.value)" }.joined(separator: ",")],
                           environment: session)
        children.append(try supervisor.spawn(inside + ["/usr/libexec/xdg-desktop-portal-wlr"], environment: session.merging(portal) { $1 },
                                             name: "xdg-desktop-portal-wlr", stderr: .file(work + "/xdpw.log")))

        // The monitor and its owner on this sway, and the probe; a short runtime directory (the
        // owner's socket path holds the Wayland socket's).
        let ownerRuntime = try temporaryDirectory("/tmp/wbb-XXXXXX")
        environment = ["PATH": basePath, "LANG": "C.UTF-8", "HOME": ownerRuntime, "XDG_RUNTIME_DIR": ownerRuntime, "WAYLAND_DISPLAY": socketPath,
                       "PIPEWIRE_REMOTE": pipewire + "/pipewire-0", "DBUS_SESSION_BUS_ADDRESS": address]
        let watcher = try ScreencopyProbe(supervisor: supervisor, probe: probe, colour: Self.orange, environment: environment,
                                          name: "the screencopy probe on sway from \(chroot)")
        children.append(watcher.child)
        self.probe = watcher
        let monitor = try supervisor.spawn([banner] + Self.monitorCommand.dropFirst(), environment: environment, name: Self.tool,
                                           stdout: .pipe, stderr: .file(work + "/sway-sharing-monitor.log"))
        children.append(monitor)
        self.monitor = monitor
        guard supervisor.wait(seconds: 10, until: { monitor.lines.contains { $0.hasSuffix("screen sharing from PipeWire") } || !monitor.isRunning }),
              monitor.isRunning else { throw BenchFailure("the monitor did not start on sway (see \(work)/sway-sharing-monitor.log)") }
    }

    /// From an app's reader starting on xdpw's cast to the first frame with the sharing banner
    /// at the top, ms, `runs` times after `warmup`; after each, the app ends and the banner goes.
    func sharing(runs: Int, warmup: Int, work: String) throws -> [Double] {
        guard let monitor else { return [] }
        var samples: [Double] = []
        for round in 0..<(warmup + runs) {
            let hidden = monitor.lines.filter { $0.hasSuffix("sharing banner hidden") }.count
            let start = frames.count
            guard let (app, started) = try supervisor.startCastReader(
                ["/usr/bin/python3", "Tests/Clients/screencast-client.py", "Zoom"], environment: environment,
                name: "an app sharing the screen (sway)", log: work + "/sway-sharing-app.log", seconds: 60
            ) else { throw BenchFailure("the portal cast nothing (see \(work)/sway-sharing-app.log and \(work)/xdpw.log)") }
            defer { supervisor.stop(app) }
            var seen: ScreenFrame?
            supervisor.wait(seconds: 10) {
                seen = frames[start...].first { $0.rows > 0 }
                return seen != nil
            }
            guard let seen else {
                throw BenchFailure("no sharing banner on sway within 10 s; the monitor said: \(monitor.lines.suffix(4).joined(separator: " | "))")
            }
            if round >= warmup { samples.append(seen.presented - started * 1000) }
            supervisor.stop(app)
            let after = frames.count
            guard supervisor.wait(seconds: 10, until: { monitor.lines.filter { $0.hasSuffix("sharing banner hidden") }.count > hidden }),
                  supervisor.wait(seconds: 10, until: { frames.last?.rows == 0 && frames.count > after }) else {
                throw BenchFailure("the sharing banner stayed on sway after the share ended; the monitor said: \(monitor.lines.suffix(4).joined(separator: " | "))")
            }
        }
        return samples
    }

    /// Ends the monitor and its owner, the probe, the portal, PipeWire and sway; removes their
    /// directories.
    func stop() {
        for child in children.reversed() { supervisor.stop(child) }
        children = []
        if let socket = environment["WAYLAND_DISPLAY"], let home = environment["HOME"] {
            // The owner the monitor started.
            for pid in ownerProcesses(servingSocket: socket) { kill(pid, SIGKILL) }
            _ = try? supervisor.run(["rm", "-rf", home], environment: ["PATH": basePath])
        }
        _ = try? supervisor.run(["rm", "-rf", directory, pipewire], environment: ["PATH": basePath])
    }
}

extension Results {
    /// Section 11's sway for the sharing row, and its command.
    func describe(swaySharing sway: SwaySharingDesktop) {
        machine.append(("sway for the sharing banner (section 11)", "headless sway \(sway.version) from \(sway.chroot) (pixman, "
            + "\(SwayDesktop.width)x\(SwayDesktop.height) at 60 Hz) as uid \(SwayDesktop.user), with that chroot's xdg-desktop-portal, "
            + "xdg-desktop-portal-wlr (chooser none), PipeWire and WirePlumber on a private bus, private to this run"))
        commands.append((SwaySharingDesktop.tool, shellLine(SwaySharingDesktop.monitorCommand),
                         "an app (Tests/Clients/screencast-client.py) asks the portal for a ScreenCast session and reads it with pipewiresrc; "
                            + "timed from the reader's start to sway's first frame with the banner (screencopy-probe); the app ended after each run"))
    }
}
