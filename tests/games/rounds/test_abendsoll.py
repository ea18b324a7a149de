"""A game entered round by round beyond the evening's target count (the Abendsoll,
docs/rules.md 5: games per present club member) is asked about like a game entered short:
the service refuses it unless confirmed, the entry page asks "Das Abendsoll ist erreicht -
trotzdem speichern?" keeping every round typed and saves on "Ja, trotzdem speichern", and
the API answers 409 `evening_target_reached` unless `beyond_target` is sent."""

import pytest
from django.urls import reverse

from games.evenings.models import Game
from games.evenings.selectors import evening_target_reached
from games.rounds.models import Round
from games.rounds.selectors import RoundInput, ThrowInput
from games.rounds.services import game_record_rounds
from league.club.errors import BooksError
from league.club.services import member_login_set, season_statutes_update
from tests.factories import UserFactory
from tests.games.rounds.test_services import _evening_copied
from tests.games.rounds.test_views import _post_data

pytestmark = pytest.mark.django_db

# The sample evening has five club members present and games 1..19 entered (short); with
# three games per present member its target count is 15 games, reached already, and the
# sample's game 20, entered round by round, is beyond it. With four per member (20) it is
# not.
TARGET = 15
NEXT = 20
QUESTION = "Das Abendsoll ist erreicht - trotzdem speichern?"


def _last_game_rounds(people) -> list[RoundInput]:
    """A game of one round that a Schock-Aus ends, valid where the Muss-Regel binds
    throughout (a game beyond the target is the evening's last, docs/rules.md 3): Erik and
    Bernd throw Schock-Aus, Anna loses."""
    erik, anna, bernd = (people[n] for n in ("Erik Lange", "Anna Becker", "Bernd Krause"))
    return [
        RoundInput(
            throws=[
                ThrowInput(
                    player=erik,
                    turn=[
                        {"rolled": [1, 4, 5], "keep": [1], "umwandlung": 0},
                        {"rolled": [6, 1], "keep": [1], "umwandlung": 0},
                        {"rolled": [1], "keep": [], "umwandlung": 0},
                    ],
                ),
                ThrowInput(player=anna, dice=(6, 5, 5), attempts=3, natural=True),
                ThrowInput(
                    player=bernd,
                    turn=[
                        {"rolled": [4, 5, 2], "keep": [], "umwandlung": 0},
                        {"rolled": [1, 1, 1], "keep": [], "umwandlung": 0},
                    ],
                ),
            ]
        )
    ]


def _unfinished_round(people) -> RoundInput:
    """A round that leaves the game open (no Schock-Aus: the Deckel stay in play)."""
    erik, anna = people["Erik Lange"], people["Anna Becker"]
    return RoundInput(
        throws=[
            ThrowInput(player=erik, dice=(6, 5, 4), attempts=1, natural=True),
            ThrowInput(player=anna, dice=(6, 5, 3), attempts=1, natural=True),
        ]
    )


def _games_per_member(evening, count: int) -> None:
    season_statutes_update(
        season=evening.season, statutes={"games_per_present_member": count}, confirm=True
    )


@pytest.fixture
def full_evening(sample_evening):
    """The sample evening with games 1..19 entered short, its target count 15 games;
    Bernd (secretary) can log in."""
    evening, people = _evening_copied(sample_evening, rounds_games=())
    evening.games.filter(number__gte=NEXT).delete()
    _games_per_member(evening, 3)
    evening.refresh_from_db()
    member_login_set(person=people["Bernd Krause"], user=UserFactory(username="bernd"))
    assert evening_target_reached(evening=evening) == (True, TARGET)
    return evening, people


@pytest.fixture
def secretary_client(client, full_evening):
    client.force_login(full_evening[1]["Bernd Krause"].user)
    return client


def _url(evening):
    return reverse("game_rounds_entry", kwargs={"evening_id": evening.pk})


# -- service ------------------------------------------------------------------------------------


def test_the_service_refuses_a_game_beyond_the_target_unless_confirmed(full_evening):
    evening, people = full_evening
    rounds = _last_game_rounds(people)
    with pytest.raises(BooksError) as refused:
        game_record_rounds(evening=evening, rounds=rounds, target_confirmed=False)
    assert refused.value.code == "evening_target_reached"
    assert refused.value.status == 409
    assert refused.value.details == {"target": TARGET}
    assert evening.games.count() == NEXT - 1
    assert not Round.objects.filter(game__evening=evening).exists()

    game = game_record_rounds(evening=evening, rounds=rounds, target_confirmed=True)
    assert game.number == NEXT and game.entry_mode == Game.EntryMode.ROUNDS
    assert game.rounds.count() == len(rounds)


def test_the_service_records_beyond_the_target_for_internal_callers(full_evening):
    evening, people = full_evening
    game = game_record_rounds(evening=evening, rounds=_last_game_rounds(people))
    assert game.number == NEXT


def test_the_service_does_not_ask_before_the_target_is_reached(full_evening):
    evening, people = full_evening
    _games_per_member(evening, 4)
    game = game_record_rounds(
        evening=evening, rounds=_last_game_rounds(people), target_confirmed=False
    )
    assert game.number == NEXT


def test_a_game_the_rules_refuse_is_refused_for_that_before_the_target_question(full_evening):
    evening, people = full_evening
    rounds = [_unfinished_round(people)]  # not over yet
    with pytest.raises(BooksError) as refused:
        game_record_rounds(evening=evening, rounds=rounds, target_confirmed=False)
    assert refused.value.code != "evening_target_reached"
    assert evening.games.count() == NEXT - 1


# -- page ---------------------------------------------------------------------------------------


def test_the_page_asks_and_keeps_the_rounds_and_saves_nothing(secretary_client, full_evening):
    evening, people = full_evening
    data = _post_data(_last_game_rounds(people), number=NEXT)
    response = secretary_client.post(_url(evening), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert QUESTION in page
    assert 'name="action" value="confirm_target"' in page
    assert "Ja, trotzdem speichern" in page
    assert evening.games.count() == NEXT - 1
    # every round and throw typed is on the page again, as typed
    entry = response.context["entry"]
    assert entry.target_question and entry.number == NEXT
    assert len(entry.rounds) == int(data["rounds"])
    for i, block in enumerate(entry.rounds):
        assert len(block.rows) == int(data[f"r{i}_n"])
        for j, row in enumerate(block.rows):
            assert row.player_id == data[f"r{i}_{j}_player"]
            assert row.dice == data.get(f"r{i}_{j}_dice", "")
            assert row.turn == data.get(f"r{i}_{j}_turn", "")
            assert f'name="r{i}_{j}_player"' in page


def test_the_pages_confirm_button_saves_the_game_with_its_rounds(secretary_client, full_evening):
    evening, people = full_evening
    rounds = _last_game_rounds(people)
    data = _post_data(rounds, number=NEXT, action="confirm_target")
    response = secretary_client.post(_url(evening), data)
    game = Game.objects.get(evening=evening, number=NEXT)
    assert response.status_code == 302
    assert response.url == reverse("game_rounds", kwargs={"game_id": game.pk})
    assert game.entry_mode == Game.EntryMode.ROUNDS
    assert game.rounds.count() == len(rounds)
    assert evening.games.count() == NEXT


def test_the_page_does_not_ask_before_the_target_is_reached(secretary_client, full_evening):
    evening, people = full_evening
    _games_per_member(evening, 4)
    data = _post_data(_last_game_rounds(people), number=NEXT)
    response = secretary_client.post(_url(evening), data)
    assert response.status_code == 302
    assert evening.games.filter(number=NEXT, entry_mode=Game.EntryMode.ROUNDS).exists()


# -- API ----------------------------------------------------------------------------------------


def _api_rounds(rounds) -> list[dict]:
    out = []
    for r in rounds:
        throws = []
        for t in r.throws:
            throw = {"player": t.player.pk}
            if t.detailed:
                throw["turn"] = [
                    {k: list(v) if k != "umwandlung" else v for k, v in dict(a).items()}
                    for a in t.turn
                ]
            else:
                throw.update(dice=list(t.dice), attempts=t.attempts, natural=t.natural)
            throws.append(throw)
        out.append({"throws": throws})
    return out


def test_the_api_refuses_a_game_beyond_the_target_until_beyond_target(
    secretary_client, full_evening
):
    evening, people = full_evening
    body = {"evening": evening.pk, "rounds": _api_rounds(_last_game_rounds(people))}
    answer = secretary_client.post("/api/v1/games/rounds/", body, content_type="application/json")
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "evening_target_reached"
    assert answer.json()["details"] == {"target": TARGET}
    assert evening.games.count() == NEXT - 1

    body["beyond_target"] = True
    answer = secretary_client.post("/api/v1/games/rounds/", body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["number"] == NEXT and answer.json()["entry_mode"] == "rounds"
    assert Game.objects.get(evening=evening, number=NEXT).rounds.count() == len(body["rounds"])


def test_the_schema_documents_beyond_target_for_the_rounds_entry(secretary_client):
    schema = secretary_client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    operation = schema["paths"]["/api/v1/games/rounds/"]["post"]
    assert "evening_target_reached" in operation["description"]
    assert "beyond_target" in operation["description"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert body["properties"]["beyond_target"]["type"] == "boolean"
    assert "evening_target_reached" in body["properties"]["beyond_target"]["description"]
