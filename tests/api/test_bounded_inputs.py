"""Every input bounded to what the club means, in the API: dates are ASCII ISO dates from
1900 to next year (`invalid_date`, `date_out_of_range`), names hold no control or format
character (`name_invalid_character`), and seasons of a club never share a day
(`season_overlaps`, 409); each refusal is a 400 or 409 with its German message, nothing
saved."""

import pytest
from django.utils import timezone

from games.evenings.models import Evening
from league.club.models import Member, Season
from league.ledger.models import Payment
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

NOT_ISO_DATES = [
    "２０２６-10-16",  # full-width digits
    "٢٠٢٦-10-16",  # Arabic-Indic digits
    "2026-1０-16",
    "16.10.2026",
    "2026-10-16T00:00",
    " 2026-10-16",
    "20261016",
    "2026-02-30",
    "",
]
OUT_OF_RANGE = ["0182-05-01", "1899-12-31", "9999-12-31"]
BAD_NAMES = [
    "Anna\u200bBecker",  # zero-width space (Cf)
    "Anna \u202eBecker",  # right-to-left override (Cf)
    "\ufeffAnna",  # byte order mark (Cf)
    "Anna\u00adBecker",  # soft hyphen (Cf)
    "Anna\x00",  # NUL (Cc)
    "Anna\tBecker",  # tab (Cc)
    "Anna\nBecker",  # line feed (Cc)
    "Anna\u2028Becker",  # line separator (Zl)
    "Anna\u2029Becker",  # paragraph separator (Zp)
    "Anna\ue000",  # private use (Co)
    "Anna\u0378",  # unassigned (Cn)
]


def _pay(cast, **body):
    body = {"member": cast.member.pk, "amount": "15.50", "paid_on": "2026-10-16", **body}
    return client_for(cast, "secretary").post("/api/v1/payments/", body, format="json")


@pytest.mark.parametrize("text", NOT_ISO_DATES)
def test_a_payment_date_not_in_ascii_iso_form_is_invalid_date(cast, text):
    response = _pay(cast, paid_on=text)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("invalid_date", "paid_on")
    assert not Payment.objects.exists()


@pytest.mark.parametrize("text", OUT_OF_RANGE)
def test_a_payment_date_before_1900_or_after_next_year_is_out_of_range(cast, text):
    response = _pay(cast, paid_on=text)
    assert (response.status_code, response.json()["code"]) == (400, "date_out_of_range")
    assert "liegt" in response.json()["message"]  # German
    assert not Payment.objects.exists()


def test_a_payment_date_of_the_year_after_next_is_out_of_range(cast):
    year = timezone.localdate().year + 2
    response = _pay(cast, paid_on=f"{year}-01-01")
    assert (response.status_code, response.json()["code"]) == (400, "date_out_of_range")


def test_an_evening_date_in_full_width_digits_is_refused(cast, api):
    body = {"date": "２０２６-10-23", "present_members": [cast.secretary.pk, cast.member.pk]}
    response = api("secretary").post("/api/v1/evenings/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_date")
    assert Evening.objects.filter(club=cast.club).count() == 1


def test_a_date_filter_of_year_0182_is_refused(cast, api):
    response = api("secretary").get("/api/v1/payments/?paid_from=0182-01-01")
    assert response.status_code == 400
    response = api("secretary").get("/api/v1/evenings/?date_to=２０２６-01-01")
    assert response.status_code == 400


def test_a_runde_given_date_of_year_0182_is_refused(cast, api):
    schock_aus = cast.games[1].schock_aus.first()
    response = api("secretary").post(
        f"/api/v1/runden/{schock_aus.pk}/given/", {"given_on": "0182-10-09"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "date_out_of_range")


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_person_name_with_a_control_or_format_character_is_refused(cast, api, name):
    response = api("secretary").post("/api/v1/members/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "name_invalid_character"
    assert not Member.objects.filter(name__startswith="Anna", club=cast.club).exclude(
        pk=cast.member.pk
    )


def test_a_new_guest_name_of_an_evening_with_a_format_character_is_refused(cast, api):
    body = {
        "date": "2026-10-23",
        "present_members": [cast.secretary.pk, cast.member.pk],
        "new_guests": ["Hugo\u200d"],
    }
    response = api("secretary").post("/api/v1/evenings/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "name_invalid_character")
    assert not Member.objects.filter(name__startswith="Hugo").exists()


def test_a_name_longer_than_100_characters_is_name_too_long(cast, api):
    response = api("secretary").post("/api/v1/members/", {"name": "A" * 101}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "name_too_long")


def test_a_season_of_year_one_to_9999_is_refused(cast, api):
    body = {"year": 2027, "starts_on": "0001-01-01", "ends_on": "9999-12-31"}
    response = api("secretary").post("/api/v1/seasons/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "date_out_of_range")
    assert not Season.objects.filter(club=cast.club, year=2027).exists()


def test_a_season_overlapping_another_of_the_club_is_refused(cast, api):
    body = {"year": 2027, "starts_on": "2026-12-01", "ends_on": "2027-11-30"}
    response = api("secretary").post("/api/v1/seasons/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "season_overlaps")
    assert "2026" in response.json()["message"]
    assert not Season.objects.filter(club=cast.club, year=2027).exists()
