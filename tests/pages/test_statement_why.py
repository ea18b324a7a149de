"""A person's statement answers "Warum zahle ich das?": newest line first with tonight's
lines on top and the balance after each line; every line opens what it is made of (the
game or the evening), the statute that charges it in the club's words, and the
arithmetic; the API gives the same as structured fields (docs/rules.md 5)."""

import datetime
import re
from decimal import Decimal

import pytest
import time_machine

from games.evenings.services import evening_create, game_record
from league.club.services import season_statutes_update
from league.ledger.selectors import member_statement
from league.ledger.services import payment_record

pytestmark = pytest.mark.django_db

TONIGHT = datetime.datetime(2026, 3, 13, 21, 0, tzinfo=datetime.UTC)


@pytest.fixture
def tonight(evening, secretary, member, other_member):
    """A second evening, on 2026-03-13 ("tonight"): Anna loses game 1, Frank absent."""
    later = evening_create(
        club=evening.club,
        date=datetime.date(2026, 3, 13),
        secretary=secretary,
        present_members=[secretary, member],
        absent_members=[other_member],
    )
    game_record(evening=later, loser=member)
    return later


def _rows(page: str) -> list[str]:
    body = page.split('<table class="table statement">', 1)[1].split("</tbody>", 1)[0]
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.split(">", 1)[1])).strip()
        for row in body.split("<tr")[2:]
    ]


def test_the_statement_lists_tonights_line_first(member_client, member, evening, tonight):
    with time_machine.travel(TONIGHT):
        page = member_client.get(f"/kasse/konto/{member.pk}/?saison=2026").content.decode()
    rows = _rows(page)
    assert len(rows) == 2
    assert rows[0].startswith("heute Abend Spiel 1 verloren am 13.03.2026")
    assert rows[1].startswith("Spiel 1 verloren am 06.03.2026")
    assert 'class="kind-game_lost tonight"' in page


def test_the_balance_column_is_the_balance_after_each_line(member_client, member, tonight):
    with time_machine.travel(TONIGHT):
        page = member_client.get(f"/kasse/konto/{member.pk}/?saison=2026").content.decode()
    balances = [re.findall(r"(\d+,\d\d) €", row)[-1] for row in _rows(page)]
    assert balances == ["1,00", "0,50"]


def test_a_lost_game_opens_its_game_statute_and_arithmetic(member_client, member, evening):
    page = member_client.get(f"/kasse/konto/{member.pk}/?saison=2026").content.decode()
    assert '<details class="why">' in page
    assert f'href="/abende/{evening.pk}/">Spiel 1 des Abends vom 06.03.2026</a>' in page
    assert "Beitrag für ein verlorenes Spiel</a>: „1 Mark je verlorenem Spiel“" in page
    assert "1 verlorenes Spiel × 1 Mark × 0,50 € = 0,50 €" in page.replace("\xa0", " ")


def test_an_absence_opens_its_evening_statute_and_arithmetic(
    secretary_client, other_member, evening
):
    url = f"/kasse/konto/{other_member.pk}/?saison=2026"
    page = secretary_client.get(url).content.decode().replace("\xa0", " ")
    assert "Beitrag für einen versäumten Abend" in page
    assert "6 Mark je versäumtem Abend eines Vereinsmitglieds" in page
    assert "1 versäumter Abend × 6 Mark × 0,50 € = 3,00 €" in page


def test_an_absence_at_the_evenings_average_shows_average_and_surcharge(
    season, secretary, member, other_member, evening
):
    season_statutes_update(
        season=season, statutes={"absence": {"mode": "average_plus", "surcharge": 1}}, confirm=True
    )
    lines = member_statement(member=other_member, season=season).seasons[0].lines
    line = next(x for x in lines if x.kind == "absence" and not x.reversed)
    assert line.reason is not None and line.reason.source == "evening"
    # Anna (a member) lost one of the two games, 2 members present: 0.5 -> 1, + 1
    assert (line.reason.average_marks, line.reason.surcharge_marks) == (1, 1)
    assert "(1 Mark Schnitt des Abends + 1 Mark Aufschlag)" in line.reason.arithmetic


def test_the_api_statement_gives_the_why_of_every_line(member_client, member, evening):
    payment_record(
        member=member, amount=Decimal("0.50"), paid_on=datetime.date(2026, 3, 7), method="cash"
    )
    body = member_client.get(
        f"/api/v1/members/{member.pk}/statement/?season={evening.season_id}"
    ).json()
    game_line, payment_line = body["seasons"][0]["lines"]
    why = game_line["why"]
    assert why["source"] == "game" and why["game_number"] == 1
    assert why["evening_date"] == "2026-03-06"
    assert (why["count"], why["marks_each"], why["mark_value"]) == (1, 1, "0.50")
    assert why["statute"]["key"] == "marks_per_game_lost"
    assert why["statute"]["text"] == "1 Mark je verlorenem Spiel"
    assert why["arithmetic"].replace("\xa0", " ") == "1 verlorenes Spiel × 1 Mark × 0,50 € = 0,50 €"
    assert payment_line["why"]["source"] == "payment"
    assert payment_line["why"]["statute"] is None
