"""The Kassenprüfer is independent of the secretary (league/closing/services.py): the
sign-off is refused for a login whose password its holder did not set
(`auditor_password_not_own`) and for anyone who was a secretary at any time during the
season's dates, read from the person's audit history (`auditor_was_secretary`)."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from league.closing.models import SeasonSignOff
from league.closing.services import season_close, season_sign_off
from league.club.errors import BooksError
from league.club.services import member_update

pytestmark = pytest.mark.django_db


def _at(day: datetime.date):
    return time_machine.travel(
        datetime.datetime.combine(
            day, datetime.time(20, 0), tzinfo=timezone.get_default_timezone()
        ),
        tick=False,
    )


def _refusal(books, auditor) -> BooksError:
    season_close(season=books.season, by=books.secretary, confirm=True)
    with pytest.raises(BooksError) as refused:
        season_sign_off(season=books.season, auditor=auditor)
    return refused.value


def test_a_login_whose_password_its_holder_did_not_set_does_not_sign(books):
    books.auditor.password_set_by_holder = False
    books.auditor.save(update_fields=["password_set_by_holder"])
    refused = _refusal(books, books.auditor)
    assert (refused.code, refused.status) == ("auditor_password_not_own", 403)
    assert "nicht du selbst gesetzt" in refused.message
    assert not SeasonSignOff.objects.exists()


def test_a_secretary_of_part_of_the_season_does_not_sign(books):
    season = books.season
    with _at(season.starts_on + datetime.timedelta(days=30)):
        member_update(member=books.auditor, is_secretary=True)
    with _at(season.starts_on + datetime.timedelta(days=60)):
        member_update(member=books.auditor, is_secretary=False)
    refused = _refusal(books, books.auditor)
    assert (refused.code, refused.status) == ("auditor_was_secretary", 403)
    assert "in dieser Saison Buchführer" in refused.message
    assert not SeasonSignOff.objects.exists()


def test_a_secretary_until_the_seasons_first_day_does_not_sign(books):
    season = books.season
    with _at(season.starts_on - datetime.timedelta(days=100)):
        member_update(member=books.auditor, is_secretary=True)
    with _at(season.starts_on):
        member_update(member=books.auditor, is_secretary=False)
    assert _refusal(books, books.auditor).code == "auditor_was_secretary"
