"""PATCH /api/v1/members/{id}/: the people pages' changes through the API (name, kind,
active, secretary), secretary only, under the same service rules, audited, all or
nothing."""

import pytest
from rest_framework.test import APIClient

from league.club.models import Member
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = ClubFactory()
    secretary = MemberFactory(club=club, name="Bernd", is_secretary=True, user=UserFactory())
    guest = MemberFactory(club=club, name="Gustav", kind=Member.Kind.GUEST)
    member = MemberFactory(club=club, name="Anna", user=UserFactory())
    return {"secretary": secretary, "guest": guest, "member": member}


def _client(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person.user)
    return client


def _patch(person, target, body):
    return _client(person).patch(f"/api/v1/members/{target.pk}/", body, format="json")


def test_the_secretary_renames_a_guest_and_makes_them_a_member_in_one_patch(club):
    response = _patch(club["secretary"], club["guest"], {"name": "Gustav Meier", "kind": "member"})
    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["kind"]) == ("Gustav Meier", "member")


def test_a_member_made_a_guest_again_is_refused_as_on_the_pages(club):
    response = _patch(club["secretary"], club["member"], {"kind": "guest"})
    assert (response.status_code, response.json()["code"]) == (400, "member_to_guest")
    assert response.json()["message"] == "Ein Clubmitglied kann nicht wieder Gast werden."


def test_the_clubs_only_secretary_cannot_give_up_the_flag(club):
    response = _patch(club["secretary"], club["secretary"], {"is_secretary": False})
    assert (response.status_code, response.json()["code"]) == (409, "last_secretary")
    assert Member.objects.get(pk=club["secretary"].pk).is_secretary


def test_a_refused_patch_keeps_nothing_of_its_other_fields(club):
    response = _patch(
        club["secretary"], club["guest"], {"name": "Gustav Neu", "is_secretary": True}
    )
    assert (response.status_code, response.json()["code"]) == (400, "secretary_is_guest")
    assert Member.objects.get(pk=club["guest"].pk).name == "Gustav"


def test_a_patch_leaves_an_audit_record_by_the_requesting_secretary(club):
    _patch(club["secretary"], club["member"], {"active": False})
    record = Member.history.filter(id=club["member"].pk).latest("history_date")
    assert record.active is False
    assert record.history_user_id == club["secretary"].user_id


def test_a_name_another_person_has_is_a_conflict(club):
    response = _patch(club["secretary"], club["member"], {"name": "Gustav"})
    assert (response.status_code, response.json()["code"]) == (409, "member_exists")
