"""The seed actions of docs/rules.md 4 through the API: a game of a season
whose preset has the action, recorded by POST /api/v1/games/rounds/ with the books
following; an action the season's rule set lacks is refused with the engine's code."""

import pytest
from rest_framework.test import APIClient

from games.evenings.models import Game
from league.club.accounts.services import api_token_create
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.games.rounds.actions import EXPECTED, GAMES, action_evening, api_rounds

pytestmark = pytest.mark.django_db


def _setup(sample, preset):
    evening, people = action_evening(sample, preset)
    secretary = people[sample["evening"]["secretary"]]
    member_login_set(person=secretary, user=UserFactory(username="buchfuehrer"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=secretary.user)[1]}")
    return client, evening, people


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_game_with_a_seed_action_is_recorded_through_the_api(sample_evening, name):
    preset, loser, schock_aus = EXPECTED[name]
    client, evening, people = _setup(sample_evening, preset)
    body = {"evening": evening.pk, "rounds": api_rounds(name, people)}
    response = client.post("/api/v1/games/rounds/", body, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["id"])
    assert game.loser == people[loser]
    assert [s.thrower.name for s in game.schock_aus.order_by("position")] == schock_aus
    rows = client.get(f"/api/v1/games/{game.pk}/rounds/").json()
    assert [r["kind"] for r in rows] == [kind for kind, _t, _e in GAMES[name]]


def test_the_preview_shows_the_tied_players_of_the_ausscheidung(sample_evening):
    client, evening, people = _setup(sample_evening, "regelwerk2019")
    body = {"evening": evening.pk, "rounds": api_rounds("ausscheidung", people)[:1]}
    response = client.post("/api/v1/games/rounds/preview/", body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["tied"] == [people["Bernd Krause"].pk, people["Dieter Hahn"].pk]
    assert data["rounds"] == []


def test_the_preview_shows_deckel_nehmen_with_its_taker(sample_evening):
    client, evening, people = _setup(sample_evening, "regelwerk2019")
    first = {**api_rounds("deckel_nehmen", people)[0], "not_thrown": [people["Carla Vogt"].pk]}
    body = {"evening": evening.pk, "rounds": [first]}
    data = client.post("/api/v1/games/rounds/preview/", body, format="json").json()
    taker = people["Bernd Krause"].pk
    assert (data["rounds"][0]["kind"], data["rounds"][0]["taken_by"]) == ("deckel_nehmen", taker)
    assert data["rounds"][0]["covered"] == [6, 4, 1]
    assert data["next_order"] == [taker, people["Carla Vogt"].pk, people["Anna Becker"].pk]


@pytest.mark.parametrize(
    ("preset", "name", "code"),
    [
        ("club", "ausscheidung", "ausscheidung_off"),
        ("stammtisch", "deckel_nehmen", "deckel_nehmen_off"),
        ("meisterschaft", "choose_opener", "opener_choice_off"),
        ("regelwerk2019", "einwuerfeln", "einwuerfeln_off"),
    ],
)
def test_an_action_the_season_lacks_is_a_400_naming_the_entry(sample_evening, preset, name, code):
    client, evening, people = _setup(sample_evening, preset)
    body = {"evening": evening.pk, "rounds": api_rounds(name, people)}
    response = client.post("/api/v1/games/rounds/", body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == code
    kinds = [item["kind"] for item in body["rounds"]]
    first_action = next(i for i, k in enumerate(kinds) if k != "round")
    assert error["field"] == f"rounds[{first_action}]"
    assert not evening.games.exists()
