"""Accessibility scan of the main pages at phone size: axe-core
(vendored, tests/browser/vendor/) finds no serious or critical violation, for the member
and for the secretary (with the entry form), light and dark."""

import pytest

from games.evenings.models import Evening
from tests.browser.axe_scan import axe_in_every_document, serious_violations

MEMBER_PAGES = ["/", "/saison/2026/", "/kasse/", "/marken/"]


@pytest.fixture
def transactional_db(sample_books):
    """pytest-django's live_server asks for `transactional_db` (a database emptied after
    each test); here it is the module's books instead, kept from test to test and emptied
    after the module (sample_books). The tests still count as live-server tests when
    pytest-django orders them (it goes by the fixtures' names)."""


def _serious(page, scheme: str = "light") -> list[str]:
    """The serious and critical violations of the page in `scheme`: 'rule: first target
    (help)' lines (tests/browser/axe_scan.py: call it for "light" before "dark")."""
    return [f"{v['id']}: {v['target']} ({v['help']})" for v in serious_violations(page, scheme)]


def _evening_pages() -> list[str]:
    evening = Evening.objects.get()
    return [f"/abende/{evening.pk}/", f"/abende/{evening.pk}/teilen/"]


def _scan(page, live_server, paths: list[str]) -> dict[str, list[str]]:
    """Each page in light and in dark mode: its serious and critical violations."""
    found = {}
    axe_in_every_document(page)
    for path in paths:
        page.goto(live_server.url + path)
        for scheme in ("light", "dark"):
            if problems := _serious(page, scheme):
                found[f"{path} ({scheme})"] = problems
    return found


def test_member_pages_have_no_serious_accessibility_issue(page, live_server, sample_books, log_in):
    log_in(page, "anna")
    assert _scan(page, live_server, MEMBER_PAGES + _evening_pages()) == {}


def test_secretary_pages_have_no_serious_accessibility_issue(
    page, live_server, sample_books, log_in
):
    log_in(page, "bernd")
    assert _scan(page, live_server, ["/abende/neu/", _evening_pages()[0], "/verein/"]) == {}


def test_the_login_page_has_no_serious_accessibility_issue(page, live_server):
    page.goto(live_server.url + "/login/")
    assert _serious(page) == []
