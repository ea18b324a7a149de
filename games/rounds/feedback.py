"""What a throw is: the pages' live feedback while the secretary types one
(``throw_feedback``, which never raises) and the API's evaluation of a throw or turn
(``throw_evaluation``, which raises the rules' RuleViolation).

Only ``games.rules`` decides: the throw is checked with ``validate_throw`` (a final throw)
or ``validate_turn`` (attempt by attempt) under the given rule set, the Vorleger's cap and
the Muss-Regel, and read with ``evaluate``. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games.rules import (
    PRESETS,
    Attempt,
    Category,
    RuleSet,
    RuleViolation,
    Throw,
    evaluate,
    muss_regel_applies,
    validate_throw,
    validate_turn,
)
from games.rules.engine import ABLEGEN, AUFNAHME, RoundOutcome

if TYPE_CHECKING:
    from games.rounds.selectors import (
        RoundsPlay,
    )

# Schocken terms stay German (docs/rules.md glossary).
CATEGORY_LABELS = {
    Category.SCHOCK_AUS: "Schock-Aus",
    Category.SCHOCK: "Schock",
    Category.GENERAL: "General",
    Category.STRASSE: "Straße",
    Category.HAUSNUMMER: "Hausnummer",
}


def throw_feedback(
    *,
    rules: RuleSet = PRESETS["club"],
    dice: Sequence[int] | None = None,
    attempts: int | None = None,
    natural: bool = True,
    turn: Sequence[dict] | None = None,
    max_attempts: int = 3,
    muss_regel: bool = False,
) -> dict:
    """What a throw is, or why it is impossible (docs/rules.md 1 and 3).

    Args:
        rules: the season's rule set.
        dice, attempts, natural: a final throw; or
        turn: the attempts in detail, ``[{"rolled": [...], "keep": [...], "umwandlung": n}]``
            (takes precedence over ``dice``).
        max_attempts: the Vorleger's attempts in this round (3 for the Vorleger).
        muss_regel: the Muss-Regel applies to this turn (see ``muss_regel_for``).

    Returns ``{"ok": True, "category": "schock", "category_label": "Schock", "label":
    "Schock 5", "deckel": 5, "value": 5, "dice": [5, 1, 1], "attempts": 2, "natural": False,
    "muss_regel": bool}`` or ``{"ok": False, "code": <RuleViolation code>, "message":
    <German reason>, "attempt": n or None}``. Never raises for bad input.
    """
    try:
        if turn is not None:
            thrown = validate_turn(
                [Attempt.from_mapping(a) for a in turn],
                rules,
                max_attempts=max_attempts,
                muss_regel=muss_regel,
            )
        else:
            if dice is None or attempts is None:
                return {
                    "ok": False,
                    "code": "throw_missing",
                    "message": _("Enter the dice and the attempts."),
                    "attempt": None,
                }
            thrown = validate_throw(
                Throw(list(dice), attempts, bool(natural)),
                rules,
                max_attempts=max_attempts,
                muss_regel=muss_regel,
            )
    except RuleViolation as exc:
        return {"ok": False, "code": exc.code, "message": str(exc), "attempt": exc.attempt}
    except (TypeError, AttributeError, ValueError):
        return {
            "ok": False,
            "code": "invalid_entry",
            "message": _("This entry is not a throw."),
            "attempt": None,
        }
    return describe_throw(thrown, rules, muss_regel=bool(muss_regel and rules.muss_regel))


def describe_throw(thrown: Throw, rules: RuleSet, *, muss_regel: bool = False) -> dict:
    """The ``ok`` answer of ``throw_feedback`` for a throw the rules accepted already."""
    evaluation = evaluate(thrown, rules)
    return {
        "ok": True,
        "category": evaluation.category.value,
        "category_label": CATEGORY_LABELS[evaluation.category],
        "label": evaluation.label,
        "deckel": evaluation.deckel,
        "value": evaluation.value,
        "dice": list(thrown.dice),
        "attempts": thrown.attempts,
        "natural": thrown.natural,
        "muss_regel": muss_regel,
    }


def muss_regel_for(*, rules: RuleSet, schock_aus_so_far: int, last_game: bool) -> bool:
    """Whether the Muss-Regel applies to a turn: ``games.rules.muss_regel_applies`` with
    the evening's Schock-Aus before the turn; False for a count that makes no sense."""
    try:
        return muss_regel_applies(
            schock_aus_so_far=schock_aus_so_far, last_game=last_game, rules=rules
        )
    except RuleViolation:
        return False


def throw_evaluation(
    *,
    preset: str,
    attempts: int | list[dict],
    dice: Sequence[int] = (),
    natural: bool = True,
    max_attempts: int = 3,
    muss_regel: bool = False,
) -> dict:
    """What a final throw (``dice``, ``attempts`` a number, ``natural``) or a turn
    (``attempts`` a list of ``{"rolled", "keep", "umwandlung"}``) is under
    ``PRESETS[preset]``, the Vorleger's cap and the Muss-Regel (docs/rules.md 1 and 3).

    Returns ``{"preset", "category", "value", "deckel", "label", "dice", "attempts",
    "natural"}`` (the final throw's dice high to low). Raises RuleViolation for a throw or
    turn the rules refuse."""
    rules = PRESETS[preset]
    if isinstance(attempts, list):
        turn = [Attempt(a["rolled"], a["keep"], a["umwandlung"]) for a in attempts]
        thrown = validate_turn(turn, rules, max_attempts=max_attempts, muss_regel=muss_regel)
    else:
        thrown = validate_throw(
            Throw(dice, attempts, natural),
            rules,
            max_attempts=max_attempts,
            muss_regel=muss_regel,
        )
    result = evaluate(thrown, rules)
    return {
        "preset": preset,
        "category": result.category.value,
        "value": result.value,
        "deckel": result.deckel,
        "label": result.label,
        "dice": list(thrown.dice),
        "attempts": thrown.attempts,
        "natural": thrown.natural,
    }


def round_summary(outcome: RoundOutcome, person) -> dict:
    """What a round did, for the pages: ``person`` maps an engine player key to a Member.

    Returns ``{"number", "phase", "loser", "winner", "moved", "worth", "source"
    ("stock" | "winner" | "schock_aus"), "stock", "went_out" [Members], "deckel"
    [(Member, n)] (players holding Deckel), "phase_loser", "finished", "kind" ("round" |
    "ausscheidung" | "deckel_nehmen"), "taken_by" (Member or None), "covered" ("6-4-1" or
    "")}`` (docs/rules.md 4).
    """
    return {
        "number": outcome.number,
        "phase": outcome.phase,
        "loser": person(outcome.loser),
        "winner": person(outcome.winner),
        "moved": outcome.moved,
        "worth": outcome.deckel,
        "source": {AUFNAHME: "stock", ABLEGEN: "winner"}.get(outcome.source, "schock_aus"),
        "stock": outcome.stock,
        "went_out": [person(p) for p in outcome.went_out],
        "deckel": [(person(p), n) for p, n in outcome.deckel_after if n],
        "phase_loser": person(outcome.phase_loser) if outcome.phase_loser else None,
        "finished": outcome.finished,
        "kind": outcome.kind,
        "taken_by": person(outcome.taken_by) if outcome.taken_by else None,
        "covered": "-".join(map(str, outcome.covered)) if outcome.covered else "",
    }


@dataclass
class PlayedRound:
    """What the round entry page shows beside an entry the rules played (docs/rules.md 4): the
    evening's Schock-Aus before it, what it did (``round_summary`` for a settled round; for
    a tied Ausscheidung step ``{"kind": "ausscheidung", "tied": [Members]}``; for an action
    ``{"kind", "player", "after"}``) and each throw's ``describe_throw`` answer by the
    thrower's Member id (``results``)."""

    schock_aus_before: int
    summary: dict
    results: dict[int, dict]


def rounds_played(play: RoundsPlay) -> tuple[list[PlayedRound], int]:
    """Every entry of ``play`` as the entry page shows it, and the evening's Schock-Aus
    after the last of them (what the next round starts from)."""
    seen = play.schock_aus_before
    played = []
    for entry in play.entries:
        before = seen
        outcome, step = entry.outcome, entry.step
        source = step or outcome
        results = {}
        if source is not None:
            muss = outcome.muss_regel if step is None and outcome else (False,) * len(source.throws)
            for key, thrown, applied in zip(
                source.throwing_order, source.throws, muss, strict=True
            ):
                results[play.player(key).pk] = describe_throw(
                    thrown, play.rules, muss_regel=applied
                )
        if outcome is not None:
            summary = round_summary(outcome, play.player)
            seen += len(outcome.schock_aus)
        elif step is not None:
            summary = {"kind": entry.kind, "tied": [play.player(k) for k in step.tied]}
        else:
            summary = {"kind": entry.kind, "player": entry.player, "after": entry.after}
        played.append(PlayedRound(before, summary, results))
    return played, seen


def turn_text(turn: list[dict] | None) -> str:
    """The notation of a stored turn: ``[{"rolled": [1, 4, 5], "keep": [1]}, ...]`` ->
    ``"145:1 / ..."``."""
    if not turn:
        return ""
    parts = []
    for a in turn:
        text = "".join(str(d) for d in a.get("rolled", ()))
        after = "".join(str(d) for d in a.get("keep", ())) + "u" * int(a.get("umwandlung") or 0)
        parts.append(f"{text}:{after}" if after else text)
    return " / ".join(parts)
