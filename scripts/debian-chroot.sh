#!/bin/sh
# debian-chroot.sh SUITE PACKAGE|@SET... — prints the directory of a chroot of Debian SUITE
# (trixie, sid, …) holding PACKAGES (@SET: one of the sets below, what the tests and the
# benchmark run from one chroot), built with mmdebstrap from the Debian mirror apt already uses here
# (the URIs of /etc/apt/sources.list.d/*.sources, or /etc/apt/sources.list) and cached: the
# same suite and packages give the same directory under WINDOW_BANNER_CHROOTS
# (/var/cache/window-banner/chroots), built once per machine. Callers waiting for the same
# chroot take turns (flock); a build cut short leaves only DIR.new, which the next one removes.
# The tests run the newest desktops from these chroots (docs/tests.md, "Newer desktops");
# nothing is ever mounted inside the cached directory: they mount in private namespaces.
set -eu
[ $# -ge 2 ] || { echo "usage: debian-chroot.sh SUITE PACKAGE|@SET..." >&2; exit 64; }
suite=$1
shift

# @gnome: GNOME Shell and Xwayland, the buses and dconf behind gsettings, the accessibility bus,
# xdg-desktop-portal with GNOME's backend (the desktop's preferences, as a GNOME session has
# them), the layout extensions Debian packages (Dash to Panel, Dash to Dock, Hide Top Bar), and
# PipeWire with WirePlumber, which Mutter casts the screen through.
gnome="gnome-shell xwayland dbus-daemon dconf-service dconf-cli at-spi2-core xdg-desktop-portal xdg-desktop-portal-gnome
    gnome-shell-extension-dash-to-panel gnome-shell-extension-dashtodock gnome-shell-extension-autohidetopbar
    pipewire-bin wireplumber"

# @wlroots: sway (with swaybg) and labwc, and the clients the tests run beside the banner there:
# waybar, foot (its resize counter is a python3 script), grim, swaylock, wlr-randr (labwc's
# headless output is sized with it), a font for the bar.
wlroots="sway swaybg labwc waybar foot python3 grim swaylock wlr-randr fonts-dejavu-core"

# @kde: KDE Plasma 6 on Wayland: KWin, plasmashell and its desktop shell package (the default
# panel), the session bus, xdg-desktop-portal with Plasma's backend (which relays kdeglobals),
# kwriteconfig6 (libkf6config-bin) to change kdeglobals as Plasma's settings do, kscreen-doctor
# (libkscreen-bin) to set an output's scale as Plasma's display settings do, and foot and python3
# for the resize-counting terminal.
kde="kwin-wayland plasma-workspace plasma-desktop dbus-daemon xdg-desktop-portal xdg-desktop-portal-kde libkf6config-bin libkscreen-bin foot python3 fonts-dejavu-core"

# @x11desktops: the big X11 desktops as a new user starts them, each with its own locker:
# Cinnamon (its shell, muffin and panel), Xfce (xfwm4, xfce4-panel, xfconf), MATE (marco,
# mate-panel) and KDE Plasma on X11 (kwin-x11, plasmashell), the session bus, xrandr and xprop.
x11desktops="cinnamon cinnamon-screensaver xfwm4 xfce4-panel xfce4-screensaver xfconf marco mate-panel mate-screensaver mate-settings-daemon
    kwin-x11 plasma-workspace plasma-desktop dbus-daemon dbus-x11 x11-xserver-utils x11-utils fonts-dejavu-core"

# @labwcpanels: labwc under the layer-shell panels of the desktops that take it to Wayland
# (xfce4-panel; lxqt-panel, with Qt's Wayland platform), with foot (and python3 for its resize counter), grim, swaylock,
# wlr-randr and the session bus; wayfire and its wf-shell panel are asked for by name.
labwcpanels="labwc xfce4-panel xfconf lxqt-panel qt6-wayland foot python3 grim swaylock wlr-randr dbus-daemon fonts-dejavu-core"

# @screencast: sway with the portal a wlroots desktop shares the screen through
# (xdg-desktop-portal and xdg-desktop-portal-wlr, which reads the screen over
# ext-image-copy-capture and so needs no GPU from 0.8 on) and PipeWire with WirePlumber and its
# PulseAudio server; the app that shares (a python3 D-Bus script and GStreamer's pipewiresrc),
# pactl for a virtual microphone, foot beside the banner and grim for its pixels.
screencast="sway swaybg foot grim fonts-dejavu-core dbus-daemon xdg-desktop-portal xdg-desktop-portal-wlr pipewire-bin wireplumber
    pipewire-pulse pulseaudio-utils gstreamer1.0-tools gstreamer1.0-pipewire python3 python3-dbus python3-gi"

# @newcomer: what a new user starts from (make, and git to have cloned the project), after which
# the checkout's scripts/install-deps.sh --build runs inside and installs the rest, Swift too; the
# script's text is part of the cache key, so a changed list makes a new chroot.
newcomer="make git ca-certificates"
here=$(cd "$(dirname "$0")" && pwd)

words=
hook=
for word in "$@"; do
    case $word in
        @gnome) words="$words $gnome" ;;
        @wlroots) words="$words $wlroots" ;;
        @kde) words="$words $kde" ;;
        @x11desktops) words="$words $x11desktops" ;;
        @labwcpanels) words="$words $labwcpanels" ;;
        @screencast) words="$words $screencast" ;;
        @newcomer) words="$words $newcomer"; hook=$here/install-deps.sh ;;
        @*) echo "debian-chroot.sh: no package set '$word' (there are @gnome, @wlroots, @kde, @x11desktops, @labwcpanels, @screencast and @newcomer)" >&2; exit 64 ;;
        *) words="$words $word" ;;
    esac
done
packages=$(printf '%s\n' $words | sort -u | paste -sd, -)
cache=${WINDOW_BANNER_CHROOTS:-/var/cache/window-banner/chroots}
key=$( { printf '%s %s' "$suite" "$packages"; [ -z "$hook" ] || cat "$hook"; } | sha256sum | cut -c1-12)
dir=$cache/$suite-$key

# The mirror serving this machine's own Debian (the first debian URI apt lists).
mirror() {
    found=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' | grep -v security | grep -m 1 . || true)
    [ -n "$found" ] || found=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null | grep -v security | grep -m 1 . || true)
    [ -n "$found" ] || { echo "debian-chroot.sh: apt names no Debian mirror here (/etc/apt/sources.list.d/*.sources, /etc/apt/sources.list)" >&2; exit 69; }
    printf '%s\n' "$found"
}

mkdir -p "$cache"
exec 9>"$dir.lock"
flock 9

# Every use opens a chroot's lock for writing, which touches it: a chroot whose lock is more
# than two days old is one no test has asked for since (its package set or the newcomer's
# install-deps.sh changed, so its key did), and it goes, so the cache does not grow by a chroot
# with each such change. One being built or looked up right now holds its lock and stays; the
# (empty) lock files stay.
for lock in "$cache"/*.lock; do
    old=${lock%.lock}
    [ "$old" != "$dir" ] && [ -d "$old" ] && [ -n "$(find "$lock" -maxdepth 0 -mtime +1)" ] || continue
    (
        flock -n 8 || exit 0
        findmnt -rn -o TARGET | grep -F "$old.new/" | sort -r | while read -r mount; do umount -l "$mount"; done
        echo "debian-chroot.sh: removing $old, unused for two days" >&2
        rm -rf --one-file-system "$old" "$old.new"
    ) 8<"$lock"
done
if [ ! -e "$dir/.complete" ]; then
    # A build cut short may have left mmdebstrap's /proc, /sys and /dev mounts in DIR.new: they
    # go first, and rm never crosses into another file system.
    findmnt -rn -o TARGET | grep -F "$dir.new/" | sort -r | while read -r mount; do umount -l "$mount"; done
    rm -rf --one-file-system "$dir.new"
    from=$(mirror)
    echo "debian-chroot.sh: building a $suite chroot with $packages from $from (cached in $dir)" >&2
    # sid's Release file may be past its Valid-Until on a mirror snapshot.
    set -- --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' --include="$packages"
    # The script goes in by a path in the environment: mmdebstrap splits a copy-in hook's
    # arguments at spaces, and a checkout's path may have some.
    export WINDOW_BANNER_CHROOT_HOOK="$hook"
    [ -z "$hook" ] || set -- "$@" --customize-hook='cp "$WINDOW_BANNER_CHROOT_HOOK" "$1/tmp/install-deps.sh"' \
        --customize-hook='chroot "$1" bash /tmp/install-deps.sh --build'
    mmdebstrap "$@" "$suite" "$dir.new" "$from" >&2
    touch "$dir.new/.complete"
    mv "$dir.new" "$dir"
fi
printf '%s\n' "$dir"
