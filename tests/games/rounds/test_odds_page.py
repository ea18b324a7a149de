"""The odds page ("Wahrscheinlichkeiten") and the members' Schock-Aus statistics."""

import dataclasses
import datetime
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.rounds.selectors import (
    ODDS_SIMULATED_GAMES,
    ODDS_SIMULATION_SEED,
    odds_overview,
    odds_simulation,
    season_schock_aus_stats,
)
from games.rules import PRESETS
from games.rules.odds import attempt_odds, turn_schock_aus_probability
from games.rules.simulator import simulate_statistics
from league.club.services import member_login_set, season_create
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.games.rounds.test_services import _evening_copied

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client):
    client.force_login(MemberFactory(club=ClubFactory(), user=UserFactory()).user)
    return client


def test_the_odds_page_shows_schock_aus_in_one_attempt_as_1_in_216(logged_in):
    response = logged_in.get(reverse("odds"))
    assert response.status_code == 200
    assert response.context["odds"].schock_aus_attempt.probability == Fraction(1, 216)
    assert "1/216" in response.content.decode()


def test_the_odds_page_shows_the_percentage_german_style(logged_in):
    assert "0,463 %" in logged_in.get(reverse("odds")).content.decode()


def test_the_odds_page_lists_every_throw_of_one_attempt_best_first(logged_in):
    odds = logged_in.get(reverse("odds")).context["odds"]
    possible = [t.label for t in odds.throws if t.attempt.probability]
    assert possible == list(attempt_odds(PRESETS["club"]))
    assert odds.throws[0].label == "Schock-Aus"


def test_the_odds_page_lists_throws_only_a_turn_can_end_with(logged_in):
    odds = logged_in.get(reverse("odds")).context["odds"]
    collected = next(t for t in odds.throws if t.label == "321")  # 1-2-3 collected
    assert collected.attempt.probability == 0 < collected.turn.probability


def test_the_odds_page_shows_a_full_turns_schock_aus_exactly(logged_in):
    odds = logged_in.get(reverse("odds")).context["odds"]
    assert odds.schock_aus_turn.probability == turn_schock_aus_probability(PRESETS["club"])
    assert odds.schock_aus_turn.fraction in logged_in.get(reverse("odds")).content.decode()


def test_the_odds_page_switches_rule_set(logged_in):
    response = logged_in.get(reverse("odds"), {"regeln": "stammtisch"})
    assert response.context["odds"].preset == "stammtisch"


def test_a_login_without_a_club_sees_the_club_rules(client):
    client.force_login(UserFactory())
    assert client.get(reverse("odds")).context["odds"].rules == PRESETS["club"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_presets_category_odds_add_up_to_one(preset):
    overview = odds_overview(preset=preset)
    assert sum(c.attempt.probability for c in overview.categories) == 1
    assert sum(c.turn.probability for c in overview.categories) == 1


def test_the_muss_regel_column_appears_only_where_the_rule_set_plays_it():
    assert odds_overview(preset="club").categories[0].turn_muss is not None
    assert odds_overview(preset="app").categories[0].turn_muss is None


def test_the_odds_page_needs_a_login(client):
    assert client.get(reverse("odds")).status_code == 302


# -- statistics -----------------------------------------------------------------------------------


def _turn_probability(cap, muss):
    return turn_schock_aus_probability(PRESETS["club"], muss_regel=muss, max_attempts=cap)


def test_eriks_expected_schock_aus_add_up_his_turns_of_game_20(sample_evening):
    evening, people = _evening_copied(sample_evening)
    stats = season_schock_aus_stats(season=evening.season)
    erik = next(r for r in stats.rows if r.member.name == "Erik Lange")
    # Erik opens rounds 1 and 4 (3 attempts allowed) and throws after Vorleger who used
    # one attempt in rounds 2 and 3; the Muss-Regel does not apply to him in game 20.
    expected = 2 * _turn_probability(3, False) + 2 * _turn_probability(1, False)
    assert (erik.turns, erik.schock_aus_in_turns, erik.expected) == (4, 1, expected)


def test_annas_turn_under_the_muss_regel_uses_its_odds(sample_evening):
    evening, people = _evening_copied(sample_evening)
    stats = season_schock_aus_stats(season=evening.season)
    anna = next(r for r in stats.rows if r.member.name == "Anna Becker")
    expected = (
        _turn_probability(1, False)
        + _turn_probability(3, False)
        + _turn_probability(1, False)
        + _turn_probability(3, True)
    )
    assert anna.expected == expected


def test_games_entered_short_count_only_in_all_schock_aus(sample_evening):
    evening, _ = _evening_copied(sample_evening)
    stats = season_schock_aus_stats(season=evening.season)
    carla = next(r for r in stats.rows if r.member.name == "Carla Vogt")
    assert (carla.turns, carla.schock_aus_in_turns, carla.schock_aus_total) == (3, 0, 1)
    assert (stats.games_with_rounds, stats.games_total) == (1, 25)


def test_the_statistics_page_shows_a_members_numbers(client, sample_evening):
    evening, people = _evening_copied(sample_evening)
    member_login_set(person=people["Anna Becker"], user=UserFactory(username="anna"))
    client.force_login(people["Anna Becker"].user)
    response = client.get(reverse("schock_aus_stats"))
    erik = next(r for r in response.context["stats"].rows if r.member.name == "Erik Lange")
    row_html = f'<td class="name">Erik Lange</td>\n<td class="num">{erik.turns}</td>'
    assert response.status_code == 200
    assert row_html in response.content.decode()


def test_the_statistics_page_is_for_members_only(client, sample_evening):
    _evening_copied(sample_evening)
    client.force_login(UserFactory())
    assert client.get(reverse("schock_aus_stats")).status_code == 404


def test_a_game_20_with_no_rounds_elsewhere_leaves_other_seasons_empty(sample_evening):
    short, _ = _evening_copied(sample_evening, rounds_games=())
    stats = season_schock_aus_stats(season=short.season)
    assert all(r.turns == 0 for r in stats.rows)
    assert {r.member.name for r in stats.rows} == {
        s["thrower"] for s in sample_evening["expected"]["schock_aus"]
    }


def test_bernds_schock_aus_under_the_muss_regel_counts_against_his_turns(sample_evening):
    evening, _ = _evening_copied(sample_evening)
    stats = season_schock_aus_stats(season=evening.season)
    bernd = next(r for r in stats.rows if r.member.name == "Bernd Krause")
    expected = (
        _turn_probability(1, False)
        + _turn_probability(1, False)
        + _turn_probability(3, False)
        + _turn_probability(3, True)
    )
    assert (bernd.turns, bernd.schock_aus_in_turns, bernd.expected) == (4, 1, expected)


def test_the_statistics_take_a_fixed_number_of_queries(
    sample_evening, django_assert_max_num_queries
):
    evening, _ = _evening_copied(sample_evening)
    with django_assert_max_num_queries(4):
        season_schock_aus_stats(season=evening.season)


# -- the season's rule set and the simulator ----------------------------

COMPOSED = dataclasses.replace(
    PRESETS["club"], jule=True, collected_strasse_counts=True, deckel_total=15
)


@pytest.fixture
def member_client(client):
    club = ClubFactory(name="Heimclub")
    season_create(club=club, year=2025, rule_preset="app")
    season_create(club=club, year=datetime.date.today().year, rules=COMPOSED)
    client.force_login(MemberFactory(club=club, user=UserFactory()).user)
    return client


def test_the_odds_page_follows_the_current_seasons_composed_rules(member_client):
    odds = member_client.get(reverse("odds")).context["odds"]
    assert (odds.rules, odds.preset) == (COMPOSED, None)
    assert odds.throws[1].label == "Jule"  # only a rule set with Jule ranks it


def test_the_odds_page_shows_an_earlier_seasons_rules(member_client):
    odds = member_client.get(reverse("odds"), {"saison": "2025"}).context["odds"]
    assert (odds.rules, odds.preset, odds.season.year) == (PRESETS["app"], "app", 2025)


def test_a_preset_can_still_be_chosen(member_client):
    odds = member_client.get(reverse("odds"), {"preset": "stammtisch"}).context["odds"]
    assert (odds.rules, odds.season) == (PRESETS["stammtisch"], None)


def test_an_unknown_season_is_not_found(member_client):
    assert member_client.get(reverse("odds"), {"saison": "1990"}).status_code == 404


def test_a_collected_strasse_turns_up_in_the_odds_of_a_season_that_counts_it(member_client):
    odds = member_client.get(reverse("odds")).context["odds"]
    collected = next(c for c in odds.categories if c.label == "Straße")
    plain = odds_overview(preset="club").categories
    assert (
        collected.turn.probability > next(c for c in plain if c.label == "Straße").turn.probability
    )


def test_the_odds_page_shows_what_the_simulator_measures_with_and_without_muss_regel(
    member_client,
):
    response = member_client.get(reverse("odds"))
    simulation = response.context["simulation"]
    stats = simulate_statistics(
        COMPOSED, ODDS_SIMULATED_GAMES, seed=ODDS_SIMULATION_SEED, players=6
    )
    assert simulation.with_muss_regel.vorleger_loss_rate == stats.with_muss_regel.vorleger_loss_rate
    assert simulation.without_muss_regel.rounds_per_game == stats.without_muss_regel.rounds_per_game
    assert simulation.with_muss_regel.games == ODDS_SIMULATED_GAMES == 2000
    page = response.content.decode()
    percent = f"{float(stats.with_muss_regel.vorleger_loss_rate) * 100:.1f}".replace(".", ",")
    assert f"{percent} %" in page
    assert "Ohne Muss-Regel" in page
    assert '<td class="num">2.000</td>' in page  # games simulated, German style


def test_a_rule_set_without_muss_regel_is_simulated_with_it_for_comparison():
    simulation = odds_simulation(rules=PRESETS["app"])
    assert simulation.plays_muss_regel is False
    assert simulation.with_muss_regel != simulation.without_muss_regel


# Kept only outside a writer's transaction (league/club/caching.py): outside the test's.
@pytest.mark.django_db(transaction=True)
def test_the_simulation_is_computed_once_per_rule_set(monkeypatch):
    cache.clear()
    first = odds_simulation(rules=COMPOSED)

    def refuse(*args, **kwargs):
        raise AssertionError("simulated again")

    monkeypatch.setattr("games.rounds.selectors.simulate_statistics", refuse)
    assert odds_simulation(rules=dataclasses.replace(COMPOSED, name="ours")) == first
    with pytest.raises(AssertionError):
        odds_simulation(rules=dataclasses.replace(COMPOSED, jule=False))
