"""A restore forgets what the cache kept: the restored
seasons take their data versions back from the backup, so the versions the club reaches
after the restore were reached before, with other books. Without forgetting, the
standings kept under such a version before the restore would be served again.

Outside a transaction (`transaction=True`): inside one nothing is kept, and the restore's
forgetting runs when it commits.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from games.evenings.services import evening_create, game_record
from league.backup.selectors import (
    club_backup,
)
from league.backup.services import (
    club_restore,
)
from league.club import caching
from league.club.models import Club, Member, Season
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.league.backup.figures import delete_club

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Schockclub Wiederkehr"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _standings(user) -> dict:
    client = Client()
    client.force_login(user)
    season = Season.objects.get(club__name=NAME, year=2026)
    response = client.get(f"/api/v1/seasons/{season.pk}/standings/")
    assert response.status_code == 200
    return response.json()


def _people():
    bernd = Member.objects.get(club__name=NAME, name="Bernd Krause")
    anna = Member.objects.get(club__name=NAME, name="Anna Becker")
    return bernd, anna


def test_after_a_restore_the_books_are_read_again_not_the_kept_ones():
    club = ClubFactory(name=NAME)
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=bernd,
        present_members=[bernd, anna],
    )
    game_record(evening=evening, loser=anna)
    backup = club_backup(club=Club.objects.get(pk=club.pk))
    # After the backup: Bernd loses one more; the standings are read and kept.
    game_record(evening=evening, loser=bernd)
    before = _standings(anna.user)

    delete_club(NAME)
    club_restore(data=backup)
    # The same version number again, with other books: Anna loses the second game.
    bernd, anna = _people()
    game_record(evening=bernd.club.evenings.get(), loser=anna)
    after = _standings(get_user_model().objects.get(username="anna"))
    cache.clear()
    fresh = _standings(get_user_model().objects.get(username="anna"))
    assert after == fresh
    assert after != before


def test_forgetting_removes_the_kept_reads_and_nothing_else():
    cache.set("session-like-key", "kept")
    caching.books_cached("a read", "1-2-3", build=lambda: "value")
    assert cache.get(caching.books_cache_key("a read", "1-2-3")) == "value"
    assert caching.books_cache_forget() >= 1
    assert cache.get(caching.books_cache_key("a read", "1-2-3")) is None
    assert cache.get("session-like-key") == "kept"


def test_the_command_forgets_the_kept_reads():
    from io import StringIO

    from django.core.management import call_command

    caching.books_cached("a read", "4-5-6", build=lambda: "value")
    out = StringIO()
    call_command("forget_kept_reads", stdout=out)
    assert "kept reads forgotten" in out.getvalue()
    assert cache.get(caching.books_cache_key("a read", "4-5-6")) is None
