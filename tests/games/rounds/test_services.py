"""Games entered round by round through the service (docs/rules.md 2-4)."""

import datetime

import pytest

from games.evenings.models import Game
from games.evenings.selectors import evening_books
from games.evenings.services import evening_create, game_record
from games.rounds.models import Round, RoundThrow
from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
    game_rounds_play,
)
from games.rounds.services import (
    game_record_rounds,
)
from games.rules import PRESETS, RuleViolation, Throw, validate_throw
from league.club.errors import BooksError
from league.club.models import Member
from league.club.services import season_get_or_create, season_update
from league.standings.selectors import season_standings
from tests.copied import copied
from tests.games.rounds.sample import EARLIER_ROUNDS, game_20_rounds
from tests.sample import sample_club

pytestmark = pytest.mark.django_db


def _evening(sample, *, date=None, rounds_games=(20,)):
    """The sample evening with the games in `rounds_games` entered round by round (only
    game 20 has rounds) and every other game entered short."""
    club, people = sample_club(sample)
    ev = sample["evening"]
    date = date or datetime.date.fromisoformat(ev["date"])
    season_get_or_create(club=club, year=date.year)
    evening = evening_create(
        club=club,
        date=date,
        secretary=people[ev["secretary"]],
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
    )
    for game in ev["games"]:
        if game["number"] in rounds_games:
            game_record_rounds(
                evening=evening, number=game["number"], rounds=game_20_rounds(sample, people)
            )
        else:
            game_record(
                evening=evening,
                number=game["number"],
                loser=people[game["loser"]],
                schock_aus_throwers=[people[n] for n in game["schock_aus"]],
            )
    return evening, people


def _evening_copied(sample, *, date=None, rounds_games=(20,)):
    """`_evening`, entered through the services once per process and copied after
    (tests/copied.py): for tests that start from it rather than test its entering."""
    return copied(
        "rounds evening",
        lambda: _evening(sample, date=date, rounds_games=rounds_games),
        repr(sample),
        date,
        tuple(rounds_games),
    )


def _last_round(evening):
    game = evening.games.get(number=20)
    return game.rounds.order_by("-number").first()


def test_game_20_entered_round_by_round_is_lost_by_anna(sample_evening):
    evening, _ = _evening(sample_evening)
    game = evening.games.get(number=20)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    assert game.loser.name == expected["loser"]
    assert game.entry_mode == Game.EntryMode.ROUNDS


def test_game_20_schock_aus_are_stored_in_throwing_order(sample_evening):
    evening, _ = _evening(sample_evening)
    game = evening.games.get(number=20)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    names = [sa.thrower.name for sa in game.schock_aus.order_by("position")]
    assert names == expected["schock_aus_in_throwing_order"]


def test_game_20_schock_aus_get_evening_ordinals_4_and_5(sample_evening):
    evening, _ = _evening(sample_evening)
    lines = [
        (s.ordinal, s.thrower.name)
        for s in evening_books(evening=evening).schock_aus
        if s.game == 20
    ]
    assert lines == [(4, "Erik Lange"), (5, "Bernd Krause")]


def test_game_20_last_round_is_opened_by_erik_and_lost_by_anna(sample_evening):
    evening, _ = _evening(sample_evening)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    last = _last_round(evening)
    assert (last.vorleger.name, last.loser.name) == ("Erik Lange", expected["loser"])


def test_game_20_last_round_moves_all_13_deckel_to_anna(sample_evening):
    evening, people = _evening(sample_evening, rounds_games=())
    evening.games.filter(number__gte=20).delete()
    play = game_rounds_play(
        evening=evening, number=20, rounds=game_20_rounds(sample_evening, people)
    )
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    last = play.outcomes[-1]
    assert [play.player(k).name for k in last.order] == expected["order_best_to_worst"]
    assert last.deckel == expected["deckel"]
    assert play.deckel[people["Anna Becker"]] == expected["deckel"]


def test_game_20_last_round_muss_regel_applies_to_anna_and_bernd_not_erik(sample_evening):
    evening, _ = _evening(sample_evening)
    expected = sample_evening["evening"]["game_20_last_round"]["expected"]
    got = {t.player.name: t.muss_regel for t in _last_round(evening).throws.all()}
    assert got == expected["muss_regel_applies"]


def test_game_20_last_round_keeps_erik_and_bernds_turns_in_detail(sample_evening):
    evening, _ = _evening(sample_evening)
    turns = sample_evening["evening"]["game_20_last_round"]["turns"]
    throws = {t.player.name: t for t in _last_round(evening).throws.all()}
    assert [a["rolled"] for a in throws["Erik Lange"].turn] == [
        a["rolled"] for a in turns["Erik Lange"]
    ]
    assert throws["Anna Becker"].turn is None
    assert throws["Anna Becker"].dice == (6, 5, 5)


def test_the_sample_evening_with_game_20_by_rounds_matches_the_expected_books(sample_evening):
    evening, _ = _evening(sample_evening)
    books = evening_books(evening=evening)
    expected = sample_evening["expected"]
    assert [
        {"ordinal": s.ordinal, "game": s.game, "thrower": s.thrower.name} for s in books.schock_aus
    ] == expected["schock_aus"]
    assert [
        {"ordinal": r.ordinal, "thrower": r.thrower.name, "reason": r.reason} for r in books.runden
    ] == expected["runden_owed"]
    assert books.marks_total == expected["marks_total"]


def _books_figures(evening):
    books = evening_books(evening=evening)
    return {
        "games": [
            (g.number, g.loser.name, g.vorleger.name if g.vorleger else None) for g in books.games
        ],
        "games_expected": books.games_expected,
        "schock_aus": [(s.ordinal, s.game, s.thrower.name) for s in books.schock_aus],
        "runden": [(r.ordinal, r.thrower.name, r.reason) for r in books.runden],
        "people": [
            (
                p.member.name,
                p.role,
                p.games_lost,
                p.schock_aus,
                p.marks,
                p.money,
                p.runden,
                p.points,
            )
            for p in books.people
        ],
        "marks_total": books.marks_total,
        "money_total": books.money_total,
        "currency": books.currency,
        "warnings": books.warnings,
    }


def _standings_figures(season):
    standings = season_standings(season=season)
    return {
        "rows": [(r.place, r.member.name, r.points, r.marks) for r in standings.rows],
        "guests": [g.member.name for g in standings.guests],
        "marks_total": standings.marks_total,
        "money_total": standings.money_total,
        "runden": standings.runden,
    }


def test_a_game_entered_by_rounds_and_short_give_identical_evening_books(sample_evening):
    short, _ = _evening(sample_evening, rounds_games=())
    by_rounds, _ = _evening(sample_evening, date=datetime.date(2027, 10, 8))
    assert _books_figures(by_rounds) == _books_figures(short)


def test_a_game_entered_by_rounds_and_short_give_identical_standings(sample_evening):
    short, _ = _evening(sample_evening, rounds_games=())
    by_rounds, _ = _evening(sample_evening, date=datetime.date(2027, 10, 8))
    assert _standings_figures(by_rounds.season) == _standings_figures(short.season)


# -- refusals: nothing is saved ---------------------------------------------------------------


@pytest.fixture
def table(sample_evening):
    """The sample evening with games 1..19 entered short; game 20 is to be entered."""
    evening, people = _evening(sample_evening, rounds_games=())
    evening.games.filter(number__gte=20).delete()
    evening.refresh_from_db()
    return evening, people


def _refused(evening, rounds, code):
    games_before = evening.games.count()
    with pytest.raises(BooksError) as info:
        game_record_rounds(evening=evening, number=20, rounds=rounds)
    assert info.value.code == code
    assert evening.games.count() == games_before
    assert not Round.objects.filter(game__evening=evening).exists()
    return info.value


def test_a_throw_with_more_attempts_than_the_vorleger_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    first = list(rounds[0].throws)
    first[1] = ThrowInput(player=people["Anna Becker"], dice=(4, 3, 2), attempts=2, natural=True)
    rounds[0] = RoundInput(throws=first)
    error = _refused(evening, rounds, "more_attempts_than_vorleger")
    assert error.field == "rounds[0].throws[1]"


def test_an_impossible_turn_is_refused_with_the_rules_code(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    last = list(rounds[-1].throws)
    # Under the club rules only ones may be laid out (keep_only_ones).
    last[2] = ThrowInput(
        player=people["Bernd Krause"], turn=[{"rolled": [4, 5, 2], "keep": [5]}, {"rolled": [1, 1]}]
    )
    rounds[-1] = RoundInput(throws=last)
    error = _refused(evening, rounds, "keep_not_one")
    assert error.field == "rounds[3].throws[2]"


def test_a_broken_muss_regel_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    last = list(rounds[-1].throws)
    # Bernd must go on after rolling a one while the Muss-Regel applies to him.
    last[2] = ThrowInput(player=people["Bernd Krause"], turn=[{"rolled": [6, 4, 1]}])
    rounds[-1] = RoundInput(throws=last)
    _refused(evening, rounds, "muss_regel_broken")


def test_a_player_not_present_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    first = list(rounds[0].throws)
    first[5] = ThrowInput(player=people["Frank Roth"], dice=(5, 5, 2), attempts=1)
    rounds[0] = RoundInput(throws=first)
    error = _refused(evening, rounds, "player_not_present")
    assert error.field == "rounds[0].throws[5]"


def test_a_round_after_the_game_ended_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    extra = RoundInput(
        throws=[
            ThrowInput(player=people["Anna Becker"], dice=(6, 5, 2), attempts=1),
            ThrowInput(player=people["Bernd Krause"], dice=(6, 4, 2), attempts=1),
        ]
    )
    _refused(evening, [*rounds, extra], "game_finished")


def test_a_game_that_has_not_ended_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    _refused(evening, rounds[:3], "game_not_finished")


def test_a_player_out_of_the_game_is_refused(table, sample_evening):
    evening, people = table
    rounds = game_20_rounds(sample_evening, people)
    last = list(rounds[-1].throws) + [
        ThrowInput(player=people["Carla Vogt"], dice=(6, 5, 2), attempts=1)
    ]
    rounds[-1] = RoundInput(throws=last)
    error = _refused(evening, rounds, "player_out")
    assert error.field == "rounds[3].throws[3]"


def test_a_stale_evening_version_is_refused(table, sample_evening):
    evening, people = table
    with pytest.raises(BooksError) as info:
        game_record_rounds(
            evening=evening,
            number=20,
            rounds=game_20_rounds(sample_evening, people),
            expected_evening_version=evening.version - 1,
        )
    assert info.value.code == "stale_version"


def test_rounds_and_throws_are_stored_with_their_numbers(sample_evening):
    evening, _ = _evening(sample_evening)
    game = evening.games.get(number=20)
    assert list(game.rounds.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert RoundThrow.objects.filter(round__game=game).count() == 6 + 6 + 6 + 3


def test_the_game_vorleger_is_the_first_rounds_first_thrower(sample_evening):
    evening, _ = _evening(sample_evening)
    assert evening.games.get(number=20).vorleger == Member.objects.get(name="Erik Lange")


def test_a_stored_games_rounds_are_read_in_three_queries(sample_evening, django_assert_num_queries):
    from games.rounds.selectors import game_rounds_detail

    evening, _ = _evening(sample_evening)
    game = Game.objects.select_related("evening__season").get(evening=evening, number=20)
    with django_assert_num_queries(3):
        detail = game_rounds_detail(game=game)
    assert detail.rounds[-1].summary["finished"] and not detail.mismatch


def test_rounds_of_a_game_corrected_afterwards_are_flagged(sample_evening):
    from games.rounds.selectors import game_rounds_detail

    evening, people = _evening(sample_evening)
    game = evening.games.get(number=20)
    # The services refuse this (game_entered_by_rounds); the admin, the secretary's
    # fallback, writes the row directly, and the rounds page must then say so.
    Game.objects.filter(pk=game.pk).update(loser=people["Erik Lange"])
    assert game_rounds_detail(game=Game.objects.get(pk=game.pk)).mismatch


def test_the_samples_literal_record_of_annas_655_as_collected_is_refused(sample_evening):
    """The sample records 6-5-5 as collected in three attempts; under the club rules only
    ones are laid out, so that throw cannot have come about (docs/rules.md 3). The loaders in
    tests/sample.py enter it as natural, the only way it can have been thrown."""
    turn = sample_evening["evening"]["game_20_last_round"]["turns"]["Anna Becker"]
    literal = Throw(tuple(turn["final_dice"]), attempts=turn["attempts"], natural=turn["natural"])
    with pytest.raises(RuleViolation) as refused:
        validate_throw(literal, PRESETS["club"])
    assert refused.value.code == "collected_without_one"


def _first_round_of_game_20(evening, people, *, composed: bool):
    """Game 20's first round, opened by Erik with a natural 4-2-1, in the sample's season
    played with the club's rules, or with the club's rules plus Jule and 15 Deckel."""
    if composed:
        season_update(
            season=evening.season,
            rules={**PRESETS["club"].to_dict(), "jule": True, "deckel_total": 15},
        )
    evening.refresh_from_db()
    order = [(n, d) for n, d in EARLIER_ROUNDS[0]]
    throws = [
        ThrowInput(
            player=people[name], dice=(4, 2, 1) if i == 0 else dice, attempts=1, natural=True
        )
        for i, (name, dice) in enumerate(order)
    ]
    return game_rounds_play(
        evening=evening, number=20, rounds=[RoundInput(throws=throws)], require_finished=False
    )


def test_a_composed_season_plays_its_rounds_by_its_own_flags(table):
    evening, people = table
    club = _first_round_of_game_20(evening, people, composed=False)
    composed = _first_round_of_game_20(evening, people, composed=True)
    # club rules: 4-2-1 is the Hausnummer 421; with Jule it is worth 7 Deckel of 15.
    assert club.outcomes[0].deckel != 7
    assert (composed.outcomes[0].deckel, composed.stock) == (7, 15 - 7)
