"""The cheapest legal payment for a card or a wonder: trade prices, choice production, waivers.

The pure core, `cheapest_purchase`, works on five-resource amounts only and is cached. The
adapters `unit_prices` and `cheapest_payment` read only the precomputed summaries of two
cities (`City`: produces, choices, fixed_price, chain_symbols, tokens) and add what the core
does not know: chains, printed coins, Masonry, Architecture and Economy. docs/pricing.md
explains the algorithm and why it is optimal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import (
    NO_RESOURCES,
    RESOURCE_INDEX,
    RESOURCES,
    Amounts,
    Card,
    Catalog,
    Color,
    Resource,
    Wonder,
)
from .state import City

BASE_PRICE: Final = 2
FIXED_PRICE: Final = 1

Choices = tuple[tuple[Resource, ...], ...]
"""One entry per choice producer: the resources it offers (one unit of one of them)."""


@dataclass(frozen=True, slots=True, init=False)
class Purchase:
    """The cheapest way to complete missing resources: what is chosen, waived and bought.

    `chosen` has one entry per choice producer, in the order given (None: not needed);
    `waived` and `bought` are units per resource; `coins` is what the bought units cost.
    """

    coins: int
    bought: Amounts
    waived: Amounts
    chosen: tuple[Resource | None, ...]

    def __init__(
        self, coins: int, bought: Amounts, waived: Amounts, chosen: tuple[Resource | None, ...]
    ) -> None:
        object.__setattr__(self, "coins", coins)
        object.__setattr__(self, "bought", bought)
        object.__setattr__(self, "waived", waived)
        object.__setattr__(self, "chosen", chosen)


@dataclass(frozen=True, slots=True, init=False)
class Payment:
    """How a player pays for a card or wonder, at the cheapest.

    `total` = `card_coins` (printed, always to the bank) + `trade` (coins for bought
    resources, after waivers). `to_opponent` is the part of `trade` that goes to the opponent
    through their Economy token (all of it or nothing). `bought` lists (resource, units, unit
    price) for each resource bought; `waived` the units Masonry or Architecture removes;
    `chosen` what each choice producer of the city provides (None: unused).

    Raises: ValueError when the parts do not add up.
    """

    total: int
    card_coins: int
    trade: int
    bought: tuple[tuple[Resource, int, int], ...]
    to_opponent: int
    chain: bool
    waived: tuple[Resource, ...]
    chosen: tuple[Resource | None, ...]

    def __init__(
        self,
        total: int,
        card_coins: int = 0,
        trade: int = 0,
        bought: tuple[tuple[Resource, int, int], ...] = (),
        to_opponent: int = 0,
        chain: bool = False,
        waived: tuple[Resource, ...] = (),
        chosen: tuple[Resource | None, ...] = (),
    ) -> None:
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "card_coins", card_coins)
        object.__setattr__(self, "trade", trade)
        object.__setattr__(self, "bought", bought)
        object.__setattr__(self, "to_opponent", to_opponent)
        object.__setattr__(self, "chain", chain)
        object.__setattr__(self, "waived", waived)
        object.__setattr__(self, "chosen", chosen)
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.total != self.card_coins + self.trade:
            raise ValueError(f"payment: total {self.total} is not card coins + trade")
        spent = 0
        for _, units, price in self.bought:
            spent += units * price
        if self.trade != spent:
            raise ValueError(f"payment: trade {self.trade} is not the sum of what is bought")
        if self.to_opponent not in (0, self.trade):
            raise ValueError("payment: the opponent gets all of the trade or nothing")
        if self.chain and self.total:
            raise ValueError("payment: a build through a chain is free")

    def affordable(self, coins: int) -> bool:
        """Whether a player holding `coins` can pay this."""
        return coins >= self.total


FREE_BY_CHAIN: Final = Payment(total=0, chain=True)


def unit_prices(city: City, opponent: City) -> Amounts:
    """Coins `city` pays the bank for one unit of each resource: 1 with a fixed price
    (Reserves, Customs House), else 2 + the units the opponent's brown and grey cards produce.

    Only `opponent.produces` counts: choice producers (yellow cards, wonders) never raise it.
    """
    w, c, s, g, p = opponent.produces
    fixed = city.fixed_price
    if not fixed:  # the common case, kept quick: pricing is on the hot path
        return (BASE_PRICE + w, BASE_PRICE + c, BASE_PRICE + s, BASE_PRICE + g, BASE_PRICE + p)
    return (
        FIXED_PRICE if Resource.WOOD in fixed else BASE_PRICE + w,
        FIXED_PRICE if Resource.CLAY in fixed else BASE_PRICE + c,
        FIXED_PRICE if Resource.STONE in fixed else BASE_PRICE + s,
        FIXED_PRICE if Resource.GLASS in fixed else BASE_PRICE + g,
        FIXED_PRICE if Resource.PAPYRUS in fixed else BASE_PRICE + p,
    )


def waivers_for(catalog: Catalog, city: City, target: Card | Wonder) -> int:
    """Resources of `target`'s cost that the city need not provide, by its progress tokens:
    Masonry's for a blue card, Architecture's for a wonder (2 each in the base game)."""
    if not city.tokens:
        return 0
    if isinstance(target, Wonder):
        return sum(catalog.token(t).waives_on_wonders for t in city.tokens)
    if target.color is Color.BLUE:
        return sum(catalog.token(t).waives_on_blue for t in city.tokens)
    return 0


def receives_trade(catalog: Catalog, city: City) -> bool:
    """Whether the city's tokens (Economy) send it the coins its opponent pays for trade."""
    return any(catalog.token(t).receives_trade for t in city.tokens)


def has_chain(city: City, target: Card | Wonder) -> bool:
    """Whether `target` is a card the city builds for free through a chain symbol it owns."""
    return (
        isinstance(target, Card)
        and target.chain_from is not None
        and target.chain_from in city.chain_symbols
    )


def cheapest_payment(
    catalog: Catalog, city: City, opponent: City, target: Card | Wonder
) -> Payment:
    """The cheapest legal way for `city` to pay for `target` (a card or one of its wonders).

    A card chained from a symbol the city owns is free. Otherwise the printed coins go to the
    bank, the missing resources are completed at best with choice production and waivers
    (Masonry, Architecture), and the rest is bought at `unit_prices`; when the opponent owns
    Economy, the coins for bought resources go to the opponent. The numbers of the tokens'
    rules come from `catalog`.

    Raises: KeyError for a token id that `catalog` does not know.
    """
    last = _LAST[0]  # one read: another thread may replace it meanwhile, never half of it
    if last[0] is city and last[1] is opponent and last[2] is target and last[3] is catalog:
        return last[4]  # the same question again (a caller checks, then the rules apply)
    if has_chain(city, target):
        payment = FREE_BY_CHAIN
    else:
        cost = target.cost
        missing = _missing(cost.resources, city.produces)
        if missing == NO_RESOURCES:  # nothing to buy: the printed coins only
            payment = _coins_only(cost.coins, len(city.choices))
        else:
            payment = _payment(
                cost.coins,
                missing,
                city.choices,
                _prices_of_missing(unit_prices(city, opponent), missing),
                waivers_for(catalog, city, target),
                bool(opponent.tokens) and receives_trade(catalog, opponent),
            )
    if (
        catalog.pantheon is not None  # Engineering: a Pantheon token
        and payment.total > 1
        and city.tokens
        and isinstance(target, Card)
        and target.chain_from is not None
    ):
        payment = _chain_priced(catalog, city, payment)
    _LAST[0] = (city, opponent, target, catalog, payment)
    return payment


def affordable(
    catalog: Catalog, city: City, opponent: City, target: Card | Wonder, coins: int
) -> bool:
    """Whether `coins` pay for `target` at `cheapest_payment`'s price, decided by bounds when
    they can (the playouts ask this of most cards they look at): the printed coins are a
    price's least, and buying every missing unit at its unit price (no choice producer, no
    waiver) its most. Only between the two is the cheapest payment worked out."""
    if catalog.pantheon is None and not has_chain(city, target):
        cost = target.cost
        if cost.coins > coins:
            return False
        mw, mc, ms, mg, mp = _missing(cost.resources, city.produces)
        pw, pc, ps, pg, pp = unit_prices(city, opponent)
        if cost.coins + mw * pw + mc * pc + ms * ps + mg * pg + mp * pp <= coins:
            return True
    return cheapest_payment(catalog, city, opponent, target).total <= coins


def _chain_priced(catalog: Catalog, city: City, payment: Payment) -> Payment:
    """Engineering (Pantheon): a card showing a chain symbol costs its token's price when
    that is cheaper (paid to the bank; not a chain, so Urbanism pays nothing)."""
    for token in city.tokens:
        price = catalog.token(token).chain_price
        if price and price < payment.total:
            return Payment(price, price, 0, (), 0, False, (), payment.chosen)
    return payment


_LAST: Final[list[tuple[object, object, object, object, Payment]]] = [
    (None, None, None, None, FREE_BY_CHAIN)
]
"""The last question and its answer, compared by identity (states are immutable)."""


def _prices_of_missing(prices: Amounts, missing: Amounts) -> Amounts:
    """The unit prices of the missing resources, 0 for the others (which nothing buys): one
    cache entry then serves every price of the resources the cost does not need."""
    pw, pc, ps, pg, pp = prices
    mw, mc, ms, mg, mp = missing
    return (pw if mw else 0, pc if mc else 0, ps if ms else 0, pg if mg else 0, pp if mp else 0)


def _coins_only(card_coins: int, producers: int) -> Payment:
    """The Payment of a cost that production covers: its printed coins (cached)."""
    key = (card_coins, producers)
    payment = _COINS_ONLY.get(key)
    if payment is None:
        payment = Payment(card_coins, card_coins, 0, (), 0, False, (), (None,) * producers)
        _COINS_ONLY[key] = payment
    return payment


_COINS_ONLY: Final[dict[tuple[int, int], Payment]] = {}
"""`_coins_only`'s answers (a few dozen: printed coins by number of choice producers)."""

PAYMENTS_KEPT: Final = 16384
"""At most this many answers of `_payment` are kept; the cache starts afresh when full."""

_PAYMENTS: Final[dict[Choices, dict[int, Payment]]] = {}
"""`_payment`'s answers, by the city's choice producers and then by `_question` of the other
arguments (plain dicts: read from compiled code, a fraction of an `lru_cache` call)."""

_KEPT: Final[list[int]] = [0]
"""How many answers `_PAYMENTS` holds."""

QUESTION_BITS: Final = 5
"""Bits per number in `_question`: coins, units and prices below 32 (the game's are below 12),
checked as `< 32` there."""


def _question(card_coins: int, missing: Amounts, prices: Amounts, waivers: int) -> int:
    """The numbers of a pricing question packed into one int (one bit-field each; one more
    bit is left for Economy), or -1 when one of them does not fit its field (never in the
    game; then the question is answered without the cache)."""
    mw, mc, ms, mg, mp = missing
    pw, pc, ps, pg, pp = prices
    # every number is at least 0 and below 32 exactly when their bitwise or is
    if not 0 <= card_coins | mw | mc | ms | mg | mp | pw | pc | ps | pg | pp | waivers < 32:
        return -1
    b = QUESTION_BITS
    key = ((((card_coins << b | mw) << b | mc) << b | ms) << b | mg) << b | mp
    key = ((((key << b | pw) << b | pc) << b | ps) << b | pg) << b | pp
    return key << b | waivers


def _payment(
    card_coins: int,
    missing: Amounts,
    choices: Choices,
    prices: Amounts,
    waivers: int,
    economy: bool,
) -> Payment:
    """The Payment for the resources production does not cover (cached: the same questions
    recur all game, and one cache lookup is all a repeated question costs)."""
    question = _question(card_coins, missing, prices, waivers)
    key = question << 1 | economy
    answers = _PAYMENTS.get(choices)
    if answers is not None and question >= 0:
        known = answers.get(key)
        if known is not None:
            return known
    purchase = _solve(missing, choices, prices, waivers)
    bought = tuple([(RESOURCES[i], n, prices[i]) for i, n in enumerate(purchase.bought) if n])
    waived = tuple([RESOURCES[i] for i, n in enumerate(purchase.waived) for _ in range(n)])
    payment = Payment(  # every field, in declaration order
        card_coins + purchase.coins,
        card_coins,
        purchase.coins,
        bought,
        purchase.coins if economy else 0,
        False,
        waived,
        purchase.chosen,
    )
    if question < 0:
        return payment
    if _KEPT[0] >= PAYMENTS_KEPT:
        _PAYMENTS.clear()
        _KEPT[0] = 0
        answers = None
    if answers is None:
        answers = _PAYMENTS.setdefault(choices, {})
    answers[key] = payment
    _KEPT[0] += 1
    return payment


def clear_caches() -> None:
    """Empty the pricing caches (the benchmarks measure the uncached path with it)."""
    for cached in (_cheapest_cached, _offering, _by_price):
        cached.cache_clear()
    _PAYMENTS.clear()
    _KEPT[0] = 0
    _COINS_ONLY.clear()
    _LAST[0] = (None, None, None, None, FREE_BY_CHAIN)


def cheapest_purchase(
    need: Amounts, produces: Amounts, choices: Choices, prices: Amounts, waivers: int = 0
) -> Purchase:
    """The cheapest way to obtain `need` given fixed production, choice producers (one unit
    of one of their resources each), unit prices and a number of waived units.

    Exact: see docs/pricing.md (a greedy by price on a matroid). Raises: ValueError for a
    negative number of waivers.
    """
    if waivers < 0:
        raise ValueError(f"waivers: must not be negative, got {waivers}")
    return _cheapest_cached(_missing(need, produces), choices, prices, waivers)


def _missing(need: Amounts, produces: Amounts) -> Amounts:
    """Units of `need` that fixed production does not give."""
    nw, nc, ns, ng, np_ = need
    pw, pc, ps, pg, pp = produces
    return (
        nw - pw if nw > pw else 0,
        nc - pc if nc > pc else 0,
        ns - ps if ns > ps else 0,
        ng - pg if ng > pg else 0,
        np_ - pp if np_ > pp else 0,
    )


def _solve(missing: Amounts, choices: Choices, prices: Amounts, waivers: int) -> Purchase:
    """Cover the most expensive missing units first: by a choice producer if an augmenting
    path frees one for it, else by a waiver if one is left, else never (it is bought)."""
    if missing == NO_RESOURCES:
        return Purchase(0, NO_RESOURCES, NO_RESOURCES, (None,) * len(choices))
    offering = _offering(choices)
    holder: list[int | None] = [None] * len(choices)  # producer -> resource index it covers
    bought = list(missing)
    waived = [0, 0, 0, 0, 0]
    waivers_left = waivers
    # Units of one resource are alike, so take resources by price, highest first; once a
    # unit can be neither covered nor waived, no later unit of that resource can be either.
    for r in _by_price(prices):
        for _ in range(missing[r]):
            if offering[r] and _augment(r, offering, holder, [False] * len(holder)):
                bought[r] -= 1
            elif waivers_left:
                waivers_left -= 1
                waived[r] += 1
                bought[r] -= 1
            else:
                break
    bw, bc, bs, bg, bp = bought
    ww, wc, ws, wg, wp = waived
    pw, pc, ps, pg, pp = prices
    coins = bw * pw + bc * pc + bs * ps + bg * pg + bp * pp
    chosen = tuple([None if i is None else RESOURCES[i] for i in holder])
    return Purchase(coins, (bw, bc, bs, bg, bp), (ww, wc, ws, wg, wp), chosen)


_cheapest_cached = lru_cache(maxsize=16384)(_solve)


@lru_cache(maxsize=256)
def _offering(choices: Choices) -> tuple[tuple[int, ...], ...]:
    """For each resource (by index), the producers that offer it."""
    offering: list[list[int]] = [[], [], [], [], []]
    for k, options in enumerate(choices):
        for resource in options:
            offering[RESOURCE_INDEX[resource]].append(k)
    w, c, s, g, p = offering
    return (tuple(w), tuple(c), tuple(s), tuple(g), tuple(p))


@lru_cache(maxsize=1024)
def _by_price(prices: Amounts) -> tuple[int, ...]:
    """Resource indices, dearest first; ties keep the order of `RESOURCES`."""
    return tuple(sorted(range(5), key=prices.__getitem__, reverse=True))


def _augment(
    r: int, offering: tuple[tuple[int, ...], ...], holder: list[int | None], seen: list[bool]
) -> bool:
    """Find a producer for one more unit of resource `r`, moving others along an augmenting
    path (Kuhn's algorithm); update `holder` and return True if one is found."""
    for k in offering[r]:
        if seen[k]:
            continue
        seen[k] = True
        current = holder[k]
        if current is None or _augment(current, offering, holder, seen):
            holder[k] = r
            return True
    return False
