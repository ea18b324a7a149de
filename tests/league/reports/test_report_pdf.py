"""The season report PDF: what the club reads on the wall."""

import datetime
import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext

from league.club.money import format_money
from league.reports.pdf import (
    build_season_report_pdf,
)
from league.standings.selectors import season_standings
from tests.copied import copied, database_fingerprint
from tests.league.reports.conftest import pdf_pages, pdf_text
from tests.sample import enter_sample_evening

pytestmark = pytest.mark.django_db

REPORT_DAY = datetime.date(2027, 1, 8)


def de(msgid: str, **values) -> str:
    """The German text the report prints for `msgid` (whichever catalogue provides it)."""
    with translation.override("de"):
        text = gettext(msgid)
    return text % values if values else text


def flat(text: str) -> str:
    """Extracted text with no-break spaces as plain spaces."""
    return text.replace("\xa0", " ")


@pytest.fixture
def two_evenings(sample_evening):
    """The sample evening entered twice, a week apart (once per process, then copied)."""

    def enter_twice():
        enter_sample_evening(sample_evening)
        evening, _ = enter_sample_evening(sample_evening, date=datetime.date(2026, 10, 16))
        return evening.season

    return copied("report two evenings", enter_twice, repr(sample_evening))


# The report's pages per content of the database (and language): a report is what its
# books hold on its day, so the same rows give the same pages; WeasyPrint takes a second.
_pages: dict[tuple[str, str | None], list[str]] = {}


@pytest.fixture
def report_pages(two_evenings):
    content = database_fingerprint()
    if content is None:  # not PostgreSQL: drawn each time
        return pdf_pages(build_season_report_pdf(season=two_evenings, today=REPORT_DAY))
    key = (content, translation.get_language())
    if key not in _pages:
        _pages[key] = pdf_pages(build_season_report_pdf(season=two_evenings, today=REPORT_DAY))
    return list(_pages[key])


def _page(pages: list[str], heading: str) -> str:
    return next(p for p in pages if heading in p)


def test_report_is_a_pdf(two_evenings):
    assert build_season_report_pdf(season=two_evenings).startswith(b"%PDF")


def test_cover_names_club_season_rule_set_and_date_in_german(report_pages):
    cover = report_pages[0]
    assert "Schockclub Sample" in cover
    assert de("Season report %(year)s", year=2026) in cover
    assert "8. Januar 2027" in cover
    assert de("Rule set") in cover


def test_a_running_season_is_the_standings_so_far_with_its_leader(two_evenings, report_pages):
    leader = season_standings(season=two_evenings).rows[0].member.name
    cover = report_pages[0].upper()
    assert de("Standings so far").upper() in cover
    assert de("Leading the table").upper() in cover
    assert de("Champion %(year)s", year=2026).upper() not in cover
    assert leader in report_pages[0]
    assert not any(de("Final standings").upper() in page.upper() for page in report_pages)


def test_a_closed_season_has_the_final_standings_and_its_champion(two_evenings):
    from league.closing.services import season_close
    from league.club.models import Member

    secretary = Member.objects.get(club=two_evenings.club, name="Bernd Krause")
    season_close(season=two_evenings, by=secretary, confirm=True)
    pages = pdf_pages(build_season_report_pdf(season=two_evenings, today=REPORT_DAY))
    leader = season_standings(season=two_evenings).rows[0].member.name
    cover = pages[0].upper()
    assert de("Final standings").upper() in cover
    assert de("Champion %(year)s", year=2026).upper() in cover
    assert leader in pages[0]
    assert _page(pages, de("Final standings"))
    assert not any(de("Standings so far").upper() in page.upper() for page in pages)


def test_the_cover_shows_the_kitty_charged_paid_and_open(two_evenings, sample_evening):
    from league.club.models import Member
    from league.ledger.services import payment_record

    anna = Member.objects.get(club=two_evenings.club, name="Anna Becker")
    payment_record(
        member=anna,
        amount=Decimal("2.50"),
        paid_on=datetime.date(2026, 10, 20),
        season=two_evenings,
    )
    cover = " ".join(flat(pdf_pages(build_season_report_pdf(season=two_evenings))[0]).split())
    charged = 2 * Decimal(sample_evening["expected"]["money_total"])
    currency = sample_evening["expected"]["currency"]
    for amount, label in (
        (charged, "charged"),
        (Decimal("2.50"), "paid"),
        (charged - Decimal("2.50"), "open"),
    ):
        assert flat(format_money(amount, currency)) in cover
        assert de(label).upper() in cover.upper()


def test_standings_list_every_member_in_order_with_places(two_evenings, report_pages):
    page = _page(report_pages, de("Standings so far"))
    rows = season_standings(season=two_evenings).rows
    positions = [page.index(f"{r.place}. {r.member.name}") for r in rows]
    assert positions == sorted(positions)


def test_shared_places_are_printed_as_shared(two_evenings, report_pages):
    page = _page(report_pages, de("Standings so far"))
    places = [line.split(".")[0] for line in page.splitlines() if re.match(r"^\d+\. ", line)]
    rows = season_standings(season=two_evenings).rows
    assert places == [str(r.place) for r in rows]


def test_guests_are_listed_apart_and_unranked(report_pages):
    page = _page(report_pages, de("Standings so far"))
    guests = de("Guests (not ranked)")
    assert page.index("Gustav Meier") > page.index(guests)


def test_dues_show_marks_money_and_totals_in_german_format(sample_evening, report_pages):
    page = flat(_page(report_pages, de("Dues")))
    expected = sample_evening["expected"]
    total = flat(format_money(2 * Decimal(expected["money_total"]), expected["currency"]))
    assert f"{de('Total')} {2 * expected['marks_total']} {total}" in page


def test_chronicle_is_compact_each_evening_counts_its_throwers_and_runden(
    sample_evening, report_pages
):
    # One row per evening: who threw how many Schock-Aus, then who owes a Runde (ordinal).
    page = " ".join(flat(_page(report_pages, de("Schock-Aus chronicle"))).split())
    thrown = sample_evening["expected"]["schock_aus"]
    counts: dict[str, int] = {}
    for item in thrown:
        counts[item["thrower"]] = counts.get(item["thrower"], 0) + 1
    for name, n in counts.items():
        assert (f"{name} {n}×" if n > 1 else name) in page
    owed = [item for item in thrown if item["ordinal"] in (1, 5, 10, 15, 20, len(thrown))]
    for item in owed:
        assert page.count(f"{item['thrower']} ({item['ordinal']}.)") == 2  # both evenings
    assert page.count(f"{len(thrown)} ") >= 2


def test_evenings_table_lists_each_evening_with_german_dates(report_pages):
    page = flat(_page(report_pages, de("The evenings")))
    assert "Fr 09.10.2026" in page and "Fr 16.10.2026" in page
    assert "15,50 €" in page


def _chart_page_size(season, monkeypatch=None) -> int:
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(build_season_report_pdf(season=season)))
    heading = de("Points over the season")
    page = next(p for p in reader.pages if heading in p.extract_text())
    return len(page.get_contents().get_data())


def test_charts_are_drawn_on_the_chart_page(two_evenings, monkeypatch):
    from django.core.cache import cache

    with_charts = _chart_page_size(two_evenings)
    cache.clear()  # drawn charts and rendered reports are cached by their content
    monkeypatch.setattr("league.reports.charts.points_chart_svg", lambda *a: "")
    monkeypatch.setattr("league.reports.charts.schock_aus_chart_svg", lambda *a: "")
    without_charts = _chart_page_size(two_evenings)
    assert with_charts > 5 * without_charts


def test_records_since_the_first_season_are_in_the_report(report_pages):
    page = _page(report_pages, de("All-time records"))
    assert de("Most Schock-Aus in a season") in page
    assert de("Roll of honour") in page


def test_every_page_after_the_cover_has_header_and_page_number(report_pages):
    total = len(report_pages)
    for number, text in enumerate(report_pages[1:], start=2):
        assert f"Schockclub Sample · {de('Season %(year)s', year=2026)}" in text
        assert f"{de('Page')} {number} / {total}" in text


def test_dm_season_shows_money_in_dm(sample_evening):
    evening, _ = enter_sample_evening(sample_evening, date=datetime.date(1999, 10, 8))
    text = pdf_text(build_season_report_pdf(season=evening.season))
    assert "31,00 DM" in flat(text)
    assert "€" not in text


def test_empty_season_still_builds_a_report(db):
    from tests.factories import SeasonFactory

    season = SeasonFactory(year=2027)
    text = pdf_text(build_season_report_pdf(season=season))
    assert de("No evenings in this season yet.") in text
