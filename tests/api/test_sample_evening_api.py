"""The sample evening of tests/samples entered through the API alone gives every
figure under its `expected` (Tests). Only the club and its secretary's login are
set up beforehand (they come from the admin); season, people, evening and games are
POSTed, and every figure is read back from the computed endpoints."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from league.club.accounts.services import api_token_create
from league.club.models import Club, Member
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.sample import recorded_natural

pytestmark = pytest.mark.django_db


def _secretary_client(sample) -> APIClient:
    club = Club.objects.create(name=sample["club"], rule_preset=sample["rule_set"])
    user = UserFactory(username="buchfuehrer")
    secretary = Member.objects.create(
        club=club, name=sample["evening"]["secretary"], is_secretary=True
    )
    member_login_set(person=secretary, user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user)[1]}")
    return client


def _ok(response, status=200):
    assert response.status_code == status, response.content
    return response.json()


def _enter(sample, *, game_20_by_rounds: bool = False) -> tuple[APIClient, dict]:
    """POST the whole sample; returns the client and ids {evening, season, people}."""
    client = _secretary_client(sample)
    ev = sample["evening"]
    season = _ok(client.post("/api/v1/seasons/", {"year": ev["season"]}, format="json"), 201)
    for name in sample["club_members"]:
        if name != ev["secretary"]:
            _ok(client.post("/api/v1/members/", {"name": name}, format="json"), 201)
    for name in ev["guests"]:
        _ok(client.post("/api/v1/members/", {"name": name, "kind": "guest"}, format="json"), 201)
    people = {m["name"]: m["id"] for m in _ok(client.get("/api/v1/members/"))["results"]}
    evening = _ok(
        client.post(
            "/api/v1/evenings/",
            {
                "date": ev["date"],
                "secretary": ev["secretary"],
                "present_members": ev["present_members"],
                "guests": ev["guests"],
                "absent_members": ev["absent_members"],
            },
            format="json",
        ),
        201,
    )
    for game in ev["games"]:
        if game_20_by_rounds and game["number"] == 20:
            _ok(
                client.post(
                    "/api/v1/games/rounds/", _game_20_rounds(sample, evening["id"]), format="json"
                ),
                201,
            )
            continue
        _ok(
            client.post(
                "/api/v1/games/",
                {
                    "evening": evening["id"],
                    "number": game["number"],
                    "loser": game["loser"],
                    "vorleger": game["vorleger"],
                    "schock_aus": game["schock_aus"],
                },
                format="json",
            ),
            201,
        )
    return client, {"evening": evening["id"], "season": season["id"], "people": people}


def _game_20_rounds(sample, evening_id: int) -> dict:
    """Game 20 entered round by round: its last round (a Schock-Aus ends the game)."""
    last = sample["evening"]["game_20_last_round"]
    throws = []
    for name in last["throwing_order"]:
        turn = last["turns"][name]
        if isinstance(turn, list):
            throws.append({"player": name, "turn": turn})
        else:
            throws.append(
                {
                    "player": name,
                    "dice": turn["final_dice"],
                    "attempts": turn["attempts"],
                    "natural": recorded_natural(turn),
                }
            )
    return {"evening": evening_id, "number": 20, "rounds": [{"throws": throws}]}


@pytest.fixture
def entered(sample_evening):
    return _enter(sample_evening)


def test_summary_counts_games_expected_and_entered(sample_evening, entered):
    client, ids = entered
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    expected = sample_evening["expected"]
    assert summary["games_expected"] == expected["games_expected"]
    assert summary["games_entered"] == expected["games_entered"]


def test_summary_lists_the_schock_aus_with_ordinals(sample_evening, entered):
    client, ids = entered
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    got = [
        {"ordinal": s["ordinal"], "game": s["game"], "thrower": s["thrower"]["name"]}
        for s in summary["schock_aus"]
    ]
    assert got == sample_evening["expected"]["schock_aus"]


def test_summary_lists_the_runden_owed_with_reasons(sample_evening, entered):
    client, ids = entered
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    got = [
        {"ordinal": r["ordinal"], "thrower": r["thrower"]["name"], "reason": r["reason"]}
        for r in summary["runden"]
    ]
    assert got == sample_evening["expected"]["runden_owed"]


def test_season_runden_endpoint_lists_the_same_runden(sample_evening, entered):
    client, ids = entered
    runden = _ok(client.get(f"/api/v1/seasons/{ids['season']}/runden/"))
    got = [
        {"ordinal": r["ordinal"], "thrower": r["thrower_name"], "reason": r["reason"]}
        for r in runden
    ]
    assert got == sample_evening["expected"]["runden_owed"]


def test_summary_figures_per_person(sample_evening, entered):
    client, ids = entered
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    per_person = sample_evening["expected"]["per_person"]
    assert {p["member"]["name"] for p in summary["people"]} == set(per_person)
    for line in summary["people"]:
        expected = per_person[line["member"]["name"]]
        got = {k: line[k] for k in ("games_lost", "schock_aus", "marks")}
        assert got == {k: expected[k] for k in got}, line["member"]["name"]
        assert line["points"] == expected.get("points"), line["member"]["name"]
        assert line["absent"] == expected.get("absent", False)
        assert line["guest"] == expected.get("guest", False)


def test_summary_totals_in_marks_and_money(sample_evening, entered):
    client, ids = entered
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    expected = sample_evening["expected"]
    assert summary["marks_total"] == expected["marks_total"]
    assert Decimal(summary["money_total"]) == Decimal(expected["money_total"])
    assert summary["currency"] == expected["currency"]
    assert summary["warnings"] == []


def test_standings_share_places(sample_evening, entered):
    client, ids = entered
    standings = _ok(client.get(f"/api/v1/seasons/{ids['season']}/standings/"))
    got = [
        {"place": r["place"], "member": r["member"]["name"], "points": r["points"]}
        for r in standings["rows"]
    ]
    assert got == sample_evening["expected"]["standings"]


def test_standings_totals_match_the_evening(sample_evening, entered):
    client, ids = entered
    standings = _ok(client.get(f"/api/v1/seasons/{ids['season']}/standings/"))
    expected = sample_evening["expected"]
    assert standings["marks_total"] == expected["marks_total"]
    assert Decimal(standings["money_total"]) == Decimal(expected["money_total"])
    assert [g["member"]["name"] for g in standings["guests"]] == sample_evening["evening"]["guests"]


def test_dues_of_every_person_match_their_marks(sample_evening, entered):
    client, ids = entered
    for name, expected in sample_evening["expected"]["per_person"].items():
        dues = _ok(
            client.get(f"/api/v1/members/{ids['people'][name]}/dues/?season={ids['season']}")
        )
        assert dues["marks_total"] == expected["marks"], name


def test_game_20_entered_round_by_round_gives_the_same_books(sample_evening):
    client, ids = _enter(sample_evening, game_20_by_rounds=True)
    summary = _ok(client.get(f"/api/v1/evenings/{ids['evening']}/summary/"))
    got = [
        {"ordinal": s["ordinal"], "game": s["game"], "thrower": s["thrower"]["name"]}
        for s in summary["schock_aus"]
    ]
    assert got == sample_evening["expected"]["schock_aus"]
    assert summary["marks_total"] == sample_evening["expected"]["marks_total"]


def test_game_20_rounds_endpoint_shows_its_last_round(sample_evening):
    client, ids = _enter(sample_evening, game_20_by_rounds=True)
    game = _ok(client.get(f"/api/v1/games/?evening={ids['evening']}&number=20"))["results"][0]
    rounds = _ok(client.get(f"/api/v1/games/{game['id']}/rounds/"))
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    assert rounds[-1]["loser"] == ids["people"][expected["loser"]]
    assert rounds[-1]["deckel"] == expected["deckel"]
    assert game["entry_mode"] == "rounds"


def _preview_game_20(sample):
    client, ids = _enter(sample)
    body = _game_20_rounds(sample, ids["evening"])  # number 20: three Schock-Aus before it
    return _ok(client.post("/api/v1/games/rounds/preview/", body, format="json")), ids


def test_game_20_last_round_previewed_applies_the_muss_regel_per_player(sample_evening):
    preview, _ids = _preview_game_20(sample_evening)
    last = sample_evening["evening"]["game_20_last_round"]
    got = dict(zip(last["throwing_order"], preview["rounds"][0]["muss_regel"], strict=True))
    assert got == last["expected"]["muss_regel_applies"]


def test_game_20_last_round_previewed_ends_the_game_with_its_loser(sample_evening):
    preview, ids = _preview_game_20(sample_evening)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    assert preview["finished"] is True
    assert preview["loser"] == ids["people"][expected["loser"]]
    assert preview["schock_aus"] == [
        ids["people"][n] for n in expected["schock_aus_in_throwing_order"]
    ]


def test_game_20_rounds_endpoint_keeps_the_muss_regel_per_throw(sample_evening):
    client, ids = _enter(sample_evening, game_20_by_rounds=True)
    game = _ok(client.get(f"/api/v1/games/?evening={ids['evening']}&number=20"))["results"][0]
    (last_round,) = _ok(client.get(f"/api/v1/games/{game['id']}/rounds/"))
    names = {v: k for k, v in ids["people"].items()}
    got = {names[t["player"]]: t["muss_regel"] for t in last_round["throws"]}
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    assert got == expected["muss_regel_applies"]
