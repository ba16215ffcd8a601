// A compositor without layer-shell, to see what the banner does where it cannot reserve space
// (as on GNOME's Mutter): Debian's cage, a kiosk compositor, headless, running `sleep` as its
// one application, as the unprivileged user TestSway uses.

import Foundation
import Glibc
import ProcessTestSupport

/// A headless cage with its own runtime directory and socket.
public final class TestCage {
    /// The directory holding the runtime directory and HOME.
    public let directory: String
    /// The Wayland socket's full path.
    public private(set) var socketPath = ""
    private let cage: Subprocess

    /// Starts cage and waits up to 20 s until its socket accepts connections.
    public init() throws {
        var template = Array("/tmp/window-banner-cage-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        let runtime = directory + "/run"
        mkdir(runtime, 0o700)
        mkdir(directory + "/home", 0o700)
        if geteuid() == 0 {
            for path in [directory, runtime, directory + "/home"] { chown(path, TestSway.unprivilegedUser, TestSway.unprivilegedUser) }
        }
        cage = try TestSway.spawn(["cage", "--", "sleep", "infinity"], in: directory, runtime: runtime,
                                  extra: ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"],
                                  log: directory + "/cage.log")
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            if let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
               Self.accepts(runtime + "/" + socket) {
                socketPath = runtime + "/" + socket
                return
            }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        throw TestFailure("cage did not start within 20 s: \((try? String(contentsOfFile: directory + "/cage.log", encoding: .utf8)) ?? "")")
    }

    /// Whether a Unix socket at `path` accepts a connection (it is bound before it listens).
    private static func accepts(_ path: String) -> Bool {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    deinit {
        cage.killGroup()
        _ = cage.waitForExit(timeout: 5)
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }
}
