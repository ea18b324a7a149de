"""Runden owed and given (docs/rules.md section 5).

Which Schock-Aus owe a Runde is computed from the records (`games.rules.runden_owed`, via
`league.selectors.season_runden` and `games.selectors.evening_books`); that a Runde was
given is a `RundeGiven` row on the Schock-Aus (with the date, audit trail by
simple_history). A Runde given keeps its Schock-Aus: a game whose Schock-Aus have a Runde
given cannot lose them (`game_delete` / `game_update` refuse with `runde_given`).
"""

import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.evenings.models import Evening, SchockAus
from games.evenings.selectors import evening_books
from league.club.books import books_changed
from league.club.errors import BooksError
from league.runden.models import RundeGiven


@transaction.atomic
def runde_mark_given(
    *,
    schock_aus: SchockAus,
    given_on: datetime.date,
    note: str = "",
    recorded_by: User | None = None,
) -> RundeGiven:
    """Record that the Runde owed for `schock_aus` was given on `given_on` (docs/rules.md 5: the
    first, every fifth and the last Schock-Aus of an evening owe one), then
    raise the books-changed event of the evening's season (the season report shows when
    each Runde was given). `given_on` is a calendar date; `recorded_by` a user or None.
    Returns the RundeGiven row.

    Raises BooksError: no_runde_owed (this Schock-Aus owes no Runde), runde_already_given
    (409), given_before_evening (the date lies before the evening).
    """
    evening = Evening.objects.select_for_update().get(pk=schock_aus.game.evening_id)
    owed = {r.schock_aus_id for r in evening_books(evening=evening).runden}
    if schock_aus.pk not in owed:
        raise BooksError("no_runde_owed", _("This Schock-Aus owes no Runde."), field="schock_aus")
    if given_on < evening.date:
        raise BooksError(
            "given_before_evening",
            _("A Runde cannot be given before the evening it is owed for."),
            field="given_on",
        )
    if RundeGiven.objects.filter(schock_aus=schock_aus).exists():
        raise BooksError(
            "runde_already_given", _("This Runde is marked as given already."), status=409
        )
    given = RundeGiven.objects.create(
        club_id=schock_aus.club_id,
        schock_aus=schock_aus,
        given_on=given_on,
        note=note.strip(),
        recorded_by=recorded_by,
    )
    books_changed(season_id=evening.season_id, reason="runde_given")
    return given


@transaction.atomic
def runde_unmark(*, schock_aus: SchockAus) -> None:
    """Take back the record that a Runde was given (docs/rules.md 5; the audit trail
    keeps it), then raise the books-changed event of the evening's season (the Runde shows
    as open again in the season report).

    Raises BooksError `runde_not_given` (404) when it was not marked as given.
    """
    evening = Evening.objects.select_for_update().get(games__schock_aus=schock_aus)
    deleted, _rows = RundeGiven.objects.filter(schock_aus=schock_aus).delete()
    if not deleted:
        raise BooksError("runde_not_given", _("This Runde is not marked as given."), status=404)
    books_changed(season_id=evening.season_id, reason="runde_taken_back")


@transaction.atomic
def runden_mark_evening_given(
    *,
    evening: Evening,
    given_on: datetime.date,
    recorded_by: User | None = None,
) -> int:
    """Mark every open Runde of `evening` as given on `given_on` in one step (docs/rules.md 5),
    each with its RundeGiven row and audit-trail record, then raise the
    books-changed event of the evening's season once. Returns how many were marked (0 when
    none was open).

    Raises BooksError given_before_evening (the date lies before the evening).
    """
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if given_on < evening.date:
        raise BooksError(
            "given_before_evening",
            _("A Runde cannot be given before the evening it is owed for."),
            field="given_on",
        )
    owed = [r.schock_aus_id for r in evening_books(evening=evening).runden]
    given = RundeGiven.objects.filter(schock_aus_id__in=owed)
    done = set(given.values_list("schock_aus_id", flat=True))
    open_ids = [pk for pk in owed if pk not in done]
    for schock_aus_id in open_ids:
        RundeGiven.objects.create(
            club_id=evening.club_id,
            schock_aus_id=schock_aus_id,
            given_on=given_on,
            recorded_by=recorded_by,
        )
    if open_ids:
        books_changed(season_id=evening.season_id, reason="runde_given")
    return len(open_ids)
