"""A turn, attempt by attempt, and final throws entered without their attempts.

docs/rules.md section 3 (attempts, laying out, Umwandlung, Schock-Aus ends the turn, Muss-Regel)
and section 5 (when the Muss-Regel applies). Every entry that could not have happened at
the table raises ``RuleViolation`` naming the attempt and the rule. Standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from .errors import RuleViolation
from .ruleset import PRESETS, RuleSet
from .throws import Throw, check_dice

__all__ = ["Attempt", "muss_regel_applies", "validate_throw", "validate_turn"]

_CLUB = PRESETS["club"]

_R_ATTEMPTS = "docs/rules.md 3, Versuche"
_R_KEEP = "docs/rules.md 3, Rauslegen"
_R_KEEP_ONLY_ONES = "docs/rules.md 3, keep_only_ones (Seed 003)"
_R_UMWANDLUNG = "docs/rules.md 3, Umwandlung"
_R_SCHOCK_AUS = "docs/rules.md 3, Schock-Aus beendet den Zug"
_R_MUSS = "docs/rules.md 3, Muss-Regel (Seed 003)"
_R_NATURAL = "docs/rules.md 1, Natur"


def _as_tuple(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return value


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt (Versuch) of a turn as the secretary enters it (docs/rules.md section 3).

    Fields:
        rolled: the dice rolled in this attempt: 3 in the first, then 3 minus the dice laid
            out so far.
        keep: the dice of ``rolled`` laid out after it (never the sixes used for Umwandlung).
        umwandlung: ones made by Umwandlung after it: 1 from two sixes (the other six goes
            back into the cup), 2 from three sixes (the third six goes back); 0 for none.

    Lists are stored as tuples. Nothing is checked here: ``validate_turn`` checks
    everything, so that every error names its attempt.
    """

    rolled: tuple[int, ...] = ()
    keep: tuple[int, ...] = ()
    umwandlung: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rolled", _as_tuple(self.rolled))
        object.__setattr__(self, "keep", _as_tuple(self.keep))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Attempt:
        """Build from ``{"rolled": [...], "keep": [...], "umwandlung": n}`` (keep and
        umwandlung optional), the shape of the sample evening's JSON and the API."""
        return cls(data.get("rolled", ()), data.get("keep", ()), data.get("umwandlung", 0))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cap(rules: RuleSet, max_attempts: object) -> int:
    if (
        not isinstance(max_attempts, int)
        or isinstance(max_attempts, bool)
        or not 1 <= max_attempts <= 3
    ):
        raise RuleViolation(
            "attempts_out_of_range",
            f"Der Vorleger kann 1 bis 3 Versuche vorgeben, nicht {max_attempts!r}.",
            None,
            _R_ATTEMPTS,
        )
    return min(max_attempts, rules.max_attempts)


def _dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice) or "nichts"


def validate_turn(
    attempts: Sequence[Attempt],
    rules: RuleSet = _CLUB,
    *,
    max_attempts: int = 3,
    muss_regel: bool = False,
) -> Throw:
    """Check a turn entered attempt by attempt and return its final ``Throw``.

    Args:
        attempts: the player's ``Attempt`` s in order (docs/rules.md section 3).
        rules: the season's rule set.
        max_attempts: the cap the Vorleger set (the Vorleger himself: 3); the rule set's
            ``max_attempts`` caps it too.
        muss_regel: the Muss-Regel applies to this turn (see ``muss_regel_applies``); it
            takes effect only where ``rules.muss_regel`` is on.

    Returns:
        ``Throw(dice, attempts, natural)``: dice = all laid-out dice (Umwandlung ones
        included) plus the last roll; attempts = attempts used; natural = nothing was laid
        out before the last attempt.

    Semantics (docs/rules.md section 3): attempt n rolls ``3 - laid out so far`` dice. After an
    attempt that is not the last, ``keep`` dice (from that roll) and ``umwandlung`` ones are
    laid out; they stay out. Umwandlung needs two sixes (one one) or three sixes (two ones)
    in that roll, and an attempt still to come. Three ones showing (laid out plus rolled)
    end the turn at once. Under the Muss-Regel, while an attempt is left: if the dice
    showing contain a one or the roll has two or more sixes, every one just rolled must be
    laid out, at least one Umwandlung is due where two sixes were rolled, and the player
    must go on.

    Raises:
        RuleViolation with ``.attempt`` set (except for the first two) and one of the codes
            ``no_attempts``, ``attempts_out_of_range`` (bad ``max_attempts``),
            ``too_many_attempts``, ``rolled_after_schock_aus``, ``wrong_number_of_dice``,
            ``die_out_of_range``, ``umwandlung_out_of_range``, ``umwandlung_without_sixes``,
            ``umwandlung_on_last_attempt``, ``turn_ends_after_umwandlung``,
            ``umwandlung_not_allowed`` (rule set without ``umwandlung``),
            ``keep_not_rolled``, ``keep_not_one``, ``keep_all_dice``,
            ``keep_on_last_attempt``, ``muss_regel_broken``.
        TypeError: an item of ``attempts`` is not an ``Attempt``.
    """
    cap = _cap(rules, max_attempts)
    attempts = tuple(attempts)
    if not attempts:
        raise RuleViolation(
            "no_attempts", "Ein Zug braucht mindestens einen Versuch.", None, _R_ATTEMPTS
        )
    turn = _TurnContext.of(rules, cap, len(attempts), muss_regel)
    laid_out: list[int] = []
    for number, attempt in enumerate(attempts, start=1):
        showing, keep = _check_attempt(turn, attempt, number, laid_out)
        if number == turn.total:
            return Throw(showing, number, not laid_out)
        laid_out.extend(keep)
        laid_out.extend([1] * attempt.umwandlung)
    raise AssertionError("unreachable: the last attempt returns")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class _TurnContext:
    """What ``validate_turn`` knows of a turn before its first attempt (docs/rules.md 3).

    Fields:
        rules: the season's rule set.
        cap: the attempts allowed (the Vorleger's cap and ``rules.max_attempts``), 1..3.
        total: the attempts entered (>= 1).
        muss: the Muss-Regel is in force for this turn (asked for and ``rules.muss_regel``).
        muss_sixes: sixes in one roll that oblige the player under the Muss-Regel: 2 with
            Umwandlung, 4 (never) without it.
        keepable: the dice ``keep_only_ones`` lets be laid out (``_keepable``).
        keepable_text: those dice in words, for the ``keep_not_one`` message.
    """

    rules: RuleSet
    cap: int
    total: int
    muss: bool
    muss_sixes: int
    keepable: frozenset[int]
    keepable_text: str

    @classmethod
    def of(cls, rules: RuleSet, cap: int, total: int, muss_regel: bool) -> _TurnContext:
        """The context of a turn of ``total`` attempts under ``cap`` (``validate_turn``'s
        arguments, ``cap`` already checked by ``_cap``)."""
        muss = bool(muss_regel) and rules.muss_regel
        # Without Umwandlung two sixes oblige nobody to anything (docs/rules.md 3, Muss-Regel).
        muss_sixes = 2 if rules.umwandlung else 4
        keepable = _keepable(rules)
        keepable_text = "Einsen und Sechsen" if 6 in keepable else "Einsen"
        return cls(rules, cap, total, muss, muss_sixes, keepable, keepable_text)


def _check_attempt(
    turn: _TurnContext, attempt: Attempt, number: int, laid_out: list[int]
) -> tuple[list[int], tuple[int, ...]]:
    """Check attempt ``number`` of a turn (docs/rules.md 3), ``laid_out`` being the dice laid
    out before it (Umwandlung ones included).

    Checked in this order, the first violation raised: the roll (``_check_roll``), the
    Umwandlung (``_check_umwandlung``), the dice laid out (``_check_keep``), the
    Muss-Regel (``_check_muss_regel``). Returns ``(showing, keep)``: the dice showing
    (``laid_out`` plus the roll, a new list) and the dice laid out after it.
    """
    rolled, showing = _check_roll(turn, attempt, number, laid_out)
    umwandlung = attempt.umwandlung
    keep_raw = attempt.keep
    _check_umwandlung(turn, umwandlung, number, rolled)
    keep = _check_keep(turn, keep_raw, number, rolled, umwandlung, laid_out)
    _check_muss_regel(turn, number, rolled, showing, keep, umwandlung)
    return showing, keep


def _check_roll(
    turn: _TurnContext, attempt: Attempt, number: int, laid_out: list[int]
) -> tuple[tuple[int, ...], list[int]]:
    """Check attempt ``number``'s roll (docs/rules.md 3, Versuche and Schock-Aus beendet den Zug).

    ``laid_out`` holds the dice laid out before it (Umwandlung ones included). Returns
    ``(rolled, showing)``: the dice rolled, and the dice showing (``laid_out`` plus
    ``rolled``, a new list).

    Raises:
        TypeError: ``attempt`` is not an ``Attempt``.
        RuleViolation: ``too_many_attempts``, ``wrong_number_of_dice``,
            ``die_out_of_range``, ``rolled_after_schock_aus`` (three ones showing and
            another attempt entered; ``.attempt`` is that next attempt).
    """
    if not isinstance(attempt, Attempt):
        raise TypeError(f"expected an Attempt, not {type(attempt).__name__}")
    cap = turn.cap
    if number > cap:
        raise RuleViolation(
            "too_many_attempts",
            f"Erlaubt sind höchstens {cap} Versuche"
            + (" (so viele hat der Vorleger gebraucht)." if cap < turn.rules.max_attempts else "."),
            number,
            _R_ATTEMPTS,
        )
    rolled = check_dice(attempt.rolled, 3 - len(laid_out), attempt=number)
    showing = laid_out + list(rolled)
    if showing.count(1) == 3 and number < turn.total:
        raise RuleViolation(
            "rolled_after_schock_aus",
            "Nach drei Einsen (Schock-Aus) ist der Zug zu Ende; es gibt keinen weiteren Versuch.",
            number + 1,
            _R_SCHOCK_AUS,
        )
    return rolled, showing


def _check_umwandlung(
    turn: _TurnContext, umwandlung: int, number: int, rolled: tuple[int, ...]
) -> None:
    """Check attempt ``number``'s Umwandlung of ``umwandlung`` ones after ``rolled``
    (docs/rules.md 3, Umwandlung; seeds 000, 002, 003, 004).

    Raises:
        RuleViolation, checked in this order: ``umwandlung_out_of_range`` (not an int
            0..2), then for 1 or 2: ``umwandlung_not_allowed``,
            ``umwandlung_on_last_attempt``, ``umwandlung_without_sixes``,
            ``turn_ends_after_umwandlung``.
    """
    if not _is_int(umwandlung) or not 0 <= umwandlung <= 2:
        raise RuleViolation(
            "umwandlung_out_of_range",
            f"Eine Umwandlung macht 0, 1 oder 2 Einsen, eingegeben wurde {umwandlung!r}.",
            number,
            _R_UMWANDLUNG,
        )
    if not umwandlung:
        return
    if not turn.rules.umwandlung:
        raise RuleViolation(
            "umwandlung_not_allowed",
            "Nach diesen Regeln werden keine Sechsen in Einsen umgewandelt.",
            number,
            _R_UMWANDLUNG,
        )
    if number >= turn.cap:
        raise RuleViolation(
            "umwandlung_on_last_attempt",
            "Im letzten Versuch ist keine Umwandlung möglich: danach kann nicht mehr "
            "gewürfelt werden.",
            number,
            _R_UMWANDLUNG,
        )
    needed = umwandlung + 1
    if rolled.count(6) < needed:
        raise RuleViolation(
            "umwandlung_without_sixes",
            f"Für {umwandlung} Eins{'en' if umwandlung > 1 else ''} aus Umwandlung "
            f"braucht der Wurf {needed} Sechsen, gewürfelt wurde "
            f"{_dice_text(rolled)}.",
            number,
            _R_UMWANDLUNG,
        )
    if number == turn.total:
        raise RuleViolation(
            "turn_ends_after_umwandlung",
            "Nach einer Umwandlung muss noch einmal gewürfelt werden; der Zug darf "
            "nicht direkt danach enden.",
            number,
            _R_UMWANDLUNG,
        )


def _keep_dice(keep_raw: object, number: int) -> tuple[int, ...]:
    """Attempt ``number``'s ``keep`` as a tuple of ints (docs/rules.md 3, Rauslegen).

    Raises:
        RuleViolation ``keep_not_rolled``: ``keep_raw`` is a string, bytes or not
            iterable, or holds something that is not an int.
    """
    if isinstance(keep_raw, (str, bytes)) or not hasattr(keep_raw, "__iter__"):
        raise RuleViolation(
            "keep_not_rolled",
            f"Rausgelegt werden Würfel aus dem Wurf, eingegeben wurde {keep_raw!r}.",
            number,
            _R_KEEP,
        )
    keep = tuple(keep_raw)
    for die in keep:
        if not _is_int(die):
            raise RuleViolation(
                "keep_not_rolled",
                f"Rausgelegt werden Würfel aus dem Wurf, eingegeben wurde {die!r}.",
                number,
                _R_KEEP,
            )
    return keep


def _check_keep(
    turn: _TurnContext,
    keep_raw: object,
    number: int,
    rolled: tuple[int, ...],
    umwandlung: int,
    laid_out: list[int],
) -> tuple[int, ...]:
    """Check the dice laid out after attempt ``number`` and return them as a tuple
    (docs/rules.md 3, Rauslegen and keep_only_ones).

    ``rolled`` is the attempt's roll, ``umwandlung`` its (checked) Umwandlung ones,
    ``laid_out`` the dice laid out before it.

    Raises:
        RuleViolation, checked in this order: ``keep_not_rolled`` (not a collection of
            ints), ``keep_on_last_attempt``, ``keep_not_rolled`` (dice not in the roll, the
            sixes of an Umwandlung used up), ``keep_not_one``, ``keep_all_dice``.
    """
    keep = _keep_dice(keep_raw, number)
    is_last = number == turn.total
    if keep and is_last:
        raise RuleViolation(
            "keep_on_last_attempt",
            "Nach dem letzten Versuch wird nichts mehr rausgelegt: der Wurf ist, was "
            "draußen liegt, plus der letzte Wurf.",
            number,
            _R_KEEP,
        )
    available = Counter(rolled)
    if umwandlung:
        # The sixes of an Umwandlung are used up: one (two) turned, one back in the cup.
        available[6] -= umwandlung + 1
    if Counter(keep) - available:
        raise RuleViolation(
            "keep_not_rolled",
            f"Rausgelegt {_dice_text(keep)}, aber gewürfelt wurde {_dice_text(rolled)}"
            + (" (die Sechsen der Umwandlung sind verbraucht)." if umwandlung else "."),
            number,
            _R_KEEP,
        )
    if turn.rules.keep_only_ones and any(die not in turn.keepable for die in keep):
        raise RuleViolation(
            "keep_not_one",
            f"Nach diesen Regeln dürfen nur {turn.keepable_text} rausgelegt werden, "
            f"rausgelegt wurde {_dice_text(keep)}.",
            number,
            _R_KEEP_ONLY_ONES,
        )
    if not is_last and len(laid_out) + len(keep) + umwandlung >= 3:
        raise RuleViolation(
            "keep_all_dice",
            "Es können nicht alle drei Würfel draußen liegen und trotzdem weiter "
            "gewürfelt werden: mindestens ein Würfel bleibt im Becher.",
            number,
            _R_KEEP,
        )
    return keep


def _check_muss_regel(
    turn: _TurnContext,
    number: int,
    rolled: tuple[int, ...],
    showing: list[int],
    keep: tuple[int, ...],
    umwandlung: int,
) -> None:
    """Check attempt ``number`` against the Muss-Regel (docs/rules.md 3, Muss-Regel; seed 003).

    It binds only where ``turn.muss`` holds, an attempt is left (``number < turn.cap``)
    and the turn is not over (no three ones ``showing``), and only when a one is showing
    or ``rolled`` holds ``turn.muss_sixes`` sixes. ``keep`` and ``umwandlung`` are the
    attempt's checked lay-out.

    Raises:
        RuleViolation ``muss_regel_broken``, the first that applies: the turn ended here,
            a one just rolled was not laid out, two sixes without Umwandlung.
    """
    sixes = rolled.count(6)
    attempt_left = number < turn.cap and showing.count(1) != 3
    if not (turn.muss and attempt_left and (1 in showing or sixes >= turn.muss_sixes)):
        return
    ones_rolled = rolled.count(1)
    cap = turn.cap
    if number == turn.total:
        raise RuleViolation(
            "muss_regel_broken",
            _muss_reason(showing, sixes)
            + " Der Spieler musste "
            + _muss_duties(ones_rolled, sixes if turn.rules.umwandlung else 0)
            + f"weiterwürfeln (noch {cap - number} Versuch"
            + ("e" if cap - number > 1 else "")
            + " offen).",
            number,
            _R_MUSS,
        )
    if keep.count(1) < ones_rolled:
        raise RuleViolation(
            "muss_regel_broken",
            _muss_reason(showing, sixes)
            + f" Jede gewürfelte Eins muss rausgelegt werden: gewürfelt "
            f"{ones_rolled}, rausgelegt {keep.count(1)}.",
            number,
            _R_MUSS,
        )
    if sixes >= turn.muss_sixes and not umwandlung:
        raise RuleViolation(
            "muss_regel_broken",
            _muss_reason(showing, sixes)
            + " Für zwei Sechsen muss eine Eins rausgelegt werden (Umwandlung).",
            number,
            _R_MUSS,
        )


def _keepable(rules: RuleSet) -> frozenset[int]:
    """Dice that may be laid out under ``keep_only_ones`` (docs/rules.md 3; ``keep_sixes``)."""
    return frozenset((1, 6)) if rules.keep_sixes else frozenset((1,))


def _muss_reason(showing: list[int], sixes: int) -> str:
    if 1 in showing:
        shown = _dice_text(sorted(showing, reverse=True))
        return f"Muss-Regel: die Würfel zeigen eine Eins ({shown})."
    return "Muss-Regel: der Wurf zeigt zwei Sechsen."


def _muss_duties(ones_rolled: int, sixes: int) -> str:
    duties = []
    if ones_rolled:
        duties.append(
            "die gewürfelte Eins rauslegen" if ones_rolled == 1 else "die Einsen rauslegen"
        )
    if sixes >= 2:
        duties.append("für zwei Sechsen eine Eins rauslegen")
    return (" und ".join(duties) + " und ") if duties else ""


def _reachable_codes(rules: RuleSet, cap: int, muss: bool) -> frozenset[int]:
    """The final throws of `reachable_throws` as ints (the throw's key * 4 + attempts).
    Every throw the page, the API and a replay enter is checked against them: one set
    lookup of an int per throw, the set kept on the rule set per cap and Muss-Regel."""
    try:
        by_cap = rules._reachable_codes
    except AttributeError:
        by_cap = {}
        object.__setattr__(rules, "_reachable_codes", by_cap)
    codes = by_cap.get(cap * 2 + muss)
    if codes is None:
        codes = by_cap[cap * 2 + muss] = frozenset(
            Throw(dice, attempts, natural)._key * 4 + attempts
            for dice, attempts, natural in reachable_throws(rules, cap, muss)
        )
    return codes


def validate_throw(
    throw: Throw,
    rules: RuleSet = _CLUB,
    *,
    max_attempts: int = 3,
    muss_regel: bool = False,
) -> Throw:
    """Check a final throw entered without its attempts; return it unchanged.

    Accepts exactly the final throws that some turn ``validate_turn`` accepts can end with,
    under the same rule set, cap and Muss-Regel (docs/rules.md 3 and 7): the dice, the attempts
    used and whether the throw is natural are looked up in the set of outcomes of every
    legal turn (``reachable_throws``, built once per composition of the flags that decide
    what a turn may do). A refused throw gets the code of the first rule it breaks:

    - ``too_many_attempts``: more attempts than ``max_attempts`` (the Vorleger's cap) or
      ``rules.max_attempts``;
    - ``collected_in_one_attempt``: collected (``natural=False``) in one attempt: nothing
      can be laid out before the first roll, whatever the dice, a 1-1-1 included;
    - ``collected_without_one``: under ``keep_only_ones`` a collected throw must show a
      die that may be laid out: a one (Umwandlung makes ones too), or with ``keep_sixes``
      a one or a six. docs/rules.md 3: "a final throw without a one is natural or impossible";
    - ``muss_regel_broken`` (only with ``muss_regel=True`` and ``rules.muss_regel``, an
      extension beyond docs/rules.md 7): no turn that keeps the Muss-Regel ends so, though
      one that breaks it does: the player stopped with an attempt left while a one was
      showing or the last roll held two sixes (with ``umwandlung``), for example a
      collected 6-6-6 in 2 of 3 attempts where sixes may be laid out: one roll must have
      shown two sixes, which oblige the player to an Umwandlung and another attempt.

    A Schock-Aus is fine natural or collected (collected from the second attempt on).

    Raises:
        RuleViolation as listed; ``attempts_out_of_range`` for a bad ``max_attempts``;
        TypeError when ``throw`` is not a ``Throw``.
    """
    if not isinstance(throw, Throw):
        raise TypeError(f"expected a Throw, not {type(throw).__name__}")
    cap = _cap(rules, max_attempts)
    if throw.attempts > cap:
        raise RuleViolation(
            "too_many_attempts",
            f"Der Wurf braucht {throw.attempts} Versuche, erlaubt sind höchstens {cap}.",
            None,
            _R_ATTEMPTS,
        )
    muss = bool(muss_regel) and rules.muss_regel
    if throw._key * 4 + throw.attempts in _reachable_codes(rules, cap, muss):
        return throw
    if not throw.natural:
        _check_collected(throw, rules)
    # Reachable when the Muss-Regel is ignored (a collected throw that passed the checks
    # above always is), so it is the Muss-Regel that the entry broke.
    raise RuleViolation(
        "muss_regel_broken",
        f"Muss-Regel: mit {_dice_text(throw.dice)} nach {throw.attempts} von {cap} "
        "Versuchen musste der Spieler weiterwürfeln.",
        None,
        _R_MUSS,
    )


def reachable_throws(
    rules: RuleSet, cap: int, muss: bool
) -> frozenset[tuple[tuple[int, int, int], int, bool]]:
    """Every final throw some legal turn can end with: ``(dice high to low, attempts,
    natural)`` for turns of at most ``cap`` attempts (1..3) under ``rules``, with the
    Muss-Regel in force where ``muss`` (docs/rules.md 3).

    Derived from ``validate_turn``'s own checks of an attempt (``_check_attempt``), so the
    two cannot disagree; cached per composition of the flags that decide what a turn may do
    (``keep_only_ones``, ``keep_sixes`` under it, ``umwandlung``, the Muss-Regel, the cap):
    at most 2 x 2 x 2 x 2 x 3 sets of at most 336 outcomes.
    """
    keep_sixes = rules.keep_sixes and rules.keep_only_ones
    return _reachable(rules.keep_only_ones, keep_sixes, rules.umwandlung, muss, cap)


@cache
def _reachable(
    keep_only_ones: bool, keep_sixes: bool, umwandlung: bool, muss: bool, cap: int
) -> frozenset[tuple[tuple[int, int, int], int, bool]]:
    """``reachable_throws`` for one composition: a walk over the states between attempts.

    Between two attempts ``validate_turn`` knows nothing of a turn but the attempt's number
    and the dice laid out so far (its checks read counts and membership only, never the
    order of the dice), so every turn is a path through at most 1 + 6 + 21 such states per
    attempt. From each state every roll (as a multiset) is tried as the turn's last attempt
    and, with an attempt left, with every choice of dice laid out and Umwandlung; what
    ``_check_attempt`` accepts is an outcome or a state of the next attempt.
    """
    rules = RuleSet(
        keep_only_ones=keep_only_ones,
        keep_sixes=keep_sixes,
        umwandlung=umwandlung,
        muss_regel=muss,
        name="reachable",
    )
    outcomes: set[tuple[tuple[int, int, int], int, bool]] = set()
    states: set[tuple[int, ...]] = {()}
    for number in range(1, cap + 1):
        last = _TurnContext.of(rules, cap, number, muss)
        going_on = _TurnContext.of(rules, cap, number + 1, muss) if number < cap else None
        following: set[tuple[int, ...]] = set()
        for laid_out in states:
            for rolled in combinations_with_replacement(range(1, 7), 3 - len(laid_out)):
                try:
                    showing, _keep = _check_attempt(last, Attempt(rolled), number, list(laid_out))
                except RuleViolation:
                    pass
                else:
                    dice = sorted(showing, reverse=True)
                    outcomes.add(((dice[0], dice[1], dice[2]), number, not laid_out))
                if going_on is not None:
                    following.update(_next_states(going_on, number, rolled, laid_out))
        states = following
    return frozenset(outcomes)


def _next_states(
    turn: _TurnContext, number: int, rolled: tuple[int, ...], laid_out: tuple[int, ...]
) -> set[tuple[int, ...]]:
    """The dice laid out after attempt ``number`` (sorted), for every lay-out of ``rolled``
    that ``_check_attempt`` accepts with an attempt to come; part of ``_reachable``."""
    result = set()
    keeps = {keep for size in range(len(rolled)) for keep in combinations(rolled, size)}
    # Lay-outs refused anyway are skipped to save the exceptions: an Umwandlung without
    # its sixes, and all three dice out with an attempt to come.
    for umwandlung in range(max(1, rolled.count(6))):
        for keep in keeps:
            if len(laid_out) + len(keep) + umwandlung >= 3:
                continue
            try:
                _check_attempt(turn, Attempt(rolled, keep, umwandlung), number, list(laid_out))
            except RuleViolation:
                continue
            result.add(tuple(sorted(laid_out + keep + (1,) * umwandlung)))
    return result


def _check_collected(throw: Throw, rules: RuleSet) -> None:
    """Explain why a collected (``natural=False``) final throw is impossible (docs/rules.md 1,
    Natur; docs/rules.md 3, keep_only_ones); part of ``validate_throw``.

    Raises:
        RuleViolation, in this order: ``collected_in_one_attempt`` (one attempt: nothing
            is laid out before the first roll, a 1-1-1 included), ``collected_without_one``
            (under ``keep_only_ones`` no die that may be laid out is showing: no one, or
            with ``keep_sixes`` no one and no six).
    """
    if throw.attempts == 1:
        raise RuleViolation(
            "collected_in_one_attempt",
            "Ein zusammengeworfener Wurf braucht mindestens zwei Versuche: vor dem "
            "ersten Versuch liegt nichts draußen.",
            None,
            _R_NATURAL,
        )
    keepable = _keepable(rules)
    if rules.keep_only_ones and not any(die in keepable for die in throw.dice):
        shown = "keine Eins und keine Sechs" if 6 in keepable else "keine Eins"
        allowed = "Einsen und Sechsen" if 6 in keepable else "Einsen"
        raise RuleViolation(
            "collected_without_one",
            f"{_dice_text(throw.dice)} ist als zusammengeworfen eingetragen, zeigt aber "
            f"{shown}; nach diesen Regeln werden nur {allowed} rausgelegt. Ein Wurf "
            "ohne sie kann nur 'Natur' (aus der Hand) sein.",
            None,
            _R_KEEP_ONLY_ONES,
        )


def muss_regel_applies(*, schock_aus_so_far: int, last_game: bool, rules: RuleSet = _CLUB) -> bool:
    """Tell whether the Muss-Regel applies to a player's turn (docs/rules.md 3 and 5, seed 003).

    It applies when the player's next Schock-Aus would cost a Runde: none yet this evening,
    or the count stands at 4, 9, 14, ... (the next is a fifth), or the game is the evening's
    last game; and only under a rule set with ``muss_regel`` on.

    Args:
        schock_aus_so_far: the evening's Schock-Aus thrown before this player's turn,
            including those thrown earlier in the same round (>= 0).
        last_game: this game is the evening's last.

    Raises:
        RuleViolation (``schock_aus_count_out_of_range``) for a negative or non-int count.
    """
    if not _is_int(schock_aus_so_far) or schock_aus_so_far < 0:
        raise RuleViolation(
            "schock_aus_count_out_of_range",
            f"Die Zahl der Schock-Aus ist eine ganze Zahl ab 0, nicht {schock_aus_so_far!r}.",
            None,
            "docs/rules.md 5",
        )
    if not rules.muss_regel:
        return False
    return schock_aus_so_far == 0 or schock_aus_so_far % 5 == 4 or bool(last_game)
