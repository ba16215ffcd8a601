#!/usr/bin/env bash
# make bench: the peers the benchmark runs next to WindowBanner, and what it observes them with —
# only the missing packages, with sudo when not root. scripts/install-deps.sh covers the build
# (Xlib, Xft), Xvfb and openbox; `make bench` runs both.
set -euo pipefail

packages=(
  # the peers: dunst (via notify-send / dunstify on a private session bus), osd_cat
  dunst libnotify-bin xosd-bin dbus
  # the observer: X RECORD (libXtst) for server-side timestamps, and a C compiler for it and the floor
  libxtst-dev build-essential
  # the chart of frame intervals
  gnuplot-nox
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "bench/install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
