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


def test_a_row_the_database_refuses_is_shown_in_german_not_as_the_database_said(
    secretary_client, season, monkeypatch
):
    """The dry run's set-based writes (COPY on PostgreSQL) end in the database's triggers:
    their refusal is shown as a German bad row, never as the database's raw message."""
    from league.club.models import Club, Member
    from league.clubbook import services

    other = Member.objects.create(club=Club.objects.create(name="Andere Runde"), name="Otto")
    create_members = services._create_members

    def with_an_outsider(batch):
        created = create_members(batch)
        batch.members["Bernd Krause"] = other
        return created

    monkeypatch.setattr(services, "_create_members", with_an_outsider)
    response = secretary_client.post(
        reverse("club_book_upload"),
        {
            "attendance": SimpleUploadedFile("a.csv", ATTENDANCE),
            "games": SimpleUploadedFile("g.csv", GAMES),
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Von der Datenbank abgelehnt: Diese Person gehört zu einem anderen Verein." in page
    assert "person_of_other_club" not in page and "CONTEXT" not in page
    assert "token" not in response.context
    assert not Evening.objects.exists()
