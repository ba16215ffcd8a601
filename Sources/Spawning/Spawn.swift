// What every process the package starts has in common (a `run -- COMMAND`, the owner a client
// starts, a click's command, the config reader, the benchmark's tools): one way to start a child
// (`ChildSpec`: the descriptors it keeps, listed by its caller, nothing else; a working
// directory; a session of its own), posix_spawn attributes that give it a clean signal state,
// and the C string arrays for its argv and environment. A leaf of its own, so the benchmark uses
// it without linking the argument parser.

import CSpawn
import Glibc

/// posix_spawn attributes: nothing blocked, and the default disposition for every signal this
/// program handles or ignores (SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE), whatever this process
/// inherited or set — an ignored SIGCHLD would survive exec and break any program that waits
/// for its own children; optionally a session of its own.
package final class SpawnAttributes {
    package var attributes = posix_spawnattr_t()

    package init(newSession: Bool) {
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let session = newSession ? POSIX_SPAWN_SETSID : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | session))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}

/// A NULL-terminated array of C strings (argv, envp), freed with it.
package final class CStringArray {
    package var pointers: [UnsafeMutablePointer<CChar>?]

    package init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    deinit { for pointer in pointers { free(pointer) } }
}

/// What one of a child's descriptors is.
package enum ChildDescriptor: Sendable, Equatable {
    /// The same as this process's descriptor of that number (a terminal, a log).
    case inherited
    /// /dev/null, opened for reading (descriptor 0) or writing (any other).
    case null
    /// The file at a path, opened for writing and appended to (created 0600).
    case appending(String)
    /// This process's descriptor `fd` (a pipe's end, the owner's ready descriptor).
    case descriptor(Int32)
}

/// How a child starts: the one place every process the package starts is set up (the owner a
/// client starts, the config reader, a click's command, `run`'s command). A child gets exactly
/// the descriptors its caller lists, 0 upwards — everything else of this process is closed in it,
/// so a pipe this process inherited (cron's to its mailer) never outlives it in a child — a clean
/// signal state, and optionally a working directory and a session of its own.
package struct ChildSpec {
    /// argv, argv[0] the program: a path, or a name looked up in `PATH` with `searchesPath`.
    package var arguments: [String]
    /// The child's environment; nil: this process's.
    package var environment: [String: String]?
    /// The child's descriptors 0, 1, 2 and on, in order.
    package var descriptors: [ChildDescriptor]
    package var directory: String?
    package var newSession: Bool
    package var searchesPath: Bool
    /// False only for a command the user gave to run as it is (`run -- COMMAND`): it keeps every
    /// descriptor this process has beyond the listed ones, as `env` or `nice` would pass them.
    package var closesOthers: Bool

    package init(
        _ arguments: [String], environment: [String: String]? = nil, descriptors: [ChildDescriptor] = [.null, .inherited, .inherited],
        directory: String? = nil, newSession: Bool = false, searchesPath: Bool = false, closesOthers: Bool = true
    ) {
        self.closesOthers = closesOthers
        self.arguments = arguments
        self.environment = environment
        self.descriptors = descriptors
        self.directory = directory
        self.newSession = newSession
        self.searchesPath = searchesPath
    }

    /// Starts the child; its pid, or posix_spawn's errno.
    package func start() -> Result<pid_t, SpawnErrno> {
        guard let program = arguments.first else { return .failure(SpawnErrno(code: EINVAL)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, descriptor) in descriptors.enumerated() {
            let fd = Int32(number)
            switch descriptor {
            case .inherited: break
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .appending(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let own): posix_spawn_file_actions_adddup2(&actions, own, fd)
            }
        }
        if closesOthers { posix_spawn_file_actions_addclosefrom_np(&actions, Int32(descriptors.count)) }
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        let spawn = SpawnAttributes(newSession: newSession)
        let argv = CStringArray(arguments)
        let envp = environment.map { CStringArray($0.map { "\($0.key)=\($0.value)" }) }
        let spawner = searchesPath ? posix_spawnp : posix_spawn
        var pid: pid_t = 0
        let status = envp.map { spawner(&pid, program, &actions, &spawn.attributes, argv.pointers, $0.pointers) }
            ?? spawner(&pid, program, &actions, &spawn.attributes, argv.pointers, environ)
        return status == 0 ? .success(pid) : .failure(SpawnErrno(code: status))
    }
}

/// Why a child did not start: posix_spawn's error number.
package struct SpawnErrno: Error, Equatable, CustomStringConvertible {
    package let code: Int32
    package var description: String { String(cString: strerror(code)) }
}
