"""Pages of the championship: a season's standings, a person's Marks and Runden owed in a
season (the home page is league/standings/home.py).

Every page needs a login and shows the user's own club only (league/club/access.py).
Figures come from league/standings/selectors.py; the views only pick the season and render.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.evenings.selectors import EVENING_LIST, evening_list
from league.club.access import ClubRequest, member_required
from league.club.caching import KeptRead, books_page, season_page_state
from league.club.models import Member
from league.club.selectors import club_people, club_season, club_seasons
from league.standings.all_time import all_time_standings
from league.standings.selectors import member_dues, season_standings


class SeasonPageRequest(ClubRequest):
    """A season page's request: `_season_state` leaves the report's state on it."""

    season_state: str


def _season_state(request: SeasonPageRequest, year: int) -> str:
    """The season report's state (it shows on the page, and changes without the books).
    Leaves the season and that state on the request for the view."""
    if getattr(request, "season", None) is None:
        request.season = club_season(request.club, year)
    request.season_state = season_page_state(season=request.season)
    return request.season_state


#: A season's table (the call adds the season's id).
SEASON_STANDINGS = KeptRead("season_standings", depends=("books",))
#: The standings page's books part: the books, the role and the season report's state
#: (`_season_state`); the call adds the season's id.
STANDINGS_BODY = KeptRead("standings_body", depends=("books", "role", "season_state"))
#: A person's Marks page's books part: the books and the role; the call adds the season's
#: and person's ids, the person's name and whether it is the viewer's own.
DUES_BODY = KeptRead("dues_body", depends=("books", "role"))
#: The all-time table's books part.
ALL_TIME_BODY = KeptRead("all_time_body", depends=("books",))


@member_required
@books_page(extra=_season_state, season_year="year")
def standings(request: ClubRequest, year: int) -> HttpResponse:
    """The season's table (shared places, guests apart, totals) and its evenings.

    The books part of the page (league/_standings_body.html: switcher, table, evenings) is
    rendered once per club books version, season, role (secretary or not), report state and
    language and kept in the cache (the whole club opens the table at
    once); a hit renders only the page's frame (navigation, who is logged in, the CSRF
    token of the logout form), whose parts differ per user. Nothing per user goes into
    the kept part."""
    season = getattr(request, "season", None) or club_season(request.club, year)
    is_secretary = request.member.is_secretary

    def body() -> str:
        context = {
            "season": season,
            "seasons": list(club_seasons(club=request.club)),
            "is_secretary": is_secretary,
            "standings": SEASON_STANDINGS.cached(
                season.pk, request=request, build=lambda: season_standings(season=season)
            ),
            "evenings": EVENING_LIST.cached(
                season.pk, request=request, build=lambda: evening_list(season=season)
            ),
        }
        return render_to_string("league/_standings_body.html", context)

    # The report's state: `_season_state` left it on the request (a POST, or a request
    # without the decorator's extra, reads it for the key: "season_state").
    html = STANDINGS_BODY.cached(season.pk, request=request, season=season, build=body)
    context = {"season": season, "body": mark_safe(html)}  # our own render
    return render(request, "league/standings.html", context)


@member_required
def my_dues(request: ClubRequest) -> HttpResponse:
    """The logged-in person's Marks of the current season."""
    season = club_season(request.club)
    if season is None:
        raise Http404
    return redirect("member_dues", year=season.year, member_id=request.member.pk)


@member_required
@books_page(season_year="year")
def dues(request: ClubRequest, year: int, member_id: int) -> HttpResponse:
    """A person's Marks and money evening by evening, and the Runden owed, in a season.
    Members see their own; the secretary sees everyone's (403 for others).

    The season is read with the books version (`books_page`); the page's books part
    (league/_dues_body.html) is rendered once per books version, season, person, role and
    whether it is the viewer's own and kept (`KeptRead.fragment`): a repeated read
    renders only the per-user frame."""
    own = member_id == request.member.pk
    person = request.member if own else get_object_or_404(Member, pk=member_id, club=request.club)
    is_secretary = request.member.is_secretary
    if not own and not is_secretary:
        raise PermissionDenied
    season = request.season

    def context() -> dict:
        dues = member_dues(member=person, season=season)
        return {
            "season": season,
            "person": person,
            "is_self": own,
            "lines": dues.lines,
            "marks_total": dues.marks_total,
            "money_total": dues.money_total,
            "runden": dues.runden,
            "seasons": list(club_seasons(club=request.club)),
            "people": list(club_people(club=request.club)) if is_secretary else (),
        }

    body = DUES_BODY.fragment(
        season.pk,
        person.pk,
        person.name,
        own,
        request=request,
        template="league/_dues_body.html",
        context=context,
    )
    return render(request, "league/dues.html", {"season": season, "person": person, "body": body})


@member_required
@books_page()
def all_time(request: ClubRequest) -> HttpResponse:
    """The club's all-time table: every season's table added up, from the
    kept per-season parts (league/standings/all_time.py). Its books part
    (standings/_all_time_table.html) is rendered once per club books version and kept; a
    repeated read renders only the per-user frame."""
    body = ALL_TIME_BODY.fragment(
        request=request,
        template="standings/_all_time_table.html",
        context=lambda: {"standings": all_time_standings(club=request.club)},
    )
    return render(request, "standings/all_time.html", {"body": body})
