"""The API's evening, game and Runden reads kept by the club's books version
(league/club/api_common.py `kept_api_list` / `kept_api_object`): a repeated read answers from
the cache (and 304 to the list's ETag), yet a change through the services shows on the
next read, a page or filter is never answered with another's data, and another club's
object stays 404 after ours was kept.

Outside a transaction (transaction=True): inside one nothing is kept."""

import datetime

import pytest
from django.core.cache import cache

from games.evenings.services import evening_create, game_record
from league.club.services import member_update, season_create
from league.runden.api import kept_runden_rows
from league.runden.selectors import (
    runden_overview,
)
from league.runden.serializers import RundeStatusSerializer
from league.runden.services import (
    runde_mark_given,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize(
    "path", ["/api/v1/evenings/", "/api/v1/games/", "/api/v1/runden/?status=all"]
)
def test_a_list_read_again_with_its_etag_is_304_until_the_books_change(cast, api, path):
    client = api("member")
    first = client.get(path)
    assert first.status_code == 200
    etag = first["ETag"]
    assert "Authorization" in first["Vary"]
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304

    game_record(evening=cast.evening, loser=cast.carla, schock_aus_throwers=[cast.member])

    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_a_new_game_shows_in_the_kept_game_list_and_its_evenings_summary(cast, api):
    client = api("secretary")
    games = client.get("/api/v1/games/").json()
    summary = client.get(f"/api/v1/evenings/{cast.evening.pk}/summary/").json()

    new = client.post(
        "/api/v1/games/", {"evening": cast.evening.pk, "loser": cast.carla.pk}, format="json"
    )
    assert new.status_code == 201

    again = client.get("/api/v1/games/").json()
    assert new.json()["id"] in {g["id"] for g in again["results"]}
    assert again["count"] == games["count"] + 1
    after = client.get(f"/api/v1/evenings/{cast.evening.pk}/summary/")
    assert after.json()["games_entered"] == summary["games_entered"] + 1
    assert after["ETag"] == f'"{after.json()["version"]}"'


def test_an_evening_and_a_game_read_again_after_a_change_show_it_with_the_new_version(cast, api):
    client = api("secretary")
    url = f"/api/v1/evenings/{cast.evening.pk}/"
    first = client.get(url)
    assert first["ETag"] == f'"{first.json()["version"]}"'
    changed = client.patch(
        url, {"notes": "Neue Notiz"}, format="json", headers={"If-Match": first["ETag"]}
    )
    assert changed.status_code == 200
    again = client.get(url)
    assert again.json()["notes"] == "Neue Notiz"
    assert again.json()["version"] == changed.json()["version"] != first.json()["version"]
    assert again["ETag"] == f'"{again.json()["version"]}"'

    game_url = f"/api/v1/games/{cast.games[0].pk}/"
    game = client.get(game_url)
    assert game.json()["loser"] == cast.carla.pk
    fixed = client.patch(
        game_url, {"loser": cast.member.pk}, format="json", headers={"If-Match": game["ETag"]}
    )
    assert fixed.status_code == 200
    again = client.get(game_url)
    assert again.json()["loser"] == cast.member.pk
    assert again["ETag"] == f'"{fixed.json()["version"]}"'


def test_a_person_renamed_shows_in_the_kept_evening_list(cast, api):
    client = api("member")
    client.get("/api/v1/evenings/")
    member_update(member=cast.carla, name="Carla Neumann")
    evening = client.get("/api/v1/evenings/").json()["results"][0]
    names = {a["name"] for a in evening["attendance"]}
    assert "Carla Neumann" in names
    assert "Carla Vogt" not in names


def test_a_runde_marked_given_leaves_the_kept_open_list(cast, api):
    client = api("secretary")
    open_before = client.get("/api/v1/runden/").json()
    assert open_before["count"] >= 1
    first = open_before["results"][0]
    schock_aus = cast.games[1].schock_aus.get(pk=first["schock_aus"])
    runde_mark_given(schock_aus=schock_aus, given_on=datetime.date(2026, 10, 10))

    open_after = client.get("/api/v1/runden/").json()
    assert first["schock_aus"] not in {r["schock_aus"] for r in open_after["results"]}
    given = client.get("/api/v1/runden/?status=given").json()["results"]
    assert [r["given_on"] for r in given if r["schock_aus"] == first["schock_aus"]] == [
        "2026-10-10"
    ]


def test_pages_and_filters_are_kept_apart(cast, api):
    client = api("member")
    for _ in range(3):
        game_record(evening=cast.evening, loser=cast.carla)
    one = client.get("/api/v1/games/?page_size=2").json()
    two = client.get("/api/v1/games/?page_size=2&page=2").json()
    assert {g["id"] for g in one["results"]}.isdisjoint({g["id"] for g in two["results"]})
    carla = client.get(f"/api/v1/games/?loser={cast.carla.pk}").json()
    assert carla["results"] and {g["loser"] for g in carla["results"]} == {cast.carla.pk}
    assert client.get("/api/v1/games/?page_size=2").json() == one


def test_bad_input_is_answered_every_time_and_never_kept(cast, api):
    client = api("member")
    for _ in range(2):
        bad = client.get("/api/v1/runden/?season=999999")
        assert bad.status_code == 400
        assert bad.json()["code"] == "unknown_season"
        assert client.get("/api/v1/games/?page=99").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/evenings/{evening}/",
        "/api/v1/evenings/{evening}/summary/",
        "/api/v1/games/{game}/",
        "/api/v1/games/{game}/rounds/",
    ],
)
def test_another_clubs_reader_gets_404_for_our_kept_object(cast, api, path):
    url = path.format(evening=cast.evening.pk, game=cast.games[0].pk)
    ours = api("member")
    assert ours.get(url).status_code == 200
    assert ours.get(url).status_code == 200  # kept now
    assert api("outsider").get(url).status_code == 404
    theirs = path.format(evening=cast.other_evening.pk, game=cast.other_game.pk)
    assert ours.get(theirs).status_code == 404


def test_the_lists_of_another_club_are_its_own(cast, api):
    ours = api("member").get("/api/v1/evenings/").json()
    theirs = api("outsider").get("/api/v1/evenings/").json()
    assert [e["id"] for e in ours["results"]] == [cast.evening.pk]
    assert [e["id"] for e in theirs["results"]] == [cast.other_evening.pk]
    assert api("nobody").get("/api/v1/evenings/").json()["count"] == 0


def _second_season(cast):
    """A 2025 season of the cast's club with an evening of three games and Schock-Aus."""
    season_create(club=cast.club, year=2025)
    evening = evening_create(
        club=cast.club,
        date=datetime.date(2025, 3, 7),
        secretary=cast.secretary,
        present_members=[cast.secretary, cast.member, cast.carla],
    )
    for loser, throwers in (
        (cast.carla, [cast.member, cast.secretary]),
        (cast.member, [cast.carla]),
        (cast.secretary, [cast.member]),
    ):
        game_record(evening=evening, loser=loser, schock_aus_throwers=throwers)
    return evening


def _overview(cast, **query):
    return [
        dict(r)
        for r in RundeStatusSerializer(runden_overview(club=cast.club, **query), many=True).data
    ]


@pytest.mark.parametrize("status", ["open", "given", "all"])
def test_the_kept_runden_per_season_are_the_overviews_rows_before_and_after_a_change(cast, status):
    evening = _second_season(cast)
    for member in (None, cast.member):
        kept = kept_runden_rows(club=cast.club, season=None, member=member, status=status)
        assert kept == _overview(cast, member=member, status=status)
    first = evening.games.order_by("number").first().schock_aus.order_by("position").first()
    runde_mark_given(schock_aus=first, given_on=datetime.date(2025, 3, 8), note="Bier")
    game_record(evening=cast.evening, loser=cast.carla, schock_aus_throwers=[cast.carla])
    for member in (None, cast.member, cast.carla):
        kept = kept_runden_rows(club=cast.club, season=None, member=member, status=status)
        assert kept == _overview(cast, member=member, status=status)
        assert kept == sorted(kept, key=lambda r: (r["date"], r["ordinal"]))
    one = kept_runden_rows(club=cast.club, season=cast.season, member=None, status=status)
    assert one == _overview(cast, season=cast.season, status=status)
    assert {r["season"] for r in one} <= {cast.season.pk}


def test_the_runden_list_of_every_season_pages_through_both_seasons(cast, api):
    _second_season(cast)
    client = api("member")
    whole = client.get("/api/v1/runden/?status=all&page_size=500").json()
    assert len({r["season"] for r in whole["results"]}) == 2
    first = client.get("/api/v1/runden/?status=all&page_size=2").json()
    second = client.get("/api/v1/runden/?status=all&page_size=2&page=2").json()
    assert first["results"] + second["results"] == whole["results"][:4]
