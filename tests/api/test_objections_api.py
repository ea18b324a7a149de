"""Provisional evenings: objections to a game, the secretary's answer, the evening final
after its objection time (48 hours after its last game by default), and the "vorläufig"
mark on statement lines (games/evenings/api.py, league/ledger/api.py)."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from games.evenings.models import Objection
from games.evenings.services import game_update, objection_create
from league.closing.services import season_close
from league.club.errors import BooksError
from league.club.services import season_statutes_update

pytestmark = pytest.mark.django_db


def objections_url(evening) -> str:
    return f"/api/v1/evenings/{evening.pk}/objections/"


def later(hours: float):
    return time_machine.travel(timezone.now() + datetime.timedelta(hours=hours), tick=False)


def raise_one(api, cast, text="Spiel 2 hat Carla verloren."):
    return api("member").post(
        objections_url(cast.evening), {"game": cast.games[1].pk, "text": text}, format="json"
    )


def test_a_member_objects_to_a_game_and_the_evening_stays_provisional(api, cast):
    answer = raise_one(api, cast)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["status"] == "open"
    assert answer.json()["game_number"] == cast.games[1].number
    state = api("member").get(objections_url(cast.evening)).json()
    assert state["provisional"] is True
    assert state["open_objections"] == 1
    assert [o["text"] for o in state["objections"]] == ["Spiel 2 hat Carla verloren."]


def test_the_evening_is_final_48_hours_after_its_last_game_with_no_objection(api, cast):
    with later(47.9):
        assert api("member").get(objections_url(cast.evening)).json()["provisional"] is True
    with later(48.1):
        assert api("member").get(objections_url(cast.evening)).json()["provisional"] is False


def test_an_objection_after_the_objection_time_is_refused(api, cast):
    with later(49):
        answer = raise_one(api, cast)
    assert answer.status_code == 409
    assert answer.json()["code"] == "evening_final"
    assert not Objection.objects.exists()


def test_an_open_objection_keeps_the_evening_provisional_past_its_time(api, cast):
    raise_one(api, cast)
    with later(72):
        assert api("member").get(objections_url(cast.evening)).json()["provisional"] is True


def test_the_statutes_set_the_objection_time(api, cast):
    season_statutes_update(season=cast.season, statutes={"provisional_hours": 2}, confirm=True)
    with later(3):
        assert api("member").get(objections_url(cast.evening)).json()["provisional"] is False


def test_an_objection_needs_a_text_and_a_game_of_the_evening(api, cast):
    empty = api("member").post(
        objections_url(cast.evening), {"game": cast.games[0].pk, "text": "  "}, format="json"
    )
    assert empty.status_code == 400
    assert empty.json()["code"] == "text_required"
    other = api("member").post(
        objections_url(cast.evening), {"game": cast.other_game.pk, "text": "x"}, format="json"
    )
    assert other.status_code == 400
    assert other.json()["code"] == "unknown_game"


def test_the_same_objection_twice_is_refused(api, cast):
    raise_one(api, cast)
    again = raise_one(api, cast)
    assert again.status_code == 409
    assert again.json()["code"] == "objection_open_already"


def test_an_objection_sent_again_with_its_idempotency_key_is_raised_once(api, cast):
    client = api("member")
    body = {"game": cast.games[1].pk, "text": "falsch"}
    first = client.post(
        objections_url(cast.evening), body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    second = client.post(
        objections_url(cast.evening), body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert Objection.objects.count() == 1


def test_another_clubs_evening_is_not_found(api, cast):
    answer = api("outsider").get(objections_url(cast.evening))
    assert answer.status_code == 404


def test_a_dismissal_needs_a_reason_and_is_in_the_audit_history(api, cast):
    objection_id = raise_one(api, cast).json()["id"]
    url = f"/api/v1/objections/{objection_id}/answer/"
    no_reason = api("secretary").post(url, {"outcome": "dismissed"}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["code"] == "reason_required"
    answer = api("secretary").post(
        url, {"outcome": "dismissed", "reason": "Laut Zettel stimmt es."}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["status"] == "dismissed"
    history = Objection.history.filter(id=objection_id).order_by("history_date")
    assert [h.status for h in history] == ["open", "dismissed"]
    assert history.last().history_user.username == "bernd"
    assert history.first().history_user.username == "anna"
    again = api("secretary").post(url, {"outcome": "dismissed", "reason": "x"}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "objection_answered"


def test_corrected_needs_the_game_corrected_first(api, cast):
    objection_id = raise_one(api, cast).json()["id"]
    url = f"/api/v1/objections/{objection_id}/answer/"
    early = api("secretary").post(url, {"outcome": "corrected"}, format="json")
    assert early.status_code == 409
    assert early.json()["code"] == "game_not_corrected"
    game_update(game=cast.games[1], loser=cast.carla, schock_aus_throwers=[cast.secretary])
    answer = api("secretary").post(url, {"outcome": "corrected"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["status"] == "corrected"
    with later(49):
        assert api("member").get(objections_url(cast.evening)).json()["provisional"] is False


def test_only_the_secretary_answers_and_finalises(api, cast):
    objection_id = raise_one(api, cast).json()["id"]
    answer = api("member").post(
        f"/api/v1/objections/{objection_id}/answer/",
        {"outcome": "dismissed", "reason": "nein"},
        format="json",
    )
    assert answer.status_code == 403
    finalise = api("member").post(f"/api/v1/evenings/{cast.evening.pk}/finalise/")
    assert finalise.status_code == 403


def test_the_secretary_finalises_only_with_no_objection_open(api, cast):
    objection_id = raise_one(api, cast).json()["id"]
    url = f"/api/v1/evenings/{cast.evening.pk}/finalise/"
    refused = api("secretary").post(url)
    assert refused.status_code == 409
    assert refused.json()["code"] == "objections_open"
    api("secretary").post(
        f"/api/v1/objections/{objection_id}/answer/",
        {"outcome": "dismissed", "reason": "stimmt so"},
        format="json",
    )
    final = api("secretary").post(url)
    assert final.status_code == 200
    assert final.json()["provisional"] is False
    assert final.json()["finalised_at"] is not None
    late = raise_one(api, cast, text="noch einer")
    assert late.json()["code"] == "evening_final"


def test_statement_lines_of_a_provisional_evening_are_marked(api, cast):
    url = f"/api/v1/members/{cast.member.pk}/statement/?season={cast.season.pk}"
    lines = api("member").get(url).json()["seasons"][0]["lines"]
    assert [line["provisional"] for line in lines if line["evening"]] == [True]
    with later(49):
        lines = api("member").get(url).json()["seasons"][0]["lines"]
    assert [line["provisional"] for line in lines if line["evening"]] == [False]


def test_a_repeated_statement_read_after_the_objection_time_is_not_304(api, cast):
    client = api("member")
    url = f"/api/v1/members/{cast.member.pk}/statement/?season={cast.season.pk}"
    etag = client.get(url)["ETag"]
    with later(49):
        answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200


def test_a_season_cannot_close_with_an_objection_open(cast):
    objection_create(evening=cast.evening, game=cast.games[0], by=cast.member, text="falsch")
    with pytest.raises(BooksError) as refused:
        season_close(season=cast.season, by=cast.secretary, confirm=True)
    assert refused.value.code == "objections_open"


def test_objections_and_answers_are_in_the_evenings_audit_page(api, cast):
    from django.test import Client

    client = Client()
    client.force_login(cast.secretary.user)
    url = f"/verlauf/abend/{cast.evening.pk}/"
    client.get(url)  # kept before the objection
    objection_id = raise_one(api, cast, text="Falscher Verlierer").json()["id"]
    page = client.get(url).content.decode()
    assert "Einspruch von Anna Becker zu Spiel 2 am 09.10.2026" in page
    assert "Falscher Verlierer" in page
    api("secretary").post(
        f"/api/v1/objections/{objection_id}/answer/",
        {"outcome": "dismissed", "reason": "Zettel stimmt"},
        format="json",
    )
    assert "Zettel stimmt" in client.get(url).content.decode()


def _close_url(cast) -> str:
    return f"/api/v1/seasons/{cast.season.pk}/close/"


def test_the_close_state_lists_an_evening_in_its_objection_time_until_it_ends(api, cast):
    client = api("member")
    items = client.get(_close_url(cast)).json()["open_items"]
    until = timezone.localtime(cast.games[-1].created_at + datetime.timedelta(hours=48))
    assert items["objection_time"] == [
        {
            "evening_id": cast.evening.pk,
            "date": cast.evening.date.isoformat(),
            "until": until.isoformat(),
        }
    ]
    assert items["needs_confirmation"] is True
    etag = client.get(_close_url(cast))["ETag"]
    # The kept answer and its ETag follow the clock: the time ends with no write.
    with later(49):
        again = client.get(_close_url(cast), HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 200
        assert again.json()["open_items"]["objection_time"] == []


def test_closing_in_the_objection_time_needs_confirmation_and_declares_the_evening_final(api, cast):
    from games.evenings.models import Evening

    refused = api("secretary").post(_close_url(cast), {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "open_items"
    closed = api("secretary").post(_close_url(cast), {"confirm": True}, format="json")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["open_items"]["objection_time"] == []
    evening = Evening.objects.get(pk=cast.evening.pk)
    assert evening.finalised_at is not None
    record = evening.history.order_by("-history_id").first()
    assert record.history_change_reason == "season_closed"
    assert record.history_user == cast.secretary.user
    assert api("member").get(objections_url(cast.evening)).json()["provisional"] is False
    late = raise_one(api, cast)
    assert late.status_code == 409
    assert late.json()["code"] == "season_closed"


def test_closing_after_the_objection_time_leaves_the_evening_as_it_was(cast):
    from games.evenings.models import Evening

    with later(49):
        season_close(season=cast.season, by=cast.secretary, confirm=True)
    assert Evening.objects.get(pk=cast.evening.pk).finalised_at is None


def test_an_objection_time_alone_asks_for_confirmation():
    from league.closing.selectors import ObjectionTimeEvening, OpenItems

    now = timezone.now()
    running = ObjectionTimeEvening(1, now.date(), now)
    assert OpenItems([], [], [], objection_time=[running]).needs_confirmation
    assert not OpenItems([], [], []).needs_confirmation
