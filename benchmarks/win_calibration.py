"""Win chances that mean what they say: fit the levels' maps from the search's raw estimate
to the chance of winning (companion/search/calibration.py) on training games, and measure
estimates against results on held-out games of other seeds.

Refit every level in one command (plays the training matches, then writes
companion/search/calibration_map.py; a refit needs no rebuild):

    .venv/bin/python benchmarks/win_calibration.py fit --seed 20000 --keep results/

or play the matches apart and fit from their files (`search_levels.py match` files: each
records every answer with a real choice as [level, raw estimate, result]):

    .venv/bin/python benchmarks/win_calibration.py play --seed 20000 --out-dir train/
    .venv/bin/python benchmarks/win_calibration.py fit train/*.json

Measure on matches of other seeds (never the games a map was fitted on), per level: the
answers per tenth of the estimate, their mean estimate, the share won (a shared victory
half), the gap, and the Brier score, before (raw) and after (the maps written):

    .venv/bin/python benchmarks/win_calibration.py play --seed 30000 --out-dir held/
    .venv/bin/python benchmarks/win_calibration.py measure held/*.json

Training and held-out sets are the same matches (`MATCHES`): each level against itself and
against its neighbours, so that a map learns from the mix of opponents a level meets.

Refit some levels only, from their own files, keeping the other levels' maps as they are
(`--levels`; `measure --levels` likewise reads only those levels' answers):

    .venv/bin/python benchmarks/win_calibration.py fit --levels 4 train-4-*.json
    .venv/bin/python benchmarks/win_calibration.py measure --levels 4 held-4-*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from search_levels import match

from companion.search import calibration_map
from companion.search.calibration import Knots, calibrated, fit

MATCHES: tuple[tuple[str, str, int], ...] = (
    ("1", "1", 2200),
    ("2", "2", 200),
    ("3", "3", 400),
    ("4", "4", 200),
    ("5", "5", 200),
    ("2", "1", 700),
    ("3", "2", 300),
    ("4", "3", 300),
    ("5", "4", 200),
)
"""The matches of a training or held-out set: A, B, games. The answers of one game share
its result, so a map needs many games, not only many answers: the cheap levels play more.
Level 4 costs about 4 times level 3's CPU a move and level 5 about 25 times, hence fewer
games: level 4 500 (with 330 a tenth's share won moved by up to 8 points between sets),
level 5 200 against level 4 and 200 against itself (about 12 s of CPU a game against
itself, 7 s against level 4: most of a set's CPU, about 1.5 hours of CPU a set on the
development machine). The sets as measured are in BENCHMARKS.md ("Win chances against
results"): levels 4 and 5 were refitted later than 1 to 3, on other seeds (level 5's games
against level 4 are the two halves of its Elo match; its games against itself were played
20 at a time, `search_levels.py match --games 20`, on seeds 10 apart)."""

MIN_ANSWERS = 100
MIN_SHARE = 0.01
"""Each point of a map pools at least MIN_SHARE of the level's answers, and at least
MIN_ANSWERS (the isotonic regression's blocks lighter than that are joined to a
neighbour): smaller pools follow the noise of the training games. Chosen on training games
only: level 1's maps fitted on seeds 20000 and tested on 21000, and the other way round,
had gaps of 5.6 and 6.4 points with pools of 100 answers, 4.4 and 6.0 with 1,000 (1 %)."""

MAP_FILE = Path(__file__).resolve().parent.parent / "companion" / "search" / "calibration_map.py"

MIN_JUDGED = 1000
"""A tenth is judged (its gap held to 5 points) only with at least this many answers: with
level 4, tenths of 600 to 2,000 answers from 330 games moved by up to 8 points from one set
to another."""

Answer = tuple[float, float, str | None]
"""An answer with a real choice: the raw estimate, the result (a shared victory half) and
the game it was given in ("file#number"; None in a file written before the matches numbered
their games)."""

Answers = dict[str, list[Answer]]


def play(seed: int, out_dir: Path, levels: set[str] | None = None) -> list[Path]:
    """Play `MATCHES` (those whose players are all in `levels`, when given) from `seed`,
    one file per match in `out_dir`; their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for a, b, games in MATCHES:
        if levels is not None and not {a, b} <= levels:
            continue
        path = out_dir / f"{seed}-{a}-{b}.json"
        path.write_text(json.dumps(match(a, b, games, seed)) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def answers(paths: Sequence[Path], levels: set[str] | None = None) -> Answers:
    """The answers of the match files, per level (of `levels` only, when given)."""
    found: Answers = {}
    for path in paths:
        played = json.loads(path.read_text(encoding="utf-8"))
        for name, raw, result, *game in played["calibration"]:
            if levels is None or str(name) in levels:
                key = f"{path}#{game[0]}" if game else None
                found.setdefault(str(name), []).append((float(raw), float(result), key))
    return found


def fitted_on(paths: Sequence[Path], pairs: Answers) -> dict[str, tuple[str, ...]]:
    """What each level's map is fitted on: its answers, then the matches of the files that
    hold them (players, games and seed)."""
    notes = {name: [f"{len(pairs[name])} answers"] for name in sorted(pairs)}
    for path in paths:
        played = json.loads(path.read_text(encoding="utf-8"))
        a, b, games, seed = played["a"], played["b"], played["games"], played["seed"]
        for name in sorted({str(name) for name, *_ in played["calibration"]} & set(pairs)):
            notes[name].append(f"{a} against {b}, {games} games (seed {seed})")
    return {name: tuple(note) for name, note in notes.items()}


def fitted(pairs: Answers, min_answers: int = MIN_ANSWERS) -> dict[str, Knots]:
    """A map per level, in level order (see MIN_SHARE)."""
    return {
        name: fit(
            [(raw, result) for raw, result, _ in pairs[name]],
            max(min_answers, MIN_SHARE * len(pairs[name])),
        )
        for name in sorted(pairs)
    }


def map_source(maps: dict[str, Knots], notes: dict[str, tuple[str, ...]]) -> str:
    """calibration_map.py holding `maps` and what each was fitted on, `notes` (formatted as
    ruff formats it)."""
    lines = [
        '"""The fitted maps of `calibration`, per level: written by benchmarks/win_calibration.py',
        "(never by hand; refit when a level's search changes). Data only: not compiled, so a refit",
        'takes effect without a rebuild."""',
        "",
        "from __future__ import annotations",
        "",
        "MAPS: dict[str, tuple[tuple[float, float], ...]] = {",
    ]
    for name, knots in maps.items():
        lines.append(f'    "{name}": (')
        lines += [f"        ({raw!r}, {chance!r})," for raw, chance in knots]
        lines.append("    ),")
    lines += ["}", "", "FITTED: dict[str, tuple[str, ...]] = {"]
    for name, note in notes.items():
        lines.append(f'    "{name}": (')
        lines += [f'        "{part}",' for part in note]
        lines.append("    ),")
    lines += ["}", '"""What each level\'s map was fitted on: its answers, then the matches."""']
    return "\n".join(lines) + "\n"


def games_and_margin(inside: Sequence[Answer]) -> tuple[str, str]:
    """How many games the answers come from, and the 95 % margin of their share won with the
    games as clusters (the answers of one game share its result, so they are not
    independent): 1.96 times the square root of the sum over games of the squared sum of
    (result - share won), over the number of answers. Both only when every answer's game
    is known ("?" otherwise)."""
    if not inside or any(game is None for _, _, game in inside):
        return "?", "?"
    won = sum(r for _, r, _ in inside) / len(inside)
    by_game: dict[str | None, float] = {}
    for _, result, game in inside:
        by_game[game] = by_game.get(game, 0.0) + result - won
    margin = 1.96 * sum(d * d for d in by_game.values()) ** 0.5 / len(inside)
    return str(len(by_game)), f"{margin * 100:.1f}"


def table(pairs: Sequence[Answer], knots: Knots = ()) -> tuple[str, float]:
    """The Markdown table of the estimates (mapped by `knots`) against the results, per
    tenth, and the Brier score."""
    mapped = [(calibrated(knots, raw), result, game) for raw, result, game in pairs]
    lines = [
        "| estimate | answers | games | mean estimate | won (a shared victory half) | gap "
        "| 95 % margin of won (points, games as clusters) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        inside = [a for a in mapped if low <= a[0] < high or (tenth == 9 and a[0] == 1.0)]
        if not inside:
            lines.append(f"| {low:.1f}-{high:.1f} | 0 | 0 | | | | |")
            continue
        estimate = sum(w for w, _, _ in inside) / len(inside)
        won = sum(r for _, r, _ in inside) / len(inside)
        games, margin = games_and_margin(inside)
        judged = "" if len(inside) >= MIN_JUDGED else " (too few to judge)"
        lines.append(
            f"| {low:.1f}-{high:.1f} | {len(inside)}{judged} | {games} | {estimate:.1%} | "
            f"{won:.1%} | {(won - estimate) * 100:+.1f} points | {margin} |"
        )
    return "\n".join(lines), brier([(w, r) for w, r, _ in mapped])


def brier(pairs: list[tuple[float, float]]) -> float:
    """The mean squared difference of estimate and result."""
    return sum((w - r) ** 2 for w, r in pairs) / len(pairs) if pairs else 0.0


def largest_gap(pairs: Sequence[Answer], knots: Knots = (), least: int = 1) -> float:
    """The largest gap (in points) between mean estimate and share won over the tenths that
    hold at least `least` answers."""
    gaps = []
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        inside = [
            (calibrated(knots, w), r)
            for w, r, _ in pairs
            if low <= calibrated(knots, w) < high or (tenth == 9 and calibrated(knots, w) == 1)
        ]
        if inside and len(inside) >= least:
            mean = sum(w for w, _ in inside) / len(inside)
            gaps.append(abs(sum(r for _, r in inside) / len(inside) - mean) * 100)
    return max(gaps, default=0.0)


def judged_gap(pairs: Sequence[Answer], knots: Knots = ()) -> str:
    """The largest gap over the judged tenths (`MIN_JUDGED`), or that none is judged."""
    judged = sum(
        1
        for tenth in range(10)
        if sum(1 for w, _, _ in pairs if tenth_of(calibrated(knots, w)) == tenth) >= MIN_JUDGED
    )
    if not judged:
        return "none judged"
    return f"{largest_gap(pairs, knots, MIN_JUDGED):.1f} ({judged} tenths judged)"


def tenth_of(chance: float) -> int:
    """The tenth a chance falls in, 0 to 9 (1.0 in the last), as `table` counts them."""
    return next((tenth for tenth in range(9) if chance < (tenth + 1) / 10), 9)


def measure(pairs: Answers, maps: dict[str, Knots]) -> str:
    """Per level (and all levels together), the tables before and after the maps."""
    out = []
    everything_raw: list[Answer] = []
    everything_mapped: list[Answer] = []
    for name in sorted(pairs):
        knots = maps.get(name, ())
        before, brier_before = table(pairs[name])
        after, brier_after = table(pairs[name], knots)
        everything_raw += pairs[name]
        everything_mapped += [(calibrated(knots, w), r, g) for w, r, g in pairs[name]]
        games, _ = games_and_margin(pairs[name])
        out += [
            f"### Level {name}: {len(pairs[name])} answers, {games} games",
            "",
            f"Brier {brier_before:.4f} raw, {brier_after:.4f} calibrated; largest gap "
            f"{largest_gap(pairs[name]):.1f} points raw, "
            f"{largest_gap(pairs[name], knots):.1f} calibrated; in a tenth of "
            f"{MIN_JUDGED} answers or more {judged_gap(pairs[name])} raw, "
            f"{judged_gap(pairs[name], knots)} calibrated",
            "",
            "Raw:",
            "",
            before,
            "",
            "Calibrated:",
            "",
            after,
            "",
        ]
    together, brier_together = table(everything_mapped)
    out += [
        f"### All levels, calibrated: {len(everything_mapped)} answers",
        "",
        f"Brier {brier([(w, r) for w, r, _ in everything_raw]):.4f} raw, "
        f"{brier_together:.4f} calibrated",
        "",
        together,
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parts = parser.add_subparsers(dest="part", required=True)
    one = parts.add_parser("play", help="play the matches of a set, one JSON file each")
    one.add_argument("--seed", type=int, required=True)
    one.add_argument("--out-dir", type=Path, required=True)
    one.add_argument("--levels", help="only matches between these levels, e.g. 1,2,3,4")
    two = parts.add_parser("fit", help="fit the maps and write calibration_map.py")
    two.add_argument("files", nargs="*", type=Path, help="match files (else play the set)")
    two.add_argument("--seed", type=int, default=20000, help="the set's seed when playing")
    two.add_argument("--keep", type=Path, help="where the played matches are kept")
    two.add_argument("--min-answers", type=int, default=MIN_ANSWERS)
    two.add_argument("--levels", help="refit only these levels (e.g. 4,5); keep the others")
    three = parts.add_parser("measure", help="estimates against results, before and after")
    three.add_argument("files", nargs="+", type=Path)
    three.add_argument("--levels", help="only these levels' answers, e.g. 4,5")
    args = parser.parse_args(argv)
    levels = set(args.levels.split(",")) if args.levels else None
    if args.part == "play":
        for path in play(args.seed, args.out_dir, levels):
            print(path)
        return 0
    if args.part == "fit":
        files = args.files or play(args.seed, args.keep or Path("calibration-training"))
        pairs = answers(files, levels)
        maps = dict(calibration_map.MAPS) if levels else {}
        notes = dict(calibration_map.FITTED) if levels else {}
        maps.update(fitted(pairs, args.min_answers))
        notes.update(fitted_on(files, pairs))
        text = map_source(dict(sorted(maps.items())), dict(sorted(notes.items())))
        MAP_FILE.write_text(text, encoding="utf-8")
        for name in sorted(pairs):
            print(f"wrote {MAP_FILE}: level {name}, {'; '.join(notes[name])}")
        return 0
    print(measure(answers(args.files, levels), dict(calibration_map.MAPS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
