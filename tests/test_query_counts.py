"""Every page and every API read makes as many queries for a club with six seasons as for
one with two: the work per request is bounded by what it shows,
not by the history.

The club's history is built through the services (evenings, games, Schock-Aus, a payment
and a Runde given per season). Each read is asked once as the secretary and once as a
member, first with two seasons, then with four seasons more (the 2026 evening, the people
and the URLs stay the same). The kept reads are forgotten before each counted read
(`books_cache_forget`; the cache is on in tests), so these are the counts of a cold read.

A page or API route added to the URL conf without an entry below fails
`test_every_page_and_api_read_is_counted`.
"""

import datetime
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, get_resolver, resolve
from django.urls.resolvers import URLResolver

from games.evenings.services import evening_create, game_record
from league.club.caching import books_cache_forget
from league.club.services import season_get_or_create
from league.ledger.services import payment_record
from league.runden.services import runde_mark_given
from league.sharing.services import wall_screen_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

# Every route outside the admin, in one table: URL name -> the path of the read, built from
# the cast `c` (a dict of ids), or NOT_COUNTED with the reason in the comment above it. A
# route added to the URL conf without a line here fails `test_every_route_is_in_the_table`.
NOT_COUNTED = None

ROUTES: dict[str, Callable[[dict], str] | None] = {
    # --- pages ---
    "home": lambda c: "/",
    "season_standings": lambda c: "/saison/2026/",
    "my_dues": lambda c: "/marken/",
    "member_dues": lambda c: f"/saison/2026/marken/{c['member']}/",
    "evening_list": lambda c: "/abende/",
    "evening_list_other_season": lambda c: "/abende/?saison=2025",
    "evening_detail": lambda c: f"/abende/{c['evening']}/",
    "evening_create": lambda c: "/abende/neu/",
    "evening_edit": lambda c: f"/abende/{c['evening']}/bearbeiten/",
    "evening_delete": lambda c: f"/abende/{c['evening']}/loeschen/",
    "game_entry": lambda c: f"/abende/{c['evening']}/spiele/",
    "game_edit": lambda c: f"/abende/{c['evening']}/spiele/{c['game']}/",
    "game_delete": lambda c: f"/abende/{c['evening']}/spiele/{c['game']}/loeschen/",
    "game_rounds_entry": lambda c: f"/abende/{c['evening']}/runden-eintragen/",
    "game_rounds": lambda c: f"/spiele/{c['game']}/runden/",
    "evening_share": lambda c: f"/abende/{c['evening']}/teilen/",
    "evening_share_card": lambda c: f"/abende/{c['evening']}/teilen.png",
    "wall": lambda c: f"/tafel/{c['wall']}/",
    "wall_screens": lambda c: "/verein/tafel/",
    "ledger_home": lambda c: "/kasse/",
    "evening_objections": lambda c: f"/abende/{c['evening']}/einsprueche/",
    "planned_evenings": lambda c: "/abende/termine/",
    "notification_choices": lambda c: "/benachrichtigungen/",
    # Writes of the objections and planned evenings (POST only), the one-tap unsubscribe
    # (a signed token, no login), the calendar feed (a secret token, no login).
    "objection_answer": NOT_COUNTED,
    "evening_finalise": NOT_COUNTED,
    "notification_unsubscribe": NOT_COUNTED,
    "calendar_feed": NOT_COUNTED,
    "ledger_home_all": lambda c: "/kasse/?saison=alle",
    "ledger_statement": lambda c: f"/kasse/konto/{c['member']}/",
    "ledger_statement_all": lambda c: f"/kasse/konto/{c['member']}/?saison=alle",
    "payment_create": lambda c: "/kasse/zahlung/",
    "runden_list": lambda c: "/runden/",
    "runden_list_all": lambda c: "/runden/?saison=alle&status=all",
    "runden_list_open_all": lambda c: "/runden/?saison=alle",
    "audit_index": lambda c: "/verlauf/",
    "audit_evening": lambda c: f"/verlauf/abend/{c['evening']}/",
    "audit_member": lambda c: f"/verlauf/person/{c['member']}/",
    "season_report": lambda c: "/saison/2026/bericht/",
    "season_report_status": lambda c: "/saison/2026/bericht/status/",
    "season_csv": lambda c: "/saison/2026/tabelle.csv",
    "season_csv_kasse": lambda c: "/saison/2026/kasse.csv",
    "season_csv_chronicle": lambda c: "/saison/2026/schock-aus.csv",
    "club_book_upload": lambda c: "/vereinsbuch/import/",
    "current_rules": lambda c: "/regeln/",
    "season_rules": lambda c: "/saison/2026/regeln/",
    "season_rules_edit": lambda c: "/saison/2026/regeln/bearbeiten/",
    "season_create": lambda c: "/saison/neu/",
    "schock_aus_stats": lambda c: "/statistik/",
    "statistics_season": lambda c: "/statistik/saisons/?saison=2026",
    "statistics_records": lambda c: "/statistik/rekorde/",
    "all_time_standings": lambda c: "/ewige-tabelle/",
    "club_bank_account": lambda c: "/verein/bankkonto/",
    "my_girocodes": lambda c: "/marken/girocode/",
    "bank_import": lambda c: "/verein/bankimport/",
    "season_recap": lambda c: "/saison/2026/rueckblick/",
    "club_admin": lambda c: "/verein/",
    "club_members": lambda c: "/verein/personen/",
    "club_member": lambda c: f"/verein/personen/{c['member']}/",
    "club_logins": lambda c: "/verein/zugaenge/",
    "club_seasons": lambda c: "/verein/saisons/",
    "my_logins": lambda c: "/anmeldungen/",
    "password_change": lambda c: "/passwort/",
    "season_close": lambda c: "/saison/2026/abschluss/",
    "season_statutes": lambda c: "/saison/2026/satzung/",
    # --- the API ---
    "api-root": lambda c: "/api/v1/",
    "api-me": lambda c: "/api/v1/me/",
    "api-tokens": lambda c: "/api/v1/auth/tokens/",
    "club-list": lambda c: "/api/v1/clubs/",
    "club-detail": lambda c: f"/api/v1/clubs/{c['club']}/",
    "season-list": lambda c: "/api/v1/seasons/",
    "season-detail": lambda c: f"/api/v1/seasons/{c['season']}/",
    "season-standings": lambda c: f"/api/v1/seasons/{c['season']}/standings/",
    "season-runden": lambda c: f"/api/v1/seasons/{c['season']}/runden/",
    "api-season-report": lambda c: f"/api/v1/seasons/{c['season']}/report/",
    "api-season-statistics": lambda c: f"/api/v1/seasons/{c['season']}/statistics/",
    "api-statistics-records": lambda c: "/api/v1/statistics/records/",
    "api-standings-all-time": lambda c: "/api/v1/standings/all-time/",
    "api-season-close": lambda c: f"/api/v1/seasons/{c['season']}/close/",
    "season-statutes": lambda c: f"/api/v1/seasons/{c['season']}/statutes/",
    "api-member-girocode": lambda c: f"/api/v1/members/{c['member']}/girocode.png",
    "api-member-payment": lambda c: f"/api/v1/members/{c['member']}/payment/",
    "member-list": lambda c: "/api/v1/members/",
    "member-detail": lambda c: f"/api/v1/members/{c['member']}/",
    "member-dues": lambda c: f"/api/v1/members/{c['member']}/dues/",
    "api-member-statement": lambda c: f"/api/v1/members/{c['member']}/statement/",
    "api-member-statement-all": lambda c: f"/api/v1/members/{c['member']}/statement/?season=all",
    "api-balances": lambda c: "/api/v1/balances/",
    "evening-list": lambda c: "/api/v1/evenings/",
    "evening-detail": lambda c: f"/api/v1/evenings/{c['evening']}/",
    "evening-summary": lambda c: f"/api/v1/evenings/{c['evening']}/summary/",
    "game-list": lambda c: "/api/v1/games/",
    "game-detail": lambda c: f"/api/v1/games/{c['game']}/",
    "game-rounds": lambda c: f"/api/v1/games/{c['game']}/rounds/",
    "runde-list": lambda c: "/api/v1/runden/",
    "payment-list": lambda c: "/api/v1/payments/",
    "payment-detail": lambda c: f"/api/v1/payments/{c['payment']}/",
    "api-history": lambda c: "/api/v1/history/",
    "api-history-member": lambda c: f"/api/v1/history/?member={c['member']}",
    "api-logins": lambda c: "/api/v1/logins/",
    "api-history-evening": lambda c: f"/api/v1/history/?evening={c['evening']}",
    # --- not counted here, and why ---
    # Writes only (POST), or forms behind a one-time token or link.
    "login": NOT_COUNTED,
    "logout": NOT_COUNTED,
    "payment_cancel": NOT_COUNTED,
    "runde_given": NOT_COUNTED,
    "runde_undo": NOT_COUNTED,
    "game_undo": NOT_COUNTED,
    "runden_evening_given": NOT_COUNTED,
    "club_book_confirm": NOT_COUNTED,
    "season_report_request": NOT_COUNTED,
    "club_member_action": NOT_COUNTED,
    "club_login_new": NOT_COUNTED,
    "club_login_invite": NOT_COUNTED,
    "login_invitation_accept": NOT_COUNTED,
    # The sign-up (off unless SIGNUP_OPEN, and for nobody's club): a form and its link.
    "club_signup": NOT_COUNTED,
    "club_signup_confirm": NOT_COUNTED,
    "password_change_done": NOT_COUNTED,
    "password_reset": NOT_COUNTED,
    "password_reset_done": NOT_COUNTED,
    "password_reset_confirm": NOT_COUNTED,
    "password_reset_complete": NOT_COUNTED,
    "my_login_revoke": NOT_COUNTED,
    "throw_evaluate": NOT_COUNTED,
    "season_close_action": NOT_COUNTED,
    "my_login_email": NOT_COUNTED,
    "season_reopen_action": NOT_COUNTED,
    "season_sign_off_action": NOT_COUNTED,
    # Files the season report and the evening sheet render with WeasyPrint (their cost is
    # bench/bench_report.py's), the club book export (every row of the history, by design).
    "season_report_download": NOT_COUNTED,
    "evening_sheet_pdf": NOT_COUNTED,
    # The season recap card, a PNG drawn by matplotlib (its reads are season_recap's).
    "season_recap_image": NOT_COUNTED,
    "club_book_export": NOT_COUNTED,
    # The DATEV export of a year's payments (every payment of the year, by design), and the
    # JVerein export (every person, every payment of the year).
    "datev_export": NOT_COUNTED,
    "jverein_export": NOT_COUNTED,
    # The odds page simulates 2,000 games (cached per rule set; reads no books).
    "odds": NOT_COUNTED,
    # Not pages of the books: the service's health, the app manifest and service worker,
    # the API's schema and docs.
    "health": NOT_COUNTED,
    "web_manifest": NOT_COUNTED,
    "service_worker": NOT_COUNTED,
    "schema": NOT_COUNTED,
    "swagger-ui": NOT_COUNTED,
    # API: writes, the token endpoints, the PDF, the club book export.
    "api-rules-evaluate": NOT_COUNTED,
    "api-token": NOT_COUNTED,
    "api-logout": NOT_COUNTED,
    "api-logout-all": NOT_COUNTED,
    "api-token-detail": NOT_COUNTED,
    "api-password": NOT_COUNTED,
    "api-club-book-import": NOT_COUNTED,
    "api-club-book-export-attendance": NOT_COUNTED,
    "api-club-book-export-games": NOT_COUNTED,
    "api-season-report-pdf": NOT_COUNTED,
    "game-preview-rounds": NOT_COUNTED,
    "game-record-rounds": NOT_COUNTED,
    "game-undo": NOT_COUNTED,
    "runde-given": NOT_COUNTED,
    "payment-cancel": NOT_COUNTED,
    "api-evening-share": NOT_COUNTED,
    "api-season-reopen": NOT_COUNTED,
    "api-season-sign-off": NOT_COUNTED,
    "api-login-invite": NOT_COUNTED,
    "api-login-lock": NOT_COUNTED,
    "api-login-unlock": NOT_COUNTED,
    "api-bank-statements": NOT_COUNTED,
    "api-evening-objections": lambda c: f"/api/v1/evenings/{c['evening']}/objections/",
    "api-planned-evenings": lambda c: "/api/v1/planned-evenings/",
    "api-notifications": lambda c: "/api/v1/me/notifications/",
    "api-evening-finalise": NOT_COUNTED,
    "api-objection-answer": NOT_COUNTED,
    "api-planned-evening-move": NOT_COUNTED,
    "api-planned-evening-cancel": NOT_COUNTED,
    "api-calendar-revoke": NOT_COUNTED,
    # The read of push-subscriptions/ (POST and DELETE are writes): is this browser's kept?
    "api-push-subscriptions": lambda c: (
        "/api/v1/push-subscriptions/?endpoint=https://web.push.apple.com/phone"
    ),
}
_ANY_CAST: dict = defaultdict(int)
PAGES = {n: b for n, b in ROUTES.items() if b and not b(_ANY_CAST).startswith("/api/")}
API = {n: b for n, b in ROUTES.items() if b and b(_ANY_CAST).startswith("/api/")}

# Reads whose query count may rise by a bounded step as the history grows, and why. Empty:
# every read holds its count.
BOUNDED_NOT_CONSTANT: dict[str, str] = {}


def _url_names() -> set[str]:
    """The names of every route outside the admin (the staff's fallback, not a page of the
    club)."""

    def walk(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace != "admin":
                    yield from walk(p.url_patterns)
            elif p.name:
                yield p.name

    return set(walk(get_resolver().url_patterns))


def test_every_route_is_in_the_table():
    missing = sorted(n for n in _url_names() if n not in ROUTES)
    assert not missing, f"routes without a line in ROUTES: {missing}"
    # A counted line may be a variant of a route (another query string): its path must
    # still lead somewhere; a line not counted names a route.
    names = _url_names()
    gone = sorted(
        n
        for n, build in ROUTES.items()
        if (build is None and n not in names)
        or (build is not None and not _resolves(build(_ANY_CAST).split("?")[0]))
    )
    assert not gone, f"lines in ROUTES for routes that no longer exist: {gone}"


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def _season(club, year: int, people: dict, day: int = 9):
    """A season with one evening of four games, two Schock-Aus (one each of the secretary
    and the member: every kind of record is there from the start), a payment and a Runde
    given, all through the services."""
    season_get_or_create(club=club, year=year)
    evening = evening_create(
        club=club,
        date=datetime.date(year, 10, day),
        secretary=people["secretary"],
        present_members=[people["secretary"], people["member"]],
        guests=[people["guest"]],
        absent_members=[people["absent"]],
    )
    order = ["secretary", "member", "guest", "member"]
    games = []
    for n, loser in enumerate(order):
        games.append(
            game_record(
                evening=evening,
                loser=people[loser],
                schock_aus_throwers={0: [people["secretary"]], 2: [people["member"]]}.get(n, []),
            )
        )
    payment = payment_record(
        member=people["member"], amount=Decimal("1.50"), paid_on=datetime.date(year, 10, day)
    )
    first = games[0].schock_aus.first()
    runde_mark_given(schock_aus=first, given_on=datetime.date(year, 10, day))
    return evening, games, payment


@pytest.fixture
def history():
    """A club with two seasons (2025, 2026) and a `grow()` that adds four older ones."""
    club = ClubFactory(name="Schockclub Zählwerk")
    people = {
        "secretary": MemberFactory(
            club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="b")
        ),
        "member": MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="a")),
        "guest": MemberFactory(club=club, name="Gustav Meier", kind="guest"),
        "absent": MemberFactory(club=club, name="Frank Roth"),
    }
    _season(club, 2025, people)
    evening, games, payment = _season(club, 2026, people)
    cast = {
        "club": club.pk,
        "season": evening.season_id,
        "member": people["member"].pk,
        "evening": evening.pk,
        "game": games[1].pk,
        "payment": payment.pk,
        "wall": wall_screen_create(club=club, name="TV")[1],
    }

    def grow():
        for year in (2021, 2022, 2023, 2024):
            _season(club, year, people)
        # And a second 2026 evening: more evenings in the season shown, too.
        _season_evening_2026(club, people)

    return people, cast, grow


def _season_evening_2026(club, people):
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 16),
        secretary=people["secretary"],
        present_members=[people["secretary"], people["member"]],
        absent_members=[people["absent"]],
    )
    for loser in ("member", "secretary", "member"):
        game_record(evening=evening, loser=people[loser], schock_aus_throwers=[people["member"]])


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _counts(clients: dict, reads: dict, cast: dict) -> dict:
    counts = {}
    for role, client in clients.items():
        for name, build in reads.items():
            url = build(cast)
            client.get(url)  # warm: sessions, content types, lazily cached lookups
            books_cache_forget()  # a cold read of the books
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url)
            assert response.status_code < 500, (role, url, response.status_code)
            counts[(role, name)] = len(ctx.captured_queries)
    return counts


@pytest.mark.parametrize("reads", [PAGES, API], ids=["pages", "api"])
def test_query_counts_do_not_grow_with_seasons_and_evenings(history, reads):
    people, cast, grow = history
    clients = {
        "secretary": _client(people["secretary"].user),
        "member": _client(people["member"].user),
    }
    small = _counts(clients, reads, cast)
    grow()
    large = _counts(clients, reads, cast)
    grown = {
        key: (small[key], large[key])
        for key in small
        if large[key] != small[key] and key[1] not in BOUNDED_NOT_CONSTANT
    }
    assert not grown, f"query counts that changed with the history (2 -> 6 seasons): {grown}"


# Reads kept in the cache (league/club/caching.py) and the queries a repeated read makes
# besides the session's: the login read with its person and club in one query (the club's
# row carries the books and register versions), the season on a season page, and what the
# page shows beyond the books (the season report's state on the standings page, the club's
# and the people's newest records on the history reads). The same with six seasons as with
# two.
KEPT_READS = {
    "season_standings": 3,
    "evening_list": 1,
    # The evening sheet and the statements show the provisional evenings: a kept read of
    # its own that ends with the first objection time (`books_cached_until`), no query.
    "evening_detail": 1,
    "game_entry": 1,
    "game_rounds_entry": 1,
    "game_edit": 1,
    "schock_aus_stats": 1,
    "ledger_home": 1,
    "ledger_statement": 2,
    "ledger_statement_all": 2,
    "member_dues": 3,
    "audit_member": 2,
    "audit_index": 2,
    "audit_evening": 2,
    "api-history": 2,
    "api-history-member": 2,
    "api-history-evening": 2,
    "runden_list_open_all": 1,
    "statistics_season": 2,
    "statistics_records": 1,
    "all_time_standings": 1,
    "season-standings": 2,
    "api-season-statistics": 2,
    "api-statistics-records": 1,
    "api-standings-all-time": 1,
    "api-balances": 1,
    "evening_share": 1,
    "evening_share_card": 1,
    "season_close": 2,
    "api-season-close": 2,
    "season_recap": 2,
    "season_csv": 2,
    "season_csv_kasse": 2,
    "season_csv_chronicle": 2,
    "season_create": 1,
    "season_rules_edit": 2,
    "season_statutes": 2,
    "season-list": 1,
    "season-runden": 2,
    "evening-list": 1,
    "evening-detail": 1,
    "evening-summary": 1,
    "game-list": 1,
    "game-detail": 1,
    "game-rounds": 1,
    "runde-list": 1,
}


def _warm_counts(client, cast: dict) -> dict:
    counts = {}
    for name in KEPT_READS:
        url = ROUTES[name](cast)  # type: ignore[misc]
        client.get(url)  # the first read keeps what it computed
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        # Without the session's read: a database read, or none with the cached store (Redis).
        counts[name] = sum('"django_session"' not in q["sql"] for q in ctx.captured_queries)
    return counts


@pytest.mark.django_db(transaction=True)
def test_a_repeated_read_of_a_kept_page_makes_few_queries_whatever_the_history(history):
    from django.core.cache import cache

    cache.clear()
    people, cast, grow = history
    client = _client(people["secretary"].user)
    small = _warm_counts(client, cast)
    grow()
    large = _warm_counts(client, cast)
    assert large == small
    assert small == KEPT_READS
