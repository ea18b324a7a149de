"""The season-close API: close, reopen, sign-off and the close state;
roles and stable codes; a closed season refuses edits through the API until reopened."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from league.closing.models import SeasonSignOff
from league.club.models import Season

pytestmark = pytest.mark.django_db


def _url(season_id: int, what: str = "close") -> str:
    return f"/api/v1/seasons/{season_id}/{what}/"


def _close(api, cast):
    answer = api("secretary").post(_url(cast.season.pk), {"confirm": True}, format="json")
    assert answer.status_code == 200, answer.json()
    return answer


def test_the_close_state_lists_what_is_open(api, cast):
    answer = api("secretary").get(_url(cast.season.pk))
    assert answer.status_code == 200
    body = answer.json()
    assert body["closed"] is False and body["sign_offs"] == []
    assert len(body["fingerprint"]) == 64
    incomplete = body["open_items"]["incomplete_evenings"]
    assert [(e["games_entered"], e["games_expected"]) for e in incomplete] == [(2, 15)]
    owing = {b["name"]: b["balance"] for b in body["open_items"]["open_balances"]}
    assert owing == {"Anna Becker": "0.50", "Carla Vogt": "0.50", "Frank Roth": "3.00"}
    assert body["open_items"]["needs_confirmation"] is True


def test_closing_with_open_items_needs_confirm(api, cast):
    answer = api("secretary").post(_url(cast.season.pk), {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "open_items"


def test_a_closed_season_refuses_edits_until_reopened(api, cast):
    body = _close(api, cast).json()
    assert body["closed"] is True and body["closed_by"] == "Bernd Krause"
    secretary = api("secretary")
    game = {"evening": cast.evening.pk, "loser": cast.member.pk, "schock_aus": []}
    refused = secretary.post("/api/v1/games/", game, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "season_closed"
    assert "abgeschlossen" in refused.json()["message"]
    payment = {"member": cast.member.pk, "amount": "0.50", "paid_on": "2026-10-10"}
    refused = secretary.post("/api/v1/payments/", payment, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "season_closed"

    reopened = secretary.post(
        _url(cast.season.pk, "reopen"), {"reason": "Spiel fehlt"}, format="json"
    )
    assert reopened.status_code == 200 and reopened.json()["closed"] is False
    events = [(e["action"], e["who"], e["reason"]) for e in reopened.json()["events"]]
    assert events == [("closed", "bernd", "season_closed"), ("reopened", "bernd", "Spiel fehlt")]
    assert secretary.post("/api/v1/games/", game, format="json").status_code == 201


def test_reopen_needs_a_reason(api, cast):
    _close(api, cast)
    answer = api("secretary").post(_url(cast.season.pk, "reopen"), {"reason": "  "}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "reason_required"
    assert Season.objects.get(pk=cast.season.pk).closed_at is not None


def test_reopen_of_an_open_season_is_a_conflict(api, cast):
    answer = api("secretary").post(
        _url(cast.season.pk, "reopen"), {"reason": "warum"}, format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "season_not_closed"


@pytest.mark.parametrize(
    ("what", "body"), [("close", {"confirm": True}), ("reopen", {"reason": "Test"})]
)
def test_only_the_secretary_closes_and_reopens(api, cast, what, body):
    if what == "reopen":
        _close(api, cast)
    answer = api("member").post(_url(cast.season.pk, what), body, format="json")
    assert answer.status_code == 403
    assert answer.json()["code"] == "secretary_required"
    assert api("anonymous").post(_url(cast.season.pk, what), body, format="json").status_code == 401


def test_another_clubs_season_does_not_exist(api, cast):
    for what in ("close", "reopen", "sign-off"):
        answer = api("outsider").post(_url(cast.season.pk, what), {"reason": "x"}, format="json")
        assert answer.status_code == 404
    assert api("outsider").get(_url(cast.season.pk)).status_code == 404


def test_an_auditor_signs_a_closed_season_and_the_signature_breaks_after_a_change(api, cast):
    member = api("member")
    refused = member.post(_url(cast.season.pk, "sign-off"))
    assert refused.status_code == 409 and refused.json()["code"] == "season_not_closed"
    _close(api, cast)
    signed = member.post(_url(cast.season.pk, "sign-off"))
    assert signed.status_code == 201
    line = signed.json()["sign_offs"][0]
    assert line["auditor"] == "Anna Becker" and line["state"] == "valid"
    assert line["fingerprint"] == signed.json()["fingerprint"]
    again = member.post(_url(cast.season.pk, "sign-off"))
    assert again.status_code == 409 and again.json()["code"] == "already_signed"

    secretary = api("secretary")
    secretary.post(_url(cast.season.pk, "reopen"), {"reason": "Spiel fehlt"}, format="json")
    game = {"evening": cast.evening.pk, "loser": cast.carla.pk, "schock_aus": []}
    assert secretary.post("/api/v1/games/", game, format="json").status_code == 201
    state = member.get(_url(cast.season.pk)).json()
    assert state["sign_offs"][0]["state"] == "broken"


def test_the_secretary_does_not_sign(api, cast):
    _close(api, cast)
    answer = api("secretary").post(_url(cast.season.pk, "sign-off"))
    assert answer.status_code == 403
    assert answer.json()["code"] == "auditor_not_allowed"
    assert not SeasonSignOff.objects.exists()


def test_the_endpoints_are_in_the_schema(api):
    answer = api("member").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = answer.json()
    paths = schema["paths"]
    assert "post" in paths["/api/v1/seasons/{season_id}/close/"]
    assert "get" in paths["/api/v1/seasons/{season_id}/close/"]
    assert "post" in paths["/api/v1/seasons/{season_id}/reopen/"]
    assert "post" in paths["/api/v1/seasons/{season_id}/sign-off/"]


def test_a_runde_given_and_a_club_book_import_into_a_closed_season_are_conflicts(api, cast):
    _close(api, cast)
    secretary = api("secretary")
    schock_aus = cast.games[1].schock_aus.get()
    given = secretary.post(
        f"/api/v1/runden/{schock_aus.pk}/given/", {"given_on": "2026-10-10"}, format="json"
    )
    assert given.status_code == 409 and given.json()["code"] == "season_closed"
    files = {
        "attendance": SimpleUploadedFile(
            "a.csv", b"date,name,role\r\n2026-11-06,Bernd Krause,secretary\r\n", "text/csv"
        ),
        "games": SimpleUploadedFile("g.csv", b"date,number,loser,schock_aus\r\n", "text/csv"),
    }
    imported = secretary.post("/api/v1/club-book/import/", files, format="multipart")
    assert imported.status_code == 409 and imported.json()["code"] == "season_closed"
