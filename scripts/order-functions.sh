#!/bin/sh
# Writes packaging/owner-functions.order: the functions the owner runs, for lld's
# --symbol-ordering-file (the Makefile's RELEASE flags), so that they sit side by side in the
# binary. The kernel maps a program's code 64 KiB at a time around each page it runs; spread over
# 10 MiB of code (the Swift runtime, its standard library, the argument parser and ours), the few
# hundred KiB a banner runs kept ~6 MiB of it resident. First the functions a running owner uses
# for banners (after its first one), then those of its start-up and first banner.
#
# Usage: scripts/order-functions.sh [RELEASE-BIN-DIR]   (needs valgrind, Xvfb and openbox)
# Run it after a change that moves much code in or out of those paths; names it no longer finds
# are ignored by the linker, so a stale list costs memory, never correctness.
set -eu
top="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$top/.build/release}"
work="$(mktemp -d)"
trap 'kill $(cat "$work/pids" 2>/dev/null) 2>/dev/null; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT INT TERM
# callgrind cannot read the debug information lld and swiftc write: symbols are enough.
cp "$bin/window-banner-full" "$work/owner"
strip --strip-debug "$work/owner"
display=:$(( 90 + $$ % 100 ))
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 & echo $! >> "$work/pids"
sleep 1
DISPLAY=$display openbox >/dev/null 2>&1 & echo $! >> "$work/pids"
mkdir -m 700 "$work/run"
export DISPLAY="$display" XDG_RUNTIME_DIR="$work/run"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.out" "$work/owner" daemon --display "$display" >"$work/owner.log" 2>&1 &
owner=$!
echo $owner >> "$work/pids"
client() { "$bin/window-banner" "$@" --owner-timeout 120; }
# Any client call before the owner listens would start an ordinary owner instead.
for _ in $(seq 120); do [ -S "$work/run/window-banner/display$display.sock" ] && break; sleep 1; done
client show --title "No Internet Connection" --compact never
sleep 5
callgrind_control -d "$owner" >/dev/null 2>&1      # cg.out.1: start-up and the first banner
for title in "No Internet Connection" "No Internet Connection 2" "لا يوجد اتصال بالإنترنت" "Call in progress 📞"; do
    client show --title "$title" --compact never; sleep 3
done
client show --title "Back Online" --icon "$top/Resources/icons/window-banner-online.png"; sleep 3
client show --title "Incoming call" --subtitle "Alice" --action Join --action Decline --close-button; sleep 3
client status >/dev/null
client show --title "Progress" --progress 0.5; sleep 2
client dismiss; sleep 4
client show --title "No Internet Connection" --compact auto; sleep 3
client dismiss; sleep 4
callgrind_control -d "$owner" >/dev/null 2>&1      # cg.out.2: banners of a running owner
client dismiss --all --quit >/dev/null
wait "$owner" || true
python3 - "$work" "$top/packaging/owner-functions.order" <<'PY'
import re, sys
work, out = sys.argv[1], sys.argv[2]
def functions(path):
    """Names of the functions of the program itself that ran, in callgrind's file."""
    objects, names, current, ran = {}, {}, None, []
    for line in open(path, errors="replace"):
        match = re.match(r"^(ob|fn|cob|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not match:
            continue
        kind, number, name = match.groups()
        table = objects if kind in ("ob", "cob") else names
        if name:
            table[number] = name
        if kind == "ob":
            current = objects.get(number, "")
        elif kind == "fn" and current.endswith("/owner") and not names[number].startswith("0x"):
            # callgrind marks recursion depth with 'N; an address is a function with no symbol.
            ran.append(re.sub(r"'\d+$", "", names[number]))
    return ran
order = []
for part in ("cg.out.2", "cg.out.1"):
    for name in sorted(set(functions(f"{work}/{part}"))):
        if name not in order:
            order.append(name)
open(out, "w").write("\n".join(order) + "\n")
print(f"{out}: {len(order)} functions")
PY
