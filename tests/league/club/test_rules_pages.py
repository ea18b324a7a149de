"""The season's rules on the pages: a new season composed from a preset
flag by flag, the secretary's rule change, the members' rules page; and a season with a
composed rule set plays, validates and imports."""

import dataclasses
import datetime

import pytest
from django.urls import reverse

from games.evenings.services import evening_create, game_record
from games.rules import FLAGS, PRESETS, RuleSet
from league.club.errors import BooksError
from league.club.models import Season
from league.club.services import member_create, member_login_set, season_create
from league.club.statutes import season_rules
from league.clubbook.services import club_book_import
from tests.factories import ClubFactory, UserFactory
from tests.league.clubbook.test_services import ATTENDANCE, CLUB, GAMES

pytestmark = pytest.mark.django_db

COMPOSED = dataclasses.replace(
    PRESETS["club"], jule=True, collected_strasse_counts=True, deckel_total=15
)


@pytest.fixture
def club():
    return ClubFactory(name="Heimclub")


def _login(client, club, *, secretary: bool, name: str | None = None):
    person = member_create(
        club=club,
        name=name or ("Bernd Krause" if secretary else "Anna Becker"),
        is_secretary=secretary,
    )
    member_login_set(person=person, user=UserFactory())
    client.force_login(person.user)
    return person


def _flags_post(rules: RuleSet) -> dict[str, object]:
    """The flag fields as a browser posts them: a ticked box sends "on", an unticked none."""
    data: dict[str, object] = {}
    for flag in FLAGS:
        value = getattr(rules, flag.name)
        if value is True:
            data[flag.name] = "on"
        elif not isinstance(value, bool):
            data[flag.name] = str(value)
    return data


# -- a new season ---------------------------------------------------------------------------------


def test_the_new_season_form_shows_every_flag_with_its_german_label(client, club):
    _login(client, club, secretary=True)
    page = client.get(reverse("season_create")).content.decode()
    for flag in FLAGS:
        assert flag.label in page
        assert flag.explanation in page


def test_a_new_season_is_composed_flag_by_flag(client, club):
    _login(client, club, secretary=True)
    post = {"year": "2027", "rule_preset": "club", **_flags_post(COMPOSED)}
    response = client.post(reverse("season_create"), post)
    assert response.status_code == 302
    season = Season.objects.get(club=club, year=2027)
    assert (season.rule_preset, season_rules(season)) == ("club", COMPOSED)


def test_a_post_without_flags_plays_the_chosen_preset_as_it_is(client, club):
    _login(client, club, secretary=True)
    response = client.post(reverse("season_create"), {"year": "2027", "rule_preset": "app"})
    assert response.status_code == 302
    assert season_rules(Season.objects.get(club=club, year=2027)) == PRESETS["app"]


def test_taking_over_a_preset_fills_in_its_flags_without_saving(client, club):
    _login(client, club, secretary=True)
    post = {"year": "2027", "rule_preset": "regelwerk2019", "apply_preset": "1"}
    response = client.post(reverse("season_create"), {**post, **_flags_post(PRESETS["club"])})
    form = response.context["form"]
    assert form["koenigswurf"].value() is True
    assert form["muss_regel"].value() is False
    assert form["year"].value() == "2027"
    assert not Season.objects.filter(year=2027).exists()


def test_a_bad_number_of_deckel_is_shown_at_its_field(client, club):
    _login(client, club, secretary=True)
    post = {"year": "2027", "rule_preset": "club", **_flags_post(PRESETS["club"])}
    response = client.post(reverse("season_create"), {**post, "deckel_total": "0"})
    assert response.context["form"].errors["deckel_total"]
    assert not Season.objects.filter(year=2027).exists()


def test_a_member_may_not_create_a_season(client, club):
    _login(client, club, secretary=False)
    assert client.get(reverse("season_create")).status_code == 403


# -- changing a season's rules --------------------------------------------------------------------


def test_the_secretary_changes_a_seasons_rules(client, club):
    season = season_create(club=club, year=2026)
    version = season.data_version
    _login(client, club, secretary=True)
    url = reverse("season_rules_edit", args=[2026])
    response = client.post(url, {"rule_preset": "club", **_flags_post(COMPOSED)})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season_rules(season) == COMPOSED
    assert season.data_version == version + 1


def test_the_rule_change_page_starts_from_the_seasons_own_rules(client, club):
    season_create(club=club, year=2026, rules=COMPOSED)
    _login(client, club, secretary=True)
    form = client.get(reverse("season_rules_edit", args=[2026])).context["form"]
    assert (form["jule"].value(), form["deckel_total"].value()) == (True, 15)


def test_a_member_may_not_change_the_rules(client, club):
    season_create(club=club, year=2026)
    _login(client, club, secretary=False)
    url = reverse("season_rules_edit", args=[2026])
    assert client.post(url, {"rule_preset": "club", "jule": "on"}).status_code == 403


# -- the rules page -------------------------------------------------------------------------------


def test_the_rules_page_shows_every_flag_with_explanation_and_example(client, club):
    season_create(club=club, year=2026)
    _login(client, club, secretary=False)
    page = client.get(reverse("season_rules", args=[2026])).content.decode()
    for flag in FLAGS:
        assert flag.label in page
        assert flag.explanation in page
        assert flag.example in page


def test_the_rules_page_names_the_preset_the_rules_equal(client, club):
    season_create(club=club, year=2026, rule_preset="stammtisch")
    _login(client, club, secretary=False)
    response = client.get(reverse("season_rules", args=[2026]))
    assert response.context["overview"].preset == "stammtisch"
    assert "Stammtisch" in response.content.decode()


def test_the_rules_page_shows_an_own_composition_and_its_differences(client, club):
    season_create(club=club, year=2026, rules=COMPOSED)
    _login(client, club, secretary=False)
    response = client.get(reverse("season_rules", args=[2026]))
    differences = [line.flag.name for line in response.context["overview"].differences]
    assert differences == ["deckel_total", "jule", "collected_strasse_counts"]
    assert "eigene Zusammenstellung" in response.content.decode()


def test_the_standings_page_links_to_the_rules(client, club):
    season_create(club=club, year=2026)
    _login(client, club, secretary=False)
    page = client.get(reverse("season_standings", args=[2026])).content.decode()
    assert reverse("season_rules", args=[2026]) in page


def test_the_navigation_leads_to_the_current_seasons_rules(client, club):
    season_create(club=club, year=2026)
    _login(client, club, secretary=False)
    response = client.get(reverse("current_rules"))
    assert response.url == reverse("season_rules", args=[2026])


def test_another_clubs_rules_page_does_not_exist(client, club):
    season_create(club=ClubFactory(name="Fremdclub"), year=2025)
    _login(client, club, secretary=False)
    assert client.get(reverse("season_rules", args=[2025])).status_code == 404


# -- a composed season plays, validates and imports -----------------------------------------------


@pytest.fixture
def composed_evening(club):
    season_create(club=club, year=2026, rules=COMPOSED)
    people = [member_create(club=club, name=n) for n in ("Anna Becker", "Carla Vogt")]
    secretary = _secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=_secretary,
        present_members=[secretary, *people],
    )
    return evening, secretary, people


def test_a_composed_season_validates_a_short_game_as_before(composed_evening):
    evening, secretary, (anna, carla) = composed_evening
    game = game_record(evening=evening, loser=carla, schock_aus_throwers=[anna])
    assert game.loser == carla
    with pytest.raises(BooksError) as refused:  # single format: one Schock-Aus per person
        game_record(evening=evening, loser=carla, schock_aus_throwers=[anna, anna])
    assert refused.value.field == "schock_aus"


def test_the_live_throw_check_evaluates_by_the_seasons_flags(client, composed_evening):
    evening, secretary, _people = composed_evening
    member_login_set(person=secretary, user=UserFactory())
    client.force_login(secretary.user)
    url = reverse("throw_evaluate")
    # One Schock-Aus before: the next owes no Runde, so the Muss-Regel does not apply.
    evening = {"evening": evening.pk, "schock_aus": "1"}
    jule = client.get(url, {**evening, "dice": "421", "attempts": "1", "natural": "1"})
    assert (jule.json().get("label"), jule.json().get("deckel")) == ("Jule", 7), jule.json()
    strasse = client.get(url, {**evening, "dice": "321", "attempts": "2"})
    assert strasse.json()["label"] == "Straße 123"
    plain = client.get(url, {"preset": "club", "dice": "421", "attempts": "1", "natural": "1"})
    assert plain.json()["label"] == "421"


def test_the_club_book_import_keeps_a_composed_seasons_rules():
    club = ClubFactory(name=CLUB)
    season_create(club=club, year=2026, rules=COMPOSED)
    result = club_book_import(club_name=CLUB, attendance=ATTENDANCE, games=GAMES)
    assert not result.errors, result.errors
    season = Season.objects.get(club=club, year=2026)
    assert season_rules(season) == COMPOSED
    assert season.evenings.count() == 1
