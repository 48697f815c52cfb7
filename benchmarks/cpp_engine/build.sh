#!/bin/sh
# Builds the driver of the open C++ engine (indjev99/7-Wonders-Duel-AI) from its sources.
#
#   benchmarks/cpp_engine/build.sh SRC_DIR OUT
#
# SRC_DIR is the root of the engine's source tree (the folder holding src/); OUT is the
# program to write. Only the engine's rules and agents are compiled (src/game, src/agents,
# src/utils/random.cpp, src/system/agent.cpp and listener.cpp), with driver.cpp, which
# replaces the engine's wall-clock Timer by one that counts iterations or CPU seconds:
# not its GUI, its pipes nor its main.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: $0 SRC_DIR OUT" >&2
    exit 2
fi
SRC=$1/src
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)

if [ ! -f "$SRC/agents/agent_mcts_blind_reveals.cpp" ]; then
    echo "$SRC does not hold the engine's sources (agents/agent_mcts_blind_reveals.cpp)" >&2
    exit 1
fi
if ! command -v g++ >/dev/null 2>&1; then
    echo "g++ is missing: sudo apt-get install build-essential" >&2
    exit 1
fi

mkdir -p "$(dirname "$OUT")"
# shellcheck disable=SC2046  # the file lists are split on purpose
g++ -std=c++17 -O2 -w -I "$SRC" -o "$OUT" \
    "$HERE/driver.cpp" \
    $(ls "$SRC"/game/*.cpp "$SRC"/agents/*.cpp) \
    "$SRC/utils/random.cpp" "$SRC/system/agent.cpp" "$SRC/system/listener.cpp"
echo "built $OUT" >&2
