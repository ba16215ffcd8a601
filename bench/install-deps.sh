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
)

exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
