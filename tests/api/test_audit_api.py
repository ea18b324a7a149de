"""The audit trail through the API: GET history/?evening= or
?member= gives league/audit.py's records, who, when, what, before -> after."""

import datetime
from decimal import Decimal

import pytest

from games.evenings.services import evening_create, evening_delete, game_update
from league.audit.selectors import club_audit_recent, evening_audit, member_audit
from league.ledger.services import payment_record

pytestmark = pytest.mark.django_db


def _history(api, query: str, role: str = "secretary"):
    return api(role).get(f"/api/v1/history/?{query}")


def test_evening_history_holds_the_records_of_league_audit(api, cast):
    body = _history(api, f"evening={cast.evening.pk}&page_size=500").json()
    expected = evening_audit(evening_id=cast.evening.pk)
    assert body["count"] == len(expected)
    assert [r["what"] for r in body["results"]] == [line.what for line in expected]


def test_corrected_loser_shows_before_and_after(api, cast):
    game = cast.games[0]
    game_update(game=game, loser=cast.member, expected_version=game.version)
    results = _history(api, f"evening={cast.evening.pk}").json()["results"]
    # The correction writes the game's change and, at the same moment, the ledger's
    # reversal of the old loser's Mark: both are on the evening's newest lines.
    changed = [r for r in results if r["action"] == "~"]
    (change,) = [c for c in changed[0]["changes"] if c["before"] == cast.carla.name]
    assert change["after"] == cast.member.name
    assert any(r["action"] == "+" and cast.carla.name in r["what"] for r in results)


def test_member_history_holds_the_records_of_league_audit(api, cast):
    body = _history(api, f"member={cast.member.pk}&page_size=500").json()
    expected = member_audit(member=cast.member)
    assert [r["what"] for r in body["results"]] == [line.what for line in expected]


def test_payment_is_a_new_record_in_the_members_history(api, cast):
    before = _history(api, f"member={cast.member.pk}").json()["count"]
    payment_record(member=cast.member, amount=Decimal("2.00"), paid_on=datetime.date(2026, 10, 16))
    body = _history(api, f"member={cast.member.pk}").json()
    assert body["count"] == before + 1
    assert body["results"][0]["action"] == "+"


def test_history_without_a_filter_is_the_clubs_latest_changes(api, cast):
    body = _history(api, "page_size=500").json()
    assert body["count"] == len(club_audit_recent(club=cast.club))


def test_history_of_a_deleted_evening_is_still_there(api, cast):
    evening = evening_create(
        club=cast.club,
        date=datetime.date(2026, 10, 30),
        secretary=cast.secretary,
        present_members=[cast.secretary, cast.member],
    )
    evening_delete(evening=evening, expected_version=evening.version)
    body = _history(api, f"evening={evening.pk}").json()
    assert body["results"][0]["action"] == "-"


def test_history_names_who_changed_it(api, cast):
    api("secretary").patch(
        f"/api/v1/evenings/{cast.evening.pk}/",
        {"notes": "Bei Hahn", "version": cast.evening.version},
        format="json",
    )
    first = _history(api, f"evening={cast.evening.pk}").json()["results"][0]
    assert first["who"] == cast.secretary.name


def test_payment_recorded_through_the_api_names_the_secretary(api, cast):
    body = {"member": cast.member.pk, "amount": "2.00", "paid_on": "2026-10-16"}
    api("secretary").post("/api/v1/payments/", body, format="json")
    first = _history(api, f"member={cast.member.pk}").json()["results"][0]
    assert (first["action"], first["who"]) == ("+", cast.secretary.name)


def test_another_clubs_evening_history_does_not_exist(api, cast):
    response = _history(api, f"evening={cast.other_evening.pk}")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_another_clubs_member_history_does_not_exist(api, cast):
    response = _history(api, f"member={cast.other_secretary.pk}")
    assert response.status_code == 404


def test_both_filters_at_once_are_refused(api, cast):
    response = _history(api, f"evening={cast.evening.pk}&member={cast.member.pk}")
    assert (response.status_code, response.json()["code"]) == (400, "one_filter_only")


def test_malformed_filter_is_refused(api, cast):
    response = _history(api, "evening=abc")
    assert (response.status_code, response.json()["field"]) == (400, "evening")


def test_plain_member_may_not_read_the_history(api, cast):
    response = _history(api, f"member={cast.member.pk}", role="member")
    assert (response.status_code, response.json()["code"]) == (403, "secretary_required")
