// What every process the package starts has in common (a `run -- COMMAND`, the owner a client
// starts, a click's command, the benchmark's tools): posix_spawn attributes that give the child a
// clean signal state, and the C string arrays for its argv and environment. A leaf of its own,
// so the benchmark uses it without linking the argument parser.

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
