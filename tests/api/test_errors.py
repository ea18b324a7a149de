"""Bad input: a refusal by the rules is a 400 with the RuleViolation code,
a duplicate or a conflict is a 409, every refusal is {code, message, field} in German,
and junk input never causes a 500."""

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def secretary(cast):
    return client_for(cast, "secretary")


def _post_game(client, cast, **body):
    return client.post("/api/v1/games/", {"evening": cast.evening.pk, **body}, format="json")


def test_unknown_person_is_400_with_code_message_and_field(cast, secretary):
    response = _post_game(secretary, cast, loser="Niemand Bekannt")
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("unknown_person", "loser")
    assert body["message"].startswith("Unbekannte Person")


def test_person_of_another_club_is_an_unknown_person(cast, secretary):
    response = _post_game(secretary, cast, loser=cast.other_secretary.pk)
    assert response.json()["code"] == "unknown_person"


def test_unknown_schock_aus_thrower_names_the_list_item(cast, secretary):
    response = _post_game(secretary, cast, loser=cast.carla.pk, schock_aus=[cast.member.pk, 0])
    assert response.json()["field"] == "schock_aus[1]"


def test_absent_loser_is_refused_by_the_books(cast, secretary):
    response = _post_game(secretary, cast, loser=cast.absent.pk)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("loser_not_present", "loser")


def test_game_for_an_evening_of_another_club_is_an_unknown_evening(cast, secretary):
    response = secretary.post(
        "/api/v1/games/",
        {"evening": cast.other_evening.pk, "loser": cast.carla.pk},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "unknown_evening")


def test_duplicate_game_number_is_409(cast, secretary):
    response = _post_game(secretary, cast, loser=cast.carla.pk, number=1)
    assert (response.status_code, response.json()["code"]) == (409, "duplicate_game_number")


def test_second_evening_on_a_date_is_409(cast, secretary):
    response = secretary.post(
        "/api/v1/evenings/",
        {"date": cast.evening.date.isoformat(), "present_members": [cast.secretary.pk]},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (409, "evening_exists")


def test_evening_without_season_is_400_no_season(cast, secretary):
    response = secretary.post(
        "/api/v1/evenings/",
        {"date": "2025-05-01", "present_members": [cast.secretary.pk]},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "no_season")


def test_existing_season_year_is_409(secretary):
    response = secretary.post("/api/v1/seasons/", {"year": 2026}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "season_exists")


def test_existing_member_name_is_409(cast, secretary):
    response = secretary.post("/api/v1/members/", {"name": cast.carla.name}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "member_exists")


def test_deleting_an_evening_with_games_is_409(cast, secretary):
    response = secretary.delete(
        f"/api/v1/evenings/{cast.evening.pk}/?version={cast.evening.version}"
    )
    assert (response.status_code, response.json()["code"]) == (409, "evening_has_games")


def test_making_a_loser_absent_is_409_attendance_in_use(cast, secretary):
    response = secretary.patch(
        f"/api/v1/evenings/{cast.evening.pk}/",
        {
            "present_members": [cast.secretary.pk, cast.member.pk],
            "absent_members": [cast.absent.pk, cast.carla.pk],
            "version": cast.evening.version,
        },
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (409, "attendance_in_use")


@pytest.mark.parametrize(
    "body,code,field",
    [
        (
            {"dice": [6, 5, 4], "attempts": 1, "natural": False},
            "collected_in_one_attempt",
            "natural",
        ),
        ({"dice": [1, 1], "attempts": 1}, "wrong_number_of_dice", "dice"),
        ({"dice": [1, 1, 7], "attempts": 1}, "die_out_of_range", "dice"),
        ({"dice": [1, 1, 5], "attempts": 3, "max_attempts": 2}, "too_many_attempts", "attempts"),
        (
            {"attempts": [{"rolled": [4, 5, 2], "keep": [5]}, {"rolled": [1, 1]}]},
            "keep_not_one",
            "attempts",
        ),
        ({"attempts": []}, "no_attempts", "attempts"),
    ],
)
def test_throw_or_turn_the_rules_refuse_is_400_with_the_rule_code(secretary, body, code, field):
    response = secretary.post("/api/v1/rules/evaluate/", body, format="json")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == (code, field)


def test_turn_under_the_muss_regel_must_go_on_after_a_one(secretary):
    turn = {"attempts": [{"rolled": [1, 4, 5]}], "muss_regel": True}
    response = secretary.post("/api/v1/rules/evaluate/", turn, format="json")
    assert response.json()["code"] == "muss_regel_broken"


def test_same_turn_without_the_muss_regel_is_a_hausnummer(secretary):
    turn = {"attempts": [{"rolled": [1, 4, 5]}], "muss_regel": False}
    response = secretary.post("/api/v1/rules/evaluate/", turn, format="json")
    assert response.json()["category"] == "hausnummer"


def test_round_the_rules_refuse_names_the_throw(cast, secretary):
    body = {
        "evening": cast.evening.pk,
        "rounds": [
            {
                "throws": [
                    {"player": cast.secretary.pk, "dice": [1, 1, 1], "attempts": 1},
                    {"player": cast.member.pk, "dice": [6, 5, 4], "attempts": 1, "natural": False},
                    {"player": cast.carla.pk, "dice": [3, 2, 2], "attempts": 1},
                ]
            }
        ],
    }
    response = secretary.post("/api/v1/games/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "collected_in_one_attempt"
    assert response.json()["field"] == "rounds[0].throws[1]"


def test_malformed_json_is_400_parse_error(secretary):
    response = secretary.generic(
        "POST", "/api/v1/games/", "{not json", content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


JUNK = [
    [],
    "text",
    17,
    None,
    {"evening": "x"},
    {"evening": 2**70, "loser": 2**70},
    {"loser": {"id": 1}},
    {"loser": True},
    {"loser": "\x00"},
    {"date": "2026-02-30"},
    {"present_members": "Anna"},
    {"present_members": [None]},
    {"schock_aus": [[1]]},
    {"version": -1},
    {"version": 2**40},
    {"number": 0},
    {"year": 10**12},
    {"name": "x" * 500},
    {"rounds": [{"throws": [{"player": 1, "turn": [{"rolled": "abc"}]}]}]},
    {"dice": [True, 1, 1], "attempts": 1},
    {"attempts": [{"rolled": [1, 1, 1], "umwandlung": 5}]},
    {"dice": [1, 1, 1], "attempts": "3"},
    {"preset": "unbekannt", "dice": [1, 1, 1]},
]
WRITE_URLS = [
    ("post", "/api/v1/seasons/"),
    ("post", "/api/v1/members/"),
    ("post", "/api/v1/evenings/"),
    ("post", "/api/v1/games/"),
    ("post", "/api/v1/games/rounds/"),
    ("post", "/api/v1/rules/evaluate/"),
    ("patch", "/api/v1/evenings/{evening}/"),
    ("patch", "/api/v1/members/{member}/"),
    ("put", "/api/v1/games/{game}/"),
]


@pytest.mark.parametrize("method,url", WRITE_URLS)
def test_junk_input_is_never_a_server_error(cast, secretary, method, url):
    url = url.format(evening=cast.evening.pk, game=cast.games[0].pk, member=cast.carla.pk)
    for body in JUNK:
        response = getattr(secretary, method)(url, body, format="json")
        assert response.status_code < 500, (body, response.content)
        if response.status_code >= 400:
            assert set(response.json()) >= {"code", "message", "field"}, body


@pytest.mark.parametrize(
    "query",
    [
        "?page=999",
        "?page=x",
        "?page_size=-1",
        "?ordering=nonsense",
        "?season=x",
        "?date_from=yesterday",
        "?year=99999999999999999999",
        "?evening=-1",
    ],
)
def test_junk_query_is_never_a_server_error(cast, secretary, query):
    for resource in ["seasons", "members", "evenings", "games"]:
        response = secretary.get(f"/api/v1/{resource}/{query}")
        assert response.status_code < 500, (resource, response.content)


def test_dues_with_an_unreadable_season_is_400(cast, secretary):
    response = secretary.get(f"/api/v1/members/{cast.member.pk}/dues/?season=abc")
    assert (response.status_code, response.json()["field"]) == (400, "season")


def test_rounds_preview_of_an_unfinished_game_names_the_next_throwing_order(cast, secretary):
    body = {
        "evening": cast.evening.pk,
        "rounds": [
            {
                "throws": [
                    {"player": cast.secretary.pk, "dice": [6, 5, 4], "attempts": 1},
                    {"player": cast.member.pk, "dice": [3, 2, 2], "attempts": 1},
                    {"player": cast.carla.pk, "dice": [5, 3, 2], "attempts": 1},
                ]
            }
        ],
    }
    preview = secretary.post("/api/v1/games/rounds/preview/", body, format="json").json()
    assert preview["finished"] is False
    assert preview["next_order"][0] == cast.member.pk


def test_rounds_preview_saves_nothing(cast, secretary):
    body = {
        "evening": cast.evening.pk,
        "rounds": [
            {
                "throws": [
                    {"player": cast.secretary.pk, "dice": [1, 1, 1], "attempts": 1},
                    {"player": cast.member.pk, "dice": [3, 2, 2], "attempts": 1},
                ]
            }
        ],
    }
    secretary.post("/api/v1/games/rounds/preview/", body, format="json")
    assert secretary.get(f"/api/v1/games/?evening={cast.evening.pk}").json()["count"] == 2


@pytest.mark.parametrize("cookie", ["abc\x00defghijk", "ÿÉÈPµ§Å¹xxxxxxxx", "x" * 33])
def test_malformed_session_cookie_is_not_logged_in(cast, cookie):
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections
    from werkzeug.test import Client

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        client = Client(get_wsgi_application(), use_cookies=False)
        response = client.get("/api/v1/clubs/", headers={"Cookie": f"sessionid={cookie}"})
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert response.status_code == 401


# A superscript two is a digit to str.isdigit() but not to int(): the ids, seasons and
# versions a query or header names are read as ASCII digits only, so it is a 400.
SUPERSCRIPT_TWO = "\u00b2"


def test_dues_of_a_season_named_by_a_superscript_digit_is_400(cast, secretary):
    url = f"/api/v1/members/{cast.member.pk}/dues/?season={SUPERSCRIPT_TWO}"
    response = secretary.get(url)
    assert (response.status_code, response.json()["field"]) == (400, "season")


def test_statement_of_a_season_named_by_a_superscript_digit_is_400(cast, secretary):
    url = f"/api/v1/members/{cast.member.pk}/statement/?season={SUPERSCRIPT_TWO}"
    response = secretary.get(url)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_season_runden_of_a_member_named_by_a_superscript_digit_is_400(cast, secretary):
    url = f"/api/v1/seasons/{cast.season.pk}/runden/?member={SUPERSCRIPT_TWO}"
    response = secretary.get(url)
    assert (response.status_code, response.json()["field"]) == (400, "member")


def test_season_runden_of_a_member_id_beyond_the_database_is_400(cast, secretary):
    response = secretary.get(f"/api/v1/seasons/{cast.season.pk}/runden/?member={2**64}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_dues_of_an_unknown_season_is_404(cast, secretary):
    url = f"/api/v1/members/{cast.member.pk}/dues/?season={cast.other_season.pk}"
    response = secretary.get(url)
    assert (response.status_code, response.json()["code"]) == (404, "unknown_season")


def test_if_match_with_a_superscript_digit_is_400(cast, secretary):
    response = secretary.patch(
        f"/api/v1/evenings/{cast.evening.pk}/",
        {"notes": "A"},
        format="json",
        HTTP_IF_MATCH=f'"{SUPERSCRIPT_TWO}"',
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_version")
