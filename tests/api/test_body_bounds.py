"""Request bodies are bounded: nesting past the bound answers 400 `parse_error`
(league.club.parsers), a body past its size 400 `body_too_large` before it is read
(league.club.body_limits), and a list past its length 400 `too_many_items` before its first
element is looked at (league.club.fields), each with a German message, never a 500."""

import io
import json

import pytest
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from league.club.fields import (
    DICE,
    MAX_ATTEMPTS,
    MAX_PEOPLE,
    MAX_THROWS,
    BoundedDictField,
    BoundedListField,
    bounded_many,
)
from league.club.parsers import MAX_DEPTH, BoundedJSONParser, nesting_depth
from league.clubbook.api import ClubBookImportView

pytestmark = pytest.mark.django_db


def _post(client: APIClient, path: str, body: str):
    return client.post(path, data=body, content_type="application/json")


def test_a_deeply_nested_body_to_the_token_endpoint_is_a_400_not_a_500():
    body = "[" * 100_000 + "]" * 100_000
    response = _post(APIClient(), "/api/v1/auth/token/", body)
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def test_a_body_nested_just_past_the_bound_is_refused_in_german():
    body = '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)
    response = APIClient().post(
        "/api/v1/auth/token/", data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    assert "verschachtelt" in response.json()["message"]


def test_a_body_at_the_bound_is_read(api):
    body = '{"date": "2026-03-06", "x": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    response = _post(api("secretary"), "/api/v1/evenings/", body)
    assert response.status_code == 400
    assert response.json()["code"] != "parse_error"


def test_a_body_past_the_size_bound_is_refused_before_it_is_read(settings):
    settings.API_MAX_BODY_BYTES = 100
    response = _post(APIClient(), "/api/v1/auth/token/", '{"username": "' + "a" * 200 + '"}')
    assert (response.status_code, response.json()["code"]) == (400, "body_too_large")


def test_the_parser_refuses_a_stream_past_the_size_bound_as_body_too_large(settings):
    settings.API_MAX_BODY_BYTES = 100
    with pytest.raises(ParseError) as refused:
        BoundedJSONParser().parse(io.BytesIO(b'{"a": "' + b"x" * 200 + b'"}'))
    assert refused.value.get_codes() == "body_too_large"


@pytest.mark.parametrize(
    ("value", "depth"), [(1, 0), ([], 1), ({"a": [1, {"b": []}]}, 4), ([[[[]]]], 4)]
)
def test_the_nesting_depth_of_a_json_text(value, depth):
    assert nesting_depth(json.dumps(value).encode()) == depth


def test_brackets_in_strings_do_not_count_as_nesting():
    assert nesting_depth(rb'{"a": "[[[{{\"[", "b": ["]]"]}') == 2


def test_the_nesting_depth_is_counted_only_past_a_limit():
    assert nesting_depth(b"[" * 1000 + b"]" * 1000, limit=5) == 6


# --- lists: their length is checked before their elements ------------------------------


def _preview_body(cast, **entry) -> dict:
    return {"evening": cast.evening.pk, "rounds": [{"kind": "deckel_nehmen", **entry}]}


def test_a_member_previewing_200000_players_who_did_not_throw_is_refused_unread(api, cast):
    body = json.dumps(_preview_body(cast, not_thrown=[0] * 200_000))  # 600 KB
    assert len(body) > 600_000
    response = _post(api("member"), "/api/v1/games/rounds/preview/", body)
    assert (response.status_code, response.json()["code"]) == (400, "body_too_large")


def test_200000_players_who_did_not_throw_are_refused_by_the_list_bound(api, cast, settings):
    settings.API_MAX_BODY_BYTES = settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
    body = json.dumps(_preview_body(cast, not_thrown=[0] * 200_000))
    response = _post(api("member"), "/api/v1/games/rounds/preview/", body)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == (
        "too_many_items",
        "rounds[0].not_thrown",
    )


def test_a_round_with_more_throws_than_people_at_an_evening_is_refused(api, cast):
    throws = [{"player": 0, "dice": [1, 2, 3]}] * (MAX_PEOPLE + 1)
    response = api("member").post(
        "/api/v1/games/rounds/preview/",
        {"evening": cast.evening.pk, "rounds": [{"throws": throws}]},
        format="json",
    )
    assert (response.json()["code"], response.json()["field"]) == (
        "too_many_items",
        "rounds[0].throws",
    )


def test_a_game_of_more_throws_than_its_bound_is_refused_before_any_is_read(api, cast):
    rounds = [{"throws": [{"player": 0}] * MAX_PEOPLE}] * (MAX_THROWS // MAX_PEOPLE + 1)
    response = api("member").post(
        "/api/v1/games/rounds/preview/",
        {"evening": cast.evening.pk, "rounds": rounds},
        format="json",
    )
    assert (response.json()["code"], response.json()["field"]) == ("too_many_throws", "rounds")


def test_only_the_first_bad_element_of_a_list_is_reported(api, cast):
    response = api("secretary").post(
        "/api/v1/evenings/",
        {"date": "2026-10-16", "present_members": [0] * MAX_PEOPLE},
        format="json",
    )
    assert response.json()["errors"] == {"present_members[0]": ["Unbekannte Person: 0."]}


def test_a_turn_of_more_attempts_than_the_rules_allow_is_refused(api):
    attempts = [{"rolled": [2, 3, 4]}] * (MAX_ATTEMPTS + 1)
    response = api("member").post("/api/v1/rules/evaluate/", {"attempts": attempts}, format="json")
    assert (response.json()["code"], response.json()["field"]) == ("too_many_items", "attempts")


def test_a_throw_of_more_than_three_dice_is_refused(api):
    response = api("member").post(
        "/api/v1/rules/evaluate/", {"dice": [1] * (DICE + 1)}, format="json"
    )
    assert (response.json()["code"], response.json()["field"]) == ("too_many_items", "dice")


def test_a_rule_change_with_more_keys_than_there_are_flags_is_refused(api, cast):
    rules = {f"flag_{n}": True for n in range(500)}
    response = api("secretary").post(
        "/api/v1/seasons/", {"year": 2027, "rules": rules}, format="json"
    )
    assert (response.json()["code"], response.json()["field"]) == ("too_many_items", "rules")


class _Untouchable(serializers.Field):
    def to_internal_value(self, data):
        raise AssertionError("an element was validated")


class _Item(serializers.Serializer):
    value = _Untouchable()


@pytest.mark.parametrize(
    "field",
    [
        BoundedListField(child=_Untouchable(), max_length=3),
        bounded_many(_Item(), max_length=3),
        BoundedDictField(child=_Untouchable(), max_length=3),
    ],
    ids=["list field", "list of serializers", "dict field"],
)
def test_a_bounded_list_refuses_its_length_before_any_element(field):
    data = {str(n): n for n in range(4)} if isinstance(field, BoundedDictField) else [{}] * 4
    with pytest.raises(serializers.ValidationError) as refused:
        field.run_validation(data)
    assert refused.value.get_codes() == ["too_many_items"]


# --- uploads: their own bound, refused before they are read ----------------------------


def test_a_club_book_import_past_its_bound_is_refused_before_it_is_read(api, monkeypatch):
    monkeypatch.setattr(ClubBookImportView, "max_body_bytes", 1000)
    upload = io.BytesIO(b"x" * 2000)
    upload.name = "club-book-attendance.csv"
    response = api("secretary").post(
        "/api/v1/club-book/import/", {"attendance": upload, "games": upload}, format="multipart"
    )
    assert (response.status_code, response.json()["code"]) == (400, "body_too_large")
