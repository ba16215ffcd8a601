// CSpawn: the posix_spawn pieces Swift's Glibc module hides. glibc declares
// posix_spawn_file_actions_addchdir_np (2.29+) and POSIX_SPAWN_SETSID (2.26+) only under
// _GNU_SOURCE, which that module is built without, so they are declared again here exactly as
// <spawn.h> has them. Nothing else lives here: window-banner's CommandLauncher.swift makes the
// calls.

#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/// Adds a chdir(path) to the file actions, done in the child before it executes the program.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);

/// Starts the child in a session of its own (setsid).
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

#endif
