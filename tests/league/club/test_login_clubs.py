"""Every writer of a person's login records the login's club (`LoginClub`, written by
`league.club.services.member_login_set` / `login_clubs_set`): on PostgreSQL the person's
`(user_id, club_id)` refers to it (league migration 0030), so a writer that forgot it
would fail at commit. Each test checks the row and the deferred constraints at once
(the demo's: tests/pages/demo/test_club_admin_demo.py)."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.backup.selectors import club_backup
from league.backup.services import club_restore
from league.club.models import Club, IdempotencyKey, LoginClub, Member
from league.club.services import (
    login_create,
    login_invitation,
    member_create,
    member_login_set,
    member_merge,
)
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.league.backup.conftest import full_club
from tests.league.backup.figures import delete_club

__all__ = ["full_club"]  # the fixture, imported for these tests

pytestmark = pytest.mark.django_db

PASSWORD = "Wuerfelbecher-1987"


def _club_of(user: User) -> int:
    """The club LoginClub names for `user`, after the deferred constraints were checked
    as the commit checks them (PostgreSQL)."""
    connection.check_constraints()
    return LoginClub.objects.get(user=user).club_id


def test_a_login_created_for_a_person_and_accepted_by_invitation_is_of_the_persons_club():
    person = member_create(club=ClubFactory(name="Heimclub"), name="Frank Roth")
    login = login_create(person=person, username="frank")
    assert _club_of(login) == person.club_id
    uidb64, token = login_invitation(person=person)
    link = reverse("login_invitation_accept", args=[uidb64, token])
    response = Client().post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    assert Member.objects.get(pk=person.pk).password_set_by_holder
    assert _club_of(login) == person.club_id


def test_a_duplicates_login_moving_over_in_a_merge_stays_of_the_club():
    club = ClubFactory(name="Heimclub")
    kept = MemberFactory(club=club, name="Gustav Meier")
    twice = MemberFactory(club=club, name="G. Meier", user=UserFactory(username="gmeier"))
    login = twice.user
    merged = member_merge(source=twice, target=kept)
    assert merged.user == login
    assert _club_of(login) == club.pk


def test_the_admin_hands_a_login_over_to_a_person_of_another_club(client):
    first = MemberFactory(
        club=ClubFactory(name="Erster Club"), name="Anna", user=UserFactory(username="anna")
    )
    login = first.user
    member_login_set(person=first, user=None)  # taken from Anna first, as the admin would
    second = MemberFactory(club=ClubFactory(name="Zweiter Club"), name="Berta")
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:league_member_change", args=[second.pk]),
        {"club": second.club_id, "name": "Berta", "kind": "member", "active": "on"}
        | {"user": login.pk},
    )
    assert response.status_code == 302
    assert Member.objects.get(user=login) == second
    assert _club_of(login) == second.club_id


def test_the_admin_deletes_a_persons_login_and_its_club_row_with_it(client):
    # LoginClub is not in the admin: registered, it would ask for a permission to delete
    # it along with the login. The idempotency keys' admin is read-only: a login that
    # wrote through the API is deleted with its keys all the same.
    anna = MemberFactory(
        club=ClubFactory(name="Heimclub"), name="Anna", user=UserFactory(username="anna")
    )
    login_id = anna.user_id
    IdempotencyKey.objects.create(
        user=anna.user, club=anna.club, key="k-1", fingerprint="f", created_at=timezone.now()
    )
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    response = client.post(reverse("admin:auth_user_delete", args=[login_id]), {"post": "yes"})
    assert response.status_code == 302
    connection.check_constraints()
    assert Member.objects.get(pk=anna.pk).user_id is None
    assert not LoginClub.objects.filter(user_id=login_id).exists()
    assert not IdempotencyKey.objects.filter(user_id=login_id).exists()


def test_a_club_signing_up_gets_its_secretarys_login_in_the_new_club(client, settings):
    settings.SIGNUP_OPEN = True
    settings.SITE_URL = "https://schock.example.org"
    client.post(
        reverse("club_signup"),
        {
            "name": "Kegelfreunde Nord",
            "secretary_name": "Erika Nord",
            "email": "kasse@nord.example",
        },
    )
    path = re.search(r"https://schock\.example\.org(/registrieren/\S+/)", mail.outbox[-1].body)
    assert path, mail.outbox[-1].body
    response = client.post(path.group(1), {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    club = Club.objects.get(name="Kegelfreunde Nord")
    assert _club_of(User.objects.get(username="kasse@nord.example")) == club.pk


def test_a_restored_clubs_logins_are_of_the_restored_club(full_club):
    club = Club.objects.get(name=full_club)
    logins = set(
        Member.objects.filter(club=club, user__isnull=False).values_list(
            "user__username", flat=True
        )
    )
    assert logins
    data = club_backup(club=club)
    delete_club(full_club)
    assert not LoginClub.objects.filter(user__username__in=logins).exists()
    club_restore(data=data)
    for username in logins:
        assert _club_of(User.objects.get(username=username)) == club.pk, username


@pytest.mark.django_db(transaction=True)
def test_the_migration_records_the_club_of_every_persons_login_written_before_it():
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    migration = executor.loader.get_migration("league", "0030_login_clubs")
    before = [key for key in migration.dependencies if key[0] == "league"]
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        club = old.get_model("league", "Club").objects.create(name="Altclub")
        login = old.get_model("auth", "User").objects.create(username="alt")
        people = old.get_model("league", "Member").objects
        people.create(club=club, name="Anna", user=login)
        people.create(club=club, name="Bernd")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert list(LoginClub.objects.values_list("user_id", "club_id")) == [(login.pk, club.pk)]
    connection.check_constraints()
