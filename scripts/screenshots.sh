#!/usr/bin/env bash
# Make the README's pictures again, into docs/screenshots/: the OLED frames of the solo flow
# and of the coach (luma's dummy device, tests/device) and the phone pages (Playwright driving
# Debian's chromium, tests/web/test_web_browser.py). The tests that take them run with
# UPDATE_REFERENCE=1, which writes the pictures where the README finds them; without it they
# go to a temporary folder. Open every picture before committing it.
#
#   scripts/screenshots.sh
set -euo pipefail

cd "$(dirname "$0")/.."
UPDATE_REFERENCE=1 exec .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/device/test_device_solo_game.py \
    tests/device/test_device_solo_pantheon.py \
    tests/device/test_device_coach_at_table.py \
    tests/device/test_device_overhead_unclear.py \
    tests/vision/test_vision_reading_picture.py \
    tests/web/test_web_browser.py
