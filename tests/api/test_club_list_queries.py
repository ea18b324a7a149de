"""The API's cheapest answer, the own club's list: one query by token (the token with its
login, person and club), and the club is the one the login's person belongs to."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.club.services import club_suspend

pytestmark = pytest.mark.django_db


def test_the_club_list_by_token_is_one_query(api, cast):
    member = api("member")
    with CaptureQueriesContext(connection) as queries:
        response = member.get("/api/v1/clubs/")
    assert response.status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert response.json()["count"] == 1
    assert response.json()["results"] == [
        {"id": cast.club.pk, "name": cast.club.name, "rule_preset": cast.club.rule_preset}
    ]


def test_the_club_list_of_a_suspended_club_is_refused(api, cast):
    club_suspend(club=cast.club)
    response = api("member").get("/api/v1/clubs/")
    assert response.status_code == 403
    assert response.json()["code"] == "club_suspended"


def test_a_page_past_the_one_club_is_not_found(api):
    response = api("member").get("/api/v1/clubs/?page=2")
    assert response.status_code == 404


def test_a_login_without_a_person_lists_no_club_in_one_query(db):
    from rest_framework.test import APIClient

    from league.club.accounts.services import api_token_create
    from tests.factories import UserFactory

    user = UserFactory(username="ohne-club")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user)[1]}")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/clubs/")
    assert response.status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert response.json()["results"] == []


def test_a_token_is_read_with_its_own_key_each_time(api, cast):
    member, secretary = api("member"), api("secretary")
    for _ in range(2):
        assert member.get("/api/v1/me/").json()["member"]["id"] == cast.member.pk
        assert secretary.get("/api/v1/me/").json()["member"]["id"] == cast.secretary.pk
