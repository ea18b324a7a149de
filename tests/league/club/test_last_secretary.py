"""The club always keeps one active secretary who can log in (league/club/services.py):
taking the role from, deactivating, or locking the login of the last one is refused with
`last_secretary`, also when two secretaries do it to each other at the same moment (the
services lock the club's row before they count)."""

import threading

import pytest
from django.db import connection
from django.test import Client

from league.club.errors import BooksError
from league.club.models import Club, Member
from league.club.scoping import across_clubs
from league.club.services import login_lock, member_update, secretary_set
from tests.factories import MemberFactory, UserFactory


def _two_secretaries() -> tuple[Member, Member]:
    club = Club.objects.create(name="Heimclub")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    carla = MemberFactory(
        club=club, name="Carla Vogt", is_secretary=True, user=UserFactory(username="carla")
    )
    return bernd, carla


@pytest.mark.django_db
def test_deactivating_the_last_secretary_is_refused():
    bernd, carla = _two_secretaries()
    secretary_set(person=carla, is_secretary=False)
    with pytest.raises(BooksError) as refused:
        member_update(member=bernd, active=False)
    assert (refused.value.code, refused.value.status) == ("last_secretary", 409)
    bernd.refresh_from_db()
    assert bernd.active


@pytest.mark.django_db
def test_an_inactive_secretary_does_not_count_as_the_one_left():
    bernd, carla = _two_secretaries()
    member_update(member=carla, active=False)
    with pytest.raises(BooksError) as refused:
        secretary_set(person=bernd, is_secretary=False)
    assert refused.value.code == "last_secretary"


def _at_once(*actions) -> list:
    """Run each action in its own thread and connection, released at one barrier; what
    each answered ("done", the BooksError's code, or another exception's repr)."""
    barrier = threading.Barrier(len(actions))
    results: list = [None] * len(actions)

    def run(index, action):
        with across_clubs():  # a thread starts without the test's scope
            try:
                barrier.wait()
                action()
                results[index] = "done"
            except BooksError as exc:
                results[index] = exc.code
            except Exception as exc:  # shown in the assertion, not lost
                results[index] = repr(exc)
            finally:
                connection.close()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _active_secretaries(club_id: int) -> int:
    return Member.objects.filter(
        club_id=club_id, is_secretary=True, active=True, user__is_active=True
    ).count()


# Real threads against PostgreSQL, whose row lock (`select_for_update` on the club) is what
# is tested; SQLite serialises every writer anyway, so there it would prove nothing.
needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL row locks (CI runs on PostgreSQL; set DATABASE_URL)",
)


@pytest.mark.parametrize("trial", range(6))
@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_two_secretaries_taking_each_others_role_at_once_leave_one(trial):
    bernd, carla = _two_secretaries()
    results = _at_once(
        lambda: secretary_set(person=carla, is_secretary=False),
        lambda: secretary_set(person=bernd, is_secretary=False),
    )
    assert sorted(results) == ["done", "last_secretary"]
    assert _active_secretaries(bernd.club_id) == 1


@pytest.mark.parametrize("trial", range(6))
@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_two_secretaries_locking_each_others_login_at_once_leave_one(trial):
    bernd, carla = _two_secretaries()
    results = _at_once(
        lambda: login_lock(person=carla, locked=True),
        lambda: login_lock(person=bernd, locked=True),
    )
    assert sorted(results) == ["done", "last_secretary"]
    assert _active_secretaries(bernd.club_id) == 1


@pytest.mark.django_db
def test_a_secretary_cannot_lock_their_own_login_but_another_secretary_can():
    from rest_framework.test import APIClient

    bernd, carla = _two_secretaries()
    api = APIClient()
    api.force_authenticate(bernd.user)
    refused = api.post(f"/api/v1/logins/{bernd.pk}/lock/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "own_login"
    bernd.user.refresh_from_db()
    assert bernd.user.is_active

    page = Client()
    page.force_login(bernd.user)
    answer = page.post(
        f"/verein/personen/{bernd.pk}/aendern/", {"action": "lock", "back": "logins"}, follow=True
    )
    assert "Du kannst deinen eigenen Zugang nicht sperren" in answer.content.decode()
    bernd.user.refresh_from_db()
    assert bernd.user.is_active

    assert api.post(f"/api/v1/logins/{carla.pk}/lock/").status_code == 200
    carla.user.refresh_from_db()
    assert not carla.user.is_active
