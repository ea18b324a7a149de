"""A season's rule set stored as data: the flags it plays with, composed
from a preset (its "Grundlage") flag by flag; old seasons keep the preset they had."""

import dataclasses
import importlib

import pytest
from django.apps import apps

from games.rules import PRESETS, RuleSet
from league.club.errors import BooksError
from league.club.models import Season
from league.club.services import season_create, season_update
from league.club.statutes import season_rules
from tests.factories import ClubFactory, SeasonFactory

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("league.migrations.0005_season_rules")
COMPOSED = dataclasses.replace(
    PRESETS["club"], jule=True, collected_strasse_counts=True, deckel_total=15
)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_migration_fills_each_preset_with_its_flags_as_they_are(preset):
    assert MIGRATION.PRESET_FLAGS[preset] == PRESETS[preset].to_dict()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_an_old_season_keeps_its_presets_rules_after_the_migration(preset):
    season = SeasonFactory(club=ClubFactory(), rule_preset=preset, rules={})
    MIGRATION.fill_rules(apps, None)
    season.refresh_from_db()
    assert season.rules == PRESETS[preset].to_dict()
    assert season_rules(season) == PRESETS[preset]


def test_the_migration_leaves_a_season_with_rules_alone():
    season = SeasonFactory(club=ClubFactory(), rule_preset="club", rules=COMPOSED.to_dict())
    MIGRATION.fill_rules(apps, None)
    season.refresh_from_db()
    assert season_rules(season) == COMPOSED


def test_a_season_without_stored_rules_plays_its_preset():
    season = SeasonFactory(club=ClubFactory(), rule_preset="stammtisch", rules={})
    assert season_rules(season) == PRESETS["stammtisch"]


def test_stored_rules_win_over_the_preset_name():
    season = SeasonFactory(club=ClubFactory(), rule_preset="club", rules=COMPOSED.to_dict())
    assert season_rules(season) == COMPOSED
    assert season_rules(season).preset is None


def test_a_new_season_stores_its_presets_flags():
    season = season_create(club=ClubFactory(rule_preset="meisterschaft"), year=2027)
    season.refresh_from_db()
    assert season.rule_preset == "meisterschaft"
    assert season.rules == PRESETS["meisterschaft"].to_dict()


def test_a_new_season_takes_a_composed_rule_set():
    season = season_create(club=ClubFactory(), year=2027, rules=COMPOSED)
    season.refresh_from_db()
    assert (season.rule_preset, season_rules(season)) == ("club", COMPOSED)
    assert season.rules["name"] == "custom"


def test_flags_given_as_a_dict_are_laid_over_the_chosen_preset():
    season = season_create(club=ClubFactory(), year=2027, rule_preset="app", rules={"jule": True})
    assert season_rules(season) == dataclasses.replace(PRESETS["app"], jule=True)


def test_a_composition_equal_to_a_preset_is_named_after_it():
    season = season_create(
        club=ClubFactory(), year=2027, rule_preset="club", rules={"muss_regel": True}
    )
    assert season.rules["name"] == "club"


@pytest.mark.parametrize(
    "rules",
    [{"jule": 1}, {"no_such_flag": True}, {"deckel_total": 0}, {"format": "triple"}, "club"],
)
def test_flags_the_rules_refuse_are_an_invalid_rule_set(rules):
    with pytest.raises(BooksError) as refused:
        season_create(club=ClubFactory(), year=2027, rules=rules)
    assert (refused.value.code, refused.value.field) == ("invalid_rule_set", "rules")
    assert "Regel" in refused.value.message or "rule" in refused.value.message
    assert not Season.objects.filter(year=2027).exists()


def test_changing_the_rules_stores_them_and_moves_the_data_version():
    season = season_create(club=ClubFactory(), year=2027)
    before = season.data_version
    changed = season_update(season=season, rules=COMPOSED)
    assert season_rules(Season.objects.get(pk=season.pk)) == COMPOSED
    assert changed.data_version == before + 1
    assert changed.rule_preset == "club"  # the Grundlage stays


def test_changed_flags_are_laid_over_the_seasons_own_rules():
    season = season_create(club=ClubFactory(), year=2027, rules=COMPOSED)
    season_update(season=season, rules={"keep_sixes": True})
    stored = season_rules(Season.objects.get(pk=season.pk))
    assert stored == dataclasses.replace(COMPOSED, keep_sixes=True)


def test_another_grundlage_without_flags_plays_that_preset():
    season = season_create(club=ClubFactory(), year=2027, rules=COMPOSED)
    season_update(season=season, rule_preset="regelwerk2019")
    season.refresh_from_db()
    assert (season.rule_preset, season_rules(season)) == ("regelwerk2019", PRESETS["regelwerk2019"])


def test_the_same_rules_again_write_nothing():
    season = season_create(club=ClubFactory(), year=2027, rules=COMPOSED)
    assert season_update(season=season, rules=COMPOSED).data_version == season.data_version


def test_a_refused_rule_change_keeps_the_rules():
    season = season_create(club=ClubFactory(), year=2027, rules=COMPOSED)
    with pytest.raises(BooksError) as refused:
        season_update(season=season, rules={"max_attempts": 4})
    assert refused.value.code == "invalid_rule_set"
    assert season_rules(Season.objects.get(pk=season.pk)) == COMPOSED


def test_season_rules_reads_stored_flags_as_a_rule_set():
    season = SeasonFactory(club=ClubFactory(), rules={"jule": True})
    assert season_rules(season) == RuleSet(jule=True)
