#!/usr/bin/env bash
# Set up Duel Companion on a fresh Debian or Ubuntu machine (or a Raspberry Pi for development).
#
#   scripts/bootstrap.sh          system libraries + .venv with the companion
#   scripts/bootstrap.sh --test   the same, plus what the test suite needs (chromium, systemd)
#
# (--test adds chromium for the browser tests, systemd-analyze and shellcheck.)
# System packages are installed with apt-get only when missing, as root or through sudo.
# Safe to run again: it only adds what is missing.
set -euo pipefail

cd "$(dirname "$0")/.."
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

# The Python: $PYTHON when set; else the distribution's /usr/bin/python3 when it is 3.11 or
# newer (Debian and Raspberry Pi OS build it with profile-guided and link-time optimisation
# and link libpython into it: the compiled engine runs about 12 % fewer instructions per game
# there than on a Python built from source without --enable-optimizations, as pyenv builds
# by default; BENCHMARKS.md, "Engine"); else the first python3 on the PATH.
if [ -n "${PYTHON:-}" ]; then
    python=$PYTHON
elif [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python=/usr/bin/python3
else
    python=python3
fi

# Debian packages the companion needs, as "command-or-file:package". gcc and the Python
# headers compile the rules engine with mypyc (setup.py; without them it installs pure Python).
python_h="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h"
needs=("/usr/lib/$(uname -m)-linux-gnu/libzbar.so.0:libzbar0" "/usr/bin/gcc:gcc"
       "$python_h:python3-dev")
if [ "$want_test" = 1 ]; then
    needs+=("/usr/bin/chromium:chromium" "/usr/bin/systemd-analyze:systemd"
            "/usr/bin/shellcheck:shellcheck")
fi

missing=()
for need in "${needs[@]}"; do
    path=${need%%:*}
    package=${need##*:}
    [ -e "$path" ] || missing+=("$package")
done
# libzbar may live elsewhere on other distributions: ask the dynamic linker too.
if [[ " ${missing[*]-} " == *" libzbar0 "* ]] && ldconfig -p 2>/dev/null | grep -q libzbar.so.0; then
    missing=("${missing[@]/libzbar0}")
fi
# Debian's Python makes a virtualenv only with python3-venv (its ensurepip)
if [ ! -x .venv/bin/python ] && ! "$python" -c 'import ensurepip' 2>/dev/null; then
    missing+=("python3-venv")
fi
packages=$(printf '%s ' "${missing[@]-}" | xargs)

# apt-get "$@", tried again while another apt holds one of its locks (up to $apt_wait s)
apt_wait=${BOOTSTRAP_APT_WAIT:-600}
apt_retry() {
    local waited=0 output status
    while true; do
        output=$("${apt[@]}" "$@" 2>&1) && status=0 || status=$?
        if [ "$status" = 0 ]; then
            return 0
        fi
        if ! grep -qiE "could not get lock|unable to lock|unable to acquire" <<<"$output" \
            || [ "$waited" -ge "$apt_wait" ]; then
            printf '%s\n' "$output" >&2
            [ "$waited" -ge "$apt_wait" ] && echo "bootstrap: apt stayed busy for $waited s" >&2
            return "$status"
        fi
        if [ "$waited" = 0 ]; then
            echo "bootstrap: apt is busy (automatic updates?); waiting up to $apt_wait s" >&2
        fi
        sleep 10
        waited=$((waited + 10))
    done
}
if [ -n "$packages" ]; then
    if [ "$(id -u)" = 0 ]; then
        apt=(apt-get)
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        apt=(sudo apt-get)
    else
        echo "bootstrap: please install these Debian packages first: $packages" >&2
        exit 1
    fi
    # a fresh machine often runs its automatic updates first: wait for apt's locks (up to
    # 10 minutes) instead of failing with "Could not get lock". DPkg::Lock::Timeout waits
    # for dpkg's lock only; `apt-get update` takes the package lists' lock, so a refusal
    # naming a lock is tried again every 10 seconds.
    apt+=(-o DPkg::Lock::Timeout=600)
    export DEBIAN_FRONTEND=noninteractive
    echo "bootstrap: installing $packages"
    apt_retry update -qq
    read -ra package_list <<<"$packages"
    apt_retry install -y -qq "${package_list[@]}"
fi

if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
extras=""
[ "$want_test" = 1 ] && extras="[test]"
# Installed already for these build files and extras, with the engine built for its sources
# as they are (or the pure engine asked for): nothing to do. Else install, which compiles
# the engine again (a minute or two).
stamp_file=.venv/bootstrap-installed
stamp="$(cat pyproject.toml setup.py | sha256sum | cut -d" " -f1) extras=$extras"
stamp="$stamp pure=${DUEL_COMPANION_PURE_ENGINE:-}"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
    && .venv/bin/python -c 'import sys
from companion import engine_loader as loader
sys.exit(not (loader.pure_requested() or loader.compiled_is_current()))' 2>/dev/null; then
    echo "bootstrap: the companion is installed and current; nothing to do"
else
    rm -f "$stamp_file"
    pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
    "${pip[@]}" --upgrade pip
    # setuptools warns on every editable install that a folder named like the package may
    # shadow it (ten lines): the checkout is that folder, on purpose
    PYTHONWARNINGS="ignore:Editable installation" "${pip[@]}" -e ".${extras}"
    echo "$stamp" > "$stamp_file"
fi
engine=$(.venv/bin/python -c 'from companion.engine_loader import engine_is_compiled as c
print("compiled" if c() else "pure Python")')
echo "bootstrap: ready (.venv; rules engine: $engine)"
