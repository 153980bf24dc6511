#!/bin/sh
# ensure-deps.sh CHECK_PATH PACKAGE... -- install Debian packages when CHECK_PATH is missing.
# Used by the Makefile so a fresh machine needs no manual set-up.
set -e
check="$1"; shift
[ -e "$check" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-deps: $check is missing and apt-get is not available; install: $*" >&2
    exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
echo "ensure-deps: installing $* (for $check)" >&2
# a fresh machine has no package lists yet: update once, then install
if ! $SUDO apt-get install -y -qq "$@" >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq "$@" >/dev/null
fi
[ -e "$check" ] || { echo "ensure-deps: $check still missing after installing $*" >&2; exit 1; }
