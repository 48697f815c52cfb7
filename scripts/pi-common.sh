# Shared by install-pi.sh and uninstall-pi.sh (sourced, not run): how a step is shown, run,
# dry-run, or kept out of a scratch root. Needs DRY_RUN (0 or 1) and ROOT ("" or a folder).
# shellcheck shell=bash

# Print a command; run it unless --dry-run.
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    ((DRY_RUN)) || "$@"
}

# A command that changes the live system: not run with --root (the scratch root is not a system).
system() {
    if [[ -n $ROOT ]]; then
        printf 'skipped (--root):'
        printf ' %q' "$@"
        printf '\n'
    else
        run "$@"
    fi
}

# The path as seen from this machine: under --root, inside the scratch root.
at() {
    printf '%s%s' "$ROOT" "$1"
}
