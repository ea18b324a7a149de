"""Reads of the club register: a club's seasons, the season or number a page's query names
(the one place that reads whole numbers from a query string; the API's helpers in
league/club/api_common.py use it too), and the check of the dates a season may have, which
the season writers of league/club/services.py run."""

import datetime
from dataclasses import dataclass
from typing import overload

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from games.rules import RuleSet, preset_name
from games.rules.flags import FlagInfo, describe
from league.club.access import ClubRequest
from league.club.errors import BooksError
from league.club.fields import date_refusal, last_year, parse_iso_date
from league.club.models import Club, Member, Season
from league.club.scoping import across_clubs
from league.club.statutes import (
    preset_rules,
    season_rules,
)

ID_MAX = 2**63 - 1
"""The largest id the database stores (a signed 64-bit integer)."""

YEAR_MAX = 9999

VERSION_MAX = 999_999_999
"""The largest version of an evening or game a client may send (If-Match, `version`)."""


def whole_number(raw: str | None, *, maximum: int = ID_MAX) -> int | None:
    """`raw` read as a whole number from 0 to `maximum`, or None when it is not one.

    ASCII digits only: `str.isdigit()` is also True for "²" (which int() refuses) and
    int() reads the digits of other scripts ("١٢"), so neither is a test on its own. The
    bound keeps a number the database cannot store out of every query."""
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(maximum)):
        return None
    value = int(raw)
    return value if value <= maximum else None


@overload
def club_season(club: Club, year: int) -> Season: ...
@overload
def club_season(club: Club, year: None = None) -> Season | None: ...
@overload
def club_season(club: Club, year: int | None) -> Season | None: ...


def club_season(club: Club, year: int | None = None) -> Season | None:
    """The club's season of `year` (never None: an unknown year is a 404); without a year
    the season of today, else the latest one, None when the club has no season yet."""
    seasons = Season.objects.filter(club=club)
    if year is not None:
        return get_object_or_404(seasons, year=year)
    return club_current_season(club=club)


def club_current_season(*, club: Club) -> Season | None:
    """The club's season of today, else its latest; None when it has none."""
    seasons = Season.objects.filter(club=club)
    today = timezone.localdate()
    current = seasons.filter(starts_on__lte=today, ends_on__gte=today).first()
    return current or seasons.order_by("-year").first()


def club_latest_season(*, club: Club) -> Season | None:
    """The club's season of the highest year; None when it has none."""
    return Season.objects.filter(club=club).order_by("-year").first()


def club_season_by_id(*, club: Club, season_id: int) -> Season | None:
    """The club's season with this id; None for an unknown id or another club's season."""
    return Season.objects.filter(club=club, pk=season_id).first()


def query_year(request: HttpRequest, name: str = "saison") -> int | None:
    """The year a page's query names (`?saison=2026`); None when absent or unreadable."""
    return whole_number(request.GET.get(name), maximum=YEAR_MAX)


def season_from_query(request: ClubRequest, *, default_current: bool = False) -> Season | None:
    """The club's season named by ?saison=YYYY (404 if unknown or unreadable); None for
    ?saison=alle or no parameter, unless `default_current`: then the season of today (else
    the latest)."""
    raw = request.GET.get("saison", "")
    if raw == "alle" or (not raw and not default_current):
        return None
    if not raw:
        return club_current_season(club=request.club)
    year = whole_number(raw, maximum=YEAR_MAX)
    if year is None:
        raise Http404
    return get_object_or_404(Season, club=request.club, year=year)


def club_seasons(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, newest first (the pages' season switcher)."""
    return Season.objects.filter(club=club).order_by("-year")


def club_people(*, club: Club) -> QuerySet[Member]:
    """The club's people, members and guests (the secretary's person switcher)."""
    return Member.objects.filter(club=club)


def club_member_by_id(*, club: Club, member_id: int) -> Member | None:
    """The club's person with this id; None for an unknown id or another club's person."""
    return Member.objects.filter(club=club, pk=member_id).first()


@dataclass(frozen=True)
class RuleLine:
    """One flag of a season's rule set as the rules page shows it: the flag's German text
    (``games.rules.FLAGS``), its value here, and its value in the season's Grundlage."""

    flag: FlagInfo
    value: bool | int | str
    basis_value: bool | int | str

    @property
    def is_bool(self) -> bool:
        return isinstance(self.value, bool)

    @property
    def differs(self) -> bool:
        return self.value != self.basis_value


@dataclass(frozen=True)
class SeasonRulesOverview:
    """A season's rule set for the rules page: ``rules``, the preset it equals
    (``preset``, None for the club's own composition), the preset it started from
    (``basis``, the season's ``rule_preset``), and every flag in page order (``lines``)."""

    season: Season
    rules: RuleSet
    preset: str | None
    basis: str
    lines: list[RuleLine]

    @property
    def differences(self) -> list[RuleLine]:
        return [line for line in self.lines if line.differs]

    def group(self, name: str) -> list[RuleLine]:
        return [line for line in self.lines if line.flag.group == name]


def season_rules_overview(*, season: Season) -> SeasonRulesOverview:
    """The season's rule set flag by flag (docs/rules.md 6), with its Grundlage's values beside
    (``season_rules``; no query beyond the season)."""
    rules = season_rules(season)
    basis = preset_rules(season.rule_preset)
    lines = [
        RuleLine(flag=flag, value=value, basis_value=getattr(basis, flag.name))
        for flag, value in describe(rules)
    ]
    return SeasonRulesOverview(
        season=season,
        rules=rules,
        preset=preset_name(rules),
        basis=season.rule_preset,
        lines=lines,
    )


def season_dates_check(
    *,
    club_id: int,
    starts_on: datetime.date,
    ends_on: datetime.date,
    season_id: int | None = None,
) -> None:
    """Refuse dates a season of the club cannot have: a day outside 1900 .. the year after
    next (`season_last_year`; `date_out_of_range`, 400), the last day before the first
    (`dates_unordered`, 400), or days shared with another season of the club
    (`season_overlaps`, 409: an evening belongs to the one season whose dates hold it;
    the database refuses it too, by an exclusion constraint on PostgreSQL, league
    migration 0011). `season_id`: the season being changed (its own dates do not count).
    """
    for day, field in ((starts_on, "starts_on"), (ends_on, "ends_on")):
        if parse_iso_date(day, last=season_last_year()) is None:
            code, message = date_refusal(day, last=season_last_year())
            raise BooksError(code, message, field=field)
    if ends_on < starts_on:
        raise BooksError(
            "dates_unordered", _("The last day lies before the first day."), field="ends_on"
        )
    others = Season.objects.filter(club_id=club_id, starts_on__lte=ends_on, ends_on__gte=starts_on)
    if season_id is not None:
        others = others.exclude(pk=season_id)
    other = others.order_by("starts_on").first()
    if other is not None:
        raise season_overlaps_error(other)


def season_overlaps_error(other: Season | None = None) -> BooksError:
    """`season_overlaps` (409, field "starts_on"): the dates share days with `other`."""
    if other is None:
        message = _("The dates overlap another season of the club.")
    else:
        message = _(
            "The dates overlap the season %(year)s (%(first)s to %(last)s); seasons of a "
            "club never share a day."
        ) % {
            "year": other.year,
            "first": other.starts_on.strftime("%d.%m.%Y"),
            "last": other.ends_on.strftime("%d.%m.%Y"),
        }
    return BooksError("season_overlaps", message, field="starts_on", status=409)


def season_last_year() -> int:
    """The last year a season (its year and its days) may have: the year after next, so
    closing next year's season, prepared ahead, can open the one after it for the
    carry-over (league.closing). Every other date of the books ends next year."""
    return last_year() + 1


# --- the secret calendar link ----------------------------------------------------------

_CALENDAR_SALT = "league.club.calendar"


def _calendar_signature(member_id: int, version: int) -> str:
    return salted_hmac(_CALENDAR_SALT, f"{member_id}-{version}", algorithm="sha256").hexdigest()[
        :32
    ]


def member_calendar_token(*, member: Member) -> str:
    """The secret part of the person's calendar link: "<id>-<version>-<signature>", the
    signature an HMAC (SHA-256, 128 bits kept) of id and version under the site's
    SECRET_KEY. The same until the person revokes the link
    (league.club.services.member_calendar_revoke moves `calendar_version`)."""
    version = member.calendar_version
    return f"{member.pk}-{version}-{_calendar_signature(member.pk, version)}"


def member_of_calendar_token(*, token: str) -> Member | None:
    """The active person whose current calendar link `token` is (club loaded), or None:
    a malformed, forged or revoked token, an inactive person, a person whose login is
    locked, or a person of a suspended club. One query at most."""
    parts = token.split("-")
    if len(parts) != 3:
        return None
    member_id, version = whole_number(parts[0]), whole_number(parts[1], maximum=VERSION_MAX)
    if not member_id or version is None:
        return None
    if not constant_time_compare(parts[2], _calendar_signature(member_id, version)):
        return None
    with across_clubs():  # the link names its club: the caller opens that club's scope
        return (
            Member.objects.select_related("club")
            .filter(pk=member_id, calendar_version=version, active=True)
            .filter(club__suspended_at__isnull=True)
            .exclude(user__is_active=False)
            .first()
        )
