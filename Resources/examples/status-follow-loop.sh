#!/bin/sh
# A status line from a plain shell loop: one line per change of the banner, for a bar that reads
# lines from a pipe (lemonbar, dzen2, a dwm `xsetroot -name` loop) or for a log.
#   status-follow-loop.sh | lemonbar
# Prints "banner: TITLE (N queued)" while a banner is up and "no banner" when none is; with
# `status --follow --json` a script gets every field instead (see docs/status-bars.md).
set -eu
window-banner status --follow --format '{title}	{queue}' | while IFS='	' read -r title queue; do
    if [ -z "$title" ]; then
        echo "no banner"
    elif [ "${queue:-0}" -gt 0 ]; then
        echo "banner: $title ($queue queued)"
    else
        echo "banner: $title"
    fi
done
