// A private Wayland desktop for one test: Debian's sway on its headless backend with the pixman
// renderer, run as an unprivileged user (sway refuses root) in a runtime directory of its own,
// with a minimal config written here. Clients (foot, waybar, grim, swaylock) run as that user on
// its socket; the test's own client connects to the socket by path (root may). What a user sees
// is read back with `swaymsg -t get_tree` and `grim`. Everything is torn down when released.

import Foundation
import Glibc
import ProcessTestSupport

/// A rectangle in the compositor's logical pixels, as `swaymsg -t get_tree` gives it.
public struct SwayRect: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A headless sway with its own runtime directory, socket and IPC socket.
public final class TestSway {
    /// The user id sway and its clients run as when the tests run as root (nobody).
    public static let unprivilegedUser: uid_t = 65534

    /// The directory holding the sockets, the config, HOME and the files tests write.
    public let directory: String
    /// `XDG_RUNTIME_DIR` of sway and its clients.
    public let runtimeDirectory: String
    /// The Wayland socket's full path: what this process's clients connect to.
    public private(set) var socketPath = ""
    /// The socket's name in `runtimeDirectory` (`WAYLAND_DISPLAY` for the clients).
    public private(set) var socketName = ""
    /// sway's IPC socket (`SWAYSOCK`).
    public private(set) var ipcSocket = ""
    private let sway: Subprocess
    private var clients: [Subprocess] = []
    /// The newer Debian whose sway and clients run, or nil for this machine's.
    public let chroot: DebianChroot?
    /// A private session bus for the chroot's clients (waybar will not start without one), or
    /// the one `startSessionBus` started.
    private var bus: SessionBus?

    /// Starts sway with one headless output of `width`×`height` at `scale`, the desktop painted
    /// `background` (swaybg), no borders, no Xwayland, and `extraConfig`'s lines; waits until its
    /// socket answers and the output is there.
    ///
    /// Nested in `outer` instead, sway runs as a client of that sway with `outputs` outputs
    /// (WL-1, WL-2…), each a window there: closing the window unplugs the output, which a
    /// headless sway 1.7 cannot do.
    public init(
        width: Int = 1280, height: Int = 720, scale: Double = 1, background: String = "#336699", extraConfig: String = "",
        nestedIn outer: TestSway? = nil, outputs: Int = 1, from chroot: DebianChroot? = nil
    ) throws {
        self.chroot = chroot
        (directory, runtimeDirectory) = try Self.makeSessionDirectory("sway")
        let config = """
            xwayland disable
            default_border none
            default_floating_border none
            focus_follows_mouse no
            output * bg \(background) solid_color
            output HEADLESS-1 resolution \(width)x\(height) scale \(Self.decimal(scale))
            \(extraConfig)
            """
        try Self.write(config, to: directory + "/config")
        if geteuid() == 0 { chown(directory + "/config", Self.unprivilegedUser, Self.unprivilegedUser) }
        var backend = ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
        if let outer {
            backend["WLR_BACKENDS"] = "wayland"
            backend["WLR_WL_OUTPUTS"] = String(outputs)
            backend["WAYLAND_DISPLAY"] = outer.socketPath
        }
        sway = try Self.spawn(["sway", "-c", directory + "/config"], in: directory, runtime: runtimeDirectory, extra: backend,
                              log: directory + "/sway.log", chroot: chroot)
        try awaitStart()
        if chroot != nil { bus = try SessionBus(in: directory, runtime: runtimeDirectory) }
    }

    deinit {
        for client in clients { client.killGroup() }
        clients.removeAll()
        bus = nil
        sway.killGroup()
        _ = sway.waitForExit(timeout: 5)
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }

    /// `value` as sway's and wlr-randr's options take it: 2, 1.25.
    public static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Kills sway at once, as a crash would: its clients lose their connection.
    public func kill() {
        sway.killGroup()
        _ = sway.waitForExit(timeout: 5)
    }

    /// Waits up to 20 s for the sockets to appear and `swaymsg -t get_outputs` to list an output.
    private func awaitStart() throws {
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
               let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }) {
                socketName = socket
                socketPath = runtimeDirectory + "/" + socket
                ipcSocket = runtimeDirectory + "/" + ipc
                if let outputs = try? outputNames(), !outputs.isEmpty { return }
            }
            if sway.hasEnded { throw TestFailure("sway exited at start: \(log)") }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        throw TestFailure("sway did not start within 20 s: \(log)")
    }

    /// What sway wrote to its standard error.
    public var log: String { (try? String(contentsOfFile: directory + "/sway.log", encoding: .utf8)) ?? "" }

    /// The end of every log in the directory (sway's, foot's), for a failure's message.
    public var logs: String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".log") }.sorted()
        return names.map { name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
            return "\(name): …\(text.suffix(1500))"
        }.joined(separator: "\n")
    }

    // MARK: IPC

    /// Runs `swaymsg` with `arguments` on this sway's IPC socket; its standard output.
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> String {
        let process = try Subprocess(executable: "/usr/bin/swaymsg", arguments: arguments,
                                     environment: ["SWAYSOCK": ipcSocket, "PATH": "/usr/bin:/bin"])
        process.closeStandardInput()
        guard process.waitForExit(timeout: 10) == 0 else {
            throw TestFailure("swaymsg \(arguments.joined(separator: " ")) failed: \(process.standardOutput) \(process.standardError)")
        }
        return process.standardOutput
    }

    /// The names of the outputs sway has (`swaymsg -t get_outputs`).
    public func outputNames() throws -> [String] {
        let outputs = try JSONSerialization.jsonObject(with: Data(try swaymsg(["-r", "-t", "get_outputs"]).utf8)) as? [[String: Any]]
        return (outputs ?? []).compactMap { $0["name"] as? String }
    }

    /// The rectangle of the window whose app_id is `appID` in `swaymsg -t get_tree`, or nil.
    public func windowRect(appID: String) throws -> SwayRect? {
        let tree = try JSONSerialization.jsonObject(with: Data(try swaymsg(["-r", "-t", "get_tree"]).utf8))
        func find(_ node: Any) -> SwayRect? {
            guard let node = node as? [String: Any] else { return nil }
            if node["app_id"] as? String == appID, let rect = node["rect"] as? [String: Any] {
                return SwayRect(x: rect["x"] as? Int ?? 0, y: rect["y"] as? Int ?? 0,
                                width: rect["width"] as? Int ?? 0, height: rect["height"] as? Int ?? 0)
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let found = find(child) { return found } }
            }
            return nil
        }
        return find(tree)
    }

    /// Waits up to `timeout` seconds until the window `appID` has a rectangle for which `isWanted`
    /// holds, polling `get_tree`; that rectangle, or a failure naming the last one seen.
    @discardableResult
    public func awaitWindowRect(appID: String, timeout: Double = 10, _ isWanted: (SwayRect) -> Bool) throws -> SwayRect {
        let deadline = monotonicSeconds() + timeout
        var last: SwayRect?
        while monotonicSeconds() < deadline {
            last = try windowRect(appID: appID)
            if let last, isWanted(last) { return last }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        throw TestFailure("the window \(appID) is at \(last.map(String.init(describing:)) ?? "nowhere") after \(timeout) s\(clientsGone)\n\(logs)")
    }

    /// The clients that have exited, with their status and what they wrote to stderr (for a
    /// failure's message; the ones still running are ended by asking).
    private var clientsGone: String {
        clients.compactMap { client in
            // Not waited for: that would kill a client still running.
            guard client.hasEnded else { return nil }
            return "; client \(client.pid) exited: \(client.standardError.suffix(600))"
        }.joined()
    }

    /// Starts a private session bus whose activated services (xdg-desktop-portal, dconf) run as
    /// sway's user in this session — its Wayland socket, HOME, runtime directory and `extra` —
    /// and that root may join too (the tests' own clients); its address. The services go with
    /// the sway.
    public func startSessionBus(_ extra: [String: String] = [:], onlyServices: [String]? = nil) throws -> String {
        var environment = extra
        environment["WAYLAND_DISPLAY"] = socketName
        let started = try SessionBus(in: directory, runtime: runtimeDirectory, chroot: chroot, environment: environment,
                                     rootMayJoin: true, onlyServices: onlyServices)
        bus = started
        return started.address
    }

    /// The prefix that runs a command as `user` (setpriv, its groups dropped).
    public static func running(as user: uid_t) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"]
    }

    /// A new session directory `/tmp/window-banner-NAME-XXXXXX` with its runtime directory
    /// (`run`), HOME (`home`) and `subdirectories`, all 0700 and, when the tests run as root,
    /// the session's user's; the directory and the runtime directory.
    public static func makeSessionDirectory(_ name: String, subdirectories: [String] = []) throws -> (directory: String, runtime: String) {
        var template = Array("/tmp/window-banner-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let directory = String(cString: made)
        let paths = [directory] + (["run", "home"] + subdirectories).map { directory + "/" + $0 }
        for path in paths.dropFirst() { mkdir(path, 0o700) }
        if geteuid() == 0 {
            for path in paths { chown(path, unprivilegedUser, unprivilegedUser) }
        }
        return (directory, directory + "/run")
    }

    // MARK: Clients

    /// Starts `command` (its first word found on PATH) as sway's user on this sway's socket, in a
    /// process group killed when the sway is released (or by the returned Subprocess).
    @discardableResult
    /// Its standard error goes to `log` in `directory` when given, else to a pipe.
    public func startClient(_ command: [String], environment extra: [String: String] = [:], log: String? = nil) throws -> Subprocess {
        var environment = extra
        environment["WAYLAND_DISPLAY"] = socketName
        if let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        let client = try Self.spawn(command, in: directory, runtime: runtimeDirectory, extra: environment,
                                    log: log.map { directory + "/" + $0 }, chroot: chroot)
        clients.append(client)
        return client
    }

    /// A foot terminal whose program counts the terminal's size changes in a file: foot sets its
    /// pty's size — rows, columns and pixels — on every re-layout of its window (SIGWINCH); a
    /// signal that leaves the size as it was (a configure of the same size) is no re-layout the
    /// user sees and is not counted. The file also holds the pixel height foot last set, so a
    /// test can await foot's own view of its size; its app_id is `appID`.
    public func startFoot(appID: String = "foot") throws -> ResizeCountingTerminal {
        let terminal = try Self.startFoot(
            in: directory, runtime: runtimeDirectory, environment: ["WAYLAND_DISPLAY": socketName], appID: appID, chroot: chroot)
        clients.append(terminal.process)
        return terminal
    }

    /// A resize-counting foot (see `startFoot(appID:)`) in `directory`, as the unprivileged user,
    /// in `environment`, with `footArguments` (`--maximized`) before its program.
    static func startFoot(
        in directory: String, runtime: String, environment: [String: String], appID: String, footArguments: [String] = [],
        chroot: DebianChroot? = nil
    ) throws -> ResizeCountingTerminal {
        let counter = directory + "/\(appID)-resizes"
        // SIGWINCH is blocked and taken with sigwait, so the count and the file are only ever
        // written from one place: a handler writing the file while the script's own first write
        // was under way renamed its temporary file away, the script died, and foot closed.
        let script = """
            import fcntl, os, signal, struct, sys, termios
            signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGWINCH])
            def size():
                return struct.unpack('HHHH', fcntl.ioctl(0, termios.TIOCGWINSZ, b'\\0' * 8))
            def record():
                temporary = sys.argv[1] + '.new'
                open(temporary, 'w').write('%d %d' % (count, last[3]))
                os.rename(temporary, sys.argv[1])
            count = 0
            last = size()
            record()
            while True:
                signal.sigwait([signal.SIGWINCH])
                now = size()
                if now != last:
                    last = now
                    count += 1
                    record()
            """
        try write(script, to: directory + "/count-resizes.py")
        // WAYLAND_DEBUG: foot's log lists every event the compositor sent it, its window's
        // configures too.
        var variables = environment
        variables["WAYLAND_DEBUG"] = "client"
        let log = directory + "/\(appID).log"
        let process = try spawn(
            ["foot", "--app-id", appID] + footArguments + ["/usr/bin/python3", directory + "/count-resizes.py", counter],
            in: directory, runtime: runtime, extra: variables, log: log, chroot: chroot)
        return ResizeCountingTerminal(appID: appID, counterPath: counter, logPath: log, process: process)
    }

    /// A screenshot of `output` taken with grim (its wlr-screencopy), as 8-bit RGB.
    public func screenshot(output: String = "HEADLESS-1") throws -> Screenshot {
        let path = directory + "/shot-\(UInt32.random(in: 0...UInt32.max)).ppm"
        let grim = try startClient(["grim", "-t", "ppm", "-o", output, path])
        grim.closeStandardInput()
        guard grim.waitForExit(timeout: 20) == 0 else { throw TestFailure("grim failed: \(grim.standardError)") }
        defer { unlink(path) }
        return try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Waits (bounded) for a screenshot `isWanted` accepts; the last one taken.
    public func awaitScreenshot(timeout: Double = 20, _ isWanted: (Screenshot) -> Bool) throws -> Screenshot {
        try Screenshot.await(timeout: timeout, taking: { try screenshot() }, isWanted)
    }

    // MARK: Processes

    /// Spawns `command` through /bin/sh (so `exec` keeps the pid as the group's leader), as the
    /// unprivileged user when running as root, with HOME and XDG_RUNTIME_DIR in `directory`;
    /// inside `chroot` when given (its programs, on the same sockets under /tmp).
    static func spawn(
        _ command: [String], in directory: String, runtime: String, extra: [String: String], log: String?,
        chroot: DebianChroot? = nil
    ) throws -> Subprocess {
        let environment = sessionEnvironment(in: directory, runtime: runtime, extra: extra)
        if let chroot {
            let redirected = ["/bin/sh", "-c", "exec \"$@\"" + (log.map { " 2>'\($0)'" } ?? ""), "sh"] + command
            let inside = chroot.command(redirected, user: geteuid() == 0 ? unprivilegedUser : nil, environment: environment)
            return try Subprocess(executable: inside[0], arguments: Array(inside.dropFirst()), environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        }
        let asUser = geteuid() == 0
            ? ["setpriv", "--reuid=\(unprivilegedUser)", "--regid=\(unprivilegedUser)", "--clear-groups", "--"] : []
        let quoted = (asUser + command).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let redirect = log.map { " 2>'\($0)'" } ?? ""
        return try Subprocess(executable: "/bin/sh", arguments: ["-c", "exec \(quoted)\(redirect)"], environment: environment)
    }

    /// `extra` with what every program of a test's session gets: PATH, HOME and XDG_CONFIG_HOME
    /// in `directory`, XDG_RUNTIME_DIR `runtime`, a UTF-8 locale.
    static func sessionEnvironment(in directory: String, runtime: String, extra: [String: String]) -> [String: String] {
        var environment = extra
        environment["PATH"] = "/usr/bin:/bin"
        environment["HOME"] = directory + "/home"
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_CONFIG_HOME"] = directory + "/home/.config"
        environment["LANG"] = "C.UTF-8"
        return environment
    }

    /// Writes `text` to `path`, readable by the unprivileged user.
    public static func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644]) else {
            throw TestFailure("cannot write \(path)")
        }
        if geteuid() == 0 { chown(path, unprivilegedUser, unprivilegedUser) }
    }
}

/// A foot terminal started by `TestSway.startFoot`, and the count of its size changes.
public struct ResizeCountingTerminal {
    public let appID: String
    let counterPath: String
    /// foot's standard error, with the protocol messages WAYLAND_DEBUG makes it log.
    let logPath: String
    public let process: Subprocess

    /// How many times sway has configured foot's window to a new size so far: every re-layout
    /// of the window as the client sees it, read from the `xdg_toplevel.configure` events in
    /// foot's protocol log (a configure repeating the last size, a change of state only, is
    /// not counted). Finer than `resizes()`, which only sees whole terminal cells change.
    public func configures() -> Int {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        var count = 0
        var last: [Int]?
        for line in log.split(separator: "\n") where (line.contains("xdg_toplevel@") || line.contains("xdg_toplevel#")) && line.contains(".configure(") {
            guard let open = line.firstIndex(of: "(") else { continue }
            let size = line[line.index(after: open)...].split(separator: ",").prefix(2).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            // 0×0: the client chooses, as in the first configure before the window is laid out.
            guard size.count == 2, size != [0, 0], size != last else { continue }
            if last != nil { count += 1 }
            last = size
        }
        return count
    }

    /// The size (width, height) of the last configure that gave foot's window a size: the window
    /// as the compositor lays it out, read from foot's protocol log; nil before the first.
    public func lastConfiguredSize() -> SwayRect? {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        var last: SwayRect?
        for line in log.split(separator: "\n") where (line.contains("xdg_toplevel@") || line.contains("xdg_toplevel#")) && line.contains(".configure(") {
            guard let open = line.firstIndex(of: "(") else { continue }
            let size = line[line.index(after: open)...].split(separator: ",").prefix(2).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard size.count == 2, size != [0, 0] else { continue }
            last = SwayRect(x: 0, y: 0, width: size[0], height: size[1])
        }
        return last
    }

    /// Waits up to `timeout` seconds until foot's last configured size is one `isWanted` accepts;
    /// that size, or a failure naming the last one.
    @discardableResult
    public func awaitConfiguredSize(timeout: Double = 20, _ isWanted: (SwayRect) -> Bool) throws -> SwayRect {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let size = lastConfiguredSize(), isWanted(size) { return size }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        throw TestFailure("foot's window was last configured to \(lastConfiguredSize().map { "\($0.width)x\($0.height)" } ?? "nothing") after \(timeout) s")
    }

    /// How often the terminal was resized since its program started; nil before it started.
    public func resizes() -> Int? {
        fields()?.count
    }

    /// The height in pixels foot last gave its terminal; nil before its program started.
    public func pixelHeight() -> Int? {
        fields()?.pixelHeight
    }

    /// Waits until foot has given its terminal the size of a window `height` px tall (its
    /// pixel height is whole cells, so within a cell of it: more than 90 % of it), so a count
    /// taken then is not raised later by foot's own start-up resize.
    public func awaitFilling(windowHeight height: Int, timeout: Double = 10) throws {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let pixels = pixelHeight(), pixels * 10 > height * 9, pixels <= height { return }
            var none = pollfd()
            _ = poll(&none, 0, 10)
        }
        throw TestFailure("foot's terminal is \(pixelHeight().map(String.init) ?? "not started") px tall, not filling its \(height) px window")
    }

    private func fields() -> (count: Int, pixelHeight: Int)? {
        let words = ((try? String(contentsOfFile: counterPath, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0) }
        return words.count == 2 ? (words[0], words[1]) : nil
    }
}

/// An RGB screenshot.
public struct Screenshot: Sendable {
    public let width: Int
    public let height: Int
    /// Three bytes a pixel, rows top to bottom.
    public let rgb: [UInt8]

    /// Reads a binary PPM (P6, maxval 255), as `grim -t ppm` writes it.
    public init(ppm: Data) throws {
        let bytes = [UInt8](ppm)
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
            var field = ""
            while index < bytes.count, ![0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) {
                field.append(Character(Unicode.Scalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count - index >= width * height * 3 else { throw TestFailure("not a P6 PPM: \(fields)") }
        self.width = width
        self.height = height
        rgb = Array(bytes[index..<index + width * height * 3])
    }

    /// Takes screenshots with `take` until one is what `isWanted` accepts, or `timeout` seconds
    /// pass; the last one taken.
    public static func await(timeout: Double, taking take: () throws -> Screenshot, _ isWanted: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = monotonicSeconds() + timeout
        var shot = try take()
        while !isWanted(shot), monotonicSeconds() < deadline {
            poll(nil, 0, 20)
            shot = try take()
        }
        return shot
    }

    /// The pixel at (`x`, `y`) as 0xRRGGBB.
    public func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let offset = (y * width + x) * 3
        return UInt32(rgb[offset]) << 16 | UInt32(rgb[offset + 1]) << 8 | UInt32(rgb[offset + 2])
    }
}

