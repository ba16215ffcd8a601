#!/usr/bin/env bash
# make demo: the offline → back-online sequence. On $DISPLAY when one is reachable; otherwise on a
# private Xvfb + openbox with a maximized xterm, writing a screenshot of each stage to
# screenshots/ (the README shows them).
set -euo pipefail
banner=${1:?usage: demo.sh PATH/TO/window-banner}
cd "$(dirname "$0")/.."

if [ -n "${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then
  exec "$banner" demo
fi

workdir=$(mktemp -d)
cleanup() {
  # SIGKILL: Xvfb can miss a SIGTERM until its next timer fires, minutes later.
  kill -KILL $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$workdir"
}
trap cleanup EXIT

# A private desktop: Xvfb picks a free display number and reports it on fd 3.
exec 3> "$workdir/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 2>/dev/null &
for _ in $(seq 100); do [ -s "$workdir/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$workdir/display")"
# A plain desktop colour: it shows in the rich banner's rounded corners.
xsetroot -solid "#2e3440"
HOME="$workdir" openbox 2>/dev/null &
for _ in $(seq 100); do xprop -root _NET_WORKAREA 2>/dev/null | grep -q = && break; sleep 0.1; done
HOME="$workdir" xterm -fa "DejaVu Sans Mono" -fs 11 -bg "#1e1e2e" -fg "#cdd6f4" \
  -e bash -c 'show() { clear; echo "$ ping example.org"; echo "ping: example.org: Temporary failure in name resolution"; }
              trap show WINCH; show; while :; do sleep 0.1; done' &
terminal=$(xdotool search --sync --class xterm | head -n1)
# Maximized the EWMH way, so the window manager keeps it inside the work area.
wmctrl -i -r "$terminal" -b add,maximized_vert,maximized_horz
sleep 1

mkdir -p screenshots
shot() { import -window root "screenshots/$1.png"; echo "demo: screenshots/$1.png"; }
shot 0-desktop

# Each stage is printed once the banner has settled; give the WM and xterm a moment to redraw.
run_demo() {
  local prefix=$1; shift
  "$banner" demo --hold 1.5 "$@" | while read -r stage; do
    # Mid-fade is caught as it happens (the slow-motion run makes the fade last seconds).
    [ "$stage" = mid-fade ] && { [ "$prefix" = regular ] && shot "$prefix-2-mid-fade"; continue; }
    sleep 0.4
    case "$stage" in
      offline) shot "$prefix-1-offline" ;;
      online) shot "$prefix-3-back-online" ;;
      dismissed) shot "$prefix-4-restored" ;;
    esac
  done
}
run_demo compact
# Twenty times slower, so the screenshot lands in the middle of the 0.2 s cross-fade.
run_demo regular --compact never --slow-motion 20

# A banner with a subtitle, shown the way scripts do it (through the display's owner process).
"$banner" show --title "Incoming call" --subtitle "Anna Lindqvist · mobile" --background systemIndigo --compact never
sleep 0.6
shot subtitle
"$banner" dismiss --all --quit

# A rich banner: an icon (drawn here, given as a PNG path), a subtitle, two actions (the primary
# next to the ✕, the secondary left of it) and the close button, a progress bar and rounded corners.
convert -size 256x256 xc:none -fill none -stroke white -strokewidth 22 -draw "circle 128,128 128,22" \
  -strokewidth 24 -draw "stroke-linecap round line 128,182 128,78" \
  -draw "stroke-linecap round stroke-linejoin round polyline 84,118 128,74 172,118" -resize 64x64 "PNG32:$workdir/upload.png"
"$banner" show --title "Uploading holiday photos" --subtitle "12 of 30 · about a minute left" --icon "$workdir/upload.png" \
  --background systemIndigo --action "Pause" --action "Cancel" --close-button --progress 0.4 --corner-radius 14 --compact never
sleep 0.6
shot rich
"$banner" dismiss --all --quit

# The offline banner as an Arabic and a Japanese desktop show it: the built-in title from the
# translations (Resources/po), shaped with HarfBuzz and ordered with FriBidi, the layout mirrored
# for Arabic. The two locales are generated for this run only (localedef, into $workdir).
mkdir -p "$workdir/locales"
for locale in ar_EG ja_JP; do localedef -c -i "$locale" -f UTF-8 "$workdir/locales/$locale.UTF-8" 2>/dev/null || true; done
for locale in ar_EG ja_JP; do
  LOCPATH="$workdir/locales" LANG="$locale.UTF-8" "$banner" show --style offline --compact never
  sleep 0.6
  shot "offline-$locale"
  "$banner" dismiss --all --quit
done

# Under a real status bar: lemonbar (a dock reserving the top 24 px) stays visible above the
# banner, and the terminal moves down by the banner's height only.
echo '%{l}  1  2  3%{c}Mon 09:41%{r}wlan0: no carrier  ' | lemonbar -p -g x24 -B "#3b4252" -F "#eceff4" &
for _ in $(seq 100); do xprop -root _NET_WORKAREA | grep -q "= 0, 24," && break; sleep 0.1; done
"$banner" show --style offline --compact never
sleep 0.6
shot panel
"$banner" dismiss --all --quit

# One picture of the whole sequence: the top of the screen at each stage.
convert screenshots/0-desktop.png screenshots/regular-1-offline.png screenshots/regular-2-mid-fade.png \
  screenshots/regular-3-back-online.png screenshots/regular-4-restored.png -crop 1280x150+0+0 +repage -bordercolor "#888888" -border 0x2 \
  -append screenshots/sequence.png
echo "demo: screenshots/sequence.png"

# The looks side by side: compact strip, mid-cross-fade, subtitle.
convert screenshots/compact-1-offline.png screenshots/regular-2-mid-fade.png screenshots/subtitle.png \
  -crop 1280x110+0+0 +repage -bordercolor "#888888" -border 0x2 -append screenshots/looks.png
echo "demo: screenshots/looks.png"

# The rich banner on its own, with the desktop in its corners and the terminal pushed below.
convert screenshots/rich.png -crop 1280x110+0+0 +repage screenshots/rich.png
echo "demo: screenshots/rich.png"

# The Arabic and Japanese offline banners, one above the other.
convert screenshots/offline-ar_EG.png screenshots/offline-ja_JP.png -crop 1280x90+0+0 +repage -bordercolor "#888888" -border 0x2 \
  -append screenshots/languages.png
echo "demo: screenshots/languages.png"

# The banner under the status bar, the terminal below both.
convert screenshots/panel.png -crop 1280x135+0+0 +repage screenshots/panel.png
echo "demo: screenshots/panel.png"
