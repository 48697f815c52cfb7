#!/usr/bin/env bash
# Install Duel Companion on Raspberry Pi OS Bookworm (64-bit) as a service that starts at boot.
#
#   sudo scripts/install-pi.sh              from a checkout of the repository
#   sudo scripts/install-pi.sh --dry-run    print every command and file, change nothing
#   scripts/install-pi.sh --root DIR        write the files under DIR (a scratch root); system
#                                           commands (apt, users, raspi-config, systemctl) are
#                                           printed, not run
#
# What it does, in order (each step is safe to repeat):
#   1. apt: python3-venv, python3-picamera2 (the CSI camera works only through Picamera2),
#      python3-lgpio (GPIO on the Pi 5), i2c-tools, libzbar0, gcc and python3-dev (pip
#      compiles the rules engine with mypyc: about 3 times faster than pure Python).
#   2. Enables I2C (raspi-config nonint) and camera auto-detection (config.txt) if needed.
#   3. Creates the system user `duel` (groups gpio, i2c, video).
#   4. Creates /opt/duel-companion/venv with --system-site-packages, so that Debian's
#      Picamera2 is importable, and pip-installs the package with the `pi` extra under
#      scripts/pi-constraints.txt (NumPy 1.x and OpenCV < 4.12, to match Debian's Picamera2).
#   5. Copies docs/duel-companion.example.toml to /etc/duel-companion/config.toml if absent,
#      and checks the configuration file.
#   6. Installs systemd/duel-companion.service, enables it and (re)starts it.
set -euo pipefail

PREFIX=/opt/duel-companion
VENV=$PREFIX/venv
CONFIG_DIR=/etc/duel-companion
UNIT_DIR=/etc/systemd/system
SERVICE=duel-companion
USER_NAME=duel
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio i2c-tools libzbar0
              gcc python3-dev)

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
SKIP_VENV=0
START=1
REBOOT_NEEDED=0

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<EOF
Options:
  --dry-run      print every command and file write, change nothing
  --root DIR     install files under DIR instead of /; skip system commands
  --source DIR   the repository checkout to install (default: $SOURCE)
  --skip-venv    do not create the venv or run pip (files and the unit only)
  --no-start     enable the service but do not start it now
  -h, --help     this text
EOF
}

die() {
    echo "install-pi: $*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root)
            [[ $# -ge 2 && -n $2 ]] || die "--root needs a folder"
            ROOT=$(realpath -m -- "$2")
            shift
            ;;
        --source)
            [[ $# -ge 2 && -d $2 ]] || die "--source needs the repository folder"
            SOURCE=$(cd "$2" && pwd)
            shift
            ;;
        --skip-venv) SKIP_VENV=1 ;;
        --no-start) START=0 ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

if [[ -z $ROOT ]] && ((!DRY_RUN)) && ((EUID != 0)); then
    die "run as root: sudo $0 (or --dry-run to see what it would do)"
fi
[[ -f $SOURCE/pyproject.toml && -f $SOURCE/systemd/$SERVICE.service ]] ||
    die "$SOURCE is not a Duel Companion checkout (no pyproject.toml or systemd unit)"

# shellcheck source=scripts/pi-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/pi-common.sh"

step() {
    printf '\n== %s\n' "$*"
}

step "Debian packages"
if [[ -z $ROOT ]] && ! command -v apt-get >/dev/null; then
    die "apt-get not found: this script is for Raspberry Pi OS (Debian Bookworm)"
fi
system apt-get update
system apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "I2C and camera"
if [[ -z $ROOT ]] && command -v raspi-config >/dev/null; then
    # raspi-config's get_i2c prints 0 when I2C is on.
    if [[ $(raspi-config nonint get_i2c) != 0 ]]; then
        system raspi-config nonint do_i2c 0
        REBOOT_NEEDED=1
    else
        echo "I2C is already on"
    fi
else
    system raspi-config nonint do_i2c 0
fi
# Bookworm finds the CSI camera by itself with camera_auto_detect=1 (the legacy camera stack and
# raspi-config's camera option are gone). Add the line only if the file turns it off or lacks it.
BOOT_CONFIG=$(at /boot/firmware/config.txt)
if [[ -f $BOOT_CONFIG ]]; then
    if grep -Eq '^[[:space:]]*camera_auto_detect=1' "$BOOT_CONFIG"; then
        echo "camera auto-detection is already on"
    else
        echo "+ append camera_auto_detect=1 to $BOOT_CONFIG"
        if ((!DRY_RUN)); then
            sed -i -E 's/^([[:space:]]*camera_auto_detect=0)/#\1/' "$BOOT_CONFIG"
            printf '\n# Duel Companion: find the CSI camera at boot\ncamera_auto_detect=1\n' \
                >>"$BOOT_CONFIG"
        fi
        REBOOT_NEEDED=1
    fi
else
    echo "no $BOOT_CONFIG: not a Raspberry Pi OS Bookworm boot partition, camera left as is"
fi

step "User $USER_NAME"
if [[ -z $ROOT ]] && id -u "$USER_NAME" >/dev/null 2>&1; then
    echo "user $USER_NAME exists"
else
    system useradd --system --user-group --home-dir /var/lib/$SERVICE --no-create-home \
        --shell /usr/sbin/nologin "$USER_NAME"
fi
for group in gpio i2c video; do
    if [[ -z $ROOT ]] && ! getent group "$group" >/dev/null; then
        # Raspberry Pi OS has them; elsewhere create them so the unit's groups resolve.
        system groupadd --system "$group"
    fi
    system usermod --append --groups "$group" "$USER_NAME"
done

step "Python environment in $VENV"
if ((SKIP_VENV)); then
    echo "skipped (--skip-venv)"
else
    # --system-site-packages: Picamera2 and libcamera come from Debian, not from PyPI.
    run python3 -m venv --system-site-packages "$(at "$VENV")"
    run "$(at "$VENV")/bin/pip" install --upgrade --quiet pip
    run "$(at "$VENV")/bin/pip" install --quiet \
        --constraint "$SOURCE/scripts/pi-constraints.txt" "${SOURCE}[pi]"
fi

step "Configuration and documentation"
run install -d -m 0755 "$(at "$CONFIG_DIR")" "$(at "$PREFIX/docs")"
if [[ -e $(at "$CONFIG_DIR/config.toml") ]]; then
    echo "keeping $CONFIG_DIR/config.toml"
else
    run install -m 0644 "$SOURCE/docs/duel-companion.example.toml" "$(at "$CONFIG_DIR/config.toml")"
fi
run install -m 0644 "$SOURCE/docs/raspberry-pi.md" "$SOURCE/docs/configuration.md" \
    "$SOURCE/docs/duel-companion.example.toml" "$(at "$PREFIX/docs")/"
if ((!SKIP_VENV)); then
    # A bad file stops here with the key and the reason, before the service is touched.
    run "$(at "$VENV")/bin/python" -m companion.config "$(at "$CONFIG_DIR/config.toml")"
fi

step "systemd service"
run install -d -m 0755 "$(at "$UNIT_DIR")"
run install -m 0644 "$SOURCE/systemd/$SERVICE.service" "$(at "$UNIT_DIR/$SERVICE.service")"
system systemctl daemon-reload
system systemctl enable "$SERVICE.service"
if ((START)); then
    system systemctl restart "$SERVICE.service"
fi

step "Done"
if ((REBOOT_NEEDED)); then
    echo "I2C or the camera was just turned on: reboot once (sudo reboot); the service starts then."
fi
echo "Status:  systemctl status $SERVICE      Log: journalctl -u $SERVICE -f"
echo "Scores:  http://$(hostname).local:8000/  (web.port in $CONFIG_DIR/config.toml)"
