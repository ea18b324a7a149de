"""A restore that cannot be done is refused with a clear German message, and nothing is
written."""

import gzip

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import translation

from league.backup.selectors import (
    club_backup,
)
from league.backup.services import (
    club_restore,
)
from league.club.errors import BooksError
from league.club.models import Club
from tests.league.backup.conftest import backup_document, our_rows, sealed
from tests.league.backup.figures import delete_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def backup(full_club):
    """(club name, backup bytes) of the full club, still in the database."""
    return full_club, club_backup(club=Club.objects.get(name=full_club))


def _refused(data: bytes) -> BooksError:
    rows, users = our_rows(), get_user_model().objects.count()
    with translation.override("de"), pytest.raises(BooksError) as refused:
        club_restore(data=data)
    assert our_rows() == rows
    assert get_user_model().objects.count() == users
    return refused.value


def _document(data: bytes) -> dict:
    return backup_document(data)


def _file(document: dict) -> bytes:
    # The digest taken anew, so that each change meets the check written for it (an edit
    # under the old digest: test_restore_trust.py).
    return sealed(document)


def test_a_club_that_exists_is_refused_by_name(backup):
    name, data = backup
    refused = _refused(data)
    assert (refused.code, refused.status) == ("backup_club_exists", 409)
    assert refused.message == f"Verein '{name}' existiert schon."


def test_a_login_that_exists_is_refused_by_name(backup):
    name, data = backup
    delete_club(name)
    get_user_model().objects.create_user("anna.becker", password="anders-123")
    refused = _refused(data)
    assert refused.code == "backup_login_exists"
    assert refused.message == "Benutzer 'anna.becker' existiert schon."


def test_a_row_number_taken_by_another_club_is_refused_and_named(backup):
    name, data = backup
    delete_club(name)
    # Another club took the number the backup's club had (a database the club never was in).
    Club.objects.create(pk=_document(data)["club"]["id"], name="Nachbarclub")
    refused = _refused(data)
    assert refused.code == "backup_row_exists"
    assert refused.message.startswith("league.Club Nr. ")
    assert Club.objects.filter(name=name).count() == 0


def test_a_file_of_another_format_is_refused(backup):
    name, data = backup
    delete_club(name)
    document = _document(data)
    document["format"] = "other-backup"
    assert _refused(_file(document)).message == "Diese Datei ist keine Schockclub-Sicherung."
    assert _refused(gzip.compress(b"[1, 2, 3]")).code == "backup_format"


def test_a_file_of_another_version_is_refused(backup):
    name, data = backup
    delete_club(name)
    document = _document(data)
    document["version"] = 3
    refused = _refused(_file(document))
    assert refused.code == "backup_version"
    assert "Version 3" in refused.message


def test_a_backup_of_other_migrations_is_refused(backup):
    name, data = backup
    delete_club(name)
    document = _document(data)
    document["migrations"]["games"].append("9999_from_the_future")
    refused = _refused(_file(document))
    assert refused.code == "backup_schema"
    assert "9999_from_the_future" in refused.message


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="cut off"),
        pytest.param(
            lambda data: data[:100] + bytes([data[100] ^ 0xFF]) + data[101:], id="bit flipped"
        ),
        pytest.param(lambda data: b"not a backup at all", id="not gzip"),
        pytest.param(lambda data: gzip.compress(b"{not json"), id="not json"),
        pytest.param(lambda data: gzip.compress(b"\xff\xfe"), id="not utf-8"),
    ],
)
def test_a_damaged_file_is_refused(backup, damage):
    name, data = backup
    delete_club(name)
    assert _refused(damage(data)).code == "backup_damaged"


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda d: d["tables"].pop("games.Game"), id="table missing"),
        pytest.param(
            lambda d: d["tables"]["games.Game"].append({"model": "x"}), id="row unreadable"
        ),
        pytest.param(
            lambda d: d["tables"]["games.Game"][0]["fields"].update(number="eins"), id="bad value"
        ),
        pytest.param(
            lambda d: d["tables"]["games.Game"][0]["fields"].update(loser=10**6),
            id="loser unknown",
        ),
        pytest.param(
            lambda d: d["tables"]["games.Evening"][0]["fields"].update(club=10**6),
            id="row of another club",
        ),
        pytest.param(
            lambda d: d["tables"]["league.Payment"][0]["fields"].update(member=10**6),
            id="payment of a person of another club",
        ),
        pytest.param(
            lambda d: d["users"].append({"model": "league.club", "pk": 9, "fields": {}}),
            id="another table among the logins",
        ),
        pytest.param(lambda d: d["migrations"].update(games=7), id="migrations unreadable"),
        pytest.param(lambda d: d["tables"]["league.Club"].clear(), id="no club"),
    ],
)
def test_a_file_changed_by_hand_is_refused_and_nothing_is_written(backup, change):
    name, data = backup
    delete_club(name)
    document = _document(data)
    change(document)
    assert _refused(_file(document)).code == "backup_damaged"


def test_the_commands_write_and_restore_a_club_file(backup, tmp_path):
    name, _data = backup
    path = tmp_path / "club.json.gz"
    call_command("club_backup", name, str(path), stdout=open("/dev/null", "w"))
    assert _document(path.read_bytes())["club"]["name"] == name
    delete_club(name)
    call_command("club_restore", str(path), stdout=open("/dev/null", "w"))
    assert Club.objects.filter(name=name).exists()


def test_the_restore_command_names_the_conflict(backup, tmp_path):
    name, data = backup
    path = tmp_path / "club.json.gz"
    path.write_bytes(data)
    with translation.override("de"), pytest.raises(CommandError) as refused:
        call_command("club_restore", str(path))
    assert str(refused.value) == (
        f"Verein '{name}' existiert schon. Nichts wurde wiederhergestellt."
    )


def test_the_backup_command_refuses_an_unknown_club(db, tmp_path):
    with pytest.raises(CommandError):
        call_command("club_backup", "Gibt es nicht", str(tmp_path / "x.json.gz"))
    assert not (tmp_path / "x.json.gz").exists()
