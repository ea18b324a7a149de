"""The season close wizard under the season: `/saison/<jahr>/abschluss/`.

Every person of the club reads it (what is open, closed or not, the signatures); the
secretary closes and reopens; a Kassenprüfer (`may_sign_off`) signs a closed season.
Each action is a POST that calls one service and comes back to the page (its refusal is
shown there in German, never a 500). Services: league/closing/services.py.

The page's books part (templates/league/closing/_season_close_body.html) is kept per club
books version, season, signatures (`season_sign_off_state`: a signature moves no data
version), role and, for a person who may sign, that person (the sign button); a repeated
GET is answered 304 (league/club/caching.py). A refusal of an action is rendered
with its message and never kept.
"""

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.evenings.selectors import provisional_evenings_key
from league.closing.selectors import (
    may_see_balances,
    may_sign_off,
    season_close_state,
    season_sign_off_state,
)
from league.closing.services import (
    REASON_MAX_LENGTH,
    season_close,
    season_reopen,
    season_sign_off,
)
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.selectors import club_season

BODY = "league/closing/_season_close_body.html"


def _context(
    season: Season, member: Member, *, error: str = "", reason: str = ""
) -> dict[str, Any]:
    state = season_close_state(season=season)
    signed = {line.sign_off.auditor_id for line in state.valid_sign_offs}
    return {
        "state": state,
        "season": state.season,
        "items": state.open_items,
        # Every person's balance: the secretary, and a Kassenprüfer auditing the closed
        # season; the others read the count and the total (`may_see_balances`).
        "sees_balances": may_see_balances(member, closed=state.closed, signed_by=signed),
        "is_secretary": member.is_secretary,
        "may_sign": state.closed and may_sign_off(member) and member.pk not in signed,
        "error": error,
        "reason": reason,
        "reason_max": REASON_MAX_LENGTH,
    }


def _refused(request: ClubRequest, year: int, *, error: str, reason: str = "", status: int):
    """The page with an action's refusal (and the reason typed), rendered, never kept."""
    season = club_season(request.club, year)
    context = _context(season, request.member, error=error, reason=reason)
    body = render_to_string(BODY, context, request=request)
    page = {"season": season, "body": body}
    return render(request, "league/closing/season_close.html", page, status=status)


class SignOffsRequest(ClubRequest):
    """A season close page's request: `_sign_offs` leaves the signatures' state on it."""

    season_sign_offs: tuple[int, ...]


def _sign_offs(request: SignOffsRequest, year: int) -> tuple[int, ...]:
    """The season's signatures (`season_sign_off_state`), read once per request: the
    page's ETag part beyond the books (`books_page`'s extra) and its fragment's key."""
    state = getattr(request, "season_sign_offs", None)
    if state is None:
        state = season_sign_off_state(season=request.season)
        request.season_sign_offs = state
    return state


def _page_state(
    request: SignOffsRequest, year: int
) -> tuple[tuple[int, ...], bool, tuple[int, ...]]:
    """What the page shows beyond the books: the signatures, whether the viewer may
    sign (`may_sign_off`: a person made inactive or a guest loses the sign button, which
    moves no books version) and the evenings still provisional
    (`provisional_evenings_key`: an objection time ends by the clock)."""
    return (
        _sign_offs(request, year),
        may_sign_off(request.member),
        provisional_evenings_key(request),
    )


#: The season close wizard's body: the books and the role; the call adds the season's id,
#: the signatures (`_sign_offs`), who may sign and the evenings still provisional.
SEASON_CLOSE_BODY = KeptRead("season_close_body", depends=("books", "role"))


@member_required
@books_page(_page_state, season_year="year")
def season_close_page(request: SignOffsRequest, year: int) -> HttpResponse:
    """The wizard: what is open, the close and reopen forms, the signatures."""
    season: Season = request.season
    member = request.member
    signer = member.pk if may_sign_off(member) else None
    body = SEASON_CLOSE_BODY.fragment(
        season.pk,
        _sign_offs(request, year),
        signer,
        provisional_evenings_key(request),
        request=request,
        template=BODY,
        context=lambda: _context(season, member),
    )
    return render(request, "league/closing/season_close.html", {"season": season, "body": body})


@require_POST
@secretary_required
def season_close_action(request: ClubRequest, year: int) -> HttpResponse:
    """Close the season (a confirmation box when evenings or Runden are open)."""
    season = club_season(request.club, year)
    try:
        season_close(season=season, by=request.member, confirm=request.POST.get("confirm") == "1")
    except BooksError as exc:
        return _refused(request, year, error=exc.message, status=exc.status)
    messages.success(request, _("The season %(year)s is closed.") % {"year": year})
    return redirect("season_close", year=year)


@require_POST
@secretary_required
def season_reopen_action(request: ClubRequest, year: int) -> HttpResponse:
    """Reopen the season with a reason (kept in the audit history)."""
    season = club_season(request.club, year)
    reason = request.POST.get("reason", "")[: REASON_MAX_LENGTH * 2]
    try:
        season_reopen(season=season, by=request.member, reason=reason)
    except BooksError as exc:
        return _refused(request, year, error=exc.message, reason=reason, status=exc.status)
    messages.success(request, _("The season %(year)s is open again.") % {"year": year})
    return redirect("season_close", year=year)


@require_POST
@member_required
def season_sign_off_action(request: ClubRequest, year: int) -> HttpResponse:
    """The requesting Kassenprüfer signs the closed season."""
    season = club_season(request.club, year)
    if not may_sign_off(request.member):
        raise PermissionDenied
    try:
        season_sign_off(season=season, auditor=request.member)
    except BooksError as exc:
        return _refused(request, year, error=exc.message, status=exc.status)
    messages.success(request, _("Your signature is recorded."))
    return redirect("season_close", year=year)
