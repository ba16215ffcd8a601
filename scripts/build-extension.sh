#!/bin/sh
# build-extension.sh OUTDIR [MAJOR] — builds the GNOME Shell extension from its one source
# (Resources/gnome-shell: banner-fields.js, remote-access.js, banner-service.js, then
# monitor-banner.js) for both kinds of shell:
#   OUTDIR/42/window-banner@window-banner/   GNOME 42–44: a legacy script (imports.*, init())
#   OUTDIR/45/window-banner@window-banner/   GNOME 45 and later: an ES module
# each with its metadata.json. The 45+ variant declares every released major from 45 to the
# newest (NEWEST below); MAJOR, when newer (the shell `make install` installs for), is declared
# too, so a shell released after this file still loads it. `make install` and the Debian
# package install the one that fits the shell they find; `make extension-zip` packs both for
# extensions.gnome.org (see docs/gnome.md).
set -eu
out=${1:?usage: build-extension.sh OUTDIR [MAJOR]}
extra=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
source=$here/Resources/gnome-shell
uuid=window-banner@window-banner
# The newest GNOME Shell released (Debian unstable's; the tests run it).
NEWEST=51

build() {
    kind=$1 versions=$2
    dir=$out/$kind/$uuid
    mkdir -p "$dir"
    cat "$source/header-$kind.js" "$source/banner-fields.js" "$source/remote-access.js" "$source/banner-service.js" "$source/monitor-banner.js" \
        "$source/footer-$kind.js" > "$dir/extension.js"
    sed -e "s/@UUID@/$uuid/" -e "s/@SHELL_VERSIONS@/$versions/" -e "s/@VERSION@/1/" "$source/metadata.json.in" > "$dir/metadata.json"
}

last=$NEWEST
case $extra in
    '' ) ;;
    *[!0-9]* ) echo "build-extension.sh: '$extra' is not a GNOME Shell major version" >&2; exit 64 ;;
    * ) [ "$extra" -gt "$last" ] && last=$extra ;;
esac
modern=$(seq 45 "$last" | sed 's/.*/"&"/' | paste -sd, - | sed 's/,/, /g')
build 42 '["42", "43", "44"]'
build 45 "[$modern]"
