"""The club-book upload page refuses a file over the upload limit, as the API does."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.evenings.models import Evening

pytestmark = pytest.mark.django_db

ATTENDANCE = b"date,name,role\r\n2026-10-23,Bernd Krause,secretary\r\n"
GAMES = b"date,number,loser,schock_aus\r\n2026-10-23,1,Bernd Krause,\r\n"


def test_a_file_over_the_upload_limit_is_refused_on_the_page(secretary_client, season, monkeypatch):
    monkeypatch.setattr("league.clubbook.views.MAX_UPLOAD_BYTES", len(ATTENDANCE) - 1)
    response = secretary_client.post(
        reverse("club_book_upload"),
        {
            "attendance": SimpleUploadedFile("a.csv", ATTENDANCE),
            "games": SimpleUploadedFile("g.csv", GAMES),
        },
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "Eine Datei ist zu groß (höchstens 20 MB)."
    ]
    assert "token" not in response.context
    assert not Evening.objects.exists()


@pytest.mark.parametrize(
    "attendance,games,reason",
    [
        (ATTENDANCE, GAMES.replace(b",1,", b",3000000000,"), "ist größer als 2147483647"),
        (ATTENDANCE.replace(b"Bernd Krause", b"B" * 101), GAMES, "länger als 100 Zeichen"),
        (ATTENDANCE.replace(b"2026", b"1850"), GAMES, "Das Jahr 1850 liegt außerhalb"),
        (ATTENDANCE.replace(b"Bernd", b"Bernd\x00"), GAMES, "Steuerzeichen"),
    ],
    ids=["game number 3000000000", "name over 100 characters", "year 1850", "NUL byte"],
)
def test_a_hostile_row_is_shown_in_german_and_nothing_is_imported(
    secretary_client, season, attendance, games, reason
):
    response = secretary_client.post(
        reverse("club_book_upload"),
        {
            "attendance": SimpleUploadedFile("a.csv", attendance),
            "games": SimpleUploadedFile("g.csv", games),
        },
    )
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert "token" not in response.context
    assert not Evening.objects.exists()
