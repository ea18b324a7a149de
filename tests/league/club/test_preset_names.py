"""The presets on the pages carry the names the club's members use, without the project's
file numbers, and the rules page says where the season's rules come from."""

import pytest
from django.urls import reverse

from games.rules import PRESET_SOURCES
from league.club.models import RULE_PRESET_CHOICES
from league.club.services import member_create, member_login_set, season_create
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

GERMAN_NAMES = {
    "club": "Hausregeln des Vereins",
    "regelwerk2019": "Regelwerk 2019",
    "stammtisch": "Stammtisch",
    "meisterschaft": "Meisterschaft",
    "app": "App",
}


def _rules_page(client, preset):
    club = ClubFactory(name="Heimclub")
    season_create(club=club, year=2026, rule_preset=preset)
    person = member_create(club=club, name="Anna Becker", is_secretary=False)
    member_login_set(person=person, user=UserFactory())
    client.force_login(person.user)
    return client.get(reverse("season_rules", args=[2026])).content.decode()


def test_the_preset_choices_read_in_german_without_seed():
    """Seed 003 begins: "Daher sprechen wir ausdrücklich von „unseren“ Schockerregeln!":
    the club's own rules are its house rules, the others named as the tables call them."""
    assert {key: str(label) for key, label in RULE_PRESET_CHOICES} == GERMAN_NAMES


@pytest.mark.parametrize("preset", sorted(GERMAN_NAMES))
def test_the_rules_page_names_the_preset_and_where_it_comes_from(client, preset):
    """Seed 003: "Seit 1979 führen wir Buch über jeden geworfenen „Schock Aus“"; seed 000
    is "Stand November 2019", seed 002 the "Spielregeln zur Schockmeisterschaft", seed 004
    the "Schocken-Regeln der App": the page names each preset and its origin."""
    page = _rules_page(client, preset)
    assert (GERMAN_NAMES[preset] in page, PRESET_SOURCES[preset] in page, "Seed" in page) == (
        True,
        True,
        False,
    )
