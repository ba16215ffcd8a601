// Where `show`, `dismiss`, `status`, `stats`, `action` and `run` go when the caller names no display
// (a cron job, a systemd timer, ssh, a root service) or names sessions (`--session`, `--user`,
// `--all-users`). The small `window-banner` has already looked for an owner of this user's and
// found none, or several (SessionSearch); here logind says which graphical sessions the user
// has, and the user's systemd manager what their desktop exported (LoginSessions). One session
// of the caller's own: its DISPLAY, WAYLAND_DISPLAY, XDG_RUNTIME_DIR and XAUTHORITY are set in
// this process and the command runs here as usual. Several, or another user's: the command runs
// once per session in a child of its own — as that user, never as root, so the owner it may
// start belongs to the user whose display it draws on — and exits with the first failure's
// status. Start reading at `route(_:)`.

import BannerCore
import BannerProcess
import CSpawn
import Glibc
import LoginSessions
import OwnerIPC
import ShowArguments
import Spawning
import WindowBannerClient

enum SessionRouting {
    /// Routes `arguments` (this process's, the command's name second) when they name no display
    /// or name sessions; returns when the command is to run here, with the environment set.
    static func route(_ arguments: [String]) {
        let options = Array(arguments.dropFirst(2))
        let scan = SessionSearch.scan(options)
        // `run` holds its banner itself, in the caller's own session: it takes no session options.
        if arguments[1] == "run", scan.choosesSessions { return }
        guard scan.choosesSessions || (scan.display == nil && !SessionSearch.hasDisplayVariable) else { return }
        // Help and the parser's own errors need no display.
        guard !options.contains(where: { ["-h", "--help", "help"].contains($0) }) else { return }
        do throws(CommandFailure) {
            let targets = try findTargets(scan)
            if targets.count == 1, let target = targets.first, target.uid == geteuid() {
                target.adopt()
                return
            }
            if arguments[1] == "status", options.contains("--follow") {
                throw CommandFailure("status --follow follows one session: name it with --user NAME or --session ID", code: ExitStatus.usage)
            }
            exit(runEach(targets, command: arguments[1], options: SessionSearch.withoutSessionOptions(options)))
        } catch {
            Terminal.error(error.message)
            exit(error.code)
        }
    }

    /// A session to run the command in.
    struct Target {
        var uid: uid_t
        var userName: String
        /// logind's session; nil for an owner found running without logind.
        var session: LoginSession?
        /// The X display; for a Wayland session, its Xwayland (possibly none).
        var display: String?
        var runtimeDirectory: String?

        /// What names this target on a child's command line.
        var selector: [String] {
            if let session { return ["--session", session.id] }
            return ["--display", display ?? ""]
        }

        var described: String { "\(userName.printable) on \((display ?? session?.id ?? "?").printable)" }

        /// Sets this process's environment for the session, as its desktop would have it:
        /// DISPLAY, WAYLAND_DISPLAY, XDG_RUNTIME_DIR, the session bus, XAUTHORITY and the
        /// language, keeping whatever the caller set itself.
        func adopt() {
            guard let session else {
                if let display { SessionSearch.export(display) }
                return
            }
            let runtime = environment("XDG_RUNTIME_DIR") ?? runtimeDirectory ?? "/run/user/\(uid)"
            setenv("XDG_RUNTIME_DIR", runtime, 0)
            // The session bus, as pam_systemd names it: the owner reaches screen readers there.
            if environment("DBUS_SESSION_BUS_ADDRESS") == nil, access(runtime + "/bus", F_OK) == 0 {
                setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(runtime)/bus", 1)
            }
            // Where the desktop exported nothing (no user manager, an old session), the usual
            // places.
            let exported = (try? UserManager.environment(runtimeDirectory: runtime)) ?? [:]
            let display = session.display.isEmpty ? (session.type == "wayland" ? exported["DISPLAY"] : nil) : session.display
            if let display, !display.isEmpty { setenv("DISPLAY", display, 1) }
            if session.type == "wayland" {
                if let wayland = exported["WAYLAND_DISPLAY"] {
                    setenv("WAYLAND_DISPLAY", wayland, 1)
                } else if access(runtime + "/wayland-0", F_OK) == 0 {
                    setenv("WAYLAND_DISPLAY", "wayland-0", 1)
                }
            }
            if environment("XAUTHORITY") == nil {
                let home = environment("HOME") ?? getpwuid(uid).map { String(cString: $0.pointee.pw_dir) }
                if let cookie = exported["XAUTHORITY"] {
                    setenv("XAUTHORITY", cookie, 1)
                } else if let home, access(home + "/.Xauthority", R_OK) == 0 {
                    setenv("XAUTHORITY", home + "/.Xauthority", 1)
                }
            }
            // The built-in banners speak the session's language, not cron's.
            let locale = ["LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"]
            if !locale.contains(where: { environment($0) != nil }) {
                for name in locale { if let value = exported[name] { setenv(name, value, 1) } }
            }
        }
    }

    /// The sessions `scan` chooses; fails with 64 for a bad choice, 69 when there is none.
    static func findTargets(_ scan: SessionSearch.Scan) throws(CommandFailure) -> [Target] {
        let me = geteuid()
        let scope = scan.session ?? "active"
        guard !scope.isEmpty, scope.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw CommandFailure("bad --session '\(scope.printable)' (active, all or a logind session id)", code: ExitStatus.usage)
        }
        var uids: Set<uid_t>?
        if scan.allUsers {
            guard me == 0 else { throw CommandFailure("--all-users needs root (it runs the command as each user)", code: ExitStatus.usage) }
            guard scan.user == nil else { throw CommandFailure("--user cannot be combined with --all-users", code: ExitStatus.usage) }
        } else if let name = scan.user {
            guard let entry = getpwnam(name) else { throw CommandFailure("no such user '\(name.printable)'", code: ExitStatus.usage) }
            let uid = entry.pointee.pw_uid
            guard uid == me || me == 0 else {
                throw CommandFailure("--user \(name.printable) needs root (it runs the command as that user)", code: ExitStatus.usage)
            }
            uids = [uid]
        } else {
            uids = [me]
        }

        var manager: LoginManager?
        var sessions: [LoginSession] = []
        var problem: String?
        do {
            let connected = try LoginManager()
            sessions = try connected.sessions()
            manager = connected
        } catch {
            problem = error.description
        }
        func runtime(_ uid: uid_t) -> String? { try? manager?.runtimeDirectory(uid: uid) }
        func target(_ session: LoginSession) -> Target {
            Target(uid: session.uid, userName: session.userName, session: session,
                   display: session.display.isEmpty ? nil : session.display, runtimeDirectory: runtime(session.uid))
        }

        let mine = sessions.filter { session in uids.map { $0.contains(session.uid) } ?? true }
        var targets: [Target]
        switch scope {
        case "active", "all":
            let graphical = mine.filter(\.isGraphical)
            let users = graphical.reduce(into: [uid_t]()) { if !$0.contains($1.uid) { $0.append($1.uid) } }
            targets = users.flatMap { uid -> [Target] in
                let theirs = graphical.filter { $0.uid == uid }
                guard scope == "active" else { return theirs.map(target) }
                // A session without a seat (a VNC or headless X server) is never "active": when
                // it is the user's only desktop, it is the one.
                let chosen = theirs.filter(\.active)
                return (chosen.isEmpty && theirs.count == 1 ? theirs : Array(chosen.prefix(1))).map(target)
            }
        default:
            guard let session = mine.first(where: { $0.id == scope }) else {
                let whose = uids == [me] ? "" : " for user \(scan.user?.printable ?? "")"
                throw CommandFailure("no logind session '\(scope.printable)'\(whose)\(problem.map { " (\($0))" } ?? "")", code: ExitStatus.displayUnavailable)
            }
            guard session.isGraphical || !session.display.isEmpty else {
                throw CommandFailure("no display: logind session '\(scope.printable)' is not a desktop (type \(session.type.printable))", code: ExitStatus.displayUnavailable)
            }
            targets = [target(session)]
        }

        // Owners this user already runs on displays logind does not list (a startx session).
        if uids == [me], scope != "active" || targets.isEmpty, scan.session.map({ ["active", "all"].contains($0) }) ?? true {
            let listed = Set(targets.compactMap(\.display).map(OwnerPaths.normalise))
            let owners = SessionSearch.liveOwnerDisplays().filter { !listed.contains($0) }
            let name = getpwuid(me).map { String(cString: $0.pointee.pw_name) } ?? String(me)
            if scope == "active", owners.count > 1 {
                throw CommandFailure("no display: owners run on \(owners.joined(separator: ", ")) and logind names no active session: pass --display, or --session all", code: ExitStatus.displayUnavailable)
            }
            targets += owners.map { Target(uid: me, userName: name, session: nil, display: $0, runtimeDirectory: nil) }
        }

        guard !targets.isEmpty else {
            let who = scan.allUsers ? "any user" : (uids == [me] ? "uid \(me)" : "user \(scan.user?.printable ?? "")")
            let owners = uids == [me] ? ", no owner answers in \(OwnerPaths.directoryPath.printable)" : ""
            let logind = problem.map { "logind could not be asked (\($0))" } ?? "logind lists no \(scope == "all" ? "" : "active ")graphical session for \(who)"
            // A caller who named sessions asked for no display of their own.
            guard !scan.choosesSessions else { throw CommandFailure("no display: \(logind)", code: ExitStatus.displayUnavailable) }
            throw CommandFailure("no display: DISPLAY and WAYLAND_DISPLAY are unset\(owners), and \(logind); set DISPLAY or pass --display", code: ExitStatus.displayUnavailable)
        }
        return targets
    }

    /// Runs `command options…` once per target, all at once (a `show --wait` in each waits for
    /// its own banner), each as its target's user; prints their output in order and returns the
    /// first failure's status, or 0.
    static func runEach(_ targets: [Target], command: String, options: [String]) -> Int32 {
        var children: [(target: Target, pid: pid_t, output: Int32)] = []
        var status: Int32 = 0
        for target in targets {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                Terminal.error("cannot create a pipe: \(errorText())")
                return ExitStatus.internalError
            }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            let arguments = [FullProgram.path, command] + target.selector + options
            let pid = spawn(arguments, as: target, output: ends[1])
            close(ends[1])
            guard pid > 0 else {
                close(ends[0])
                if -pid == EACCES || -pid == EPERM {
                    // A build in a private (0700) directory: the user cannot even reach it.
                    Terminal.error("cannot run \(FullProgram.path.printable) as \(target.described): that user cannot reach it (install window-banner, or build it in a directory every user can enter)")
                    if status == 0 { status = ExitStatus.notRunnableAsUser }
                } else {
                    Terminal.error("cannot run window-banner for \(target.described): \(String(cString: strerror(-pid)))")
                    if status == 0 { status = ExitStatus.internalError }
                }
                continue
            }
            children.append((target, pid, ends[0]))
        }
        var outputs = Array(repeating: [UInt8](), count: children.count)
        var open = Set(children.indices)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !open.isEmpty {
            var entries = open.sorted().map { pollfd(fd: children[$0].output, events: Int16(POLLIN), revents: 0) }
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 || errno == EINTR else { break }
            for (entry, index) in zip(entries, open.sorted()) where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    outputs[index] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.remove(index)
                }
            }
        }
        for (index, child) in children.enumerated() {
            var raw: Int32 = 0
            while waitpid(child.pid, &raw, 0) < 0, errno == EINTR {}
            let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            writeAll(outputs[index], to: STDOUT_FILENO)
            if code != 0, status == 0 { status = code }
        }
        return status
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Starts `arguments` as `target`'s user: with the caller's environment as runuser leaves
    /// it — HOME, SHELL, USER and LOGNAME the user's — less what belongs to the caller's own
    /// session (its display, runtime and config directories, session bus).
    private static func spawn(_ arguments: [String], as target: Target, output: Int32) -> pid_t {
        guard let entry = getpwuid(target.uid) else { return -ENOENT }
        let user = entry.pointee
        var environment = processEnvironment()
        let callerOwn = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME",
                         "XDG_DATA_HOME", "XDG_CACHE_HOME", "DBUS_SESSION_BUS_ADDRESS", "MAIL"]
        if target.uid != geteuid() {
            for name in callerOwn { environment[name] = nil }
            environment["HOME"] = String(cString: user.pw_dir)
            environment["SHELL"] = String(cString: user.pw_shell)
            environment["USER"] = String(cString: user.pw_name)
            environment["LOGNAME"] = String(cString: user.pw_name)
            if let runtime = target.runtimeDirectory { environment["XDG_RUNTIME_DIR"] = runtime }
        } else {
            for name in ["DISPLAY", "WAYLAND_DISPLAY"] { environment[name] = nil }
        }
        let groups = UserGroups.ids(of: user)
        let argv = CStringArray(arguments)
        let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
        return wb_spawn_as_user(arguments[0], argv.pointers, envp.pointers, target.uid, user.pw_gid, groups, Int32(groups.count), output)
    }
}
