"""The season close wizard (issue 14 item 3) under the season: `/saison/<jahr>/abschluss/`.

Every person of the club reads it (what is open, closed or not, the signatures); the
secretary closes and reopens; a Kassenprüfer (`may_sign_off`) signs a closed season.
Each action is a POST that calls one service and comes back to the page (its refusal is
shown there in German, never a 500). Services: league/closing/services.py.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.closing.services import (
    REASON_MAX_LENGTH,
    may_sign_off,
    season_close,
    season_close_state,
    season_reopen,
    season_sign_off,
)
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.errors import BooksError
from league.club.selectors import club_season


def _page(request: ClubRequest, year: int, *, error: str = "", reason: str = "", status: int = 200):
    season = club_season(request.club, year)
    state = season_close_state(season=season)
    member = request.member
    signed = {line.sign_off.auditor_id for line in state.valid_sign_offs}
    context = {
        "state": state,
        "season": state.season,
        "items": state.open_items,
        "is_secretary": member.is_secretary,
        "may_sign": state.closed and may_sign_off(member) and member.pk not in signed,
        "error": error,
        "reason": reason,
        "reason_max": REASON_MAX_LENGTH,
    }
    return render(request, "league/closing/season_close.html", context, status=status)


@member_required
def season_close_page(request: ClubRequest, year: int) -> HttpResponse:
    """The wizard: what is open, the close and reopen forms, the signatures."""
    return _page(request, year)


@require_POST
@secretary_required
def season_close_action(request: ClubRequest, year: int) -> HttpResponse:
    """Close the season (a confirmation box when evenings or Runden are open)."""
    season = club_season(request.club, year)
    try:
        season_close(season=season, by=request.member, confirm=request.POST.get("confirm") == "1")
    except BooksError as exc:
        return _page(request, year, error=exc.message, status=exc.status)
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
        return _page(request, year, error=exc.message, reason=reason, status=exc.status)
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
        return _page(request, year, error=exc.message, status=exc.status)
    messages.success(request, _("Your signature is recorded."))
    return redirect("season_close", year=year)
