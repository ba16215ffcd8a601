#!/bin/sh
# in-chroot.sh [--writable DIR] [--bind PATH]… CHROOT COMMAND [ARG…] — runs COMMAND inside the
# chroot CHROOT (one of scripts/debian-chroot.sh's), in a mount namespace of its own: /proc, /sys,
# /dev and this machine's /tmp are mounted into it, so programs here and in there share the
# sockets and runtime directories under /tmp at the same paths. The mounts end with the
# namespace's last process; nothing is ever mounted in the cached chroot itself.
#   --writable DIR  the chroot is seen through an overlay whose changes go to DIR (a new
#                   directory): a test may install packages, and the cache stays as it was
#   --bind PATH     this machine's PATH (a directory) is mounted at the same path inside (with
#                   --writable, or where the chroot already has that directory)
# Needs root. The environment passes through.
set -eu
export PATH="${PATH:-/usr/sbin:/usr/bin:/sbin:/bin}"
writable=
binds=
while [ $# -gt 0 ]; do
    case $1 in
        --writable) writable=$2; shift 2 ;;
        --bind) binds="$binds $2"; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: in-chroot.sh [--writable DIR] [--bind PATH]… CHROOT COMMAND [ARG…]" >&2; exit 64; }
chroot=$1
shift
exec unshare --mount --propagation private -- /bin/sh -c '
    d=$1 writable=$2 binds=$3; shift 3
    if [ -n "$writable" ]; then
        mkdir -p "$writable/upper" "$writable/work" "$writable/root" &&
            mount -t overlay overlay -o "lowerdir=$d,upperdir=$writable/upper,workdir=$writable/work" "$writable/root" || exit 70
        d=$writable/root
    fi
    mount -t proc proc "$d/proc" && mount --rbind /sys "$d/sys" && mount --rbind /dev "$d/dev" && mount --rbind /tmp "$d/tmp" || exit 70
    # mmdebstrap leaves /etc/machine-id empty, and GLib programs (waybar) then refuse to start
    # a D-Bus session: the chroot borrows this machine'"'"'s (it is this machine).
    if [ ! -s "$d/etc/machine-id" ] && [ -s /etc/machine-id ] && [ -e "$d/etc/machine-id" ]; then
        mount --bind /etc/machine-id "$d/etc/machine-id" || exit 70
    fi
    for path in $binds; do
        { [ -d "$d$path" ] || [ -z "$writable" ] || mkdir -p "$d$path"; } && mount --rbind "$path" "$d$path" || exit 70
    done
    exec chroot "$d" "$@"
' sh "$chroot" "$writable" "$binds" "$@"
