"""tests/copied.py: a fixture built once through the services and then copied leaves the
same rows and objects as building it again, and builds again where a copy would differ."""

import datetime

import pytest
from django.db import transaction

from games.evenings.models import Evening, Game
from games.evenings.services import evening_create, game_record
from league.club.models import Club, Member
from league.club.services import member_create, season_create
from tests import copied as copied_module
from tests.copied import copied, copy_possible

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 10, 9)


def _build():
    club = Club.objects.create(name="Kopierclub")
    season_create(club=club, year=2026)
    anna = member_create(club=club, name="Anna Becker", is_secretary=True)
    bernd = member_create(club=club, name="Bernd Krause")
    evening = evening_create(club=club, date=DATE, secretary=anna, present_members=[anna, bernd])
    game = game_record(evening=evening, loser=bernd, schock_aus_throwers=[anna])
    return club, evening, game


def _books():
    """What the copy must reproduce: the club's rows as the models read them."""
    return {
        "members": list(Member.objects.values_list("id", "name", "club_id").order_by("id")),
        "evenings": list(Evening.objects.values().order_by("id")),
        "games": list(Game.objects.values().order_by("id")),
    }


@pytest.fixture
def fresh_copies(monkeypatch):
    if not copy_possible():
        pytest.skip("COPY needs PostgreSQL as a superuser: the fixtures are built each time")
    monkeypatch.setattr(copied_module, "_copies", {})
    calls = []

    def counted():
        calls.append(1)
        return _build()

    return counted, calls


def test_a_copy_writes_the_rows_and_returns_the_objects_of_the_build(fresh_copies):
    build, calls = fresh_copies
    with transaction.atomic():  # rolled back, as a test's transaction is
        club, evening, game = copied("test club", build)
        first = _books()
        transaction.set_rollback(True)
    assert first["games"] and calls == [1]
    assert _books() == {"members": [], "evenings": [], "games": []}
    club_again, evening_again, game_again = copied("test club", build)
    assert calls == [1]  # copied, not built again
    assert _books() == first
    assert (club_again.pk, evening_again.pk, game_again.pk) == (club.pk, evening.pk, game.pk)
    assert game_again.loser.name == "Bernd Krause"


def test_a_database_that_held_other_rows_gets_a_build_not_a_copy(fresh_copies):
    build, calls = fresh_copies
    with transaction.atomic():
        copied("test club", build)
        transaction.set_rollback(True)
    Club.objects.create(name="Schon da")
    copied("test club", build)
    assert calls == [1, 1]


def test_a_build_that_changes_rows_that_were_there_is_built_each_time(fresh_copies):
    copied_module._copies.clear()
    there = Club.objects.create(name="Vorher")
    calls = []

    def renaming():
        calls.append(1)
        Club.objects.filter(pk=there.pk).update(name="Nachher")
        return there.pk

    copied("renaming", renaming)
    assert Club.objects.get(pk=there.pk).name == "Nachher"
    Club.objects.filter(pk=there.pk).update(name="Vorher")
    copied("renaming", renaming)
    assert len(calls) == 3  # the first build (rolled back), its repetition, and again


def test_a_build_that_breaks_a_deferred_foreign_key_fails_at_once(fresh_copies):
    # A person's login given without its club row (league migration 0030): PostgreSQL
    # checks that key at commit only, and the copies are written with the checks off.
    from django.db import IntegrityError

    from tests.factories import UserFactory

    def careless():
        club = Club.objects.create(name="Sorglos")
        anna = member_create(club=club, name="Anna Becker")
        Member.objects.filter(pk=anna.pk).update(user=UserFactory(username="sorglos"))
        return anna.pk

    with pytest.raises(IntegrityError, match="league_member_user_club_fk"):
        copied("careless", careless)
