"""Exact odds of Schocken throws, by enumerating every dice outcome (no sampling).

Two questions, each per rule set, answered with ``fractions.Fraction``:

- One attempt: three dice rolled once (a natural throw). Schock-Aus is exactly 1/216.
- A full turn of up to three attempts played by the plain strategy of the simulator
  (``games.rules.simulator``): a player alone, i.e. the Vorleger, who keeps ones, takes
  Umwandlung on two sixes when going on, obeys the Muss-Regel when it applies, and stands
  on a Straße or better, or from the second attempt on a Hausnummer of 600 or more.

Every distribution is a dict ordered best to worst (section 1 rank, then the tie-breaks of
section 2), and its values sum to exactly 1. The odds follow every flag of the rule set:
evaluation (Jule, collected Straße / General counting, ``deckel_total``, the rankings) comes
from ``evaluate``, and the turn from the strategy tables (no Umwandlung where
``umwandlung`` is off, the Vorleger standing on whatever the rule set counts). The page
"Wahrscheinlichkeiten" shows them; ``expected_schock_aus`` gives the members' statistics
the Schock-Aus expected from the number of turns played.

How: the turn is a Markov chain over (attempt, ones laid out); the distribution from each
of its at most nine states is computed once and combined, so a full turn costs a few
thousand table look-ups. Results are cached per rule set and arguments.

Standard library only (docs/rules.md section 7).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from .ruleset import PRESETS, RuleSet
from .simulator import _BASE, _SIZE, strategy_tables, vorleger_goes_on
from .throws import Category, Evaluation, Throw, evaluate, rank, round_key

__all__ = [
    "OddsRow",
    "attempt_category_odds",
    "attempt_odds",
    "expected_schock_aus",
    "odds_rows",
    "turn_attempts_odds",
    "turn_category_odds",
    "turn_odds",
    "turn_schock_aus_probability",
    "turn_throw_odds",
]

_CLUB = PRESETS["club"]


def _label_order(throws: list[Throw], rules: RuleSet) -> dict[str, tuple[int, int]]:
    """Sort key per label: its best throw's rank, then its value (unranked Generals)."""
    keys: dict[str, tuple[int, int]] = {}
    for throw in throws:
        evaluation = evaluate(throw, rules)
        key = (rank(throw, rules), evaluation.value)
        label = evaluation.label
        if label not in keys or key > keys[label]:
            keys[label] = key
    return keys


def _by_label(dist: dict[Throw, Fraction], rules: RuleSet) -> dict[str, Fraction]:
    totals: dict[str, Fraction] = {}
    for throw, p in dist.items():
        label = evaluate(throw, rules).label
        totals[label] = totals.get(label, Fraction(0)) + p
    order = _label_order(list(dist), rules)
    ordered = sorted(totals, key=lambda label: order[label], reverse=True)
    return {label: totals[label] for label in ordered}


def _by_category(dist: dict[Throw, Fraction], rules: RuleSet) -> dict[Category, Fraction]:
    totals = dict.fromkeys(Category, Fraction(0))
    for throw, p in dist.items():
        totals[evaluate(throw, rules).category] += p
    return totals


@cache
def _attempt_dist(rules: RuleSet) -> dict[Throw, Fraction]:
    counts: Counter[Throw] = Counter(Throw(dice) for dice in product(range(1, 7), repeat=3))
    ordered = sorted(counts, key=lambda t: round_key(t, 0, rules), reverse=True)
    return {throw: Fraction(counts[throw], 216) for throw in ordered}


def attempt_odds(rules: RuleSet = _CLUB) -> dict[str, Fraction]:
    """Probability of each throw (German label) when three dice are rolled once.

    Returns ``{label: Fraction}`` ordered best to worst, summing to 1; e.g.
    ``attempt_odds()["Schock-Aus"] == Fraction(1, 216)``. Every throw is natural, so
    Generals and Straßen count (docs/rules.md section 1).
    """
    return _by_label(_attempt_dist(rules), rules)


def attempt_category_odds(rules: RuleSet = _CLUB) -> dict[Category, Fraction]:
    """Probability of each ``Category`` for three dice rolled once, in ``Category`` order
    (Schock-Aus first); every category present, summing to 1."""
    return _by_category(_attempt_dist(rules), rules)


def _cap(rules: RuleSet, max_attempts: int | None) -> int:
    if max_attempts is None:
        return rules.max_attempts
    if not isinstance(max_attempts, int) or not 1 <= max_attempts <= 3:
        raise ValueError(f"max_attempts must be 1, 2 or 3, not {max_attempts!r}")
    return min(max_attempts, rules.max_attempts)


@cache
def _turn_dist(rules: RuleSet, cap: int, muss: bool) -> dict[Throw, Fraction]:
    tables = strategy_tables(rules)
    memo: dict[tuple[int, int], dict[tuple[int, int], Fraction]] = {}

    def from_state(kept: int, k: int) -> dict[tuple[int, int], Fraction]:
        # Distribution of the final (roll index, attempts) from attempt k with `kept` ones
        # laid out; every roll of the cup has probability 1 / 6**(3 - kept).
        state = (kept, k)
        if state in memo:
            return memo[state]
        size = _SIZE[kept]
        stops: Counter[tuple[int, int]] = Counter()
        goes_on: Counter[int] = Counter()
        for index in range(_BASE[kept], _BASE[kept] + size):
            if vorleger_goes_on(tables, index, k, cap, muss):
                goes_on[tables.next_kept[index]] += 1
            else:
                stops[(index, k)] += 1
        result = {outcome: Fraction(n, size) for outcome, n in stops.items()}
        for next_kept, n in goes_on.items():
            weight = Fraction(n, size)
            for outcome, p in from_state(next_kept, k + 1).items():
                result[outcome] = result.get(outcome, Fraction(0)) + weight * p
        memo[state] = result
        return result

    by_throw: dict[Throw, Fraction] = {}
    for (index, k), p in from_state(0, 1).items():
        throw = Throw(tables.dice[index], k, tables.natural[index])
        by_throw[throw] = by_throw.get(throw, Fraction(0)) + p
    ordered = sorted(by_throw, key=lambda t: round_key(t, 0, rules), reverse=True)
    return {throw: by_throw[throw] for throw in ordered}


def turn_throw_odds(
    rules: RuleSet = _CLUB, *, muss_regel: bool = False, max_attempts: int | None = None
) -> dict[Throw, Fraction]:
    """Exact distribution of the final ``Throw`` of a turn under the plain strategy.

    Args:
        rules: the rule set.
        muss_regel: the Muss-Regel applies to the turn (takes effect only where
            ``rules.muss_regel`` is on).
        max_attempts: the cap (default the rule set's, 3: the Vorleger's turn).

    Returns ``{Throw(dice, attempts, natural): Fraction}`` ordered best to worst by
    ``round_key`` (rank, Königswurf, fewer attempts), summing to 1.

    Raises:
        ValueError: ``max_attempts`` not 1, 2 or 3.
    """
    return dict(_turn_dist(rules, _cap(rules, max_attempts), muss_regel and rules.muss_regel))


def turn_odds(
    rules: RuleSet = _CLUB, *, muss_regel: bool = False, max_attempts: int | None = None
) -> dict[str, Fraction]:
    """Exact probability of each final throw (German label) of a turn, best to worst.

    Same turn as ``turn_throw_odds``; throws with the same label (e.g. "Schock 5" natural
    and collected, in 1, 2 or 3 attempts) are added up. Sums to 1.
    """
    return _by_label(
        turn_throw_odds(rules, muss_regel=muss_regel, max_attempts=max_attempts), rules
    )


def turn_category_odds(
    rules: RuleSet = _CLUB, *, muss_regel: bool = False, max_attempts: int | None = None
) -> dict[Category, Fraction]:
    """Exact probability of each ``Category`` as a turn's final throw, in ``Category`` order
    (Schock-Aus first), every category present, summing to 1. Same turn as
    ``turn_throw_odds``."""
    dist = turn_throw_odds(rules, muss_regel=muss_regel, max_attempts=max_attempts)
    return _by_category(dist, rules)


def turn_attempts_odds(
    rules: RuleSet = _CLUB, *, muss_regel: bool = False, max_attempts: int | None = None
) -> dict[int, Fraction]:
    """Exact probability that the turn uses 1, 2, 3 attempts (keys ascending, sum 1)."""
    cap = _cap(rules, max_attempts)
    totals = dict.fromkeys(range(1, cap + 1), Fraction(0))
    for throw, p in turn_throw_odds(rules, muss_regel=muss_regel, max_attempts=cap).items():
        totals[throw.attempts] += p
    return totals


def turn_schock_aus_probability(
    rules: RuleSet = _CLUB, *, muss_regel: bool = False, max_attempts: int | None = None
) -> Fraction:
    """Exact probability of at least one Schock-Aus in a turn of the plain strategy.

    Three ones end the turn at once (docs/rules.md section 3), so a turn holds at most one
    Schock-Aus and this is the probability that the final throw is 1-1-1.
    """
    return turn_category_odds(rules, muss_regel=muss_regel, max_attempts=max_attempts)[
        Category.SCHOCK_AUS
    ]


def expected_schock_aus(
    turns: int,
    rules: RuleSet = _CLUB,
    *,
    muss_regel: bool = False,
    max_attempts: int | None = None,
) -> Fraction:
    """Schock-Aus expected from ``turns`` turns of the plain strategy (exact).

    ``turns`` (>= 0) x ``turn_schock_aus_probability``; for a member's statistics, compare
    with the Schock-Aus the member actually threw. Raises ValueError for negative turns.
    """
    if not isinstance(turns, int) or turns < 0:
        raise ValueError(f"turns must be an int >= 0, not {turns!r}")
    return turns * turn_schock_aus_probability(
        rules, muss_regel=muss_regel, max_attempts=max_attempts
    )


@dataclass(frozen=True)
class OddsRow:
    """One line of the page "Wahrscheinlichkeiten" (see ``odds_rows``).

    Attributes:
        label: the throw's German label ("Schock-Aus", "Schock 6", ..., "221").
        category: its ``Category``.
        deckel: Deckel it is worth when it wins a round.
        one_attempt: probability in one roll of three dice.
        turn: probability as the final throw of a turn (plain strategy, up to 3 attempts).
        turn_muss_regel: the same while the Muss-Regel applies; None where the rule set
            does not play it.
    """

    label: str
    category: Category
    deckel: int
    one_attempt: Fraction
    turn: Fraction
    turn_muss_regel: Fraction | None


def odds_rows(rules: RuleSet = _CLUB) -> list[OddsRow]:
    """Every throw label with its exact odds, best to worst, for one page table.

    A label that only a collected throw can have (1-2-3 collected reads "321", section 1)
    gets 0 for one attempt. Each probability column sums to exactly 1.
    """
    one = attempt_odds(rules)
    turn = turn_odds(rules)
    muss = turn_odds(rules, muss_regel=True) if rules.muss_regel else None
    throws = list(_attempt_dist(rules)) + list(turn_throw_odds(rules))
    order = _label_order(throws, rules)
    info: dict[str, Evaluation] = {}
    for throw in throws:
        evaluation = evaluate(throw, rules)
        info.setdefault(evaluation.label, evaluation)
    labels = sorted(
        set(one) | set(turn) | set(muss or ()), key=lambda label: order[label], reverse=True
    )
    zero = Fraction(0)
    return [
        OddsRow(
            label=label,
            category=info[label].category,
            deckel=info[label].deckel,
            one_attempt=one.get(label, zero),
            turn=turn.get(label, zero),
            turn_muss_regel=None if muss is None else muss.get(label, zero),
        )
        for label in labels
    ]
