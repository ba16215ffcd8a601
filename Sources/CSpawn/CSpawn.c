// wb_spawn_as_user (CSpawn.h); the rest of CSpawn is declarations of glibc's own functions.
#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t wb_spawn_as_user(const char *path, char *const argv[], char *const envp[], uid_t uid, gid_t gid,
                       const gid_t *groups, int group_count, int output) {
    // The child reports a failure before execve on this pipe; execve closes it (O_CLOEXEC), so
    // an empty read means the program runs.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int failure = errno;
        close(report[0]);
        close(report[1]);
        return -failure;
    }
    if (pid == 0) {
        // Only async-signal-safe calls from here: the parent may have threads.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int defaults[] = {SIGCHLD, SIGPIPE, SIGINT, SIGTERM, SIGHUP};
        for (unsigned i = 0; i < sizeof defaults / sizeof defaults[0]; i++) signal(defaults[i], SIG_DFL);
        // The pipe's own descriptor would otherwise live on in the program and in whatever it
        // starts (an owner), and the caller would never see the pipe end.
        if (output >= 0 && output != STDOUT_FILENO) {
            if (dup2(output, STDOUT_FILENO) < 0) goto failed;
            close(output);
        }
        // Nothing of the caller's beyond stdin, stdout and stderr reaches the program: a root
        // caller's descriptors are not the user's to have. Marked close-on-exec rather than
        // closed, so the report pipe stays until execve.
        if (close_range(3, ~0U, 4 /* CLOSE_RANGE_CLOEXEC, Linux 5.11 */) != 0) {
            struct rlimit limit;
            int highest = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (int)limit.rlim_cur : 65536;
            for (int fd = 3; fd < highest; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
        // Groups first, the user last: after setuid there is no right left to change the others.
        // The caller's own user needs no change (and no right to make one).
        if (uid != geteuid() && (setgroups((size_t)group_count, groups) != 0 || setgid(gid) != 0 || setuid(uid) != 0)) goto failed;
        // Root's working directory is seldom the user's to enter.
        if (chdir("/") != 0) goto failed;
        execve(path, argv, envp);
    failed:;
        int failure = errno;
        ssize_t ignored = write(report[1], &failure, sizeof failure);
        (void)ignored;
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t count;
    do count = read(report[0], &failure, sizeof failure); while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof failure) {
        waitpid(pid, NULL, 0);
        return -failure;
    }
    return pid;
}
