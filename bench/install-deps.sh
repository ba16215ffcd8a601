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
  # section 9, on sway: mako, what notify-send reaches on a wlroots desktop (sway, foot, setpriv and
  # what builds bench/screencopy-probe.c — libwayland's headers, wayland-scanner and the
  # wlr-screencopy XML in librust-wayland-protocols-dev — are in scripts/install-deps.sh's list)
  mako-notifier
  # section 10, the owner's accessibility connection: at-spi2-core's bus launcher and registry, and
  # the Atspi client library a listener like a screen reader's uses (python3-gi)
  at-spi2-core gir1.2-atspi-2.0 python3-gi
)

exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
