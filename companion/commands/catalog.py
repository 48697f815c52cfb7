"""`duel-companion catalog`: the card catalog as a readable table, or as JSON.

The table lists the cards (filtered by age, colour), then the wonders and the progress
tokens when no filter is given; names are shown in the chosen language, falling back to
English. `--json` prints the whole catalog as one object (docs/catalog.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from companion.device.words import coins
from companion.engine.cards import (
    RESOURCES,
    Amounts,
    Card,
    Catalog,
    Color,
    Cost,
    Divinity,
    ProgressToken,
    Wonder,
)
from companion.engine.catalog import (
    EXPANSIONS,
    LANGUAGES,
    CatalogError,
    default_catalog,
    load_catalog,
)
from companion.engine.catalog_json import catalog_to_json
from companion.engine.plural import plural

HELP = "Print the card catalog: a table of cards, wonders and progress tokens, or --json."

AGES = ("1", "2", "3", "guild")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Filters for the table, --json, and the hidden --data folder (for tests)."""
    parser.add_argument(
        "--age",
        choices=AGES,
        help="only the cards of this age (3: the 20 Age III cards; guild: the 7 guilds)",
    )
    parser.add_argument(
        "--color", choices=[c.value for c in Color], help="only the cards of this colour"
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default="en",
        help="language of the names (default en; missing names fall back to English)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the whole catalog as one JSON object"
    )
    parser.add_argument(
        "--expansion",
        choices=EXPANSIONS,
        action="append",
        default=[],
        help="add an expansion's divinities, cards, wonders and tokens (pantheon)",
    )
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)


def main(args: argparse.Namespace) -> int:
    """Print the table or the JSON; exit 2 with the loader's message on bad card data."""
    if args.json and (args.age or args.color or args.language != "en"):
        _refuse("--json prints the whole catalog; --age, --color and --language are for the table")
        return 2
    try:
        expansions = tuple(dict.fromkeys(args.expansion))
        catalog = load_catalog(args.data, expansions) if args.data else default_catalog(expansions)
    except CatalogError as bad:
        _refuse(str(bad))
        return 2
    if args.json:
        json.dump(catalog_to_json(catalog), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_table(catalog, args.age, args.color, args.language))
    return 0


def _refuse(message: str) -> None:
    print(f"duel-companion catalog: {message}", file=sys.stderr)


def render_table(
    catalog: Catalog, age: str | None = None, color: str | None = None, language: str = "en"
) -> str:
    """The catalog as text tables: the chosen cards, then wonders and tokens if unfiltered."""
    cards = [c for c in catalog.cards if _chosen(c, age, color)]
    lines = [f"Cards ({len(cards)})"]
    lines += _table(
        ("ID", "NAME", "AGE", "COLOUR", "COST", "EFFECT"),
        [
            (
                c.id,
                catalog.name(c.id, language),
                "guild" if c.is_guild else "temple" if c.is_temple else str(c.age),
                c.color.value,
                _cost(c.cost),
                describe_card(c),
            )
            for c in cards
        ],
    )
    if age is None and color is None:
        lines += ["", f"Wonders ({len(catalog.wonders)})"]
        lines += _table(
            ("ID", "NAME", "COST", "EFFECT"),
            [
                (w.id, catalog.name(w.id, language), _cost(w.cost), describe_wonder(w))
                for w in catalog.wonders
            ],
        )
        lines += ["", f"Progress tokens ({len(catalog.progress_tokens)})"]
        lines += _table(
            ("ID", "NAME", "EFFECT"),
            [
                (t.id, catalog.name(t.id, language), describe_token(t))
                for t in catalog.progress_tokens
            ],
        )
        if catalog.pantheon is not None:
            divinities = catalog.pantheon.divinities
            lines += ["", f"Divinities ({len(divinities)})"]
            lines += _table(
                ("ID", "NAME", "MYTHOLOGY", "EFFECT"),
                [
                    (d.id, catalog.name(d.id, language), d.mythology, describe_divinity(d))
                    for d in divinities
                ],
            )
    return "\n".join(lines) + "\n"


def _chosen(card: Card, age: str | None, color: str | None) -> bool:
    if age == "guild" and not card.is_guild:
        return False
    if age in ("1", "2", "3") and (card.color is Color.PURPLE or str(card.age) != age):
        return False
    return color is None or card.color.value == color


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Left-aligned columns two spaces apart; the last column is not padded."""
    all_rows = [tuple(header), *(tuple(r) for r in rows)]
    widths = [max(len(r[i]) for r in all_rows) for i in range(len(header) - 1)]
    return [
        "  ".join([*(cell.ljust(w) for cell, w in zip(r, widths, strict=False)), r[-1]]).rstrip()
        for r in all_rows
    ]


def _units(values: Amounts) -> list[str]:
    return [f"{n} {r.value}" for r, n in zip(RESOURCES, values, strict=True) if n]


def _cost(cost: Cost) -> str:
    parts = ([coins(cost.coins)] if cost.coins else []) + _units(cost.resources)
    return ", ".join(parts) or "free"


def describe_card(card: Card) -> str:
    """What a card does, in a few words: production, VP, shields, science, coins, chains."""
    parts = [f"+{u}" for u in _units(card.produces)]
    if card.produces_one_of:
        parts.append("one of " + "/".join(r.value for r in card.produces_one_of))
    if card.fixed_price:
        bought = "/".join(r.value for r in RESOURCES if r in card.fixed_price)
        parts.append(f"buys {bought} at 1")
    if card.shields:
        parts.append(plural(card.shields, "shield"))
    if card.science:
        parts.append(f"science {card.science.value}")
    if card.points:
        parts.append(f"{card.points} VP")
    if card.coins:
        parts.append(coins(card.coins, signed=True))
    if card.coins_per:
        per = " + ".join(c.words for c in card.coins_per.counts)
        parts.append(f"{coins(card.coins_per.coins)} per {per}")
    if card.guild:
        parts.append(_guild(card))
    if card.chain_symbol:
        parts.append(f"gives {card.chain_symbol}")
    if card.chain_from:
        parts.append(f"free with {card.chain_from}")
    return "; ".join(parts)


def _guild(card: Card) -> str:
    rule = card.guild
    assert rule is not None
    counted = " + ".join(c.words for c in rule.counts)
    per = f"{rule.per} {counted}" if rule.per > 1 else counted
    gains = [coins(rule.coins)] if rule.coins else []
    gains.append(f"{rule.points} VP")
    return f"{' + '.join(gains)} per {per} (city with the most)"


def describe_wonder(wonder: Wonder) -> str:
    """What a wonder does, in a few words."""
    parts = []
    if wonder.coins:
        parts.append(coins(wonder.coins, signed=True))
    if wonder.opponent_loses:
        parts.append(f"opponent loses {coins(wonder.opponent_loses)}")
    if wonder.destroys:
        parts.append(f"destroys a {wonder.destroys.value} card")
    if wonder.produces_one_of:
        parts.append("one of " + "/".join(r.value for r in wonder.produces_one_of))
    if wonder.builds_from_discard:
        parts.append("builds a discarded card for free")
    if wonder.draws_tokens:
        parts.append(f"draws {wonder.draws_tokens} set-aside tokens, keeps {wonder.keeps_tokens}")
    if wonder.shields:
        parts.append(plural(wonder.shields, "shield"))
    if wonder.pantheon_discount:
        parts.append(f"activations cost {coins(wonder.pantheon_discount)} less")
    if wonder.activates_from_mythology_deck:
        parts.append("activates a divinity of a Mythology deck for free")
    if wonder.extra_turn:
        parts.append("extra turn")
    parts.append(f"{wonder.points} VP")
    return "; ".join(parts)


def describe_divinity(divinity: Divinity) -> str:
    """What activating a divinity does, in a few words."""
    parts = []
    if divinity.coins:
        parts.append(coins(divinity.coins, signed=True))
    if divinity.coins_on_card:
        parts.append(f"{coins(divinity.coins_on_card)} on the card, 1 VP each at the end")
    if divinity.points:
        parts.append(f"{divinity.points} VP")
    if divinity.shields:
        parts.append(plural(divinity.shields, "shield"))
    if divinity.science:
        parts.append(f"science {divinity.science.value}")
    if divinity.draws_tokens:
        parts.append(f"{divinity.draws_tokens} set-aside tokens, keeps {divinity.keeps_tokens}")
    flags = (
        (divinity.copies_opponent_science, "the Snake copies an opponent's science symbol"),
        (bool(divinity.steals), "takes an opponent's brown or grey card"),
        (divinity.builds_from_discard, "builds a discarded card for free"),
        (divinity.discards_from_structure, "discards a card of the structure"),
        (divinity.unbuilds_wonder, "unbuilds a built wonder"),
        (divinity.builds_wonder_from_discard, "builds a wonder free with a discarded card"),
        (divinity.steals_unbuilt_wonder, "takes an opponent's unbuilt wonder"),
        (divinity.places_minerva_pawn, "places the Minerva pawn"),
        (bool(divinity.discards_loot), "discards a loot token, applies another"),
    )
    parts += [words for flag, words in flags if flag]
    return "; ".join(parts)


def describe_token(token: ProgressToken) -> str:
    """What a progress token does, in a few words."""
    parts = []
    if token.coins:
        parts.append(coins(token.coins, signed=True))
    if token.science:
        parts.append(f"science {token.science.value}")
    if token.waives_on_wonders:
        parts.append(f"wonders cost {token.waives_on_wonders} fewer resources")
    if token.waives_on_blue:
        parts.append(f"blue cards cost {token.waives_on_blue} fewer resources")
    if token.receives_trade:
        parts.append("receives the opponent's trade coins")
    if token.points_per_token:
        parts.append(f"{token.points_per_token} VP per progress token")
    if token.extra_shields_on_red:
        parts.append(f"+{plural(token.extra_shields_on_red, 'shield')} on red cards")
    if token.wonders_extra_turn:
        parts.append("wonders give an extra turn")
    if token.coins_per_chain:
        parts.append(f"{coins(token.coins_per_chain, signed=True)} per chain build")
    if token.points_per_pantheon_token:
        parts.append(f"{token.points_per_pantheon_token} VP per Mythology and Offering token")
    if token.opponent_loses_per_space:
        parts.append(f"opponent loses {coins(token.opponent_loses_per_space)} per space moved")
    if token.chain_price:
        parts.append(f"cards with a chain symbol for {coins(token.chain_price)}")
    if token.points:
        parts.append(f"{token.points} VP")
    return "; ".join(parts)
