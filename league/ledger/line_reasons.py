"""Why a statement line charges what it charges ("Warum zahle ich das?"): for every line of
a person's statement, what it is made of (the game or the evening), the clause of the
season's statutes that charges it, in the club's words (league.club.statutes), and the
arithmetic, as German text and as plain figures for the API.

Pure: plain values in, a `LineReason` out; no query. docs/rules.md section 5 (dues: the
loser of a game pays the Marks per lost game, a club member absent pays the absence
charge; a Mark is worth the season's Mark value).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.club.money import format_money
from league.club.statutes import StatuteClause, Statutes, statute_clause

__all__ = ["LineReason", "line_reason"]


@dataclass(frozen=True)
class LineReason:
    """What one ledger line is made of.

    - `source`: "game" (a lost game), "evening" (an evening missed), "payment",
      "reversal" (a correction taking back an earlier line), "carry" (a balance carried
      between seasons);
    - `count`: games lost or evenings missed (1 for a charge line, 0 otherwise);
    - `marks_each`: Marks per game or per evening (integer; for an absence that follows
      the evening, `average_marks` + `surcharge_marks`);
    - `mark_value`: the Mark's value in the season's currency (Decimal);
    - `amount`: the line's money (Decimal, the season's currency; charges positive);
    - `clause`: the statutes' clause that charges it (None for the other sources);
    - `arithmetic`: the calculation in German ("1 verlorenes Spiel × 1 Mark × 0,50 € =
      0,50 €"); `reason`: for a reversal, why it was made (German), else "".
    """

    source: str
    count: int
    marks_each: int
    mark_value: Decimal
    amount: Decimal
    currency: str
    clause: StatuteClause | None
    arithmetic: str
    reason: str = ""
    average_marks: int | None = None
    surcharge_marks: int | None = None
    evening_date: datetime.date | None = None
    game_number: int | None = None


@dataclass(frozen=True)
class _MadeOf:
    """What a line is made of: its source, how many of it, the Marks of each, the
    arithmetic in words, and for an absence that depends on the evening its average and
    surcharge (Marks)."""

    source: str
    count: int
    marks_each: int
    arithmetic: str
    average: int | None = None
    surcharge: int | None = None


def _made_of(
    *, kind: str, marks: int, value: str, money: str, paid: str, statutes: Statutes
) -> _MadeOf:
    """The `_MadeOf` of a ledger line of `kind` booking `marks`; `value`, `money` and
    `paid` are the Mark's value, the line's amount and its negation, formatted."""
    if kind == "game_lost":
        text = ngettext(
            "1 lost game × %(marks)s Mark × %(value)s = %(amount)s",
            "1 lost game × %(marks)s Marks × %(value)s = %(amount)s",
            marks,
        ) % {"marks": marks, "value": value, "amount": money}
        return _MadeOf("game", 1, marks, text)
    if kind == "absence":
        if statutes.absence_depends_on_evening:
            surcharge = statutes.absence_surcharge
            average = marks - surcharge
            text = _(
                "1 evening missed × (%(average)s Marks the evening's average + %(surcharge)s "
                "Marks) × %(value)s = %(amount)s"
            ) % {"average": average, "surcharge": surcharge, "value": value, "amount": money}
            return _MadeOf("evening", 1, marks, text, average=average, surcharge=surcharge)
        text = ngettext(
            "1 evening missed × %(marks)s Mark × %(value)s = %(amount)s",
            "1 evening missed × %(marks)s Marks × %(value)s = %(amount)s",
            marks,
        ) % {"marks": marks, "value": value, "amount": money}
        return _MadeOf("evening", 1, marks, text)
    if kind == "payment":
        return _MadeOf("payment", 0, 0, _("Paid: %(amount)s off the balance") % {"amount": paid})
    if kind == "reversal":
        if marks:
            text = _("%(marks)s Marks × %(value)s = %(amount)s, taken back") % {
                "marks": marks,
                "value": value,
                "amount": money,
            }
        else:
            text = _("%(amount)s taken back") % {"amount": money}
        return _MadeOf("reversal", 0, marks, text)
    return _MadeOf("carry", 0, 0, _("Balance carried: %(amount)s") % {"amount": money})


def line_reason(
    *,
    kind: str,
    marks: int,
    amount: Decimal,
    mark_value: Decimal,
    currency: str,
    statutes: Statutes,
    evening_date: datetime.date | None = None,
    game_number: int | None = None,
    reason: str = "",
) -> LineReason:
    """The `LineReason` of a ledger line of `kind` (LedgerEntry.Kind values) booking
    `marks` (integer Marks) and `amount` (Decimal money in `currency`) in a season whose
    Mark is worth `mark_value` and whose statutes are `statutes`. `reason` is a
    reversal's reason in German. The arithmetic is built from the line's own Marks, so a
    line booked under earlier figures is explained by what it booked."""
    made = _made_of(
        kind=kind,
        marks=marks,
        value=format_money(mark_value, currency),
        money=format_money(amount, currency),
        paid=format_money(-amount, currency),
        statutes=statutes,
    )
    return LineReason(
        source=made.source,
        count=made.count,
        marks_each=made.marks_each,
        mark_value=mark_value,
        amount=amount,
        currency=currency,
        clause=statute_clause(statutes, kind),
        arithmetic=made.arithmetic,
        reason=reason,
        average_marks=made.average,
        surcharge_marks=made.surcharge,
        evening_date=evening_date,
        game_number=game_number,
    )
