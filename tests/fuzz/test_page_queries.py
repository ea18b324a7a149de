"""Hypothesis over every page's query parameters: the pages are collected
from the URL resolver (every GET page outside the admin and the API, its path parameters
filled with the demo club's real objects), and every query parameter name the views read
(saison, seite, person, ...) gets hostile values: random text, digits of other scripts,
superscripts, huge numbers, NUL and other control characters, whitespace tricks. Asked as
the demo secretary, no page may answer a 5xx (Django's test client raises the exception
a 500 would hide, so a failure shows its traceback)."""

import os
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.evenings.models import Evening, Game, SchockAus
from league.club.models import Season
from league.ledger.models import Payment

# One xdist worker runs the group "demo" (`make test`: --dist loadgroup): tests/fuzz,
# tests/pages/demo and the backup's round trip of the demo, so the demo is built once
# there (tests/pages/demo/demo_rows.py), and first, as the largest group.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]

MAX_EXAMPLES = int(os.environ.get("FUZZ_PAGE_EXAMPLES", "60"))
DERANDOMIZE = not os.environ.get("FUZZ_RANDOM")
ROOT = Path(__file__).resolve().parents[2]

# Every name a view reads from request.GET (test_every_query_parameter_is_fuzzed keeps
# this list complete).
QUERY_NAMES = [
    "saison",
    "jahr",
    "seite",
    "person",
    "status",
    "alle",
    "preset",
    "regeln",
    "muss",
    "evening",
    "schock_aus",
    "last_game",
    "dice",
    "attempts",
    "natural",
    "turn",
    "max_attempts",
    "next",
    "teil",
]
# Pages left out: the admin (Django's own), the API (schemathesis fuzzes it), logout and
# the service worker files (no query), and pages whose path takes a token or key.
SKIPPED_PREFIXES = ("admin/", "api/", "logout/", "health/", "sw.js", "manifest.webmanifest")

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1E2",
    "1_000",
    "1.5",
    "²",
    "١٢",
    "٢٠٢٦",
    "１２",
    "9" * 30,
    "9" * 5000,
    "2026\x00",
    "\x00",
    " 2026 ",
    "2026\n",
    "\u200b2026",
    "alle",
    "NaN",
    "inf",
    "%",
    "'; DROP TABLE league_member; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "$x$",
]
# Swept over every page and parameter; the random test draws from all of HOSTILE.
WORST = ["\x00", "²", "١٢", "9" * 5000]
values = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(alphabet=st.characters(categories=["Nd", "No"]), min_size=1, max_size=6),
)


def _walk(patterns, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            found.append((prefix + str(pattern.pattern), pattern))
    return found


def _object_for(route: str, name: str, demo) -> str | None:
    """A real value of the demo club for a path parameter, or None (the page is left out)."""
    evening = Evening.objects.filter(club=demo.club).order_by("-date").first()
    game = Game.objects.filter(evening=evening).first()
    if name == "year":
        return str(Season.objects.filter(club=demo.club).order_by("-year").first().year)
    if name == "member_id":
        return str(demo.member.pk)
    if name in ("evening_id",) or (name == "pk" and route.startswith("abende/")):
        return str(evening.pk)
    if name in ("game_id", "game_pk"):
        return str(game.pk)
    if name == "schock_aus_id":
        return str(SchockAus.objects.filter(game__evening__club=demo.club).first().pk)
    if name == "pk" and route.startswith("verein/"):
        return str(demo.member.pk)
    if name == "pk" and route.startswith("kasse/"):
        return str(Payment.objects.filter(club=demo.club).first().pk)
    if name == "kind":
        return "tabelle"
    if name == "which":
        return "anwesenheit"
    return None


def _pages(demo) -> list[str]:
    """Every page's path (GET) with its parameters filled from the demo club."""
    paths = []
    for route, _pattern in _walk(get_resolver().url_patterns):
        if route.startswith(SKIPPED_PREFIXES) or "^" in route:
            continue
        path = route
        for converter, name in re.findall(r"<(?:(\w+):)?(\w+)>", route):
            value = _object_for(route, name, demo)
            if value is None:
                path = None
                break
            path = path.replace(f"<{converter}:{name}>" if converter else f"<{name}>", value)
        if path is not None:
            paths.append("/" + path)
    return sorted(set(paths))


@pytest.fixture
def pages(demo_club, db) -> list[str]:
    return _pages(demo_club)


@pytest.fixture
def secretary(demo_club, db) -> Client:
    client = Client()
    client.force_login(demo_club.secretary.user)
    return client


def test_the_pages_are_collected_from_the_resolver(pages):
    assert len(pages) > 30
    assert {"/saison/neu/", "/runden/", "/kasse/", "/statistik/", "/verlauf/"} <= set(pages)


def test_every_query_parameter_is_fuzzed():
    read = set()
    for source in [*ROOT.glob("league/**/*.py"), *ROOT.glob("games/**/*.py")]:
        text = source.read_text(encoding="utf-8")
        read |= set(re.findall(r"(?:GET|query|q)\.get(?:list)?\(\"(\w+)\"", text))
    read |= {"next"}  # read from the POST of the Runden page, and the login's ?next=
    assert read <= set(QUERY_NAMES), read - set(QUERY_NAMES)


def test_every_page_answers_the_worst_values_without_a_server_error(pages, secretary):
    for path in pages:
        for value in WORST:
            response = secretary.get(path, {name: value for name in QUERY_NAMES})
            assert response.status_code < 500, (path, value)


@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_random_queries_on_every_page_never_fail(pages, secretary, data):
    path = data.draw(st.sampled_from(pages), label="page")
    query = data.draw(st.dictionaries(st.sampled_from(QUERY_NAMES), values, max_size=4))
    response = secretary.get(path, query)
    assert response.status_code < 500, (path, query)
