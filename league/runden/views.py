"""Pages of the Runden owed and given: the list (open, given or all, by season and
person), and for the secretary marking a Runde as given or taking that back.

Members read the list; the secretary marks. Another club's objects are 404 (querysets
scoped to request.club). Figures come from league/runden/services.py; the views parse and
render.
"""

import datetime

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.evenings.models import Evening, SchockAus
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.models import Member
from league.club.selectors import club_seasons, season_from_query, whole_number
from league.runden.forms import RundeGivenForm
from league.runden.listing import SHOWN, runden_page
from league.runden.selectors import (
    STATUS_ALL,
    STATUS_GIVEN,
    STATUS_OPEN,
)
from league.runden.services import (
    runde_mark_given,
    runde_unmark,
    runden_mark_evening_given,
)


def _today(request: ClubRequest) -> str:
    """The day: the page's forms default to it (it joins the page's ETag)."""
    return timezone.localdate().isoformat()


#: The Runden page's books part: the club's books, the path (season, status, person) and
#: the role; the call adds the day the page's forms default to.
RUNDEN_BODY = KeptRead("runden_body", depends=("books", "query", "role"))


@member_required
@books_page(extra=_today)
def runden_list(request: ClubRequest) -> HttpResponse:
    """The Runden owed: open, given or all, in the current season (?saison=YYYY, or
    ?saison=alle for every season); the first `SHOWN` lines and the count, read from
    per-season parts kept per season version (league/runden/listing.py); a GET with the
    page's ETag (books version, day, viewer) answers 304."""
    season = season_from_query(request, default_current=True)
    status = request.GET.get("status", STATUS_OPEN)
    if status not in (STATUS_OPEN, STATUS_GIVEN, STATUS_ALL):
        status = STATUS_OPEN
    person = None
    if (person_id := whole_number(request.GET.get("person"))) is not None:
        person = get_object_or_404(Member, pk=person_id, club=request.club)
    today = timezone.localdate()
    is_secretary = request.member.is_secretary

    def context() -> dict:
        page = runden_page(club=request.club, season=season, member=person, status=status)
        return {
            "rows": page.rows,
            "total": page.total,
            "shown": SHOWN,
            "season": season,
            "seasons": club_seasons(club=request.club),
            "status": status,
            "person": person,
            "today": today,
            "open_by_evening": page.open_by_evening,
            "is_secretary": is_secretary,
            "full_path": request.get_full_path(),
        }

    # The page's books part is kept per version, path (season, status, person), role and
    # day; only the frame is rendered per request.
    body = RUNDEN_BODY.fragment(
        today,
        request=request,
        template="league/ledger/_runden_body.html",
        context=context,
    )
    return render(request, "league/ledger/runden.html", {"body": body})


def _back(request: ClubRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect("runden_list")


@secretary_required
@require_POST
def runde_given(request: ClubRequest, schock_aus_id: int) -> HttpResponse:
    """Mark the Runde of a Schock-Aus as given on the posted date (default today) with a
    note; a bad date or note (over 200 characters, a NUL byte) is a German message and
    nothing is saved (RundeGivenForm)."""
    sa = get_object_or_404(
        SchockAus.objects.select_related("game"),
        pk=schock_aus_id,
        game__evening__club=request.club,
    )
    form = RundeGivenForm(request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{form.fields[name].label}: {error}")
        return _back(request)
    try:
        runde_mark_given(
            schock_aus=sa,
            given_on=form.cleaned_data["given_on"] or timezone.localdate(),
            note=form.cleaned_data["note"],
            recorded_by=request.user,
        )
        messages.success(request, _("The Runde is marked as given."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return _back(request)


@secretary_required
@require_POST
def runden_evening_given(request: ClubRequest, evening_id: int) -> HttpResponse:
    """Mark all open Runden of an evening as given on the posted date (default today)."""
    evening = get_object_or_404(Evening, pk=evening_id, club=request.club)
    try:
        given_on = datetime.date.fromisoformat(request.POST.get("given_on") or "")
    except ValueError:
        given_on = timezone.localdate()
    try:
        count = runden_mark_evening_given(
            evening=evening, given_on=given_on, recorded_by=request.user
        )
        messages.success(
            request,
            ngettext(
                "%(count)d Runde of the evening is marked as given.",
                "%(count)d Runden of the evening are marked as given.",
                count,
            )
            % {"count": count},
        )
    except BooksError as exc:
        messages.error(request, exc.message)
    return _back(request)


@secretary_required
@require_POST
def runde_undo(request: ClubRequest, schock_aus_id: int) -> HttpResponse:
    """Take back the record that a Runde was given."""
    sa = get_object_or_404(SchockAus, pk=schock_aus_id, game__evening__club=request.club)
    try:
        runde_unmark(schock_aus=sa)
        messages.success(request, _("The Runde is open again."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return _back(request)
