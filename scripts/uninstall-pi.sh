#!/usr/bin/env bash
# Remove the Duel Companion service and its program from a Raspberry Pi.
#
#   sudo scripts/uninstall-pi.sh            stop and remove the service and /opt/duel-companion;
#                                           keep the games (/var/lib/duel-companion), the
#                                           configuration (/etc/duel-companion) and user `duel`
#   sudo scripts/uninstall-pi.sh --purge    also delete the games, the configuration and the user
#   scripts/uninstall-pi.sh --dry-run       print every command, change nothing
#   scripts/uninstall-pi.sh --root DIR      remove files under DIR (a scratch root); system
#                                           commands are printed, not run
#
# Debian packages, I2C and the camera setting are left as they are: other programs may use them.
set -euo pipefail

PREFIX=/opt/duel-companion
CONFIG_DIR=/etc/duel-companion
STATE_DIR=/var/lib/duel-companion
UNIT=/etc/systemd/system/duel-companion.service
SERVICE=duel-companion
USER_NAME=duel

ROOT=""
DRY_RUN=0
PURGE=0

die() {
    echo "uninstall-pi: $*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --root)
            [[ $# -ge 2 && -n $2 ]] || die "--root needs a folder"
            ROOT=$(realpath -m -- "$2")
            shift
            ;;
        -h | --help)
            sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

if [[ -z $ROOT ]] && ((!DRY_RUN)) && ((EUID != 0)); then
    die "run as root: sudo $0 (or --dry-run to see what it would do)"
fi

# shellcheck source=scripts/pi-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/pi-common.sh"

# Stopping a unit that is not there is not an error: uninstalling twice is fine.
system systemctl disable --now "$SERVICE.service" || true
run rm -f "$(at "$UNIT")"
system systemctl daemon-reload
system systemctl reset-failed "$SERVICE.service" || true
run rm -rf "$(at "$PREFIX")"
if ((PURGE)); then
    run rm -rf "$(at "$STATE_DIR")" "$(at "$CONFIG_DIR")"
    if [[ -n $ROOT ]] || id -u "$USER_NAME" >/dev/null 2>&1; then
        system userdel "$USER_NAME"
    fi
else
    echo "kept: games in $STATE_DIR, configuration in $CONFIG_DIR, user $USER_NAME (--purge removes them)"
fi
