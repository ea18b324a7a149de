"""Pages of the championship: home (on to the current season), a season's standings, a
person's Marks and Runden owed in a season.

Every page needs a login and shows the user's own club only (league/club/access.py).
Figures come from league/standings/selectors.py; the views only pick the season and render.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.evenings.selectors import evening_list
from league.club.access import ClubRequest, member_for_user, member_required
from league.club.models import Member
from league.club.selectors import club_people, club_season, club_seasons
from league.standings.selectors import member_dues, season_standings


@login_required
def home(request: ClubRequest) -> HttpResponse:
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
def standings(request: ClubRequest, year: int) -> HttpResponse:
    """The season's table (shared places, guests apart, totals) and its evenings."""
    season = club_season(request.club, year)
    context = {
        "season": season,
        "seasons": club_seasons(club=request.club),
        "standings": season_standings(season=season),
        "evenings": evening_list(season=season),
    }
    return render(request, "league/standings.html", context)


@member_required
def my_dues(request: ClubRequest) -> HttpResponse:
    """The logged-in person's Marks of the current season."""
    season = club_season(request.club)
    if season is None:
        raise Http404
    return redirect("member_dues", year=season.year, member_id=request.member.pk)


@member_required
def dues(request: ClubRequest, year: int, member_id: int) -> HttpResponse:
    """A person's Marks and money evening by evening, and the Runden owed, in a season.
    Members see their own; the secretary sees everyone's (403 for others)."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    if person != request.member and not request.member.is_secretary:
        raise PermissionDenied
    season = club_season(request.club, year)
    dues = member_dues(member=person, season=season)
    context = {
        "season": season,
        "person": person,
        "lines": dues.lines,
        "marks_total": dues.marks_total,
        "money_total": dues.money_total,
        "runden": dues.runden,
        "seasons": club_seasons(club=request.club),
        "people": club_people(club=request.club) if request.member.is_secretary else (),
    }
    return render(request, "league/dues.html", context)
