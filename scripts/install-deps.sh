#!/usr/bin/env bash
# install-deps.sh [--build] [PACKAGE…] — installs the Debian/Ubuntu packages WindowBanner needs,
# only the missing ones, with sudo when not root: with --build only what building, `make demo`
# and `make deb` need (the `build`, `demo` and `deb` groups below), else also everything the tests
# run (`tests`). Packages given as arguments are added to the list.
# Swift 6.0 or later must be on PATH; where it is not and apt offers Debian's own toolchain
# (`swiftlang`, Debian 13 and later), that is installed too (docs/install.md).
set -euo pipefail

only_build=false
if [ "${1:-}" = "--build" ]; then only_build=true; shift; fi

build=(
  # build: Xlib, Xft (+ fontconfig), XRender, XRandR, XShape headers and pkg-config files
  pkg-config libx11-dev libx11-xcb-dev libxcb1-dev libxft-dev libxrender-dev libfontconfig1-dev libxrandr-dev libxext-dev libxss-dev fonts-dejavu-core
  # build: libpng, to read --icon PNG files
  libpng-dev
  # run time and tests: librsvg, loaded with dlopen to draw a theme's scalable SVG icons
  librsvg2-2
  # build: msgfmt and msgcmp (gettext), to check and compile the translations in Resources/po
  gettext
  # build: HarfBuzz (shaping) and FriBidi (bidirectional text)
  libharfbuzz-dev libfribidi-dev
  # build: toml++ (libtomlplusplus), which reads the config file in window-banner-config, and
  # the C++ standard library's headers its shim compiles against (g++ brings the distribution's
  # libstdc++ -dev package; a Swift toolchain's clang has none of its own)
  libtomlplusplus-dev g++
  # build: sd-bus's header (libsystemd), for `monitor --connectivity networkmanager`, finding
  # sessions and the accessibility bus (libsystemd0 itself is loaded at run time, on first use)
  libsystemd-dev
  # build: libcurl's headers, for `monitor --connectivity http` (libcurl4 itself is loaded at
  # run time, by the monitor only)
  libcurl4-openssl-dev
  # build: the call watcher's C shim: PipeWire's headers (libpipewire itself is loaded at run
  # time)
  libpipewire-0.3-dev
  # build: the Wayland backend (BannerWayland): libwayland-client, pixman's header (drawing into
  # shared-memory buffers; libpixman-1-0 is loaded at run time, on first use) and FreeType (glyph
  # bitmaps); wayland-scanner (libwayland-bin) and the
  # protocol XMLs, which scripts/wayland-glue.sh and its test turn into Sources/CWaylandProtocols
  # (wlr-layer-shell ships in Debian only inside librust-wayland-protocols-dev)
  libwayland-dev libwayland-bin libpixman-1-dev libfreetype-dev wayland-protocols librust-wayland-protocols-dev
  # build: SwiftPM's git, to fetch swift-argument-parser
  git ca-certificates
  # build: X-Resource's header, for the tests' X11 support module, which `swift build` builds too
  # (the tests count with it what the banner holds on the server after thousands of cycles)
  libxres-dev
)
demo=(
  # demo: a private X server and window manager when there is no display, a client window to
  # push down, a desktop colour (xsetroot), a real status bar (lemonbar) to sit under, screenshots
  # (ImageMagick, x11-utils), the Arabic and Japanese locales (localedef) and their fonts
  xvfb openbox xterm wmctrl xdotool imagemagick x11-utils x11-xserver-utils lemonbar locales fonts-noto-core fonts-droid-fallback
)
deb=(
  # make deb: dpkg-shlibdeps and dpkg-gencontrol (dpkg-dev), readelf and strip (binutils)
  dpkg-dev binutils
)
tests=(
  # tests: a private D-Bus daemon with a fake NetworkManager, and with a stand-in logind and
  # systemd user manager for finding sessions (python3-dbus on GLib's main loop), and python3's
  # http.server as the connectivity check's server
  dbus-daemon python3 python3-dbus python3-gi
  # tests: a private X server and real window managers, stacking and tiling (the matrix of
  # ReservationMatrixTests); network namespaces for rtnetlink
  xvfb openbox i3-wm awesome bspwm fluxbox herbstluftwm icewm jwm pekwm x11-xserver-utils iproute2
  # tests: the big desktops' stacking WMs with their panels (ReservationMatrixTests): Xfce's
  # xfwm4 + xfce4-panel, MATE's marco + mate-panel, GNOME's mutter and Cinnamon's muffin under
  # tint2 (their shells' panels are no separate programs); marco and muffin abort without their
  # settings daemons' GSettings schemas (mate-settings-daemon-common, cinnamon-settings-daemon).
  # KDE's kwin-x11 is left out: it pulls in 130 more packages than all of these together.
  xfwm4 xfce4-panel marco mate-panel mate-settings-daemon-common mutter muffin cinnamon-settings-daemon tint2
  # tests: GNOME Shell itself, whose top bar the compositor draws (no X11 window carries it:
  # GnomeShellTests runs `gnome-shell --x11` on Xvfb with private session and system buses)
  gnome-shell
  # tests: a real PipeWire, WirePlumber and PulseAudio server, pactl for a virtual microphone
  # and pw-record as the calling app (PipeWireWatchTests); a camera: SPA's videotestsrc as a
  # Video/Source node (libspa-0.2-modules) watched by GStreamer's pipewiresrc as the viewer
  pipewire pipewire-bin wireplumber pipewire-pulse pulseaudio-utils
  libspa-0.2-modules gstreamer1.0-tools gstreamer1.0-pipewire
  # tests: screen sharing on GNOME (GnomeScreenCastTests): the sharing app asks Mutter's
  # ScreenCast over D-Bus (python3-dbus) and reads the cast through videoconvert (plugins-base)
  python3-dbus gstreamer1.0-plugins-base
  # tests: gjs loads the GNOME Shell extension's 45+ variant (GnomeShellExtensionTests), which no
  # shell here runs; python3-gi's GdkPixbuf reads the shell's PNG screenshots
  gjs gir1.2-gdkpixbuf-2.0
  # tests: the newer GNOME Shells (Debian 13's 48, Debian unstable's newest) run from chroots
  # that scripts/debian-chroot.sh builds with mmdebstrap from the mirror apt uses here
  mmdebstrap
  # tests: real screen lockers and savers (ScreenLockTests: i3lock's window at the root,
  # xsecurelock's in the compositing overlay, xscreensaver blanking), a real compositing manager
  # (CompositorTests)
  i3lock xsecurelock xscreensaver picom
  # tests: a real XSETTINGS manager whose values change on SIGHUP (XSettingsTests)
  xsettingsd
  # tests: conky drawing the desktop in a full-screen override-redirect window under the clients,
  # which is no locker (ScreenLockTests)
  conky-std
  # tests: glibc's locale sources, so the translation tests can generate (localedef) the locales
  # they run under in a directory of their own
  locales
  # tests: fallback fonts for CJK and for emoji/symbols (monochrome), which DejaVu lacks; Noto
  # for Arabic, Hebrew, Devanagari, Bengali, Tamil and Thai, and Noto Color Emoji (CBDT bitmaps)
  fonts-droid-fallback fonts-symbola fonts-noto-core fonts-noto-color-emoji
  # tests: HarfBuzz's own hb-shape and hb-view, and FriBidi's fribidi, the oracles for shaped
  # and reordered text
  libharfbuzz-bin libfribidi-bin
  # tests: what the documentation's examples use (jq) and groff, which checks the manual page
  # made from docs/config.md
  jq groff-base
  # tests: real status bars that run `status --follow` the way bars do (StatusFollowTests)
  i3blocks polybar
  # tests: a self-signed certificate for the HTTP check's https:// test
  openssl
  # tests: a socket client run as another user (setpriv, from util-linux) to knock on the owner
  python3-minimal util-linux
  # tests: lintian on the package
  lintian
  # tests: xdotool clicks, scrolls and drags (XTEST), lemonbar as a real panel
  xdotool lemonbar
  # tests: Debian's sway on its headless backend, and real Wayland clients beside the banner: a
  # terminal (foot) to push down, a status bar (waybar), screenshots (grim), a locker (swaylock);
  # cage, a compositor without layer-shell (it starts Xwayland, so xwayland too)
  sway foot grim waybar swaylock cage xwayland
  # tests: the desktop's preferences on Wayland (WaylandPreferencesTests): xdg-desktop-portal and
  # its GTK backend, which relays GSettings, on sway's session bus; dconf behind GSettings, and
  # gsettings (libglib2.0-bin) to change them as a desktop's control panel does
  xdg-desktop-portal xdg-desktop-portal-gtk dconf-gsettings-backend libglib2.0-bin
  # tests: KDE's fake-input protocol (plasma-wayland-protocols), whose glue the tests' pointer
  # on KWin uses (scripts/wayland-glue.sh; GlueTests regenerates it)
  plasma-wayland-protocols
  # tests: a real vertical panel (tint2 along the left or right edge, reserving it with a side
  # strut) for the banner to sit beside (SidePanelTests)
  tint2
  # tests: the accessibility stack a screen reader uses (AccessibilityTests): at-spi2-core's bus
  # launcher and registry on a private session bus (dbus-daemon), and GObject-introspection's
  # Atspi client library (gir1.2-atspi-2.0, python3-gi) as the listener nobody here wrote
  at-spi2-core gir1.2-atspi-2.0
  # tests: a virtual keyboard (wtype, zwp_virtual_keyboard_v1) that presses docs/accessibility.md's
  # sway keybindings in a real sway (SwayKeyboardBindingTests)
  wtype
  # tests: Xfce's settings daemon (xfce4-settings' xfsettingsd, whose shortcuts helper grabs the
  # keys of docs/accessibility.md's xfconf-query lines) and xfconf (xfconfd, xfconf-query)
  # (XfceKeyboardBindingTests)
  xfce4-settings xfconf
  # tests: Ansible runs packaging/ansible's collection against two sshd hosts on 127.0.0.1 (FleetTests)
  ansible-core openssh-server openssh-client
)
packages=("${build[@]}" "${demo[@]}" "${deb[@]}")
$only_build || packages+=("${tests[@]}")
# More packages may be named on the command line (bench/install-deps.sh names the benchmark's).
packages+=("$@")

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# Swift: the one on PATH, else Debian's own (swiftlang, 6.0.3 on Debian 13), else a pointer to
# swift.org's. The package lists are read fresh first: a new machine's may be empty.
if ! command -v swift >/dev/null 2>&1; then
  $sudo apt-get update -qq
  # (sed reads all of apt-cache's answer: `grep -q` would stop early, and under pipefail the
  # SIGPIPE apt-cache then gets would read as "no candidate".)
  candidate=$(apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
    packages+=(swiftlang)
  else
    echo "install-deps: swift not found, and apt offers no swiftlang here (Debian 13 and later do); install Swift 6.0 or later from https://www.swift.org/install/linux/" >&2
    exit 69
  fi
fi

missing=()
for package in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
