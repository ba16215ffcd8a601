#!/usr/bin/env bash
# Draws window-banner's own icons (Resources/icons/*.png) with ImageMagick from simple shapes:
# a white ring with a slash (offline) and a white ring with a check mark (online), drawn at
# 256 px and scaled down to 64 px so the edges are smooth. The PNGs are committed; run this
# only to change them. They are original work, under the package's licence (see
# Resources/icons/README.md).
set -euo pipefail
cd "$(dirname "$0")/../Resources/icons"

draw() {
  local name=$1; shift
  convert -size 256x256 xc:none -fill none -stroke white -strokewidth 22 -draw "circle 128,128 128,22" \
    "$@" -resize 64x64 -strip "PNG32:$name.png"
  echo "make-icons: Resources/icons/$name.png"
}

draw window-banner-offline -strokewidth 24 -stroke white -draw "stroke-linecap round line 58,58 198,198"
draw window-banner-online -strokewidth 24 -stroke white -fill none -draw "stroke-linecap round stroke-linejoin round polyline 78,132 114,168 180,96"
