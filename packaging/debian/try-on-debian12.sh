#!/usr/bin/env bash
# Installs dist/window-banner_*.deb with apt into a fresh, minimal Debian 12 (debootstrap
# --variant=minbase into a temporary chroot) and runs it there against a private Xvfb of the
# host: `show --style offline`, `status --json`, `dismiss --all --quit`. Needs root, debootstrap
# and network access to a Debian mirror (about 200 MB); not part of `make test` for that reason.
# usage: packaging/debian/try-on-debian12.sh [DEB] [MIRROR]
set -euo pipefail
deb=${1:-$(ls dist/window-banner_*.deb | tail -n1)}
mirror=${2:-http://deb.debian.org/debian}
root=$(mktemp -d /tmp/window-banner-debian12-XXXXXX)
cleanup() {
  umount "$root/tmp/.X11-unix" "$root/proc" 2>/dev/null || true
  kill -KILL $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/window-banner.deb"
chroot "$root" apt-get update -qq
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/window-banner.deb >/dev/null
echo "try-on-debian12: installed $(chroot "$root" dpkg-query -W -f='${Package} ${Version}' window-banner) with $(chroot "$root" dpkg-query -W -f='${Package}\n' | wc -l) packages in all"

exec 3> "$root/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null &
for _ in $(seq 100); do [ -s "$root/display" ] && break; sleep 0.1; done
display=":$(head -n1 "$root/display")"
mkdir -p "$root/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
chroot "$root" env DISPLAY="$display" XDG_RUNTIME_DIR=/tmp HOME=/root bash -euc '
  window-banner --version
  window-banner show --style offline --compact never
  window-banner status --json | grep -q "\"title\" : \"No Internet Connection\""
  window-banner dismiss --all --quit
'
echo "try-on-debian12: show, status and dismiss work in a fresh Debian 12"
