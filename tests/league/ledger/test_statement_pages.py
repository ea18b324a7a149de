"""The Kasse pages at many seasons: a person's statement, its summary per
season, the Kasse overview and the Marks page keep their books part per books version
(league/club/caching.py `books_fragment`), show a change on the next read, answer a
repeated read with 304, and the "all seasons" statement is one row a season in that
season's currency (DM before 2002, EUR after; never added together).

Outside a transaction (`transaction=True`): inside one nothing is kept.
"""

import datetime
import re
from collections import defaultdict
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.closing.services import season_close
from league.club.models import Season
from league.club.money import format_money
from league.club.services import season_get_or_create
from league.ledger import selectors
from league.ledger.models import LedgerEntry
from league.ledger.selectors import (
    club_balances,
    club_balances_kept,
    member_season_summaries,
)
from league.ledger.services import (
    payment_cancel,
    payment_record,
)
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _evening(club, day, bernd, anna, losers, absent=()):
    evening = evening_create(
        club=club, date=day, secretary=bernd, present_members=[bernd, anna], absent_members=absent
    )
    for loser in losers:
        game_record(evening=evening, loser=loser, schock_aus_throwers=[])
    return evening


@pytest.fixture
def books():
    """Seasons 2001 (DM) and 2002 (EUR): Anna loses games in both, pays in both, one
    payment of 2002 is cancelled; 2001 is closed, its balance carried into 2002 (converted
    to EUR); Frank is absent once each season. Bernd is the secretary."""
    club = ClubFactory(name="Schockclub Zeitenwende")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    frank = MemberFactory(club=club, name="Frank Roth")
    dm = season_get_or_create(club=club, year=2001)
    _evening(club, datetime.date(2001, 10, 9), bernd, anna, [anna, anna, bernd, anna], [frank])
    payment_record(member=anna, amount=Decimal("1.00"), paid_on=datetime.date(2001, 10, 9))
    season_close(season=dm, by=bernd, confirm=True)
    eur = Season.objects.get(club=club, year=2002)
    _evening(club, datetime.date(2002, 10, 9), bernd, anna, [anna, bernd, anna], [frank])
    payment_record(member=anna, amount=Decimal("0.50"), paid_on=datetime.date(2002, 10, 9))
    wrong = payment_record(member=anna, amount=Decimal("5.00"), paid_on=datetime.date(2002, 10, 9))
    payment_cancel(payment=wrong)
    return {"club": club, "bernd": bernd, "anna": anna, "frank": frank, "dm": dm, "eur": eur}


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    client.get("/abende/")  # the session's first page sets its CSRF cookie (then ETags)
    return client


def _lines_summed(member, season) -> dict[str, Decimal]:
    """The season's lines of the person added up by hand: each line under its own kind, a
    reversal under the kind of the line it takes back."""
    sums: dict[str, Decimal] = defaultdict(Decimal)
    for entry in LedgerEntry.objects.filter(member=member, season=season):
        kind = entry.reverses.kind if entry.kind == LedgerEntry.Kind.REVERSAL else entry.kind
        sums[kind] += entry.amount
        sums["all"] += entry.amount
    return sums


def test_the_season_summary_equals_the_sum_of_each_seasons_lines(books):
    anna = books["anna"]
    rows = {
        row.year: row
        for row in member_season_summaries(member=anna, seasons=[books["dm"], books["eur"]])
    }
    assert sorted(rows) == [2001, 2002]
    for season in (books["dm"], books["eur"]):
        by_hand, row = _lines_summed(anna, season), rows[season.year]
        assert row.currency == season.currency
        assert row.carried_in == by_hand["carry_in"]
        assert row.charged == by_hand["game_lost"] + by_hand["absence"]
        assert row.paid == -by_hand["payment"]
        assert row.carried_out == -by_hand["carry_out"]
        assert row.balance == by_hand["all"]
    # The closed DM season carried everything on; the cancelled payment counts for nothing.
    assert rows[2001].balance == 0 and rows[2001].carried_out == Decimal("2.00")
    assert rows[2002].carried_in == Decimal("1.02")  # 2.00 DM at 1.95583 DM = 1 EUR
    assert rows[2002].paid == Decimal("0.50")


def test_dm_and_eur_seasons_are_shown_apart_on_the_all_seasons_statement(books):
    anna = books["anna"]
    page = _client(anna).get(f"/kasse/konto/{anna.pk}/?saison=alle").content.decode()
    rows = re.findall(r"<tr>\s*<td class=\"nowrap\">.*?</tr>", page, re.S)
    assert len(rows) == 2
    newest, oldest = rows
    assert "?saison=2002" in newest and "€" in newest and "DM" not in newest
    assert "?saison=2001" in oldest and "DM" in oldest and "€" not in oldest
    # The balance per currency: the DM season balances to zero, the EUR one is owed.
    owed_eur = Decimal("1.02") + Decimal("1.00") - Decimal("0.50")  # carried + 2 Marks - paid
    assert format_money(owed_eur, "EUR") in page
    assert format_money(Decimal("0"), "DM") in page
    # Her own statement with money owed in euro links the GiroCode.
    assert "/marken/girocode/" in page


def test_the_all_seasons_statement_lists_no_lines(books):
    anna = books["anna"]
    page = _client(books["bernd"]).get(f"/kasse/konto/{anna.pk}/?saison=alle").content.decode()
    assert "kind-game_lost" not in page and "Storno:" not in page
    assert f"/kasse/konto/{anna.pk}/?saison=2001" in page


def test_a_payment_shows_on_the_next_read_of_every_kept_kasse_page(books):
    anna, client = books["anna"], _client(books["bernd"])
    urls = [
        f"/kasse/konto/{anna.pk}/",
        f"/kasse/konto/{anna.pk}/?saison=alle",
        "/kasse/",
        f"/saison/2002/marken/{anna.pk}/",
    ]
    before = {url: client.get(url).content.decode() for url in urls}
    payment_record(member=anna, amount=Decimal("0.77"), paid_on=datetime.date(2002, 10, 10))
    # The line itself on the season's statement; Anna's paid 0.50 + 0.77 on the others.
    for url, shown in zip(urls[:3], ["0,77", "1,27", "1,27"], strict=True):
        after = client.get(url).content.decode()
        assert shown in after and shown not in before[url], url
    # The Marks page shows Marks and money charged: a payment moves neither, but the kept
    # part follows the new books version all the same (a game lost shows at once).
    _evening(books["club"], datetime.date(2002, 10, 16), books["bernd"], anna, [anna])
    marks_before = re.search(r"Marken: <strong>(\d+)", before[urls[3]]).group(1)
    marks_after = re.search(r"Marken: <strong>(\d+)", client.get(urls[3]).content.decode())
    assert int(marks_after.group(1)) == int(marks_before) + 1


def test_a_repeated_read_with_its_etag_is_not_modified_until_the_books_change(books):
    anna, client = books["anna"], _client(books["anna"])
    for url in (f"/kasse/konto/{anna.pk}/", f"/kasse/konto/{anna.pk}/?saison=alle"):
        etag = client.get(url)["ETag"]
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    etag = client.get(f"/kasse/konto/{anna.pk}/")["ETag"]
    payment_record(member=anna, amount=Decimal("0.25"), paid_on=datetime.date(2002, 10, 10))
    again = client.get(f"/kasse/konto/{anna.pk}/", headers={"If-None-Match": etag})
    assert again.status_code == 200 and "0,25" in again.content.decode()


def test_the_kept_statement_carries_the_viewers_own_cancel_token(books):
    anna = books["anna"]
    url = f"/kasse/konto/{anna.pk}/?saison=2002"
    _client(books["bernd"]).get(url)  # keeps the statement with this session's forms
    second = _client(books["bernd"])
    page = second.get(url).content.decode()
    form = re.search(r'action="(/kasse/zahlung/\d+/storno/)".*?value="([^"]+)"', page, re.S)
    assert form is not None
    response = second.post(form.group(1), {"csrfmiddlewaretoken": form.group(2)})
    assert response.status_code == 302


def test_a_member_is_not_served_the_secretarys_kept_statement(books):
    anna = books["anna"]
    url = f"/kasse/konto/{anna.pk}/?saison=2002"
    secretary_page = _client(books["bernd"]).get(url).content.decode()
    member_page = _client(anna).get(url).content.decode()
    assert "/storno/" in secretary_page and "/kasse/zahlung/?person=" in secretary_page
    assert "/storno/" not in member_page and "/kasse/zahlung/?person=" not in member_page
    # Another person's statement is the secretary's to read only.
    assert _client(anna).get(f"/kasse/konto/{books['frank'].pk}/").status_code == 403


def test_a_second_season_changed_rebuilds_only_that_seasons_summary_row(books, monkeypatch):
    anna, client = books["anna"], _client(books["anna"])
    url = f"/kasse/konto/{anna.pk}/?saison=alle"
    client.get(url)
    built = []
    real = selectors._summaries_of

    def spy(member_id, seasons):
        built.append([s.year for s in seasons])
        return real(member_id, seasons)

    monkeypatch.setattr(selectors, "_summaries_of", spy)
    payment_record(member=anna, amount=Decimal("0.10"), paid_on=datetime.date(2002, 10, 11))
    assert "0,60" in client.get(url).content.decode()  # paid 0.50 + 0.10
    assert built == [[2002]]


def test_a_repeated_read_of_the_all_seasons_statement_asks_only_the_frame(books):
    anna, client = books["anna"], _client(books["anna"])
    url = f"/kasse/konto/{anna.pk}/?saison=alle"
    client.get(url)
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url).status_code == 200
    tables = " ".join(q["sql"] for q in warm.captured_queries)
    assert "league_ledgerentry" not in tables and "league_season" not in tables.replace(
        'FROM "league_season" v', ""
    )


def test_an_unknown_or_unreadable_season_is_a_404_on_every_read(books):
    anna, client = books["anna"], _client(books["bernd"])
    for query in ("1999", "zwanzig", "2²02"):
        for _read in range(2):  # a 404 is never kept
            assert client.get(f"/kasse/konto/{anna.pk}/?saison={query}").status_code == 404
            assert client.get(f"/kasse/?saison={query}").status_code == 404


def _plain(balances):
    return (
        [(r.member.pk, r.season.pk, r.marks_charged, r.charged, r.paid) for r in balances.rows],
        [(b.season.pk, b.charged, b.paid, b.owed, b.credit) for b in balances.seasons],
        balances.kitty,
        balances.owed,
        [(r.member.pk, r.season.pk) for r in balances.owing],
    )


@pytest.mark.parametrize("year", [None, 2001, 2002])
def test_the_kept_club_balances_equal_the_services_figures(books, year):
    season = Season.objects.get(club=books["club"], year=year) if year else None
    payment_record(
        member=books["frank"], amount=Decimal("9.00"), paid_on=datetime.date(2002, 10, 9)
    )
    for _read in range(2):  # computed, then from the kept parts
        kept = club_balances_kept(club=books["club"], season=season)
        assert _plain(kept) == _plain(club_balances(club=books["club"], season=season))
    assert set(kept.kitty) == {"DM", "EUR"}  # never added together


def test_one_changed_season_sums_only_its_part_of_the_club_balances(books, monkeypatch):
    client = _client(books["bernd"])
    client.get("/kasse/")
    built = []
    real = selectors._balance_parts

    def spy(seasons):
        built.append([s.year for s in seasons])
        return real(seasons)

    monkeypatch.setattr(selectors, "_balance_parts", spy)
    payment_record(
        member=books["anna"], amount=Decimal("0.33"), paid_on=datetime.date(2002, 10, 11)
    )
    assert "0,83" in client.get("/kasse/").content.decode()  # Anna paid 0.50 + 0.33
    assert built == [[2002]]
