"""The session's login is read with its person and club in one query
(league/club/accounts/backends.py, league/club/compiled_read.py), and never stale."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.club.access import NOT_READ, member_read_with_login
from league.club.accounts.backends import LOGIN_BACKEND, LoginBackend
from league.club.compiled_read import CompiledRead
from league.club.models import Club, Member
from league.club.scoping import across_clubs
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    club = ClubFactory(name="Schockclub Hasenheide")
    SeasonFactory(club=club)
    user = UserFactory(username="anna")
    MemberFactory(club=club, name="Anna", user=user)
    return user


def test_the_login_its_person_and_club_are_one_query(anna, django_assert_num_queries):
    with django_assert_num_queries(1):
        user = LoginBackend().get_user(anna.pk)
        member = member_read_with_login(user)
        assert (member.name, member.club.name) == ("Anna", "Schockclub Hasenheide")


def test_a_login_without_a_person_is_read_as_such(django_assert_num_queries):
    operator = UserFactory(username="operator")
    with django_assert_num_queries(1):
        user = LoginBackend().get_user(operator.pk)
        assert member_read_with_login(user) is None


def test_no_login_for_an_unknown_or_inactive_id_or_one_that_is_no_key(anna):
    backend = LoginBackend()
    assert backend.get_user(anna.pk + 1000) is None
    assert backend.get_user("not a number") is None
    get_user_model().objects.filter(pk=anna.pk).update(is_active=False)
    assert backend.get_user(anna.pk) is None


def test_each_read_shows_the_person_and_club_as_they_are_now(anna):
    with across_clubs():
        Member.objects.filter(user=anna).update(name="Anna B.")
        Club.objects.update(name="Schockclub Kreuzberg")
    member = member_read_with_login(LoginBackend().get_user(anna.pk))
    assert (member.name, member.club.name) == ("Anna B.", "Schockclub Kreuzberg")


def test_a_user_object_not_read_by_the_backend_is_not_trusted(anna):
    assert member_read_with_login(get_user_model().objects.get(pk=anna.pk)) is NOT_READ


def test_a_page_reads_the_person_once_with_the_login(anna):
    client = Client()
    client.force_login(anna, backend=LOGIN_BACKEND)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    logins = [q["sql"] for q in queries if 'FROM "auth_user"' in q["sql"]]
    # (the page's own reads of the club's people are not the login's)
    people = [q["sql"] for q in queries if '"league_member"."user_id" =' in q["sql"]]
    assert len(logins) == 1 and '"league_member"' in logins[0] and '"league_club"' in logins[0]
    assert people == []


def test_a_compiled_read_takes_exactly_one_parameter():
    read = CompiledRead(
        Member, lambda alias: Member.objects.using(alias).filter(pk=0, name="x"), placeholder=0
    )
    with across_clubs(), pytest.raises(RuntimeError):
        read.read(1)
