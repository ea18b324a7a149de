"""League pages: home, season standings, a member's Marks and Runden (issue 2 item 6).

Every page needs a login and shows the user's own club only (league.access). Figures come
from the selectors; the views only pick the season and render.
"""

from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.evenings.selectors import evening_list
from league.club.access import member_for_user, member_required
from league.club.models import Member, Season
from league.club.selectors import club_season
from league.runden.selectors import season_runden
from league.standings.selectors import member_dues, season_standings


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Redirect to the current season's standings (a page that says so if there is none).
    A login without a club goes to the admin when it is staff, else is told so."""
    member = member_for_user(request.user)
    if member is None:
        if request.user.is_staff:
            return redirect("admin:index")
        return render(request, "league/home.html", {"no_club": True})
    season = club_season(member.club)
    if season is None:
        return render(request, "league/home.html")
    return redirect("season_standings", year=season.year)


@member_required
def standings(request: HttpRequest, year: int) -> HttpResponse:
    """The season's table (shared places, guests apart, totals) and its evenings."""
    season = club_season(request.club, year)
    context = {
        "season": season,
        "seasons": Season.objects.filter(club=request.club).order_by("-year"),
        "standings": season_standings(season=season),
        "evenings": evening_list(season=season),
    }
    return render(request, "league/standings.html", context)


@member_required
def my_dues(request: HttpRequest) -> HttpResponse:
    """The logged-in person's Marks of the current season."""
    season = club_season(request.club)
    if season is None:
        raise Http404
    return redirect("member_dues", year=season.year, member_id=request.member.pk)


@member_required
def dues(request: HttpRequest, year: int, member_id: int) -> HttpResponse:
    """A person's Marks and money evening by evening, and the Runden owed, in a season.
    Members see their own; the secretary sees everyone's (403 for others)."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    if person != request.member and not request.member.is_secretary:
        raise PermissionDenied
    season = club_season(request.club, year)
    lines = member_dues(member=person, season=season)
    context = {
        "season": season,
        "person": person,
        "lines": lines,
        "marks_total": sum(line.marks for line in lines),
        "money_total": sum((line.money for line in lines), start=Decimal("0.00")),
        "runden": [r for r in season_runden(season=season) if r["thrower_id"] == person.pk],
        "seasons": Season.objects.filter(club=request.club).order_by("-year"),
        "people": Member.objects.filter(club=request.club) if request.member.is_secretary else (),
    }
    return render(request, "league/dues.html", context)
