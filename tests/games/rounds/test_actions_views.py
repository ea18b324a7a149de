"""The seed actions of docs/rules.md 4 on the round-by-round entry page and the stored rounds
page: offered where the season's rule set has them, saved with the books
following, refused with a German message where it lacks them."""

import pytest
from django.urls import reverse

from games.evenings.models import Game
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.games.rounds.actions import BERND, CARLA, DIETER, EXPECTED, action_evening, round_inputs
from tests.games.rounds.test_views import _post_data

pytestmark = pytest.mark.django_db


def _page(client, sample, preset):
    evening, people = action_evening(sample, preset)
    secretary = people[sample["evening"]["secretary"]]
    member_login_set(person=secretary, user=UserFactory(username="buchfuehrer"))
    client.force_login(secretary.user)
    return evening, people, reverse("game_rounds_entry", kwargs={"evening_id": evening.pk})


def _form(rounds, **kwargs):
    """The form data of ``rounds`` (RoundInputs) with each entry's kind and player."""
    data = _post_data(rounds, number=1, **kwargs)
    for i, r in enumerate(rounds):
        data[f"r{i}_kind"] = r.kind
        if r.player is not None:
            data[f"r{i}_who"] = str(r.player.pk)
        if r.after is not None:
            data[f"r{i}_after"] = str(r.after.pk)
        if r.covered:
            data[f"r{i}_covered"] = "".join(map(str, r.covered))
    return data


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_game_with_a_seed_action_is_saved_from_the_page(client, sample_evening, name):
    preset, loser, schock_aus = EXPECTED[name]
    evening, people, url = _page(client, sample_evening, preset)
    response = client.post(url, _form(round_inputs(name, people)))
    assert response.status_code == 302, response.context["entry"]
    game = Game.objects.get(evening=evening, number=1)
    assert game.loser == people[loser]
    assert [s.thrower.name for s in game.schock_aus.order_by("position")] == schock_aus
    detail = client.get(reverse("game_rounds", kwargs={"game_id": game.pk}))
    assert detail.status_code == 200
    assert not detail.context["detail"].mismatch


def test_the_page_starts_with_the_ausscheidung_where_the_rules_have_it(client, sample_evening):
    evening, people, url = _page(client, sample_evening, "regelwerk2019")
    response = client.get(url)
    entry = response.context["entry"]
    assert entry.rounds[0].kind == "ausscheidung"
    assert len(entry.rounds[0].rows) == 4
    kinds = [k for k, _label in response.context["kinds"]]
    assert kinds == ["round", "ausscheidung", "deckel_nehmen", "choose_opener"]


def test_the_club_page_offers_no_seed_action(client, sample_evening):
    evening, people, url = _page(client, sample_evening, "club")
    response = client.get(url)
    assert response.context["kinds"] == []
    assert response.context["entry"].rounds[0].kind == "round"
    assert 'value="kind_' not in response.content.decode()


def test_a_tied_ausscheidung_adds_the_rethrow_of_the_tied(client, sample_evening):
    evening, people, url = _page(client, sample_evening, "regelwerk2019")
    data = _form(round_inputs("ausscheidung", people)[:1], action="check")
    entry = client.post(url, data).context["entry"]
    rethrow = entry.rounds[-1]
    assert rethrow.kind == "ausscheidung"
    assert [r.player_id for r in rethrow.rows] == [str(people[BERND].pk), str(people[DIETER].pk)]
    assert "Gleich schlecht geworfen" in client.post(url, data).content.decode()


def test_the_kind_button_turns_the_next_entry_into_deckel_nehmen(client, sample_evening):
    evening, people, url = _page(client, sample_evening, "regelwerk2019")
    data = _form(round_inputs("choose_opener", people)[:1], action="kind_deckel_nehmen")
    entry = client.post(url, data).context["entry"]
    assert [b.kind for b in entry.rounds] == ["round", "deckel_nehmen"]
    assert entry.rounds[0].summary["loser"] == people["Anna Becker"]
    html = client.post(url, data).content.decode()
    assert 'name="r1_who"' in html and 'name="r1_covered"' in html


def test_deckel_nehmen_as_first_entry_keeps_the_seating_of_the_empty_rows(client, sample_evening):
    evening, people, url = _page(client, sample_evening, "regelwerk2019")
    rounds = round_inputs("deckel_nehmen", people)[:1]
    data = _form(rounds, action="check")
    data["r0_n"] = "3"
    data["r0_1_player"], data["r0_2_player"] = str(people[BERND].pk), str(people[CARLA].pk)
    entry = client.post(url, data).context["entry"]
    assert not entry.error and not entry.rounds[0].error
    assert [r.player_id for r in entry.rounds[-1].rows] == [
        str(people[n].pk) for n in (BERND, CARLA, "Anna Becker")
    ]


@pytest.mark.parametrize(
    ("preset", "name", "message"),
    [
        ("club", "ausscheidung", "keine Ausscheidung"),
        ("stammtisch", "deckel_nehmen", "darf niemand freiwillig Deckel nehmen"),
        ("regelwerk2019", "einwuerfeln", "steigt niemand in ein laufendes Spiel"),
    ],
)
def test_an_action_the_season_lacks_is_refused_in_german_and_nothing_saved(
    client, sample_evening, preset, name, message
):
    evening, people, url = _page(client, sample_evening, preset)
    response = client.post(url, _form(round_inputs(name, people)))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not evening.games.exists()
