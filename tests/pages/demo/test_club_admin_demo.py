"""The demo club (league/management/commands/demo.py): a second secretary
and a guest with logins, so the club pages can be tried with every role; running the
command again changes nothing. The demo is built once for tests/pages/demo (conftest.py)."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.club.models import LoginClub, Member

# The package's tests on one xdist worker (`make test`: --dist loadgroup), so the demo is
# built once, and early: a group is sent before the single tests.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]

TODAY = datetime.date(2026, 3, 20)


def test_the_demo_has_two_secretaries_and_a_guest_with_logins(demo_output, client):
    assert "carla / schocken" in demo_output
    # The demo club's (the second demo club keeps other statutes and its own secretary).
    secretaries = Member.objects.filter(
        club__name="Schockclub Demo", is_secretary=True, user__isnull=False
    )
    assert sorted(secretaries.values_list("user__username", flat=True)) == ["carla", "sekretaer"]
    assert Member.objects.get(user__username="gustav").is_guest
    client.post(reverse("login"), {"username": "carla", "password": "schocken"})
    assert client.get(reverse("club_logins")).status_code == 200
    client.post(reverse("logout"))
    client.post(reverse("login"), {"username": "gustav", "password": "schocken"})
    assert "Was ich schulde" in client.get(reverse("home")).content.decode()
    assert client.get(reverse("club_members")).status_code == 403


def test_every_login_of_the_demo_is_recorded_in_its_persons_club(demo_output):
    # league.club.services.member_login_set: the demo's logins are of both its clubs.
    people = Member.objects.filter(user__isnull=False)
    logins = dict(LoginClub.objects.values_list("user_id", "club_id"))
    assert {person.user_id: person.club_id for person in people} == logins
    assert len(set(logins.values())) == 2


def test_running_the_demo_again_changes_nothing(demo_output):
    before = list(Member.objects.values_list("name", "is_secretary", "user__username"))
    out = io.StringIO()
    call_command("demo", today=TODAY, stdout=out)
    assert list(Member.objects.values_list("name", "is_secretary", "user__username")) == before
    assert "carla / schocken" in out.getvalue()


def test_the_demo_names_the_address_it_is_served_at(demo_output, settings):
    assert "Open http://127.0.0.1:8000/ and log in." in demo_output
    out = io.StringIO()
    settings.DEMO_ALLOWED = False  # a throwaway database with DEBUG off: forced
    call_command("demo", today=TODAY, url="http://schock.local:9000/", force=True, stdout=out)
    assert out.getvalue().rstrip().endswith("Open http://schock.local:9000/ and log in.")


def test_the_demo_club_has_a_bank_account_so_a_member_can_pay_by_girocode(demo_output, client):
    anna = Member.objects.get(club__name="Schockclub Demo", name="Anna Becker")
    client.force_login(anna.user)
    response = client.get(f"/api/v1/members/{anna.pk}/girocode.png")
    assert response.status_code == 200
    assert response.content.startswith(b"\x89PNG")
