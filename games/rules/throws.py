"""Throws and what they are worth (docs/rules.md section 1).

``Throw`` is the three dice a player ends a turn with; ``evaluate`` reads it as Schock-Aus,
Schock, General, Straße or Hausnummer; ``rank`` orders throws by section 1 and
``round_key`` adds the tie-breaks of section 2 (Mit ist Schitt).

Performance: the simulator evaluates millions of throws, so nothing is computed per call.
For every ``RuleSet`` instance, the first call builds lookup tables over all 216 triples x
natural/collected and keeps them on the instance; a ``Throw`` carries its table index.
Standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from .errors import RuleViolation
from .ruleset import PRESETS, RuleSet

__all__ = [
    "Category",
    "Evaluation",
    "Throw",
    "evaluate",
    "rank",
    "round_key",
]

_CLUB = PRESETS["club"]


class Category(enum.Enum):
    """The five kinds of throw, best first (docs/rules.md section 1, glossary)."""

    SCHOCK_AUS = "schock_aus"
    SCHOCK = "schock"
    GENERAL = "general"
    STRASSE = "strasse"
    HAUSNUMMER = "hausnummer"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_dice(dice: object, count: int = 3, *, attempt: int | None = None) -> tuple[int, ...]:
    """Return ``dice`` as a tuple of ints after checking count and range.

    Raises:
        RuleViolation: ``wrong_number_of_dice`` when ``dice`` is not a sequence of ``count``
            values, ``die_out_of_range`` for a value that is not an int 1..6.
    """
    if isinstance(dice, (str, bytes)) or not hasattr(dice, "__iter__"):
        raise RuleViolation(
            "wrong_number_of_dice",
            f"Erwartet {count} Würfel, eingegeben wurde {dice!r}.",
            attempt,
            "docs/rules.md 1/3",
        )
    values = tuple(dice)
    if len(values) != count:
        raise RuleViolation(
            "wrong_number_of_dice",
            f"Erwartet {count} Würfel, eingegeben {len(values)}: {list(values)}.",
            attempt,
            "docs/rules.md 1/3",
        )
    for value in values:
        if not _is_int(value) or not 1 <= value <= 6:
            raise RuleViolation(
                "die_out_of_range",
                f"Ein Würfel zeigt 1 bis 6 Augen, eingegeben wurde {value!r}.",
                attempt,
                "docs/rules.md 1",
            )
    return values


class Throw:
    """The three dice a player ends a turn with (docs/rules.md section 1). Immutable, hashable.

    Args:
        dice: three ints 1..6 in any order; stored as ``dice``, a tuple sorted high to low.
        attempts: attempts (Versuche) the player used, 1..3.
        natural: ``True`` when all three dice came from the last attempt ("Natur", "aus der
            Hand"); ``False`` when dice were laid out or made by Umwandlung (collected).

    Raises:
        RuleViolation: ``wrong_number_of_dice``, ``die_out_of_range``,
            ``attempts_out_of_range`` or ``natural_not_bool``. Whether the throw could have
            come about under a rule set is ``validate_throw``'s question, not the
            constructor's.
    """

    __slots__ = ("dice", "attempts", "natural", "_key")

    dice: tuple[int, int, int]
    attempts: int
    natural: bool
    _key: int

    def __init__(self, dice: Iterable[int], attempts: int = 1, natural: bool = True) -> None:
        # Fast path for the simulator: three plain ints 1..6 (bools are not dice).
        if (
            (type(dice) is tuple or type(dice) is list)
            and len(dice) == 3
            and type(dice[0]) is int
            and type(dice[1]) is int
            and type(dice[2]) is int
            and 0 < dice[0] < 7
            and 0 < dice[1] < 7
            and 0 < dice[2] < 7
        ):
            a, b, c = dice
        else:
            a, b, c = check_dice(dice)
        if type(attempts) is not int or not 0 < attempts < 4:
            raise RuleViolation(
                "attempts_out_of_range",
                f"Ein Wurf braucht 1 bis 3 Versuche, eingegeben wurde {attempts!r}.",
                None,
                "docs/rules.md 1",
            )
        if natural is not True and natural is not False:
            raise RuleViolation(
                "natural_not_bool",
                f"'natural' ist wahr oder falsch, eingegeben wurde {natural!r}.",
                None,
                "docs/rules.md 1",
            )
        if a < b:
            a, b = b, a
        if b < c:
            b, c = c, b
            if a < b:
                a, b = b, a
        setter = object.__setattr__
        setter(self, "dice", (a, b, c))
        setter(self, "attempts", attempts)
        setter(self, "natural", natural)
        setter(self, "_key", (100 * a + 10 * b + c) * 2 + natural)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Throw is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Throw is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Throw) or other.__class__ is not Throw:
            return NotImplemented
        return self._key == other._key and self.attempts == other.attempts

    def __hash__(self) -> int:
        return hash((self._key, self.attempts))

    def __repr__(self) -> str:
        return f"Throw({self.dice!r}, attempts={self.attempts}, natural={self.natural})"

    def __reduce__(self) -> tuple[type[Throw], tuple[tuple[int, int, int], int, bool]]:
        return (Throw, (self.dice, self.attempts, self.natural))


def _key_of(a: int, b: int, c: int, natural: bool) -> int:
    # Index into the per-rule-set tables: the Hausnummer reading, doubled, plus natural.
    return (100 * a + 10 * b + c) * 2 + natural


_TABLE_SIZE = _key_of(6, 6, 6, True) + 1


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What a throw is (docs/rules.md section 1 and section 7).

    Fields:
        category: a ``Category``.
        value: Schock: x; General: x; Straße: its highest die; Hausnummer: the three-digit
            number read high to low (3-1-6 -> 631); Schock-Aus: 1.
        deckel: Deckel the throw is worth when it wins a round: Schock-Aus all
            (``rules.deckel_total``), Schock x, General 3, Straße 2, Hausnummer 1.
        label: German, e.g. "Schock-Aus", "Schock 5", "Schock Doof", "General 6",
            "Straße 456", "631".
    """

    category: Category
    value: int
    deckel: int
    label: str


#: Deckel a Jule (4-2-1, ``RuleSet.jule``) is worth (papr/schocken-discord-bot, VARIANTS.md).
JULE_DECKEL = 7
JULE_DICE = (4, 2, 1)


def _classify(a: int, b: int, c: int, natural: bool, rules: RuleSet) -> Evaluation:
    """Evaluate dice sorted high to low (docs/rules.md section 1 and the variant flags).

    A collected General or Straße is a Hausnummer unless ``collected_general_counts`` /
    ``collected_strasse_counts``. **Decision** (section 7 keeps five categories): a Jule
    (``rules.jule``, natural 4-2-1 only, as papr/schocken-discord-bot reads it "aus der
    Hand") is ``Category.SCHOCK`` with value and Deckel 7 and the label "Jule": papr ranks
    it exactly as a "Schock 7" (priority 4.07 between Schock 6 at 4.06 and Schock-Aus).
    """
    if a == b == c == 1:
        return Evaluation(Category.SCHOCK_AUS, 1, rules.deckel_total, "Schock-Aus")
    if b == c == 1:
        label = "Schock Doof" if a == 2 else f"Schock {a}"
        return Evaluation(Category.SCHOCK, a, a, label)
    if rules.jule and natural and (a, b, c) == JULE_DICE:
        return Evaluation(Category.SCHOCK, JULE_DECKEL, JULE_DECKEL, "Jule")
    if (natural or rules.collected_general_counts) and a == b == c:
        return Evaluation(Category.GENERAL, a, 3, f"General {a}")
    if (natural or rules.collected_strasse_counts) and a - 1 == b and b - 1 == c:
        return Evaluation(Category.STRASSE, a, 2, f"Straße {c}{b}{a}")
    number = 100 * a + 10 * b + c
    return Evaluation(Category.HAUSNUMMER, number, 1, str(number))


# Rank bands, larger is better (docs/rules.md section 1). Hausnummern use their number (<= 666).
_BAND_STRASSE = 1000
_BAND_SCHOCK_DOOF_LOW = 1500  # below every General: general_beats_schock_doof on
_BAND_GENERAL = 2000
_BAND_SCHOCK = 3000  # + x for Schock x; + 7 for the Jule, just below the Schock-Aus
_BAND_SCHOCK_AUS = 4000


def _rank_of(evaluation: Evaluation, rules: RuleSet) -> int:
    category = evaluation.category
    value = evaluation.value
    if category is Category.SCHOCK_AUS:
        return _BAND_SCHOCK_AUS
    if category is Category.SCHOCK:
        if value == 2 and rules.general_beats_schock_doof:
            return _BAND_SCHOCK_DOOF_LOW
        return _BAND_SCHOCK + value
    if category is Category.GENERAL:
        return _BAND_GENERAL + (value if rules.generals_ranked else 0)
    if category is Category.STRASSE:
        return _BAND_STRASSE + (value if rules.strassen_ranked else 0)
    return value


# Fills the slots of the tables that no sorted triple reaches (e.g. key 0).
_UNUSED = Evaluation(Category.HAUSNUMMER, 0, 0, "")


def _build_tables(rules: RuleSet) -> tuple[list[Evaluation], list[int]]:
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    evaluations = [_UNUSED] * _TABLE_SIZE
    ranks = [-1] * _TABLE_SIZE
    for dice in product(range(1, 7), repeat=3):
        a, b, c = sorted(dice, reverse=True)
        for natural in (False, True):
            key = _key_of(a, b, c, natural)
            if evaluations[key] is _UNUSED:
                evaluation = _classify(a, b, c, natural, rules)
                evaluations[key] = evaluation
                ranks[key] = _rank_of(evaluation, rules)
    # Cached on the (frozen) instance itself: looked up without hashing the rule set.
    object.__setattr__(rules, "_evaluations", evaluations)
    object.__setattr__(rules, "_ranks", ranks)
    return evaluations, ranks


def _tables(rules: RuleSet) -> tuple[list[Evaluation], list[int]]:
    try:
        evaluations: list[Evaluation] = rules._evaluations
        return evaluations, rules._ranks
    except AttributeError:
        return _build_tables(rules)


def _check_throw(throw: object) -> None:
    if not isinstance(throw, Throw):
        raise TypeError(f"expected a Throw, not {type(throw).__name__}")


def evaluate(throw: Throw, rules: RuleSet = _CLUB) -> Evaluation:
    """Return the ``Evaluation`` of ``throw`` (docs/rules.md section 1).

    The result is a shared, pre-built object: one table lookup per call.

    Raises:
        TypeError: ``throw`` is not a ``Throw`` or ``rules`` not a ``RuleSet``.
    """
    try:
        evaluation: Evaluation = rules._evaluations[throw._key]
        return evaluation
    except AttributeError:
        _check_throw(throw)
        return _tables(rules)[0][throw._key]


def rank(throw: Throw, rules: RuleSet = _CLUB) -> int:
    """Return the section-1 rank of ``throw`` as an int; larger is better.

    Equal ranks mean equal throws by section 1 (same category and value, or the same
    unranked category), which section 2's tie-breaks then decide; see ``round_key``.
    Schock-Aus ranks highest, the Hausnummer 221 lowest. The numbers themselves are no
    contract: compare them, do not store them.

    Raises:
        TypeError: ``throw`` is not a ``Throw`` or ``rules`` not a ``RuleSet``.
    """
    try:
        return rules._ranks[throw._key]
    except AttributeError:
        _check_throw(throw)
        return _tables(rules)[1][throw._key]


def round_key(
    throw: Throw, position: int, rules: RuleSet = _CLUB
) -> tuple[int, int, int, int, int]:
    """Return the sort key of ``throw`` within a round; larger is better (docs/rules.md 2).

    ``position`` is the 0-based place in the throwing order. The key orders by section-1
    rank, then (``koenigswurf``) a natural Schock-Aus before a collected one, then
    (``natural_wins_ties``, a variant flag) any natural throw before a collected one, then
    (``fewer_attempts_win_ties``) fewer attempts, then the earlier thrower. Keys of two
    different positions are never equal, so a round always has one winner and one loser.
    """
    r = rank(throw, rules)
    koenig = 1 if (rules.koenigswurf and r == _BAND_SCHOCK_AUS and throw.natural) else 0
    natural = 1 if (rules.natural_wins_ties and throw.natural) else 0
    fewer = -throw.attempts if rules.fewer_attempts_win_ties else 0
    return (r, koenig, natural, fewer, -position)
