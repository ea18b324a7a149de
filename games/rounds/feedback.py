"""Live feedback on one throw while the secretary types it (issue 3 item 3).

Only ``games.rules`` decides: the throw is checked with ``validate_throw`` (a final throw)
or ``validate_turn`` (attempt by attempt) under the given rule set, the Vorleger's cap and
the Muss-Regel, and read with ``evaluate``. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence

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

# Schocken terms stay German (RULES.md glossary).
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
    """What a throw is, or why it is impossible (RULES.md 1 and 3).

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
