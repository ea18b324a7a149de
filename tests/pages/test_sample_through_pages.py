"""The sample evening typed in through the secretary's pages alone (the evening form, then
25 game forms) shows exactly the figures of its `expected` section, on the evening sheet
and on the season's standings."""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from games.evenings.models import Evening
from league.club.models import Member
from league.club.money import format_money
from league.club.services import member_login_set, season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.pages.html import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def typed_in(client, sample_evening):
    """Club members and season made beforehand; evening, guest and games through the pages.
    Returns (client, evening, people by name)."""
    ev = sample_evening["evening"]
    club = ClubFactory(name=sample_evening["club"])
    season_get_or_create(club=club, year=ev["season"])
    people = {
        name: MemberFactory(club=club, name=name, is_secretary=name == ev["secretary"])
        for name in sample_evening["club_members"]
    }
    secretary = people[ev["secretary"]]
    member_login_set(person=secretary, user=UserFactory(username="buchfuehrer"))
    client.force_login(secretary.user)
    roles = {f"role_{p.pk}": "none" for p in people.values()}
    roles.update({f"role_{people[n].pk}": "member" for n in ev["present_members"]})
    roles.update({f"role_{people[n].pk}": "absent" for n in ev["absent_members"]})
    response = client.post(
        reverse("evening_create"),
        {
            "date": ev["date"],
            "secretary": secretary.pk,
            "new_guests": ", ".join(ev["guests"]),
            "notes": "",
            **roles,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    evening = Evening.objects.get(club=club)
    people.update({m.name: m for m in Member.objects.filter(club=club, kind="guest")})
    for game in ev["games"]:
        response = client.post(
            reverse("game_entry", args=[evening.pk]),
            {
                "number": game["number"],
                "vorleger": people[game["vorleger"]].pk,
                "loser": people[game["loser"]].pk,
                "schock_aus": [people[n].pk for n in game["schock_aus"]],
            },
        )
        assert response.status_code == 302, response.context["form"].errors
    return client, evening, people


def _sheet(typed_in):
    client, evening, _ = typed_in
    return client.get(reverse("evening_detail", args=[evening.pk]))


def _standings(typed_in):
    client, evening, _ = typed_in
    return client.get(reverse("season_standings", args=[evening.date.year]))


def test_the_guest_typed_in_becomes_a_guest_of_the_club(typed_in, sample_evening):
    _, evening, people = typed_in
    guest = people[sample_evening["evening"]["guests"][0]]
    assert guest.kind == Member.Kind.GUEST
    assert evening.attendances.get(member=guest).role == "guest"


def test_sheet_counts_games_expected_and_entered(typed_in, sample_evening):
    books = _sheet(typed_in).context["books"]
    assert books.games_expected == sample_evening["expected"]["games_expected"]
    assert books.games_entered == sample_evening["expected"]["games_entered"]
    assert books.warnings == []


def test_sheet_lists_the_schock_aus_with_ordinals(typed_in, sample_evening):
    books = _sheet(typed_in).context["books"]
    got = [
        {"ordinal": s.ordinal, "game": s.game, "thrower": s.thrower.name} for s in books.schock_aus
    ]
    assert got == sample_evening["expected"]["schock_aus"]


def test_sheet_lists_the_runden_owed_with_reasons(typed_in, sample_evening):
    books = _sheet(typed_in).context["books"]
    got = [
        {"ordinal": r.ordinal, "thrower": r.thrower.name, "reason": r.reason} for r in books.runden
    ]
    assert got == sample_evening["expected"]["runden_owed"]


def test_sheet_shows_the_runden_reasons_in_german(typed_in, sample_evening):
    text = page_text(_sheet(typed_in))
    german = {
        "first": "erster Schock-Aus",
        "fifth": "fünfter Schock-Aus",
        "last": "letzter Schock-Aus",
    }
    for runde in sample_evening["expected"]["runden_owed"]:
        line = f"{runde['thrower']} – {german[runde['reason']]} (Nr. {runde['ordinal']})"
        assert line in text


def test_sheet_figures_per_person(typed_in, sample_evening):
    books = _sheet(typed_in).context["books"]
    expected = sample_evening["expected"]["per_person"]
    assert {line.member.name for line in books.people} == set(expected)
    for line in books.people:
        person = expected[line.member.name]
        got = {
            "games_lost": line.games_lost,
            "schock_aus": line.schock_aus,
            "marks": line.marks,
            "points": line.points,
        }
        want = {**person, "points": person.get("points")}
        assert got == {k: want[k] for k in got}, line.member.name


def test_sheet_shows_each_persons_money_in_german_format(typed_in, sample_evening):
    text = page_text(_sheet(typed_in))
    currency = sample_evening["expected"]["currency"]
    for name, person in sample_evening["expected"]["per_person"].items():
        money = format_money(Decimal(person["marks"]) * Decimal("0.50"), currency)
        assert re.search(rf"{name} (?:\S+ )?{person['marks']} {money}", text), name


def test_sheet_totals_marks_and_money(typed_in, sample_evening):
    response = _sheet(typed_in)
    books = response.context["books"]
    expected = sample_evening["expected"]
    assert books.marks_total == expected["marks_total"]
    assert books.money_total == Decimal(expected["money_total"])
    assert books.currency == expected["currency"]
    total = format_money(Decimal(expected["money_total"]), expected["currency"])
    assert total == "15,50\u00a0€"
    assert f"{expected['marks_total']} {total}" in page_text(response)


def test_standings_places_and_points(typed_in, sample_evening):
    standings = _standings(typed_in).context["standings"]
    got = [{"place": r.place, "member": r.member.name, "points": r.points} for r in standings.rows]
    assert got == sample_evening["expected"]["standings"]


def test_standings_page_shows_places_and_signed_points(typed_in, sample_evening):
    text = page_text(_standings(typed_in))
    for row in sample_evening["expected"]["standings"]:
        points = row["points"]
        signed = f"\u2212{-points}" if points < 0 else (f"+{points}" if points > 0 else "0")
        assert re.search(rf"{row['place']}\. {row['member']} {signed} ", text), row


def test_standings_lists_the_guest_apart(typed_in, sample_evening):
    response = _standings(typed_in)
    assert [g.member.name for g in response.context["standings"].guests] == ["Gustav Meier"]
    assert "Gäste (ohne Wertung)" in page_text(response)


def test_standings_totals_marks_and_money(typed_in, sample_evening):
    response = _standings(typed_in)
    standings = response.context["standings"]
    expected = sample_evening["expected"]
    assert standings.marks_total == expected["marks_total"]
    assert standings.money_total == Decimal(expected["money_total"])
    assert "31 15,50\u00a0€" in page_text(response)


def test_sheet_date_is_shown_the_german_way(typed_in):
    _, evening, _ = typed_in
    assert evening.date == datetime.date(2026, 10, 9)
    assert "Abend vom 9. Oktober 2026" in page_text(_sheet(typed_in))
