"""Writing clubs, seasons and members."""

import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.statutes import season_statutes


@transaction.atomic
def season_create(
    *,
    club: Club,
    year: int,
    rule_preset: str | None = None,
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
) -> Season:
    """Create a club's season for `year` (RULES.md section 5): a calendar year unless the
    club gives other dates, the club's rule preset unless another is named, and the Mark's
    value and currency of the year (1.00 DM to 2001, 0.50 EUR from 2002).

    Raises BooksError `season_exists` (409) when the club has that year already.
    """
    value, currency = season_statutes().mark_value(year)
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club,
                year=year,
                rule_preset=rule_preset or club.rule_preset,
                starts_on=starts_on or datetime.date(year, 1, 1),
                ends_on=ends_on or datetime.date(year, 12, 31),
                mark_value=value,
                currency=currency,
            )
    except IntegrityError as exc:
        raise BooksError(
            "season_exists",
            _("The season %(year)s exists already.") % {"year": year},
            field="year",
            status=409,
        ) from exc


def season_get_or_create(*, club: Club, year: int) -> Season:
    """The club's season of `year`, created with the defaults of `season_create` if missing."""
    season = Season.objects.filter(club=club, year=year).first()
    return season or season_create(club=club, year=year)


@transaction.atomic
def member_create(
    *, club: Club, name: str, kind: str = Member.Kind.MEMBER, is_secretary: bool = False
) -> Member:
    """Create a person of the club (a club member or a guest).

    Raises BooksError `name_required` or `member_exists` (409).
    """
    name = " ".join(name.split())
    if not name:
        raise BooksError("name_required", _("Please enter a name."), field="name")
    if Member.objects.filter(club=club, name=name).exists():
        raise BooksError(
            "member_exists",
            _("%(name)s exists already.") % {"name": name},
            field="name",
            status=409,
        )
    return Member.objects.create(club=club, name=name, kind=kind, is_secretary=is_secretary)
