"""Every page at 390 px on demo data, as the secretary and as a member: no word broken
inside itself (a text node on more lines than it has words, measured with
Range.getClientRects), no key table cut off (a table wider than its box must scroll with
a hint above and its first column fixed), and no serious or critical axe-core violation
(vendored, tests/browser/vendor/) in light and in dark mode.

The data is the demo club's (league/management/commands/demo.py), trimmed to its first
evenings per season, as tests/fuzz does: both seasons (one closed), payments, Runden,
guests, the second club. It is built once for the module; the module's tests run on one
xdist worker (`make test`: --dist loadgroup), so it is built once there too.
"""

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command

from games.evenings.models import Evening, Game
from league.club.models import Club, Member, Season
from league.management.commands import demo
from league.sharing.services import wall_screen_create
from tests.browser.axe_scan import axe_in_every_document, serious_violations
from tests.browser.conftest import kept_for_the_module

HERE = Path(__file__).parent
CHECKS = (HERE / "page_checks.js").read_text(encoding="utf-8")
EVENINGS_PER_SEASON = 2

pytestmark = pytest.mark.xdist_group("phone_pages")


@pytest.fixture(scope="module")
def demo_books(django_db_setup, django_db_blocker) -> Iterator[Club]:
    """The trimmed demo club (logins "sekretaer" and "anna", password "schocken"), built
    once for this module's tests, which only read it (they log in and open pages), and
    emptied after the last of them (kept_for_the_module). Building it takes seconds: once
    instead of once per test."""
    fridays = demo.club_fridays
    with kept_for_the_module(django_db_blocker), pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            demo, "club_fridays", lambda year, until: fridays(year, until)[:EVENINGS_PER_SEASON]
        )
        call_command("demo", stdout=io.StringIO())
        patch.undo()
        yield Club.objects.get(name=demo.CLUB)


@pytest.fixture
def transactional_db(demo_books):
    """pytest-django's live_server asks for `transactional_db` (a database emptied after
    each test); here it is the module's demo instead, kept from test to test and emptied
    after the module (demo_books). The tests still count as live-server tests when
    pytest-django orders them (it goes by the fixtures' names)."""


def _log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "schocken")
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def _pages(club: Club, *, secretary: bool) -> list[str]:
    season = Season.objects.filter(club=club, closed_at=None).order_by("-year").first()
    closed = Season.objects.filter(club=club).exclude(closed_at=None).order_by("-year").first()
    evening = Evening.objects.filter(club=club).order_by("-date").first()
    anna = Member.objects.get(club=club, name="Anna Becker")
    year = season.year
    pages = [
        "/",
        "/abende/",
        f"/abende/{evening.pk}/",
        f"/abende/{evening.pk}/teilen/",
        f"/saison/{year}/",
        f"/saison/{closed.year}/",
        "/ewige-tabelle/",
        "/kasse/",
        "/kasse/?saison=alle",
        "/runden/",
        "/runden/?status=all",
        "/marken/",
        f"/saison/{year}/marken/{anna.pk}/",
        f"/kasse/konto/{anna.pk}/",
        "/marken/girocode/",
        "/statistik/",
        "/statistik/saisons/",
        "/statistik/rekorde/",
        f"/saison/{year}/rueckblick/",
        f"/saison/{year}/regeln/",
        f"/saison/{year}/satzung/",
        "/wahrscheinlichkeiten/",
        f"/saison/{year}/abschluss/",
        f"/saison/{year}/bericht/",
        "/anmeldungen/",
        "/passwort/",
    ]
    if secretary:
        game = Game.objects.filter(evening=evening).first()
        pages += [
            "/abende/neu/",
            f"/abende/{evening.pk}/bearbeiten/",
            f"/abende/{evening.pk}/spiele/{game.pk}/",
            f"/abende/{evening.pk}/runden-eintragen/",
            "/verein/",
            "/verein/personen/",
            f"/verein/personen/{anna.pk}/",
            "/verein/zugaenge/",
            "/verein/saisons/",
            "/verein/tafel/",
            "/verein/bankkonto/",
            "/verein/bankimport/",
            "/kasse/zahlung/",
            "/verlauf/",
            f"/verlauf/abend/{evening.pk}/",
            f"/verlauf/person/{anna.pk}/",
            "/vereinsbuch/import/",
            "/saison/neu/",
            f"/saison/{year}/regeln/bearbeiten/",
        ]
    return pages


def _survey(page, live_server, paths: list[str]) -> dict[str, dict]:
    """Each page's problems: broken words, cut tables, axe in light and dark mode."""
    found: dict[str, dict] = {}
    axe_in_every_document(page)
    for path in paths:
        page.emulate_media(color_scheme="light")
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        problems = {k: v for k, v in page.evaluate(CHECKS).items() if v}
        for scheme in ("light", "dark"):
            if serious := serious_violations(page, scheme):
                problems[f"axe {scheme}"] = [
                    f"{v['id']} x{v['nodes']}: {v['target']}" for v in serious
                ]
        if problems:
            found[path] = problems
    return found


def test_every_page_reads_at_390_px_for_the_secretary(page, live_server, demo_books):
    _log_in(page, live_server, "sekretaer")
    assert _survey(page, live_server, _pages(demo_books, secretary=True)) == {}


def test_every_page_reads_at_390_px_for_a_member(page, live_server, demo_books):
    _log_in(page, live_server, "anna")
    assert _survey(page, live_server, _pages(demo_books, secretary=False)) == {}


def test_the_wall_and_the_login_read_in_light_and_dark(page, live_server, demo_books):
    _screen, token = wall_screen_create(club=demo_books, name="TV")
    assert _survey(page, live_server, [f"/tafel/{token}/", "/login/"]) == {}
