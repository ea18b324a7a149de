"""The home page: what a person of the club owes at a glance.

A member sees the open amount (charged minus paid, per currency: DM and EUR are never
added, from the ledger's balance selector) and the Runden they still owe in the current season
(league.runden.selectors), with the season's table, their Marks and their statement one
tap away. The secretary also sees the club's first steps while the club is still empty
(season, people, logins, first evening), so a club can be set up without the admin.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from games.evenings.models import Evening
from games.evenings.selectors import TONIGHT_UNTIL_HOUR, club_evening_tonight
from league.club.access import ClubRequest, member_for_user
from league.club.caching import KeptRead
from league.club.models import Member
from league.club.selectors import club_season
from league.ledger.selectors import (
    member_open_by_currency,
)
from league.runden.selectors import season_runden_owed

#: Tonight's evening: the club's books (the call adds the club's day and whether it is
#: still last night's).
EVENING_TONIGHT = KeptRead("evening_tonight", depends=("books",))
#: What the home page shows of the books for the person (the call adds the season's id).
HOME_FIGURES = KeptRead("home", depends=("books", "person"))
#: Whether the club has an evening yet (the first steps).
CLUB_HAS_EVENING = KeptRead("club_has_evening", depends=("books",))


@login_required
def home(request: ClubRequest) -> HttpResponse:
    """The person's home: tonight's evening while there is one (the evening dated today,
    or after midnight the one of the night before), open amount per currency, Runden owed
    in the current season, links on. A login without a club goes to the admin when it is
    staff, else is told so; a club without a season shows its first steps."""
    member = member_for_user(request.user)
    if member is None:
        if request.user.is_staff:
            return redirect("admin:index")
        return render(request, "league/home.html", {"no_club": True})
    request.user.member = member  # the template's `membership`: no second read
    season = club_season(member.club)
    # The person's figures are kept by the club's books version: a payment, a
    # game or a Runde given moves it, so nothing shown is stale.
    context: dict[str, object] = {
        "person": member,
        "season": season,
        "first_steps": _first_steps(member, has_season=season is not None),
    }
    now = timezone.now()
    local = timezone.localtime(now)
    # Kept per books version and the club's day (and whether it is still last night's).
    context["tonight"] = EVENING_TONIGHT.cached(
        local.date().isoformat(),
        local.hour < TONIGHT_UNTIL_HOUR,
        club=member.club,
        build=lambda: club_evening_tonight(club=member.club, now=now),
    )
    if season is None:
        return render(request, "league/home.html", context)
    context.update(
        HOME_FIGURES.cached(
            season.pk, club=member.club, member=member, build=lambda: _figures(member, season)
        )
    )
    return render(request, "league/home.html", context)


def _figures(member: Member, season) -> dict[str, list]:
    """What the home page shows of the books for `member` in `season`: open amounts and
    credits per currency (Decimal, DM and EUR apart) and the Runden still owed."""
    owed = season_runden_owed(season=season, thrower_id=member.pk)
    balances = sorted(member_open_by_currency(member=member).items())
    return {
        # Charged minus paid per currency: positive is open, negative a credit.
        "open_amounts": [(c, amount) for c, amount in balances if amount > 0],
        "credits": [(c, -amount) for c, amount in balances if amount < 0],
        "runden_open": [r for r in owed if r["given_on"] is None],
    }


def _first_steps(member: Member, *, has_season: bool) -> dict[str, bool] | None:
    """For the secretary of a club without an evening yet: which first steps are done
    (a season, people beside the secretary, logins beside the secretary's). None for a
    member, and once the club has an evening (kept by the books version: a new evening
    moves it)."""
    if not member.is_secretary:
        return None
    has_evening = CLUB_HAS_EVENING.cached(
        club=member.club,
        build=lambda: Evening.objects.filter(club_id=member.club_id).exists(),
    )
    if has_evening:
        return None
    others = Member.objects.filter(club_id=member.club_id).exclude(pk=member.pk)
    return {
        "season": has_season,
        "people": others.exists(),
        "logins": others.filter(user__isnull=False).exists(),
    }
