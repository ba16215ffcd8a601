#!/bin/sh
# Runs a command under a banner that names it, and exits with the command's status:
#   with-banner.sh "Backing up…" rsync -a ~/ /mnt/backup/
# The banner reserves its space while the command runs and gives it back when it ends.
set -eu
title=${1:?usage: with-banner.sh TITLE COMMAND [ARGS...]}
shift
exec window-banner run --title "$title" --background systemOrange -- "$@"
