"""Runden owed and given through the API (docs/rules.md 5; the secretary's Runden page)."""

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def _schock_aus(cast):
    return cast.games[1].schock_aus.get()


def _runden(client, query=""):
    response = client.get(f"/api/v1/runden/{query}")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_open_runde_is_listed_with_its_thrower_and_reason(cast):
    (runde,) = _runden(client_for(cast, "member"))
    assert (runde["thrower"]["id"], runde["reason"], runde["given"]) == (
        cast.secretary.pk,
        "first",
        False,
    )


def test_runde_marked_given_leaves_the_open_list(cast):
    client = client_for(cast, "secretary")
    client.post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/", {"given_on": "2026-10-16"}, format="json"
    )
    assert _runden(client) == []


def test_runde_marked_given_shows_its_date_under_given(cast):
    client = client_for(cast, "secretary")
    client.post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/", {"given_on": "2026-10-16"}, format="json"
    )
    (runde,) = _runden(client, "?status=given")
    assert runde["given_on"] == "2026-10-16"


def test_runde_given_twice_is_409(cast):
    client = client_for(cast, "secretary")
    url = f"/api/v1/runden/{_schock_aus(cast).pk}/given/"
    client.post(url, {"given_on": "2026-10-16"}, format="json")
    response = client.post(url, {"given_on": "2026-10-17"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "runde_already_given")


def test_runde_given_before_its_evening_is_400(cast):
    response = client_for(cast, "secretary").post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/",
        {"given_on": "2026-01-01"},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "given_before_evening")


def test_taking_back_a_runde_not_given_is_404(cast):
    response = client_for(cast, "secretary").delete(f"/api/v1/runden/{_schock_aus(cast).pk}/given/")
    assert (response.status_code, response.json()["code"]) == (404, "runde_not_given")


def test_game_with_a_runde_given_cannot_be_deleted(cast):
    client = client_for(cast, "secretary")
    client.post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/", {"given_on": "2026-10-16"}, format="json"
    )
    response = client.delete(f"/api/v1/games/{cast.games[1].pk}/?version=1")
    assert (response.status_code, response.json()["code"]) == (409, "runde_given")


def test_runden_filter_by_unknown_season_is_400(cast):
    response = client_for(cast, "member").get(f"/api/v1/runden/?season={cast.other_season.pk}")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_season")


def test_outsider_sees_only_the_runden_of_his_own_club(cast):
    from games.evenings.services import game_record

    game_record(
        evening=cast.other_evening,
        loser=cast.other_game.loser,
        schock_aus_throwers=[cast.other_secretary],
    )
    runden = _runden(client_for(cast, "outsider"), "?status=all")
    assert [r["thrower"]["id"] for r in runden] == [cast.other_secretary.pk]


def test_season_runden_show_the_day_a_runde_was_given(cast):
    client = client_for(cast, "secretary")
    client.post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/", {"given_on": "2026-10-16"}, format="json"
    )
    (runde,) = client.get(f"/api/v1/seasons/{cast.season.pk}/runden/").json()
    assert (runde["thrower_name"], runde["given_on"]) == (cast.secretary.name, "2026-10-16")


def test_season_runden_of_one_member_keep_only_that_throwers(cast):
    client = client_for(cast, "member")
    url = f"/api/v1/seasons/{cast.season.pk}/runden/?member="
    assert len(client.get(url + str(cast.secretary.pk)).json()) == 1
    assert client.get(url + str(cast.member.pk)).json() == []
