"""The club's statutes (league.club.statutes): every figure once, and the books read it."""

import dataclasses
from decimal import Decimal

import pytest

from games.evenings.selectors import evening_books
from league.club import statutes as statutes_module
from league.club.statutes import CLUB_STATUTES, Statutes, season_rules
from league.ledger.selectors import (
    member_balance,
)
from league.standings.selectors import season_standings
from tests.sample import enter_sample_evening


def test_a_mark_is_one_dm_up_to_2001():
    assert CLUB_STATUTES.mark_value(2001) == (Decimal("1.00"), "DM")


def test_a_mark_is_fifty_cents_from_2002():
    assert CLUB_STATUTES.mark_value(2002) == (Decimal("0.50"), "EUR")


def test_points_are_plus_one_per_schock_aus_and_minus_one_per_lost_game():
    assert CLUB_STATUTES.points(schock_aus=3, games_lost=5) == -2


def test_an_absence_costs_six_marks_and_a_lost_game_one():
    assert CLUB_STATUTES.marks(games_lost=2, evenings_absent=1) == 8


def test_an_evening_has_five_games_per_present_member():
    assert CLUB_STATUTES.games_expected(present_members=5) == 25


def test_the_runden_are_first_every_fifth_and_last():
    reasons = [r.reason for r in CLUB_STATUTES.runden(list("abcdef"))]
    assert reasons == ["first", "fifth", "last"]


def test_an_unknown_preset_name_plays_the_club_rules():
    class Season:
        rule_preset = "no-such-preset"
        rules: dict = {}

    assert season_rules(Season()).name == "club"


@pytest.fixture
def other_statutes(monkeypatch):
    """Statutes of another club: 2 points a Schock-Aus, 3 Marks a lost game, 10 an absence."""
    other = dataclasses.replace(
        Statutes(), points_per_schock_aus=2, marks_per_game_lost=3, marks_per_absence=10
    )
    monkeypatch.setattr(statutes_module, "CLUB_STATUTES", other)
    return other


@pytest.mark.django_db
def test_the_evening_sheet_reads_its_figures_from_the_statutes(sample_evening, other_statutes):
    evening, people = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    absent = next(p for p in books.people if p.absent)
    loser = next(p for p in books.people if p.games_lost)
    assert absent.marks == 10
    assert loser.marks == 3 * loser.games_lost
    assert loser.points == 2 * loser.schock_aus - loser.games_lost


@pytest.mark.django_db
def test_the_ledger_and_the_standings_follow_the_statutes(sample_evening, other_statutes):
    evening, people = enter_sample_evening(sample_evening)
    table = season_standings(season=evening.season)
    row = next(r for r in table.rows if r.games_lost)
    assert row.points == 2 * row.schock_aus - row.games_lost
    absent_name = sample_evening["evening"]["absent_members"][0]
    charged = member_balance(member=people[absent_name], season=evening.season)
    assert charged == 10 * evening.season.mark_value


# --- statutes per club ----------------------------------------------------

import datetime  # noqa: E402
import importlib  # noqa: E402

from games.evenings.services import game_record  # noqa: E402
from league.club.errors import BooksError  # noqa: E402
from league.club.models import Club, Season  # noqa: E402
from league.club.services import (  # noqa: E402
    club_statutes_update,
    season_create,
    season_statutes_update,
)
from league.club.statutes import season_statutes  # noqa: E402
from league.ledger.models import LedgerEntry  # noqa: E402
from league.reports.selectors import season_report_data  # noqa: E402
from league.runden.selectors import season_runden  # noqa: E402
from league.standings.selectors import member_dues  # noqa: E402

KEGELBAHN = {
    "scoring": {"mode": "by_rank", "rank_points": [7, 5, 4, 3, 2, 1]},
    "absence": {"mode": "average_plus", "surcharge": 1},
    "runden": {"first": True, "last": False, "every": 3, "shift": False},
}


def test_the_migration_fills_seasons_with_seed_003s_statutes_as_they_are_today():
    migration = importlib.import_module("league.migrations.0009_season_statutes")
    # The figures added later (the objection time, the evening's day and time) are not in
    # the stored data; their defaults are read for them.
    later = ("provisional_hours", "evening")
    today = {k: v for k, v in CLUB_STATUTES.to_data().items() if k not in later}
    assert migration.SEED_003_STATUTES == today
    assert Statutes.from_data(migration.SEED_003_STATUTES) == CLUB_STATUTES


def test_statutes_read_back_what_they_write():
    statutes = Statutes.from_data(KEGELBAHN)
    assert Statutes.from_data(statutes.to_data()) == statutes
    assert statutes.rank_points == (7, 5, 4, 3, 2, 1)
    assert statutes.marks_per_game_lost == 1  # left out: kept from the basis


def test_a_key_left_out_keeps_the_basis_figure():
    basis = Statutes.from_data({"marks_per_game_lost": 3})
    changed = Statutes.from_data({"absence": {"mode": "none"}}, basis=basis)
    assert changed.marks_per_game_lost == 3
    assert changed.absence == "none"
    assert changed.marks_per_absence == 6


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ([], "statutes_invalid", "statutes"),
        ({"color": "red"}, "statutes_invalid", "statutes.color"),
        ({"absence": {"mode": "fixed", "extra": 1}}, "statutes_invalid", "statutes.absence.extra"),
        ({"marks_per_game_lost": -1}, "statutes_invalid_number", "statutes.marks_per_game_lost"),
        ({"marks_per_game_lost": 101}, "statutes_invalid_number", "statutes.marks_per_game_lost"),
        ({"marks_per_game_lost": 1.5}, "statutes_invalid_number", "statutes.marks_per_game_lost"),
        ({"marks_per_game_lost": True}, "statutes_invalid_number", "statutes.marks_per_game_lost"),
        ({"marks_per_game_lost": "1"}, "statutes_invalid_number", "statutes.marks_per_game_lost"),
        (
            {"games_per_present_member": 0},
            "statutes_invalid_number",
            "statutes.games_per_present_member",
        ),
        (
            {"absence": {"surcharge": 10**9}},
            "statutes_invalid_number",
            "statutes.absence.surcharge",
        ),
        ({"scoring": {"mode": "by_luck"}}, "statutes_invalid_mode", "statutes.scoring.mode"),
        ({"absence": {"mode": "average"}}, "statutes_invalid_mode", "statutes.absence.mode"),
        ({"runden": {"first": "yes"}}, "statutes_invalid_flag", "statutes.runden.first"),
        ({"runden": {"every": -1}}, "statutes_invalid_number", "statutes.runden.every"),
        (
            {"scoring": {"mode": "by_rank", "rank_points": []}},
            "statutes_invalid_rank_points",
            "statutes.scoring.rank_points",
        ),
        (
            {"scoring": {"mode": "by_rank", "rank_points": [5, 7]}},
            "statutes_invalid_rank_points",
            "statutes.scoring.rank_points",
        ),
        (
            {"scoring": {"rank_points": [1] * 31}},
            "statutes_invalid_rank_points",
            "statutes.scoring.rank_points",
        ),
        (
            {"scoring": {"rank_points": [-1]}},
            "statutes_invalid_number",
            "statutes.scoring.rank_points[0]",
        ),
        ({"mark_eras": []}, "statutes_invalid_mark_eras", "statutes.mark_eras"),
        (
            {"mark_eras": [{"since_year": 2002, "value": "0.505", "currency": "EUR"}]},
            "statutes_invalid_mark_eras",
            "statutes.mark_eras",
        ),
        (
            {"mark_eras": [{"since_year": 2002, "value": "NaN", "currency": "EUR"}]},
            "statutes_invalid_mark_eras",
            "statutes.mark_eras",
        ),
        (
            {"mark_eras": [{"since_year": 2002, "value": 0.5, "currency": "EUR"}]},
            "statutes_invalid_mark_eras",
            "statutes.mark_eras",
        ),
        (
            {"mark_eras": [{"since_year": 2002, "value": "0.50", "currency": "USD"}]},
            "statutes_invalid_mode",
            "statutes.mark_eras[0].currency",
        ),
        (
            {"mark_eras": [{"since_year": 2002, "value": "0.50"}]},
            "statutes_invalid_mark_eras",
            "statutes.mark_eras",
        ),
        (
            {
                "mark_eras": [
                    {"since_year": 2002, "value": "0.50", "currency": "EUR"},
                    {"since_year": 1979, "value": "1.00", "currency": "DM"},
                ]
            },
            "statutes_invalid_mark_eras",
            "statutes.mark_eras",
        ),
    ],
)
def test_bad_statutes_are_refused_with_a_code_and_the_field(data, code, field):
    with pytest.raises(BooksError) as refused:
        Statutes.from_data(data)
    assert (refused.value.code, refused.value.field, refused.value.status) == (code, field, 400)
    assert refused.value.message


def test_an_evenings_rank_goes_by_fewest_games_lost_and_ties_share_the_better_place():
    statutes = Statutes.from_data(KEGELBAHN)
    lost = {"anna": 4, "bernd": 4, "carla": 4, "dieter": 5, "erik": 5, "fritz": 9, "gerd": 9}
    assert statutes.evening_rank_points(lost) == {
        "anna": 7,
        "bernd": 7,
        "carla": 7,
        "dieter": 3,
        "erik": 3,
        "fritz": 1,
        "gerd": 1,
    }
    # Beyond the places with points: none.
    short = Statutes.from_data({"scoring": {"mode": "by_rank", "rank_points": [3]}})
    assert short.evening_rank_points({"a": 0, "b": 1}) == {"a": 3, "b": 0}


def test_per_event_scoring_gives_no_rank_points():
    assert CLUB_STATUTES.evening_rank_points({"a": 0, "b": 1}) == {"a": 0, "b": 0}
    assert CLUB_STATUTES.evening_points(
        present_members=["a", "b"], games_lost={"a": 2}, schock_aus={"b": 1}
    ) == {"a": -2, "b": 1}


@pytest.mark.parametrize(
    ("absence", "lost", "present", "marks"),
    [
        ({"mode": "none"}, 22, 5, 0),
        ({"mode": "fixed", "marks": 4}, 22, 5, 4),
        ({"mode": "average_plus", "surcharge": 1}, 22, 5, 5),  # 4.4 -> 4, + 1
        ({"mode": "average_plus", "surcharge": 1}, 9, 2, 6),  # 4.5 -> 5 (half up), + 1
        ({"mode": "average_plus", "surcharge": 0}, 23, 5, 5),  # 4.6 -> 5
        ({"mode": "average_plus", "surcharge": 2}, 0, 0, 2),  # nobody present: the surcharge
    ],
)
def test_what_an_absence_costs(absence, lost, present, marks):
    statutes = Statutes.from_data({"absence": absence})
    assert statutes.absence_marks(lost_by_members=lost, present_members=present) == marks


def test_the_marks_value_goes_by_era():
    statutes = Statutes.from_data(
        {
            "mark_eras": [
                {"since_year": 1985, "value": "2.00", "currency": "DM"},
                {"since_year": 2002, "value": "1", "currency": "EUR"},
                {"since_year": 2020, "value": "1.50", "currency": "EUR"},
            ]
        }
    )
    assert statutes.mark_value(1980) == (Decimal("2.00"), "DM")  # before the first era
    assert statutes.mark_value(2001) == (Decimal("2.00"), "DM")
    assert statutes.mark_value(2019) == (Decimal("1.00"), "EUR")
    assert statutes.mark_value(2026) == (Decimal("1.50"), "EUR")


@pytest.mark.django_db
def test_a_new_season_keeps_the_clubs_statutes_and_their_mark_value():
    club = Club.objects.create(name="Kegelbahn")
    club_statutes_update(
        club=club,
        statutes={
            **KEGELBAHN,
            "mark_eras": [{"since_year": 2000, "value": "0.20", "currency": "EUR"}],
        },
    )
    season = season_create(club=club, year=2026)
    assert season_statutes(season).by_rank
    assert (season.mark_value, season.currency) == (Decimal("0.20"), "EUR")
    seed_club = Club.objects.create(name="Seed")
    assert season_statutes(season_create(club=seed_club, year=2026)) == CLUB_STATUTES


def _kegelbahn_evening(sample):
    """The sample evening entered into a second club that keeps the Kegelbahn statutes."""
    club = Club.objects.create(name="Stammtisch Kegelbahn", rule_preset=sample["rule_set"])
    club_statutes_update(club=club, statutes=KEGELBAHN)
    return enter_sample_evening({**sample, "club": club.name})


@pytest.mark.django_db
def test_the_same_evening_gives_other_standings_and_dues_under_other_statutes(sample_evening):
    seed_evening, seed_people = enter_sample_evening(sample_evening)
    other_evening, other_people = _kegelbahn_evening(sample_evening)

    seed_table = season_standings(season=seed_evening.season)
    other_table = season_standings(season=other_evening.season)
    seed_points = {r.member.name: (r.place, r.points) for r in seed_table.rows}
    other_points = {r.member.name: (r.place, r.points) for r in other_table.rows}
    assert seed_points["Anna Becker"] == (2, -3)
    assert seed_points["Frank Roth"] == (1, 0)
    # By rank: Anna, Bernd, Carla lost 4 (1st place shared: 7), Dieter and Erik 5 (4th: 3).
    assert other_points == {
        "Anna Becker": (1, 7),
        "Bernd Krause": (1, 7),
        "Carla Vogt": (1, 7),
        "Dieter Hahn": (4, 3),
        "Erik Lange": (4, 3),
        "Frank Roth": (6, 0),
    }
    # Frank's absence: 6 Marks fixed; the Kegelbahn charges the members' average (22 lost
    # by 5 present: 4.4 -> 4) plus 1 = 5 Marks.
    frank, other_frank = seed_people["Frank Roth"], other_people["Frank Roth"]
    assert member_balance(member=frank, season=seed_evening.season) == Decimal("3.00")
    assert member_balance(member=other_frank, season=other_evening.season) == Decimal("2.50")
    assert member_dues(member=other_frank, season=other_evening.season).marks_total == 5
    assert next(r for r in other_table.rows if r.member == other_frank).marks == 5
    # Runden: the first and every third Schock-Aus (Anna 1st, Dieter 3rd), no last.
    owed = [(r["ordinal"], r["reason"]) for r in season_runden(season=other_evening.season)]
    assert owed == [(1, "first"), (3, "fifth")]
    sheet = evening_books(evening=other_evening)
    assert {p.member.name: p.points for p in sheet.people if not p.guest}["Dieter Hahn"] == 3
    assert next(p for p in sheet.people if p.absent).marks == 5
    assert sheet.marks_total == 25 + 5


@pytest.mark.django_db
def test_the_report_follows_the_seasons_statutes(sample_evening):
    evening, _ = _kegelbahn_evening(sample_evening)
    report = season_report_data(season=evening.season)
    final = {s.member.name: s.points[-1] for s in report.series}
    assert final == {r.member.name: r.points for r in report.standings.rows}
    assert final["Anna Becker"] == 7
    assert sum(line.marks for line in report.evenings) == 30


@pytest.mark.django_db
def test_an_absence_at_the_average_follows_the_games_entered(sample_evening):
    evening, people = _kegelbahn_evening(sample_evening)
    frank = people["Frank Roth"]
    game_record(evening=evening, number=26, loser=people["Anna Becker"])  # 23 / 5 = 4.6 -> 5
    assert member_balance(member=frank, season=evening.season) == Decimal("3.00")
    # Every game entered moves the average: the charge standing is reversed and booked
    # again whenever its whole Marks change (never edited).
    reversal = LedgerEntry.objects.filter(member=frank, kind=LedgerEntry.Kind.REVERSAL).latest("id")
    assert (reversal.marks, reversal.description) == (-5, "marks_changed")
    standing = LedgerEntry.objects.filter(
        member=frank, kind=LedgerEntry.Kind.ABSENCE, reversed_by__isnull=True
    )
    assert list(standing.values_list("marks", flat=True)) == [6]


@pytest.mark.django_db
def test_no_absence_charge_when_the_statutes_charge_none(sample_evening):
    club = Club.objects.create(name="Ohne Strafe", rule_preset=sample_evening["rule_set"])
    club_statutes_update(club=club, statutes={"absence": {"mode": "none"}})
    evening, people = enter_sample_evening({**sample_evening, "club": club.name})
    frank = people["Frank Roth"]
    assert not LedgerEntry.objects.filter(member=frank).exists()
    row = next(r for r in season_standings(season=evening.season).rows if r.member == frank)
    assert row.marks == 0


@pytest.mark.django_db
def test_a_change_on_a_season_with_evenings_asks_first(sample_evening):
    evening, people = enter_sample_evening(sample_evening)
    season = evening.season
    with pytest.raises(BooksError) as refused:
        season_statutes_update(season=season, statutes=KEGELBAHN)
    assert (refused.value.code, refused.value.status) == ("confirmation_required", 409)
    assert "1" in refused.value.message  # one evening
    season.refresh_from_db()
    assert season_statutes(season) == CLUB_STATUTES


@pytest.mark.django_db
def test_a_confirmed_change_recomputes_the_season_audited(sample_evening):
    evening, people = enter_sample_evening(sample_evening)
    season = evening.season
    version = Season.objects.get(pk=season.pk).data_version
    changed = season_statutes_update(season=season, statutes=KEGELBAHN, confirm=True)
    assert changed.data_version == version + 1
    assert season_statutes(changed).by_rank
    frank = people["Frank Roth"]
    assert member_balance(member=frank, season=season) == Decimal("2.50")  # 5 Marks
    reversal = LedgerEntry.objects.get(member=frank, kind=LedgerEntry.Kind.REVERSAL)
    assert reversal.description == "marks_changed"
    record = changed.history.order_by("-history_id").first()
    assert record.history_change_reason == "statutes_changed"
    assert record.statutes["scoring"]["mode"] == "by_rank"
    table = season_standings(season=changed)
    assert table.rows[0].points == 7
    # The same statutes again: nothing is written.
    again = season_statutes_update(season=changed, statutes=KEGELBAHN, confirm=True)
    assert again.data_version == changed.data_version


@pytest.mark.django_db
def test_new_eras_move_the_seasons_mark_value_and_rebook(sample_evening):
    evening, people = enter_sample_evening(sample_evening)
    eras = [
        {"since_year": 1979, "value": "1.00", "currency": "DM"},
        {"since_year": 2002, "value": "0.60", "currency": "EUR"},
    ]
    changed = season_statutes_update(
        season=evening.season, statutes={"mark_eras": eras}, confirm=True
    )
    assert (changed.mark_value, changed.currency) == (Decimal("0.60"), "EUR")
    assert member_balance(member=people["Frank Roth"], season=changed) == Decimal("3.60")


@pytest.mark.django_db
def test_new_eras_never_change_the_currency_of_a_season_with_entries(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    dm = [{"since_year": 1979, "value": "1.00", "currency": "DM"}]
    with pytest.raises(BooksError) as refused:
        season_statutes_update(season=evening.season, statutes={"mark_eras": dm}, confirm=True)
    assert (refused.value.code, refused.value.status) == ("currency_in_use", 409)


@pytest.mark.django_db
def test_a_season_without_evenings_changes_without_asking():
    season = season_create(club=Club.objects.create(name="Neu"), year=2026)
    changed = season_statutes_update(season=season, statutes={"marks_per_game_lost": 2})
    assert season_statutes(changed).marks_per_game_lost == 2


@pytest.mark.django_db
def test_bad_statutes_change_nothing():
    season = season_create(club=Club.objects.create(name="Neu"), year=2026)
    version = season.data_version
    with pytest.raises(BooksError):
        season_statutes_update(season=season, statutes={"runden": {"every": 1000}})
    season.refresh_from_db()
    assert season.data_version == version
    assert season_statutes(season) == CLUB_STATUTES


@pytest.mark.django_db
def test_season_rows_with_empty_statutes_are_kept_by_seed_003():
    club = Club.objects.create(name="Alt")
    season = Season.objects.create(
        club=club,
        year=2001,
        starts_on=datetime.date(2001, 1, 1),
        ends_on=datetime.date(2001, 12, 31),
        mark_value=Decimal("1.00"),
        currency="DM",
    )
    assert season_statutes(season) == CLUB_STATUTES


@pytest.mark.django_db
def test_the_statistics_best_season_follows_the_statutes(sample_evening):
    from league.statistics.selectors import club_statistics

    seed_evening, _ = enter_sample_evening(sample_evening)
    other_evening, _ = _kegelbahn_evening(sample_evening)
    seed_best = club_statistics(club=seed_evening.club).records.best_season
    other_best = club_statistics(club=other_evening.club).records.best_season
    assert (seed_best.name, seed_best.points) == ("Anna Becker", -3)  # present members only
    assert (other_best.name, other_best.points) == ("Anna Becker", 7)


@pytest.mark.django_db
def test_a_change_of_the_newest_season_becomes_the_clubs_for_the_next():
    club = Club.objects.create(name="Neu")
    old = season_create(club=club, year=2025)
    newest = season_create(club=club, year=2026)
    season_statutes_update(season=old, statutes={"marks_per_game_lost": 3})
    club.refresh_from_db()
    assert season_statutes(season_create(club=club, year=2027)).marks_per_game_lost == 1
    season_statutes_update(season=Season.objects.get(club=club, year=2027), statutes=KEGELBAHN)
    club.refresh_from_db()
    assert season_statutes(season_create(club=club, year=2028)).by_rank
    assert not season_statutes(newest).by_rank
