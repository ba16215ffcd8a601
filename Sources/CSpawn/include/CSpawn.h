// CSpawn: the posix_spawn pieces Swift's Glibc module hides. glibc declares
// posix_spawn_file_actions_addchdir_np (2.29+), posix_spawn_file_actions_addclosefrom_np (2.34+)
// and POSIX_SPAWN_SETSID (2.26+) only under
// _GNU_SOURCE, which that module is built without, so they are declared again here exactly as
// <spawn.h> has them: Spawning's ChildSpec makes the calls. And one function
// posix_spawn cannot do: start a program as another user (root's `--user`), which Swift cannot
// write itself since it has no fork.

#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// Adds a chdir(path) to the file actions, done in the child before it executes the program.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);

/// Adds a close of every descriptor from `from` on, done in the child before it executes the
/// program (glibc 2.34+).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// Starts the child in a session of its own (setsid).
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

/// Starts `path` with `argv` and `envp` as user `uid` in group `gid` with the supplementary
/// `groups` — fork, then setgroups, setgid and setuid in the child, as runuser and setpriv do;
/// nothing changes when `uid` is the caller's own — in `/`, with no signal blocked, SIGCHLD,
/// SIGPIPE, SIGINT, SIGTERM and SIGHUP at their defaults, stdout on `output` (when >= 0) and
/// no other descriptor of the caller's beyond 0-2. Returns the child's pid, or -errno when the
/// fork, a change of identity or the execve failed (the child then never ran the program).
pid_t wb_spawn_as_user(const char *path, char *const argv[], char *const envp[], uid_t uid, gid_t gid,
                       const gid_t *groups, int group_count, int output);

#endif
