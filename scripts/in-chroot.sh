#!/bin/sh
# in-chroot.sh DIR COMMAND [ARG…] — runs COMMAND inside the chroot DIR (one of
# scripts/debian-chroot.sh's), in a mount namespace of its own: /proc, /sys, /dev and this
# machine's /tmp are mounted into it, so programs here and in there share the sockets and runtime
# directories under /tmp at the same paths. The mounts end with the namespace's last process;
# nothing is ever mounted in the cached chroot itself. Needs root. The environment passes through.
set -eu
export PATH="${PATH:-/usr/sbin:/usr/bin:/sbin:/bin}"
[ $# -ge 2 ] || { echo "usage: in-chroot.sh DIR COMMAND [ARG…]" >&2; exit 64; }
exec unshare --mount --propagation private -- /bin/sh -c '
    d=$1; shift
    mount -t proc proc "$d/proc" && mount --rbind /sys "$d/sys" && mount --rbind /dev "$d/dev" && mount --rbind /tmp "$d/tmp" || exit 70
    exec chroot "$d" "$@"
' sh "$@"
