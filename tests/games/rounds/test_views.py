"""The round-by-round entry page, the stored rounds page and the live feedback endpoint, with their
permissions."""

import datetime

import pytest
from django.urls import reverse

from games.evenings.models import Game
from games.rounds.feedback import turn_text
from games.rounds.models import RoundThrow
from league.club.services import member_login_set
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory
from tests.games.rounds.sample import game_20_rounds
from tests.games.rounds.test_services import _evening_copied

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(sample_evening):
    """Games 1..19 of the sample evening entered short; Bernd (secretary) and Anna
    (member) can log in."""
    evening, people = _evening_copied(sample_evening, rounds_games=())
    evening.games.filter(number__gte=20).delete()
    evening.refresh_from_db()
    for name in ("Bernd Krause", "Anna Becker"):
        member_login_set(person=people[name], user=UserFactory(username=name.split()[0].lower()))
    return evening, people


@pytest.fixture
def secretary_client(client, table):
    client.force_login(table[1]["Bernd Krause"].user)
    return client


def _post_data(rounds, *, number=20, version="", action="save"):
    data = {"number": str(number), "rounds": str(len(rounds)), "version": version, "action": action}
    for i, r in enumerate(rounds):
        data[f"r{i}_n"] = str(len(r.throws))
        for j, t in enumerate(r.throws):
            p = f"r{i}_{j}_"
            data[p + "player"] = str(t.player.pk)
            if t.detailed:
                data[p + "turn"] = turn_text(list(t.turn))
            else:
                data[p + "dice"] = "".join(str(d) for d in t.dice)
                data[p + "attempts"] = str(t.attempts)
                if t.natural:
                    data[p + "natural"] = "on"
    return data


def _url(evening):
    return reverse("game_rounds_entry", kwargs={"evening_id": evening.pk})


def test_the_secretary_sees_the_entry_form_with_the_vorleger_first(secretary_client, table):
    evening, people = table
    response = secretary_client.get(_url(evening))
    first_row = response.context["entry"].rounds[0].rows[0]
    assert response.status_code == 200
    assert first_row.player_id == str(people["Erik Lange"].pk)  # lost game 19


def test_game_20_entered_in_the_browser_is_saved_with_its_rounds(
    secretary_client, table, sample_evening
):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people))
    response = secretary_client.post(_url(evening), data)
    game = Game.objects.get(evening=evening, number=20)
    assert response.status_code == 302
    assert response.url == reverse("game_rounds", kwargs={"game_id": game.pk})
    assert game.loser == people["Anna Becker"]


def test_game_20_entered_in_the_browser_keeps_schock_aus_order_and_muss_regel(
    secretary_client, table, sample_evening
):
    evening, people = table
    secretary_client.post(_url(evening), _post_data(game_20_rounds(sample_evening, people)))
    game = Game.objects.get(evening=evening, number=20)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    last = game.rounds.order_by("-number").first()
    assert [sa.thrower.name for sa in game.schock_aus.order_by("position")] == expected[
        "schock_aus_in_throwing_order"
    ]
    assert {t.player.name: t.muss_regel for t in last.throws.all()} == expected[
        "muss_regel_applies"
    ]


def test_checking_rounds_fills_in_the_next_rounds_players_in_throwing_order(
    secretary_client, table, sample_evening
):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people)[:3], action="check")
    response = secretary_client.post(_url(evening), data)
    next_round = response.context["entry"].rounds[-1]
    names = ["Erik Lange", "Anna Becker", "Bernd Krause"]
    assert [r.player_id for r in next_round.rows] == [str(people[n].pk) for n in names]
    assert not Game.objects.filter(evening=evening, number=20).exists()


def test_checking_rounds_shows_each_throws_label(secretary_client, table, sample_evening):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people)[:1], action="check")
    response = secretary_client.post(_url(evening), data)
    assert response.context["entry"].rounds[0].rows[0].result["label"] == "Schock 6"
    assert "Schock 6" in response.content.decode()


def test_an_impossible_throw_is_shown_at_its_row_and_nothing_is_saved(
    secretary_client, table, sample_evening
):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people))
    data["r3_2_turn"] = "452:5 / 11"  # only ones may be laid out under the club rules
    response = secretary_client.post(_url(evening), data)
    assert response.status_code == 200
    assert response.context["entry"].rounds[3].rows[2].error
    assert not Game.objects.filter(evening=evening, number=20).exists()


def test_saving_an_unfinished_game_is_refused(secretary_client, table, sample_evening):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people)[:3])
    response = secretary_client.post(_url(evening), data)
    assert response.context["entry"].error
    assert not Game.objects.filter(evening=evening, number=20).exists()


def test_removing_the_last_round_keeps_the_earlier_ones(secretary_client, table, sample_evening):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people)[:3], action="drop")
    response = secretary_client.post(_url(evening), data)
    entry = response.context["entry"]
    assert [b.summary is not None for b in entry.rounds] == [True, True, False]


def test_a_member_may_not_enter_rounds(client, table):
    evening, people = table
    client.force_login(people["Anna Becker"].user)
    assert client.get(_url(evening)).status_code == 403


def test_another_clubs_secretary_gets_404(client, table):
    evening, _ = table
    other = MemberFactory(club=ClubFactory(), is_secretary=True, user=UserFactory())
    client.force_login(other.user)
    assert client.get(_url(evening)).status_code == 404


def test_an_anonymous_visitor_is_sent_to_login(client, table):
    evening, _ = table
    assert client.get(_url(evening)).status_code == 302


# -- stored rounds --------------------------------------------------------------------------------


@pytest.fixture
def game_20(secretary_client, table, sample_evening):
    evening, people = table
    secretary_client.post(_url(evening), _post_data(game_20_rounds(sample_evening, people)))
    return Game.objects.get(evening=evening, number=20)


def test_a_member_sees_a_stored_games_rounds_with_the_turns(client, table, game_20):
    client.force_login(table[1]["Anna Becker"].user)
    response = client.get(reverse("game_rounds", kwargs={"game_id": game_20.pk}))
    page = response.content.decode()
    assert response.status_code == 200
    assert "145:1 / 61:1 / 1" in page
    assert (
        len(response.context["detail"].rounds)
        == RoundThrow.objects.filter(round__game=game_20, position=1).count()
    )


def test_the_stored_rounds_replay_to_all_deckel_with_anna(client, table, game_20):
    client.force_login(table[1]["Anna Becker"].user)
    response = client.get(reverse("game_rounds", kwargs={"game_id": game_20.pk}))
    last = response.context["detail"].rounds[-1].summary
    assert last["finished"] and last["loser"] == table[1]["Anna Becker"]


def test_another_clubs_member_cannot_see_the_rounds(client, game_20):
    other = MemberFactory(club=ClubFactory(), user=UserFactory())
    client.force_login(other.user)
    assert client.get(reverse("game_rounds", kwargs={"game_id": game_20.pk})).status_code == 404


# -- live feedback ------------------------------------------------------------------------------


def _evaluate(client, **params):
    return client.get(reverse("throw_evaluate"), params).json()


def test_feedback_names_a_final_throw_and_its_worth(secretary_client, table):
    evening, _ = table
    answer = _evaluate(
        secretary_client,
        evening=evening.pk,
        dice="5 1 1",
        attempts="2",
        natural="0",
        schock_aus="3",
    )
    assert (answer["label"], answer["category"], answer["deckel"]) == ("Schock 5", "schock", 5)


def test_feedback_reads_a_turn_in_the_entry_notation(secretary_client, table):
    evening, _ = table
    answer = _evaluate(
        secretary_client, evening=evening.pk, turn="145:1 / 61:1 / 1", schock_aus="3"
    )
    assert answer["label"] == "Schock-Aus"
    assert answer["muss_regel"] is False


def test_feedback_applies_the_muss_regel_at_the_fifth_schock_aus(secretary_client, table):
    evening, _ = table
    answer = _evaluate(secretary_client, evening=evening.pk, turn="641", schock_aus="4")
    assert (answer["ok"], answer["code"]) == (False, "muss_regel_broken")


def test_feedback_refuses_more_attempts_than_the_vorleger_used(secretary_client, table):
    evening, _ = table
    answer = _evaluate(
        secretary_client,
        evening=evening.pk,
        dice="654",
        attempts="3",
        natural="1",
        max_attempts="2",
        schock_aus="1",
    )
    assert (answer["ok"], answer["code"]) == (False, "too_many_attempts")


def test_feedback_says_why_unreadable_attempts_are_refused(secretary_client, table):
    evening, _ = table
    answer = _evaluate(secretary_client, evening=evening.pk, turn="abc", schock_aus="1")
    assert answer["ok"] is False and answer["message"]


def test_feedback_for_another_clubs_evening_is_404(client, table):
    evening, _ = table
    other = MemberFactory(club=ClubFactory(), user=UserFactory())
    SeasonFactory(club=other.club)
    client.force_login(other.user)
    response = client.get(reverse("throw_evaluate"), {"evening": evening.pk, "dice": "111"})
    assert response.status_code == 404


def test_a_stale_page_keeps_the_typed_rounds_and_saves_on_the_second_try(
    secretary_client, table, sample_evening
):
    evening, people = table
    data = _post_data(game_20_rounds(sample_evening, people), version=str(evening.version - 1))
    first = secretary_client.post(_url(evening), data)
    data["version"] = first.context["entry"].version
    second = secretary_client.post(_url(evening), data)
    assert first.status_code == 200 and first.context["entry"].error
    assert second.status_code == 302


def test_a_game_entered_in_the_browser_gives_the_books_of_the_short_entry(
    secretary_client, table, sample_evening
):
    from games.evenings.services import game_record
    from tests.games.rounds.test_services import _books_figures

    evening, people = table
    secretary_client.post(_url(evening), _post_data(game_20_rounds(sample_evening, people)))
    for game in sample_evening["evening"]["games"][20:]:
        game_record(evening=evening, number=game["number"], loser=people[game["loser"]])
    short, _ = _evening_copied(sample_evening, rounds_games=(), date=datetime.date(2027, 10, 8))
    assert _books_figures(evening) == _books_figures(short)
