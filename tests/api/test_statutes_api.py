"""`GET/PUT /api/v1/seasons/{id}/statutes/`: every member of the club
reads a season's statutes, the secretary changes them, a season with evenings only with
`confirm`, bad figures are a 400 with a stable code."""

from decimal import Decimal

import pytest

from league.club.models import Season
from league.club.statutes import CLUB_STATUTES, season_statutes
from league.ledger.selectors import (
    member_balance,
)

pytestmark = pytest.mark.django_db

KEGELBAHN = {
    "scoring": {"mode": "by_rank", "rank_points": [7, 5, 4, 3, 2, 1]},
    "absence": {"mode": "average_plus", "surcharge": 1},
    "runden": {"first": True, "last": False, "every": 3, "shift": False},
}


def _url(season) -> str:
    return f"/api/v1/seasons/{season.pk}/statutes/"


@pytest.mark.parametrize("role", ["member", "secretary"])
def test_every_member_reads_the_statutes(api, cast, role):
    response = api(role).get(_url(cast.season))
    assert response.status_code == 200
    body = response.json()
    assert body["statutes"] == CLUB_STATUTES.to_data()
    assert (body["season"], body["year"], body["evenings"]) == (cast.season.pk, 2026, 1)
    assert (body["mark_value"], body["currency"]) == ("0.50", "EUR")


def test_another_clubs_season_is_not_found(api, cast):
    assert api("outsider").get(_url(cast.season)).status_code == 404
    assert api("anonymous").get(_url(cast.season)).status_code in (401, 403)


def test_a_member_may_not_change_them(api, cast):
    response = api("member").put(_url(cast.season), {"statutes": KEGELBAHN}, format="json")
    assert response.status_code == 403
    assert season_statutes(Season.objects.get(pk=cast.season.pk)) == CLUB_STATUTES


def test_a_season_with_evenings_needs_the_confirmation(api, cast):
    response = api("secretary").put(_url(cast.season), {"statutes": KEGELBAHN}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "confirmation_required"
    assert season_statutes(Season.objects.get(pk=cast.season.pk)) == CLUB_STATUTES


def test_the_confirmed_change_recomputes_the_books(api, cast):
    before = Season.objects.get(pk=cast.season.pk).data_version
    # Seed 003: Frank, absent, pays 6 Marks.
    assert member_balance(member=cast.absent, season=cast.season) == Decimal("3.00")
    response = api("secretary").put(
        _url(cast.season), {"statutes": KEGELBAHN, "confirm": True}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["statutes"]["scoring"] == {
        "mode": "by_rank",
        "points_per_schock_aus": 1,
        "points_per_game_lost": -1,
        "rank_points": [7, 5, 4, 3, 2, 1],
    }
    assert body["data_version"] == before + 1
    # Two games lost by the 3 present members: 2/3 -> 1 Mark, + 1 surcharge.
    assert member_balance(member=cast.absent, season=cast.season) == Decimal("1.00")
    standings = api("member").get(f"/api/v1/seasons/{cast.season.pk}/standings/").json()
    # By rank: Bernd lost none (7), Anna and Carla one each (2nd place shared: 5).
    assert sorted((row["points"] for row in standings["rows"]), reverse=True) == [7, 5, 5, 0]


@pytest.mark.parametrize(
    ("statutes", "code"),
    [
        ({"scoring": {"mode": "by_luck"}}, "statutes_invalid_mode"),
        ({"marks_per_game_lost": 1000}, "statutes_invalid_number"),
        ({"absence": {"mode": "fixed", "marks": "6"}}, "statutes_invalid_number"),
        ({"runden": {"shift": 1}}, "statutes_invalid_flag"),
        ({"scoring": {"mode": "by_rank", "rank_points": [1, 2]}}, "statutes_invalid_rank_points"),
        (
            {"mark_eras": [{"since_year": 2002, "value": "-1", "currency": "EUR"}]},
            "statutes_invalid_mark_eras",
        ),
        ({"unknown": 1}, "statutes_invalid"),
    ],
)
def test_bad_figures_are_a_400_with_a_code(api, cast, statutes, code):
    response = api("secretary").put(
        _url(cast.season), {"statutes": statutes, "confirm": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["field"].startswith("statutes")


@pytest.mark.parametrize(
    "body", [{}, {"statutes": [1, 2]}, {"statutes": "x"}, {"statutes": {}, "confirm": "vielleicht"}]
)
def test_a_malformed_body_is_a_400(api, cast, body):
    response = api("secretary").put(_url(cast.season), body, format="json")
    assert response.status_code == 400
    assert response.json()["code"]


def test_the_endpoint_is_in_the_schema_with_examples(api, cast):
    schema = (
        api("member").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    )
    item = schema["paths"]["/api/v1/seasons/{id}/statutes/"]
    assert {"get", "put"} <= set(item)
    assert item["put"]["requestBody"]["content"]["application/json"]["examples"]
    assert "409" in item["put"]["responses"]
