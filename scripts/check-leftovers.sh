#!/bin/sh
# check-leftovers.sh COMMAND [ARG…] — runs a test command and fails if any process it started
# outlives it. `make test` runs each `swift test` through it.
#
# The command runs with WINDOW_BANNER_TEST_RUN set to a fresh random marker. Children inherit
# it (the tests' Subprocess adds it to any environment a test builds from scratch, and a test
# that runs something under `env -i` passes it on), so every process the run started carries
# it in /proc/PID/environ, however it was started: owners that put themselves in a session of
# their own, status bars' module scripts, dbus-daemons, reparented grandchildren. Once the
# command has exited, each process still carrying the marker is printed (pid and command line)
# and killed, and the script fails. Exit status: the command's own when it failed, 1 when it
# passed but left processes behind, 0 otherwise.

set -u

[ $# -gt 0 ] || { echo "usage: scripts/check-leftovers.sh COMMAND [ARG…]" >&2; exit 64; }

marker=$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')
entry="WINDOW_BANNER_TEST_RUN=$marker"

WINDOW_BANNER_TEST_RUN=$marker "$@"
status=$?

# Processes whose environment holds the marker (the marker is read, not matched as a pattern:
# environ entries are NUL-separated, so each is compared whole).
marked() {
    for dir in /proc/[0-9]*; do
        pid=${dir#/proc/}
        [ "$pid" = $$ ] && continue
        { tr '\0' '\n' < "$dir/environ"; } 2>/dev/null | grep -qxF "$entry" && echo "$pid"
    done
}

# A process killed in the command's last moments may still be on its way out: look again after
# it has had a moment (a zombie has no readable environment, so only the living count).
leftovers=$(marked)
if [ -n "$leftovers" ]; then
    sleep 1
    leftovers=$(marked)
fi
[ -z "$leftovers" ] && exit "$status"

echo "check-leftovers: these processes started by \`$*\` outlived it (killed now):" >&2
for pid in $leftovers; do
    cmdline=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null)
    echo "  $pid ${cmdline:-(gone)}" >&2
done
for pid in $leftovers; do kill -KILL "$pid" 2>/dev/null; done
[ "$status" -ne 0 ] && exit "$status"
exit 1
