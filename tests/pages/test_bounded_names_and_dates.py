"""Every input bounded to what the club means, on the pages, in the admin and in the club
book import: a name with a control or format character, a date in other digits than ASCII
or of year 0182, a season overlapping another of the club are refused with a German
message, nothing saved."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from games.evenings.models import Evening
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.services import member_update, season_create, season_update
from league.clubbook.services import club_book_parse
from league.ledger.models import Payment
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ZERO_WIDTH = "Anna\u200bBecker"


def test_the_person_form_refuses_a_name_with_a_format_character(secretary_client, season):
    response = secretary_client.post(
        reverse("club_members"), {"name": ZERO_WIDTH, "kind": "member"}
    )
    assert response.status_code == 200
    assert "unsichtbares oder ein Steuerzeichen (U+200B)" in response.content.decode()
    assert not Member.objects.filter(name__startswith="Anna").exists()


def test_the_rename_form_refuses_a_right_to_left_override(secretary_client, member):
    response = secretary_client.post(
        reverse("club_member", args=[member.pk]), {"rename-name": "Anna \u202eBecker"}
    )
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.name == "Anna Becker"


def test_the_admin_refuses_a_club_name_with_a_control_character(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:league_club_add"), {"name": "Club\u0007", "rule_preset": "club"}
    )
    assert response.status_code == 200
    assert not Club.objects.filter(name__startswith="Club").exists()


def test_the_payment_form_refuses_a_date_in_full_width_digits(
    secretary_client, season, other_member
):
    response = secretary_client.post(
        reverse("payment_create"),
        {
            "member": other_member.pk,
            "amount": "5,00",
            "paid_on": "２０２６-03-06",
            "method": "cash",
        },
    )
    assert response.status_code == 200
    assert "Jahr-Monat-Tag in Ziffern" in response.content.decode()
    assert not Payment.objects.exists()


def test_the_payment_form_refuses_the_year_0182(secretary_client, season, other_member):
    response = secretary_client.post(
        reverse("payment_create"),
        {"member": other_member.pk, "amount": "5,00", "paid_on": "0182-03-06", "method": "cash"},
    )
    assert response.status_code == 200
    assert "Das Jahr 0182 liegt" in response.content.decode()
    assert not Payment.objects.exists()


def test_the_evening_form_refuses_the_year_0182(secretary_client, season, secretary, member):
    response = secretary_client.post(
        reverse("evening_create"),
        {
            "date": "0182-03-06",
            "secretary": secretary.pk,
            f"role_{secretary.pk}": "present",
            f"role_{member.pk}": "present",
        },
    )
    assert response.status_code == 200
    assert "Das Jahr 0182 liegt" in response.content.decode()
    assert not Evening.objects.exists()


def test_the_season_form_refuses_a_season_overlapping_the_last(secretary_client, season):
    response = secretary_client.post(
        reverse("season_create"),
        {"year": "2027", "rule_preset": "club", "starts_on": "2026-12-01", "ends_on": ""},
    )
    assert response.status_code == 200
    assert "überschneiden sich mit der Saison 2026" in response.content.decode()
    assert not Season.objects.filter(year=2027).exists()


def test_the_season_form_refuses_the_year_one(secretary_client, season):
    response = secretary_client.post(
        reverse("season_create"),
        {"year": "2027", "rule_preset": "club", "starts_on": "0001-01-01"},
    )
    assert response.status_code == 200
    assert not Season.objects.filter(year=2027).exists()


def test_a_season_cannot_be_stretched_over_the_next(season):
    season_create(club=season.club, year=2027)
    with pytest.raises(BooksError) as refused:
        season_update(season=season, ends_on=datetime.date(2027, 1, 15))
    assert (refused.value.code, refused.value.status) == ("season_overlaps", 409)
    season.refresh_from_db()
    assert season.ends_on == datetime.date(2026, 12, 31)


def test_the_admin_refuses_a_season_overlapping_another(client, season):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:league_season_add"),
        {
            "club": season.club.pk,
            "year": "2027",
            "starts_on": "2026-06-01",
            "ends_on": "2027-05-31",
            "rule_preset": "club",
        },
    )
    assert response.status_code == 200
    assert "überschneiden sich" in response.content.decode()
    assert not Season.objects.filter(year=2027).exists()


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the exclusion constraint is PostgreSQL's (SQLite: the service refuses)",
)
def test_the_database_refuses_overlapping_seasons_of_a_club(season):
    with pytest.raises(IntegrityError, match="season_dates_no_overlap"), transaction.atomic():
        Season.objects.create(
            club=season.club,
            year=2027,
            starts_on=datetime.date(2026, 12, 31),
            ends_on=datetime.date(2027, 12, 31),
            mark_value=season.mark_value,
            currency=season.currency,
        )


ATTENDANCE = "date,name,role\r\n2026-03-06,Bernd Krause,secretary\r\n2026-03-06,{name},member\r\n"
GAMES = "date,number,loser,schock_aus\r\n2026-03-06,1,Bernd Krause,\r\n"


@pytest.mark.parametrize("name", ["Anna\u200bBecker", "Anna\u202eBecker", "Anna\u2028Becker"])
def test_the_club_book_import_refuses_a_name_with_a_format_character(name):
    attendance = ATTENDANCE.format(name=name).encode()
    _evenings, errors = club_book_parse(attendance=attendance, games=GAMES.encode())
    assert [e.code for e in errors] == ["name_invalid_character"]


def test_a_rename_to_a_name_the_club_book_would_refuse_is_refused(member):
    with pytest.raises(BooksError) as refused:
        member_update(member=member, name="Anna\u200bBecker")
    assert refused.value.code == "name_invalid_character"


def test_the_admin_refuses_a_payment_of_the_year_0182(client, season, other_member):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:league_payment_add"),
        {
            "member": other_member.pk,
            "season": season.pk,
            "amount": "5.00",
            "paid_on": "0182-03-06",
            "method": "cash",
            "note": "",
        },
    )
    assert response.status_code == 200
    assert "Das Jahr 0182 liegt" in response.content.decode()
    assert not Payment.objects.exists()
