#!/bin/sh
# build-extension.sh OUTDIR — builds the GNOME Shell extension from its one source
# (Resources/gnome-shell/banner-service.js) for both kinds of shell:
#   OUTDIR/42/window-banner@window-banner/   GNOME 42–44: a legacy script (imports.*, init())
#   OUTDIR/45/window-banner@window-banner/   GNOME 45 and later: an ES module
# each with its metadata.json. `make install` and the Debian package install the one that fits
# the shell they find (see docs/gnome.md).
set -eu
out=${1:?usage: build-extension.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
source=$here/Resources/gnome-shell
uuid=window-banner@window-banner

build() {
    kind=$1 versions=$2
    dir=$out/$kind/$uuid
    mkdir -p "$dir"
    cat "$source/header-$kind.js" "$source/banner-service.js" "$source/footer-$kind.js" > "$dir/extension.js"
    sed -e "s/@UUID@/$uuid/" -e "s/@SHELL_VERSIONS@/$versions/" -e "s/@VERSION@/1/" "$source/metadata.json.in" > "$dir/metadata.json"
}

build 42 '["42", "43", "44"]'
build 45 '["45", "46", "47", "48", "49"]'
