"""First-time guests are created by the evening service, so the entry page
and the API both can: in the evening's transaction, audited, never half."""

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.evenings.models import Evening
from games.evenings.services import evening_create, evening_update
from league.club.accounts.services import api_token_create
from league.club.errors import BooksError
from league.club.models import Member
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 3, 6)


@pytest.fixture
def club():
    club = ClubFactory(name="Schockclub Eintracht")
    season_get_or_create(club=club, year=2026)
    return club


@pytest.fixture
def secretary(club):
    return MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )


@pytest.fixture
def member(club):
    return MemberFactory(club=club, name="Anna Becker")


@pytest.fixture
def guest(club):
    return MemberFactory(club=club, name="Gustav Meier", kind=Member.Kind.GUEST)


@pytest.fixture
def api(secretary):
    client = APIClient()
    _row, token = api_token_create(user=secretary.user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _guests(evening: Evening) -> list[str]:
    return sorted(evening.attendances.filter(role="guest").values_list("member__name", flat=True))


def test_evening_create_makes_a_new_guest_and_seats_them(club, secretary, member):
    evening = evening_create(
        club=club,
        date=DAY,
        secretary=secretary,
        present_members=[secretary, member],
        new_guests=["  Xaver   Huber ", ""],
    )
    xaver = Member.objects.get(club=club, name="Xaver Huber")
    assert (xaver.kind, _guests(evening)) == (Member.Kind.GUEST, ["Xaver Huber"])


def test_a_known_guest_typed_in_other_case_is_not_created_twice(club, secretary, member, guest):
    evening = evening_create(
        club=club,
        date=DAY,
        secretary=secretary,
        present_members=[secretary, member],
        new_guests=["gustav meier"],
    )
    assert Member.objects.filter(club=club, kind="guest").count() == 1
    assert _guests(evening) == ["Gustav Meier"]


def test_new_guest_creation_is_audited_with_the_evening(club, secretary, member):
    evening_create(
        club=club,
        date=DAY,
        secretary=secretary,
        present_members=[secretary, member],
        new_guests=["Xaver Huber"],
    )
    record = Member.history.get(name="Xaver Huber")
    assert (record.history_type, record.kind) == ("+", "guest")


def test_a_refused_evening_leaves_no_new_guest_behind(club, secretary, member):
    with pytest.raises(BooksError) as info:
        evening_create(
            club=club,
            date=DAY,
            secretary=member,  # not present: refused after the guest was made
            present_members=[secretary],
            new_guests=["Xaver Huber"],
        )
    assert info.value.code == "secretary_not_present"
    assert not Member.objects.filter(name="Xaver Huber").exists()


def test_a_new_guest_with_a_club_members_name_is_refused_at_new_guests(club, secretary, member):
    with pytest.raises(BooksError) as info:
        evening_create(
            club=club,
            date=DAY,
            secretary=secretary,
            present_members=[secretary],
            new_guests=["Anna Becker"],
        )
    assert (info.value.code, info.value.field, info.value.status) == (
        "member_exists",
        "new_guests",
        409,
    )
    assert not Evening.objects.exists()


def test_evening_update_adds_new_guests_to_the_kept_ones(club, secretary, member, guest):
    evening = evening_create(
        club=club, date=DAY, secretary=secretary, present_members=[secretary], guests=[guest]
    )
    evening = evening_update(
        evening=evening,
        date=DAY,
        secretary=secretary,
        present_members=[secretary],
        guests=[guest],
        new_guests=["Xaver Huber"],
        expected_version=evening.version,
    )
    assert _guests(evening) == ["Gustav Meier", "Xaver Huber"]


def test_the_entry_page_creates_new_guests_through_the_service(client, club, secretary):
    client.force_login(secretary.user)
    response = client.post(
        reverse("evening_create"),
        {
            "date": DAY.isoformat(),
            "secretary": secretary.pk,
            f"role_{secretary.pk}": "member",
            "new_guests": "Xaver Huber, Yvonne Zeh",
            "notes": "",
        },
    )
    assert response.status_code == 302
    evening = Evening.objects.get(club=club, date=DAY)
    assert _guests(evening) == ["Xaver Huber", "Yvonne Zeh"]
    assert Member.history.get(name="Yvonne Zeh").history_user == secretary.user


def test_the_api_creates_new_guests_on_create(api, club, secretary):
    response = api.post(
        "/api/v1/evenings/",
        {"date": DAY.isoformat(), "present_members": [secretary.pk], "new_guests": ["Xaver"]},
        format="json",
    )
    assert response.status_code == 201
    xaver = Member.objects.get(club=club, name="Xaver")
    assert response.json()["guests"] == [xaver.pk]
    assert Member.history.get(name="Xaver").history_user == secretary.user


def test_the_api_adds_new_guests_on_patch(api, club, secretary, guest):
    evening = evening_create(
        club=club, date=DAY, secretary=secretary, present_members=[secretary], guests=[guest]
    )
    response = api.patch(
        f"/api/v1/evenings/{evening.pk}/",
        {"new_guests": ["Xaver"], "version": evening.version},
        format="json",
    )
    assert response.status_code == 200
    assert _guests(evening) == ["Gustav Meier", "Xaver"]


def test_the_api_refuses_a_new_guest_named_like_a_club_member(api, club, secretary, member):
    response = api.post(
        "/api/v1/evenings/",
        {
            "date": DAY.isoformat(),
            "present_members": [secretary.pk],
            "new_guests": ["Anna Becker"],
        },
        format="json",
    )
    assert (response.status_code, response.json()["code"], response.json()["field"]) == (
        409,
        "member_exists",
        "new_guests",
    )


def test_the_schema_documents_new_guests(api):
    schema = api.get("/api/schema/?format=json").json()
    request = schema["components"]["schemas"]["EveningWriteRequest"]["properties"]
    assert request["new_guests"]["type"] == "array"
    assert "first time" in request["new_guests"]["description"]
