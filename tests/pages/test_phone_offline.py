"""Entry without a connection, the server's half: a game queued on the
phone carries a client_key that the API records once, and the evening's version, so a
game sent twice arrives once and a change made elsewhere meanwhile is a conflict."""

import uuid

import pytest

from games.evenings.models import Game
from games.evenings.services import game_record

pytestmark = pytest.mark.django_db


def _send(client, evening, member, key, number, version=None):
    body = {"evening": evening.pk, "number": number, "loser": member.pk, "client_key": str(key)}
    if version is not None:
        body["evening_version"] = version
    return client.post("/api/v1/games/", body, content_type="application/json")


def test_a_game_sent_twice_is_recorded_once(secretary_client, evening, member):
    key = uuid.uuid4()
    assert _send(secretary_client, evening, member, key, 3).status_code == 201
    again = _send(secretary_client, evening, member, key, 3)
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_client_key"
    assert Game.objects.filter(client_key=key).count() == 1
    assert evening.games.count() == 3


def test_a_key_sent_again_with_another_number_records_nothing(secretary_client, evening, member):
    key = uuid.uuid4()
    _send(secretary_client, evening, member, key, 3)
    assert _send(secretary_client, evening, member, key, 4).status_code == 409
    assert not evening.games.filter(number=4).exists()


def test_two_queued_games_with_their_own_keys_both_arrive(secretary_client, evening, member):
    evening.refresh_from_db()
    first = _send(secretary_client, evening, member, uuid.uuid4(), 3, evening.version)
    second = _send(secretary_client, evening, member, uuid.uuid4(), 4, evening.version + 1)
    assert (first.status_code, second.status_code) == (201, 201)


def test_a_change_made_elsewhere_meanwhile_is_a_conflict(secretary_client, evening, member):
    evening.refresh_from_db()
    version = evening.version
    game_record(evening=evening, loser=member)  # another phone entered game 3
    answer = _send(secretary_client, evening, member, uuid.uuid4(), 4, version)
    assert answer.status_code == 412
    assert answer.json()["code"] == "stale_version"
    assert not evening.games.filter(number=4).exists()


def test_a_client_key_must_be_a_uuid(secretary_client, evening, member):
    answer = _send(secretary_client, evening, member, "not-a-key", 3)
    assert answer.status_code == 400
    assert answer.json()["field"] == "client_key"


def test_a_game_undone_and_sent_again_by_the_queue_stays_undone(secretary_client, evening, member):
    # The answer to the first sending was lost; the secretary undid the game meanwhile;
    # the queue's retry must not bring it back with its charge.
    from games.evenings.services import game_undo

    key = uuid.uuid4()
    assert _send(secretary_client, evening, member, key, 3).status_code == 201
    game_undo(game=Game.objects.get(client_key=key))
    again = _send(secretary_client, evening, member, key, 3)
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_client_key"
    assert not Game.objects.filter(client_key=key).exists()
    assert evening.games.count() == 2
