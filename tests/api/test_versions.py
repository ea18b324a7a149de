"""No lost updates: evenings and games carry a version; a change sent with
a stale one is refused with 412, one sent without any with 428."""

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def _evening_url(cast):
    return f"/api/v1/evenings/{cast.evening.pk}/"


def _game_url(cast):
    return f"/api/v1/games/{cast.games[0].pk}/"


def test_evening_detail_sends_its_version_as_etag(cast):
    response = client_for(cast, "member").get(_evening_url(cast))
    assert response.headers["ETag"] == f'"{response.json()["version"]}"'


def test_second_phone_with_the_same_evening_version_gets_412(cast):
    phone_a, phone_b = client_for(cast, "secretary"), client_for(cast, "secretary")
    version = phone_a.get(_evening_url(cast)).json()["version"]
    first = phone_a.patch(_evening_url(cast), {"notes": "A", "version": version}, format="json")
    second = phone_b.patch(_evening_url(cast), {"notes": "B", "version": version}, format="json")
    assert first.status_code == 200
    assert second.status_code == 412
    assert second.json()["code"] == "stale_version"


def test_stale_evening_change_leaves_the_evening_as_it_was(cast):
    client = client_for(cast, "secretary")
    version = cast.evening.version
    client.patch(_evening_url(cast), {"notes": "A", "version": version}, format="json")
    client.patch(_evening_url(cast), {"notes": "B", "version": version}, format="json")
    assert client.get(_evening_url(cast)).json()["notes"] == "A"


def test_evening_change_without_version_is_428(cast):
    response = client_for(cast, "secretary").patch(
        _evening_url(cast), {"notes": "A"}, format="json"
    )
    assert response.status_code == 428
    assert response.json()["code"] == "version_required"


def test_if_match_header_carries_the_version(cast):
    response = client_for(cast, "secretary").patch(
        _evening_url(cast),
        {"notes": "A"},
        format="json",
        HTTP_IF_MATCH=f'"{cast.evening.version}"',
    )
    assert response.status_code == 200


def test_stale_if_match_header_is_412(cast):
    response = client_for(cast, "secretary").patch(
        _evening_url(cast),
        {"notes": "A"},
        format="json",
        HTTP_IF_MATCH=f'"{cast.evening.version - 1}"',
    )
    assert response.status_code == 412


def test_if_match_and_body_naming_different_versions_is_400(cast):
    response = client_for(cast, "secretary").patch(
        _evening_url(cast),
        {"notes": "A", "version": cast.evening.version},
        format="json",
        HTTP_IF_MATCH=f'"{cast.evening.version + 1}"',
    )
    assert response.status_code == 400
    assert response.json()["code"] == "version_mismatch"


def test_unreadable_if_match_is_400(cast):
    response = client_for(cast, "secretary").patch(
        _evening_url(cast), {"notes": "A"}, format="json", HTTP_IF_MATCH="*"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_version"


def test_recording_a_game_makes_the_read_evening_version_stale(cast):
    client = client_for(cast, "secretary")
    version = client.get(_evening_url(cast)).json()["version"]
    client.post(
        "/api/v1/games/", {"evening": cast.evening.pk, "loser": cast.carla.pk}, format="json"
    )
    response = client.patch(_evening_url(cast), {"notes": "A", "version": version}, format="json")
    assert response.status_code == 412


def test_game_entered_against_a_stale_evening_version_is_412(cast):
    client = client_for(cast, "secretary")
    response = client.post(
        "/api/v1/games/",
        {
            "evening": cast.evening.pk,
            "loser": cast.carla.pk,
            "evening_version": cast.evening.version - 1,
        },
        format="json",
    )
    assert response.status_code == 412


def test_game_change_with_stale_version_is_412(cast):
    phone_a, phone_b = client_for(cast, "secretary"), client_for(cast, "secretary")
    version = phone_a.get(_game_url(cast)).json()["version"]
    phone_a.patch(_game_url(cast), {"loser": cast.member.pk, "version": version}, format="json")
    response = phone_b.patch(
        _game_url(cast), {"loser": cast.secretary.pk, "version": version}, format="json"
    )
    assert response.status_code == 412
    assert phone_b.get(_game_url(cast)).json()["loser"] == cast.member.pk


def test_game_change_raises_its_version(cast):
    client = client_for(cast, "secretary")
    response = client.patch(_game_url(cast), {"loser": cast.member.pk, "version": 1}, format="json")
    assert response.json()["version"] == 2


def test_game_change_without_version_is_428(cast):
    response = client_for(cast, "secretary").put(
        _game_url(cast), {"loser": cast.member.pk, "schock_aus": []}, format="json"
    )
    assert response.status_code == 428


def test_game_delete_with_stale_version_is_412(cast):
    response = client_for(cast, "secretary").delete(f"{_game_url(cast)}?version=7")
    assert response.status_code == 412


def test_game_delete_without_version_is_428(cast):
    response = client_for(cast, "secretary").delete(_game_url(cast))
    assert response.status_code == 428


def test_evening_delete_with_if_match_is_accepted(cast):
    client = client_for(cast, "secretary")
    evening = client.post(
        "/api/v1/evenings/",
        {"date": "2026-10-16", "present_members": [cast.secretary.pk, cast.member.pk]},
        format="json",
    ).json()
    response = client.delete(
        f"/api/v1/evenings/{evening['id']}/", HTTP_IF_MATCH=f'"{evening["version"]}"'
    )
    assert response.status_code == 204
