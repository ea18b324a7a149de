"""What a restore trusts of a file: no right over the installation, no login that no row
names, no books that the records do not imply, no header that is not the file's, no edit
under an old digest; and it ends with ANALYZE of what it wrote."""

import gzip
import json
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from league.backup.selectors import (
    club_backup,
)
from league.backup.services import (
    club_restore,
)
from league.backup.tables import CLUB_TABLES
from league.closing.services import season_close
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.ledger.services import payment_record
from tests.league.backup.conftest import backup_document, our_rows, sealed
from tests.league.backup.figures import delete_club

pytestmark = pytest.mark.django_db


def _backup_and_delete(name: str) -> dict:
    """The club's backup as a document; the club deleted, ready to be restored."""
    document = backup_document(club_backup(club=Club.objects.get(name=name)))
    delete_club(name)
    return document


def _refused(data: bytes) -> BooksError:
    rows, users = our_rows(), get_user_model().objects.count()
    with translation.override("de"), pytest.raises(BooksError) as refused:
        club_restore(data=data)
    assert our_rows() == rows
    assert get_user_model().objects.count() == users
    return refused.value


def _user_row(document: dict, username: str) -> dict:
    return next(row for row in document["users"] if row["fields"]["username"] == username)


def _rows(document: dict, label: str) -> list[dict]:
    return document["tables"][label]


def _unsealed(document: dict) -> bytes:
    """A backup file of `document` as it stands: its digest (if any) not taken anew."""
    return gzip.compress(json.dumps(document, ensure_ascii=False).encode("utf-8"))


def _recount(document: dict) -> dict:
    """The header's counts made right again after rows were taken out."""
    document["counts"] = {label: len(rows) for label, rows in document["tables"].items()}
    return document


# --- logins ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rights",
    [
        pytest.param({"is_superuser": True}, id="superuser"),
        pytest.param({"is_staff": True}, id="staff"),
        pytest.param({"groups": [["Kasse"]]}, id="groups"),
        pytest.param({"user_permissions": [["view_payment", "league", "payment"]]}, id="perms"),
    ],
)
def test_rights_over_the_installation_in_a_file_are_never_given(full_club, rights):
    document = _backup_and_delete(full_club)
    _user_row(document, "anna.becker")["fields"].update(rights)
    result = club_restore(data=sealed(document))
    anna = get_user_model().objects.get(username="anna.becker")
    assert (anna.is_superuser, anna.is_staff) == (False, False)
    assert list(anna.groups.all()) == [] and list(anna.user_permissions.all()) == []
    assert anna.check_password("schocken-123")
    assert "anna.becker" in result.rights_dropped


def test_a_version_1_file_with_staff_groups_and_their_group_list_gives_none_of_them(full_club):
    # What club_backup wrote before: the author's staff flag, the login's group by name and
    # a list of groups with their permissions.
    document = _backup_and_delete(full_club)
    # Another installation: neither the group nor the author's login exists there.
    Group.objects.filter(name="Kasse").delete()
    get_user_model().objects.filter(username="kassenpruefer").delete()
    document["version"] = 1
    del document["digest"]
    _user_row(document, "kassenpruefer")["fields"]["is_staff"] = True
    _user_row(document, "anna.becker")["fields"]["groups"] = [["Kasse"]]
    document["groups"] = [
        {
            "model": "auth.group",
            "fields": {"name": "Kasse", "permissions": [["view_payment", "league", "payment"]]},
        }
    ]
    result = club_restore(data=_unsealed(document))
    assert not Group.objects.filter(name="Kasse").exists()
    assert not get_user_model().objects.get(username="kassenpruefer").is_staff
    assert sorted(result.rights_dropped) == ["anna.becker", "kassenpruefer"]


def test_a_login_that_no_row_of_the_club_names_is_refused_and_not_created(full_club):
    document = _backup_and_delete(full_club)
    document["users"].append(
        {
            "model": "auth.user",
            "pk": 10**6,
            "fields": {"username": "root", "password": "!", "is_superuser": True},
        }
    )
    refused = _refused(sealed(document))
    assert refused.code == "backup_login_unreferenced"
    assert "'root'" in refused.message
    assert not get_user_model().objects.filter(username="root").exists()


def test_the_restore_command_names_the_logins_whose_rights_it_did_not_give(full_club, tmp_path):
    document = _backup_and_delete(full_club)
    _user_row(document, "anna.becker")["fields"]["is_superuser"] = True
    path = tmp_path / "club.json.gz"
    path.write_bytes(sealed(document))
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        call_command("club_restore", str(path), stdout=stdout)
    assert "not given (superuser, staff, groups, permissions): anna.becker" in out.read_text()


# --- the books recomputed ------------------------------------------------------------------


def test_a_payment_amount_changed_without_its_ledger_line_is_refused(full_club):
    document = _backup_and_delete(full_club)
    payment = _rows(document, "league.Payment")[-1]
    payment["fields"]["amount"] = "75.00"
    refused = _refused(sealed(document))
    assert refused.code == "backup_books_differ"
    assert f"Zahlung {payment['pk']} " in refused.message


def test_a_charge_amount_changed_in_the_ledger_is_refused(full_club):
    document = _backup_and_delete(full_club)
    lines = _rows(document, "league.LedgerEntry")
    reversed_pks = {row["fields"]["reverses"] for row in lines}
    charge = next(
        row
        for row in lines
        if row["fields"]["kind"] == "game_lost" and row["pk"] not in reversed_pks
    )
    charge["fields"]["amount"] = "0.60"
    refused = _refused(sealed(document))
    assert refused.code == "backup_books_differ"
    assert f"Buchung {charge['pk']} ({charge['fields']['source_key']})" in refused.message


def test_a_payment_line_amount_changed_in_the_ledger_is_refused(full_club):
    document = _backup_and_delete(full_club)
    line = next(
        row for row in _rows(document, "league.LedgerEntry") if row["fields"]["kind"] == "payment"
    )
    line["fields"]["amount"] = "-1.00"
    refused = _refused(sealed(document))
    assert refused.code == "backup_books_differ"
    assert f"Buchung {line['pk']}" in refused.message


def test_a_game_loser_changed_without_its_charge_is_refused(full_club):
    document = _backup_and_delete(full_club)
    charges = {
        row["fields"]["game_id_ref"]: row
        for row in _rows(document, "league.LedgerEntry")
        if row["fields"]["kind"] == "game_lost"
    }
    game = next(row for row in _rows(document, "games.Game") if row["pk"] in charges)
    game["fields"]["loser"] = next(
        row["fields"]["member"]
        for row in _rows(document, "games.Attendance")
        if row["fields"]["evening"] == game["fields"]["evening"]
        and row["fields"]["role"] != "absent"
        and row["fields"]["member"] != game["fields"]["loser"]
    )
    refused = _refused(sealed(document))
    assert refused.code == "backup_books_differ"
    assert f"game:{game['pk']}" in refused.message


def test_a_payment_and_its_ledger_line_cut_out_of_the_file_are_refused(full_club):
    club = Club.objects.get(name=full_club)
    anna = Member.objects.get(club=club, name="Anna Becker")
    payment = payment_record(
        member=anna, amount=Decimal("3.00"), paid_on=Season.objects.get(club=club).starts_on
    )
    document = _backup_and_delete(full_club)
    payments = _rows(document, "league.Payment")
    payments.remove(next(row for row in payments if row["pk"] == payment.pk))
    lines = _rows(document, "league.LedgerEntry")
    lines.remove(next(row for row in lines if row["fields"]["payment"] == payment.pk))
    refused = _refused(sealed(_recount(document)))
    assert refused.code == "backup_books_differ"
    assert f"league.Payment Nr. {payment.pk}" in refused.message


def test_a_carry_over_changed_in_a_closed_season_is_refused(full_club):
    club = Club.objects.get(name=full_club)
    season_close(
        season=Season.objects.get(club=club),
        by=Member.objects.get(club=club, is_secretary=True),
        confirm=True,
    )
    document = _backup_and_delete(full_club)
    carry = next(
        row for row in _rows(document, "league.LedgerEntry") if row["fields"]["kind"] == "carry_out"
    )
    carry["fields"]["amount"] = str(Decimal(carry["fields"]["amount"]) - Decimal("1.00"))
    refused = _refused(sealed(document))
    assert refused.code == "backup_books_differ"


def test_a_wrong_row_count_in_the_header_is_refused_naming_the_table(full_club):
    document = _backup_and_delete(full_club)
    document["counts"]["games.Game"] += 1
    refused = _refused(sealed(document))
    assert refused.code == "backup_counts"
    assert "games.Game" in refused.message


def test_the_restore_command_names_the_first_difference_and_writes_nothing(full_club, tmp_path):
    document = _backup_and_delete(full_club)
    payment = _rows(document, "league.Payment")[-1]
    payment["fields"]["amount"] = "75.00"
    path = tmp_path / "club.json.gz"
    path.write_bytes(sealed(document))
    with translation.override("de"), pytest.raises(CommandError) as refused:
        call_command("club_restore", str(path))
    assert f"Zahlung {payment['pk']} " in str(refused.value)
    assert str(refused.value).endswith("Nichts wurde wiederhergestellt.")
    assert not Club.objects.filter(name=full_club).exists()


# --- digest and version --------------------------------------------------------------------


def test_an_edit_under_the_old_digest_is_told_from_a_file_of_another_version(full_club):
    document = _backup_and_delete(full_club)
    edited = {**document, "tables": {**document["tables"]}}
    edited["tables"]["games.Evening"] = [
        {**row, "fields": {**row["fields"], "notes": "Im Garten gespielt."}}
        for row in document["tables"]["games.Evening"]
    ]
    refused = _refused(_unsealed(edited))
    assert refused.code == "backup_digest"
    assert "beschädigt oder wurde bearbeitet" in refused.message
    assert _refused(_unsealed({**document, "version": 3})).code == "backup_version"


def test_a_version_2_file_without_its_digest_is_refused_as_damaged_or_edited(full_club):
    document = _backup_and_delete(full_club)
    del document["digest"]
    assert _refused(_unsealed(document)).code == "backup_digest"


def test_a_version_1_file_without_a_digest_is_restored_and_says_no_digest_was_checked(full_club):
    document = _backup_and_delete(full_club)
    document["version"] = 1
    del document["digest"]
    result = club_restore(data=_unsealed(document))
    assert result.digest_checked is False
    assert Club.objects.filter(name=full_club).exists()


def test_a_version_1_file_is_still_checked_against_its_books(full_club):
    document = _backup_and_delete(full_club)
    document["version"] = 1
    del document["digest"]
    _rows(document, "league.Payment")[-1]["fields"]["amount"] = "75.00"
    assert _refused(_unsealed(document)).code == "backup_books_differ"


# --- ANALYZE -------------------------------------------------------------------------------


def test_a_restore_analyzes_every_table_it_wrote(full_club):
    document = _backup_and_delete(full_club)
    with CaptureQueriesContext(connection) as queries:
        club_restore(data=sealed(document))
    analyzed = " ".join(q["sql"] for q in queries if q["sql"].upper().startswith("ANALYZE"))
    for table in CLUB_TABLES:
        assert table.model._meta.db_table in analyzed
        if table.history:
            assert table.history_model._meta.db_table in analyzed
    assert get_user_model()._meta.db_table in analyzed
