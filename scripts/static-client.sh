#!/bin/sh
# static-client.sh [SWIFT] — prints 1 when SWIFT's toolchain (default: swift on PATH) can link
# `window-banner` as a fully static executable, else 0. Package.swift reads the answer from
# WINDOW_BANNER_STATIC_CLIENT (the Makefile sets it): with 0, `window-banner` links glibc
# dynamically, like the other two binaries. Debian 13's swiftlang (6.0.3) is why: its
# static-executable-args.lnk still names the ICU archives of older toolchains, which it does not
# ship, so every static executable fails to link (docs/install.md).
swift=$(command -v "${1:-swift}") || { echo 1; exit 0; }
dir=$(dirname "$(realpath "$swift")")/../lib/swift_static/linux
[ -r "$dir/static-executable-args.lnk" ] || { echo 0; exit 0; }
for library in $(sed -n 's/^-l\(.*swift\)$/\1/p' "$dir/static-executable-args.lnk"); do
    [ -e "$dir/lib$library.a" ] || { echo 0; exit 0; }
done
echo 1
