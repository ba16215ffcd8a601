#!/bin/sh
# build-deb.sh WORK OUTDIR — turns the tree `make install DESTDIR=WORK/debian/window-banner
# PREFIX=/usr …` left into OUTDIR/window-banner_VERSION_ARCH.deb; `make deb` runs it (see
# docs/packaging.md).
#
# WORK is laid out the way Debian's tools expect a source tree to be (debian/control,
# debian/changelog, debian/PACKAGE/), so dpkg-shlibdeps computes Depends from the binaries'
# own ELF dependencies and dpkg-gencontrol writes DEBIAN/control with them and the
# installed size. This script adds what only a package has — the NetworkManager dispatcher
# script where NetworkManager reads packaged ones, the copyright file, the changelog,
# compressed man pages, md5sums — and builds with root as the owner of every file
# (dpkg-deb --root-owner-group: no fakeroot). VERSION is what the staged `window-banner
# --version` prints; ARCH is `dpkg --print-architecture`.
set -eu

[ $# -eq 2 ] || { echo "usage: build-deb.sh WORK OUTDIR" >&2; exit 64; }
work=$1
outdir=$2
package=window-banner
root=$work/debian/$package
here=$(cd "$(dirname "$0")" && pwd)
source=$(cd "$here/../.." && pwd)

[ -x "$root/usr/bin/window-banner" ] || {
    echo "build-deb.sh: no $root/usr/bin/window-banner (run make install DESTDIR=$root PREFIX=/usr first)" >&2
    exit 66
}
version=$("$root/usr/bin/window-banner" --version)
case $version in
    [0-9]*) ;;
    *) echo "build-deb.sh: window-banner --version printed '$version', not a version" >&2; exit 65 ;;
esac
arch=$(dpkg --print-architecture)

# Timestamps from the last commit, so two builds of one commit give the same package.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$source" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH
origin=$(git -C "$source" describe --always --dirty 2>/dev/null | sed "s/^/at commit /" || true)

# NetworkManager-dispatcher runs root-owned, not group/other-writable scripts from
# /etc/NetworkManager/dispatcher.d and, for packaged ones, /usr/lib/NetworkManager/dispatcher.d
# (a script of the same name in /etc takes precedence; a link to /dev/null there disables it).
install -Dm755 "$source/Resources/networkmanager/90-window-banner" "$root/usr/lib/NetworkManager/dispatcher.d/90-window-banner"

doc=$root/usr/share/doc/$package
install -Dm644 "$here/copyright" "$doc/copyright"
maintainer=$(sed -n 's/^Maintainer: //p' "$here/control")
cp "$here/control" "$work/debian/control"
# A native package (no Debian revision): its changelog is changelog.gz.
cat > "$work/debian/changelog" <<EOF
$package ($version) unstable; urgency=medium

  * Built by \`make deb\` from the WindowBanner sources${origin:+ $origin}.

 -- $maintainer  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF
gzip -9n < "$work/debian/changelog" > "$doc/changelog.gz"

# Only what the loader needs in the programs (the comment and note sections are for nobody).
strip --remove-section=.comment --remove-section=.note "$root"/usr/bin/*
# Completion scripts are sourced, not run: no #! line.
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/window-banner"
install -Dm644 "$here/window-banner.lintian-overrides" "$root/usr/share/lintian/overrides/$package"

# Man pages compressed, a blank line written as the request it means (man --warnings flags a
# bare one); window-banner-full runs the commands window-banner(1) describes.
find "$root/usr/share/man" -type f ! -name '*.gz' -exec sed -i 's/^$/.sp/' {} +
find "$root/usr/share/man" -type f ! -name '*.gz' -exec gzip -9nf {} +
ln -sf window-banner.1.gz "$root/usr/share/man/man1/window-banner-full.1.gz"
# (and /usr/bin/window-banner-x11, its name until issue 33, a link to it made by make install)
ln -sf window-banner.1.gz "$root/usr/share/man/man1/window-banner-x11.1.gz"

# Plain modes whatever the umask was: directories and programs 755, the rest 644.
find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -exec chmod 644 {} +
chmod 755 "$root"/usr/bin/* "$root/usr/lib/NetworkManager/dispatcher.d/90-window-banner"

rm -rf "$root/DEBIAN"
mkdir -p "$root/DEBIAN"
(
    cd "$work"
    rm -f debian/substvars debian/files
    # Every shared library the programs link (and the lowest version with the symbols they
    # use, from the libraries' symbols files) becomes ${shlibs:Depends}; window-banner itself is
    # fully static and needs none.
    set --
    for program in debian/$package/usr/bin/*; do
        if readelf -d "$program" | grep -q '(NEEDED)'; then set -- "$@" -e"$program"; fi
    done
    dpkg-shlibdeps -Tdebian/substvars "$@"
    dpkg-gencontrol -p"$package" -P"debian/$package" -Tdebian/substvars
)
# What lies under /etc (the notices' XDG autostart entry) is the administrator's to change or
# disable: conffiles, which md5sums leaves out as dh_md5sums does.
(cd "$root" && find etc -type f -printf '/%p\n' | LC_ALL=C sort) > "$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums" "$root/DEBIAN/conffiles"
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$outdir"
deb=$outdir/${package}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb"
