// Where the owner of a display lives on disk and the Unix-socket calls both sides make. Every
// path is under one user-private directory: `$XDG_RUNTIME_DIR/window-banner` (0700), else
// `/run/user/UID/window-banner` when that runtime directory exists (cron and root services run
// without the variable, and must find the owner the session started there), else
// `/tmp/window-banner-UID`; a directory that is not ours, or a
// symlink, is refused rather than used. Each display has a socket (0600), an owner lock held by
// the owner for its whole life, a start lock that serialises clients starting an owner, and the
// owner's log.

import BannerCore
import Glibc
import OwnerProtocol
import Reactor
import Spawning

/// The files of one display's owner.
package struct OwnerPaths {
    /// The display as given (`:0`, `host:10.0`), normalised to leave out the screen number.
    package let display: String
    package let directory: String
    package let socket: String
    package let ownerLock: String
    package let startLock: String
    package let log: String

    /// The paths for `display` (nil: the session's, see `sessionDisplay`), creating the
    /// private directory if needed.
    package static func forDisplay(_ display: String?) throws(CommandFailure) -> OwnerPaths {
        guard let display = display ?? sessionDisplay(environment), !display.isEmpty else {
            throw CommandFailure("no display: set DISPLAY or WAYLAND_DISPLAY, or pass --display", code: ExitStatus.displayUnavailable)
        }
        let paths = forDisplay(display, in: try privateDirectory())
        guard paths.socket.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw CommandFailure("socket path too long for a Unix socket: \(paths.socket.printable)", code: ExitStatus.unreachable)
        }
        return paths
    }

    /// The files of `display`'s owner in `directory` (a test's own), as ``forDisplay(_:)`` names them.
    package static func forDisplay(_ display: String, in directory: String) -> OwnerPaths {
        let normalised = normalise(display)
        let key = fileKey(normalised)
        return OwnerPaths(
            display: normalised, directory: directory, socket: "\(directory)/\(key).sock",
            ownerLock: "\(directory)/\(key).lock", startLock: "\(directory)/\(key).start", log: "\(directory)/\(key).log")
    }

    /// The name of a display's files: `display` and its name (`display:0`, `displaywayland-0`).
    /// A Wayland socket given as a path (`/run/user/1000/wayland-1`) is named by its last part
    /// and a hash of the whole, so a long path still fits a Unix socket's address and two
    /// compositors' sockets of one name in two directories get two owners.
    static func fileKey(_ display: String) -> String {
        func safe(_ text: Substring) -> String {
            String(text.map { $0.isLetter || $0.isNumber || ".:-_".contains($0) ? $0 : "_" })
        }
        guard isWayland(display), let slash = display.lastIndex(of: "/") else { return "display" + safe(display[...]) }
        // FNV-1a, 32 bits: stable across runs and versions, unlike Hasher.
        let hash = display.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return "display" + safe(display[display.index(after: slash)...]) + "-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The display a command serves when none is named: in a Wayland session
    /// (`WAYLAND_DISPLAY` set) the compositor's, so the banner is a layer surface and never an
    /// Xwayland window a compositor would tile; else the X display (`DISPLAY`).
    /// `WINDOW_BANNER_BACKEND=x11` or `wayland` picks one of the two.
    package static func sessionDisplay(_ variable: (String) -> String?) -> String? {
        let wayland = variable("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        let x11 = variable("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        switch variable("WINDOW_BANNER_BACKEND") {
        case "x11": return x11
        case "wayland": return wayland
        default: return wayland ?? x11
        }
    }

    /// Whether `display` names a Wayland compositor's socket (`wayland-0`, a path) rather than
    /// an X display, whose names always have a colon (`:0`, `host:10.0`).
    package static func isWayland(_ display: String) -> Bool {
        !display.contains(":")
    }

    /// `:0.0` and `unix:0` are the same display as `:0`; one owner serves them all.
    package static func normalise(_ display: String) -> String {
        var name = display
        if isWayland(name) { return name }
        if name.hasPrefix("unix:") { name.removeFirst(4) }
        if let colon = name.lastIndex(of: ":"), let dot = name[colon...].firstIndex(of: ".") {
            name = String(name[..<dot])
        }
        return name
    }

    /// The directory every display's files are in (made by `forDisplay`).
    package static var directoryPath: String {
        runtimeDirectory().map { $0 + "/window-banner" } ?? "/tmp/window-banner-\(geteuid())"
    }

    /// `$XDG_RUNTIME_DIR`, else `/run/user/UID` when it is a directory of ours (what pam_systemd
    /// would have set), else nil.
    package static func runtimeDirectory() -> String? {
        if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") { return runtime }
        let standard = "/run/user/\(geteuid())"
        var info = stat()
        guard lstat(standard, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { return nil }
        return standard
    }

    private static func privateDirectory() throws(CommandFailure) -> String {
        let uid = geteuid()
        let directory = directoryPath
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw CommandFailure("cannot create \(directory.printable): \(errorText())", code: ExitStatus.unreachable)
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw CommandFailure("cannot use \(directory.printable): \(errorText())", code: ExitStatus.unreachable)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid else {
            throw CommandFailure("refusing to use \(directory.printable): not a directory owned by uid \(uid)", code: ExitStatus.unreachable)
        }
        if info.st_mode & 0o077 != 0, chmod(directory, 0o700) != 0 {
            throw CommandFailure("refusing to use \(directory.printable): others can enter it", code: ExitStatus.unreachable)
        }
        return directory
    }
}

/// The calls on Unix stream sockets both sides make.
package enum UnixSocket {
    /// A listening socket at `path` (0600), replacing a stale socket file there. The caller
    /// holds the owner lock, so a file at `path` cannot belong to a live owner. The process's
    /// umask is left alone (it is every thread's): the socket lies in a private directory
    /// (0700, `privateDirectory()`), which no one else can enter between `bind` and `chmod`.
    package static func listen(at path: String) throws(CommandFailure) -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw CommandFailure("cannot create a socket: \(errorText())", code: ExitStatus.unreachable) }
        let bound = withAddress(path) { bind(fd, $0, $1) }
        guard bound == 0, Glibc.listen(fd, 128) == 0 else {
            let text = errorText()
            close(fd)
            throw CommandFailure("cannot listen on \(path.printable): \(text)", code: ExitStatus.unreachable)
        }
        chmod(path, 0o600)
        return fd
    }

    /// A connected socket, or the errno of the failed connect (ENOENT/ECONNREFUSED: no owner).
    /// With `timeout`, connecting and each send give up after that many seconds (EAGAIN): a
    /// stopped owner's full listen queue, or a full socket, never blocks the caller for good.
    package static func connect(to path: String, timeout: Double? = nil) -> Result<Int32, Errno> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        if let timeout {
            let whole = max(0, timeout.rounded(.down))
            var limit = timeval(tv_sec: Int(whole), tv_usec: Int((timeout - whole) * 1e6))
            if limit.tv_sec == 0, limit.tv_usec == 0 { limit.tv_usec = 1 }
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        let result = withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let failure = Errno(errno)
            close(fd)
            return .failure(failure)
        }
        return .success(fd)
    }

    /// The user id of the process at the other end (SO_PEERCRED).
    package static func peerUID(_ fd: Int32) -> uid_t? {
        // struct ucred is pid, uid, gid (three 32-bit values); Glibc only declares it under _GNU_SOURCE.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.1
    }

    /// The process id of the process at the other end: for a client, the owner that listens
    /// (SO_PEERCRED, as recorded by listen(2): known even while that process is stopped).
    package static func peerPID(_ fd: Int32) -> Int32? {
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.0 > 0 else { return nil }
        return credentials.0
    }

    /// Writes all of `bytes`; false if the peer is gone (or, for a non-blocking socket, full).
    package static func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Waits up to `timeout` seconds (nil: forever) for the next frame on a blocking socket.
    package static func receiveFrame(from fd: Int32, reader: inout FrameReader, timeout: Double?) -> Result<[UInt8], ReceiveError> {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let giveUp = timeout.map(PollWait.deadline(in:))
        while true {
            do {
                if let frame = try reader.nextFrame() { return .success(frame) }
            } catch {
                return .failure(.badFrame(error))
            }
            guard case .ready = PollWait.wait(fd: fd, events: Int16(POLLIN), until: giveUp) else { return .failure(.timedOut) }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return .failure(.closed) }
            reader.append(buffer[0..<count])
        }
    }

    package enum ReceiveError: Error {
        case closed
        case timedOut
        case badFrame(FrameError)
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// An errno value from a failed call.
package struct Errno: Error, Equatable {
    package let code: Int32
    package init(_ code: Int32) { self.code = code }
    package var text: String { String(cString: strerror(code)) }
}

/// The failing call's errno as text.

/// An environment variable, nil when unset.
package func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}


