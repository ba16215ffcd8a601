// A test session's own D-Bus session bus (this machine's dbus-daemon or a chroot's, run as
// the session's user), and the sweep that kills whatever a session started once it ends.

import Foundation
import Glibc
import ProcessTestSupport

/// A private D-Bus session bus (this machine's dbus-daemon or a chroot's, as the session's user) on a socket
/// in a session's runtime directory, which both sides of a chroot see; stopped when released.
final class SessionBus {
    let address: String
    private let runtime: String
    private let daemon: Subprocess

    /// From `chroot` when given: its services (KDE's activity manager) are then activatable.
    /// The services it starts get `environment` (KDE's need to know they are on Wayland).
    /// With `rootMayJoin`, root may connect too (a session bus lets in only its own user).
    /// With `onlyServices` (D-Bus service files), the bus starts those and no other (a session
    /// without a portal, say); else every service the system installed.
    init(in directory: String, runtime: String, chroot: DebianChroot? = nil, environment: [String: String] = [:],
         rootMayJoin: Bool = false, onlyServices: [String]? = nil) throws {
        let socket = runtime + "/bus"
        address = SessionBus.address(in: runtime)
        self.runtime = runtime
        var configuration = ["--session"]
        if rootMayJoin || onlyServices != nil {
            var base = "<include>/usr/share/dbus-1/session.conf</include>"
            if let onlyServices {
                let services = directory + "/bus-services"
                mkdir(services, 0o755)
                for service in onlyServices { symlink(service, services + "/" + (service.split(separator: "/").last.map(String.init) ?? service)) }
                // session.conf without its standard service directories.
                base = """
                  <type>session</type>
                  <keep_umask/>
                  <listen>unix:tmpdir=/tmp</listen>
                  <auth>EXTERNAL</auth>
                  <servicedir>\(services)</servicedir>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                """
            }
            let users = rootMayJoin ? ["root", "\(TestSway.unprivilegedUser)"] : []
            let file = directory + "/session-bus.conf"
            try TestSway.write("""
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                \(base)
                  <policy context="default">
                \(users.map { "    <allow user=\"\($0)\"/>" }.joined(separator: "\n"))
                  </policy>
                </busconfig>
                """, to: file)
            configuration = ["--config-file=" + file]
        }
        daemon = try TestSway.spawn(["dbus-daemon"] + configuration + ["--nofork", "--nopidfile", "--address=" + address],
                                    in: directory, runtime: runtime, extra: environment, log: directory + "/dbus.log", chroot: chroot)
        let deadline = monotonicSeconds() + 10
        while access(socket, F_OK) != 0 {
            guard monotonicSeconds() < deadline else { throw TestFailure("the session bus did not start within 10 s") }
            var none = pollfd()
            _ = poll(&none, 0, 10)
        }
    }

    deinit {
        daemon.killGroup()
        _ = daemon.waitForExit(timeout: 5)
        // The services it started (portals, dconf, KDE's kioworkers) are in no group of ours:
        // every process of this session goes, found by its runtime directory.
        SessionProcesses.kill(runtime: runtime)
    }

    /// The address of the bus a session with runtime directory `runtime` has.
    static func address(in runtime: String) -> String { "unix:path=" + runtime + "/bus" }
}

/// The processes of one test session, whatever group they are in.
enum SessionProcesses {
    /// Kills (SIGKILL) every process whose environment names `runtime` as its
    /// XDG_RUNTIME_DIR, until none is left or 5 seconds pass.
    static func kill(runtime: String) {
        let mark = Array("XDG_RUNTIME_DIR=\(runtime)".utf8)
        let deadline = monotonicSeconds() + 5
        while true {
            let left = processes { environ in environ.split(separator: 0).contains { Array($0) == mark } }
            if left.isEmpty || monotonicSeconds() > deadline { return }
            for pid in left { Glibc.kill(pid, SIGKILL) }
            poll(nil, 0, 20)
        }
    }

    /// The processes (not zombies) whose environment `matches` accepts.
    static func processes(whoseEnvironment matches: ([UInt8]) -> Bool) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"), matches([UInt8](environ)) else { return nil }
            return pid
        }
    }
}
