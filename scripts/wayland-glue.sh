#!/usr/bin/env bash
# Regenerates the Wayland protocol glue vendored in Sources/CWaylandProtocols/vendor with
# wayland-scanner: a client header and the interface tables (private code) for each protocol the
# banner speaks beyond the core one; and, in Tests/CWaylandTestProtocols/vendor, the
# wlr-virtual-pointer glue the tests' pointer device uses, and KWin's fake-input glue for the
# tests' pointer on KDE Plasma (which has no wlr-virtual-pointer). SwiftPM cannot run the scanner
# without a build plugin, so the generated files live in the tree, under vendor/ as any code that
# is not ours to edit (the target's own code, include/ and glue.c, is beside it);
# BannerWaylandTests' glue test checks that they are exactly what this script makes from the XMLs
# installed here.
#
#   scripts/wayland-glue.sh            rewrite the vendored files
#   scripts/wayland-glue.sh --to DIR   write them under DIR instead (what the test compares)
#
# The XMLs come from Debian packages (scripts/install-deps.sh): wlr-layer-shell only ships
# inside librust-wayland-protocols-dev; xdg-shell, viewporter and fractional-scale in
# wayland-protocols; KDE's fake-input in plasma-wayland-protocols. xdg-shell is linked because layer-shell's get_popup refers to xdg_popup.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
destination=$root
if [[ ${1:-} == --to ]]; then
  destination=${2:?"--to needs a directory"}
fi
command -v wayland-scanner >/dev/null || { echo "wayland-glue: wayland-scanner not found (install libwayland-bin)" >&2; exit 69; }

protocols=/usr/share/wayland-protocols
wlr=$(ls -d /usr/share/cargo/registry/wayland-protocols-*/wlr-protocols/unstable 2>/dev/null | sort -V | tail -n 1)
if [[ -z $wlr ]]; then
  echo "wayland-glue: the wlr-protocols XMLs are not installed (install librust-wayland-protocols-dev)" >&2
  exit 69
fi

# generate TARGET XML...: the header and the private code of each XML in the C target TARGET.
generate() {
  local target="$destination/$1"
  shift
  mkdir -p "$target/vendor"
  for xml in "$@"; do
    [[ -f $xml ]] || { echo "wayland-glue: $xml not found (scripts/install-deps.sh installs it)" >&2; exit 69; }
    local name
    name=$(basename "$xml" .xml)
    wayland-scanner client-header "$xml" "$target/vendor/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$target/vendor/$name-protocol.c"
  done
}

generate Sources/CWaylandProtocols \
  "$wlr/wlr-layer-shell-unstable-v1.xml" \
  "$protocols/stable/xdg-shell/xdg-shell.xml" \
  "$protocols/stable/viewporter/viewporter.xml" \
  "$protocols/staging/fractional-scale/fractional-scale-v1.xml"
generate Tests/CWaylandTestProtocols "$wlr/wlr-virtual-pointer-unstable-v1.xml" \
  /usr/share/plasma-wayland-protocols/fake-input.xml
