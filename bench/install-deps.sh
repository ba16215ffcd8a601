#!/usr/bin/env bash
# make bench: the peers the benchmark runs next to WindowBanner, and what it observes them with —
# installed, when missing, by scripts/install-deps.sh along with the build's and the tests'.
set -euo pipefail

packages=(
  # the peers: dunst (via notify-send / dunstify on a private session bus), osd_cat
  dunst libnotify-bin xosd-bin dbus
  # the observer: X RECORD (libXtst) for server-side timestamps, and a C compiler for it and the floor
  libxtst-dev build-essential
  # the chart of frame intervals
  gnuplot-nox
  # section 9, sway: headless sway (run as nobody through setpriv) with a foot terminal, mako (what
  # notify-send reaches on a wlroots desktop), and what builds the screencopy probe
  # (bench/screencopy-probe.c): libwayland's headers, wayland-scanner, and the
  # wlr-screencopy-unstable-v1 XML, which Debian ships inside librust-wayland-protocols-dev
  sway foot util-linux mako-notifier libwayland-dev libwayland-bin librust-wayland-protocols-dev
)

exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
