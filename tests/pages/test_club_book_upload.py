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
