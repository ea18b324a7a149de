"""A club backed up, deleted and restored shows every figure as before."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from games.evenings.models import Game
from league.apps import CLUB_PARENTS
from league.backup import selectors as backup_selectors
from league.backup import services as backup_services
from league.backup.selectors import (
    club_backup,
)
from league.backup.services import (
    club_restore,
)
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.clubbook.services import club_book_import
from league.ledger.models import LedgerEntry, Payment
from league.ledger.services import payment_record
from league.management.commands import demo
from tests.league.backup.conftest import (
    assert_nothing_left,
    backup_document,
    neighbours,
    our_rows,
    sealed,
)
from tests.league.backup.figures import (
    club_figures,
    delete_club,
    differences,
    history_lines,
)
from tests.pages.demo.demo_rows import DEMO_TODAY, demo_entered

pytestmark = pytest.mark.django_db

BENCH = Path(__file__).resolve().parents[3] / "bench"


def _round_trip(
    name: str, *, every_season: bool = True, every_evening: bool = True
) -> tuple[dict, dict, bytes]:
    before = club_figures(name, every_season=every_season, every_evening=every_evening)
    rows = our_rows()
    data = club_backup(club=Club.objects.get(name=name))
    delete_club(name)
    assert_nothing_left()
    club_restore(data=data)
    assert our_rows() == rows
    after = club_figures(name, every_season=every_season, every_evening=every_evening)
    return before, after, data


# In the xdist group of the demo's tests, whose worker builds the demo once
# (tests/pages/demo/demo_rows.py): here it is copied in, in a second or two.
@pytest.mark.xdist_group("demo")
def test_the_demo_club_shows_every_figure_as_before_after_backup_and_restore():
    # The demo club alone, as `manage.py demo` builds it: its second club is deleted first,
    # so that nothing at all may be left after the demo club's deletion (a club restored
    # beside another: test_a_club_is_restored_beside_another_club).
    demo_entered(DEMO_TODAY)
    delete_club(demo.SECOND_CLUB)
    assert list(Club.objects.values_list("name", flat=True)) == [demo.CLUB]
    before, after, _data = _round_trip("Schockclub Demo")
    assert history_lines(before) > 3000
    assert differences(before, after) == []


def test_a_club_with_rounds_runden_given_reversals_and_deleted_rows_is_restored_alike(full_club):
    before, after, _data = _round_trip(full_club)
    assert len(before["runden"]) > 0 and before["logins"]
    assert differences(before, after) == []


def test_logins_keep_their_password_and_authors_stay_named_without_their_rights(full_club):
    data = club_backup(club=Club.objects.get(name=full_club))
    delete_club(full_club)
    # Another installation: the admin who recorded the payments has no login there.
    get_user_model().objects.filter(username="kassenpruefer").delete()
    club_restore(data=data)
    anna = get_user_model().objects.get(username="anna.becker")
    assert anna.check_password("schocken-123") and anna.member.name == "Anna Becker"
    # Her group "Kasse" was the sending installation's: a restore gives no group.
    assert list(anna.groups.all()) == []
    # The admin is no person of the club, but the payments' author: staff there, a plain
    # login here.
    admin = get_user_model().objects.get(username="kassenpruefer")
    assert admin.check_password("pruef-123") and not admin.is_staff
    assert Payment.objects.filter(created_by=admin).count() == 2


def test_restore_books_no_charge_and_keeps_the_data_versions(full_club):
    club = Club.objects.get(name=full_club)
    versions = dict(Season.objects.filter(club=club).values_list("year", "data_version"))
    entries = LedgerEntry.objects.count()
    data = club_backup(club=club)
    delete_club(full_club)
    club_restore(data=data)
    assert LedgerEntry.objects.count() == entries
    assert dict(Season.objects.filter(club=club).values_list("year", "data_version")) == versions


def test_after_a_restore_new_rows_get_new_numbers(full_club):
    club = Club.objects.get(name=full_club)
    data = club_backup(club=club)
    delete_club(full_club)
    club_restore(data=data)
    season = Season.objects.get(club=club)
    highest = LedgerEntry.objects.order_by("-pk").first().pk
    # A change through the one service path after the restore: the ledger writes new rows.
    payment_record(
        member=Member.objects.get(club=club, name="Anna Becker"),
        amount=Decimal("1.00"),
        paid_on=season.starts_on,
    )
    assert LedgerEntry.objects.order_by("-pk").first().pk > highest


def test_a_club_is_restored_beside_another_club(full_club):
    neighbours()
    other_before = club_figures("Nachbarclub")
    before = club_figures(full_club)
    data = club_backup(club=Club.objects.get(name=full_club))
    delete_club(full_club)
    club_restore(data=data)
    assert differences(before, club_figures(full_club)) == []
    assert differences(other_before, club_figures("Nachbarclub")) == []


def test_a_club_book_across_the_change_from_mark_to_euro_shows_every_figure_as_before(
    monkeypatch,
):
    """The seasons 2001 (DM) and 2002 (EUR) of the bench's generated club book: about 80
    evenings, a changing roster, guests, several Schock-Aus in a game. The backup reads and
    writes in chunks of 300 rows here (2,000 in production), so the games and their history
    span many chunks. Every figure of both seasons and every person is compared (standings,
    dues, report, records, balances, statements, history lines), the evenings' history for
    each season's first evening (the demo's and the sample club's round trips compare it for
    every evening). The 48 seasons of the whole book, with the real chunk size, go through
    the same round trip and comparison in bench/bench_backup.py."""
    monkeypatch.syspath_prepend(str(BENCH))  # bench scripts import their helper `support`
    from bench_import import CLUB, club_book

    monkeypatch.setattr(backup_selectors, "CHUNK_ROWS", 300)
    monkeypatch.setattr(backup_services, "CHUNK_ROWS", 300)
    years = ("2001", "2002")
    attendance, games, _figures = club_book()
    result = club_book_import(
        club_name=CLUB, attendance=_years_of(attendance, years), games=_years_of(games, years)
    )
    assert result.ok, result.errors[:5]
    club = Club.objects.get(name=CLUB)
    assert sorted(Season.objects.filter(club=club).values_list("year", "currency")) == [
        (2001, "DM"),
        (2002, "EUR"),
    ]
    assert Game.objects.filter(evening__club=club).count() > 5 * 300
    before, after, _data = _round_trip(CLUB, every_evening=False)
    assert differences(before, after) == []


def _years_of(book: bytes, years: tuple[str, ...]) -> bytes:
    """The header and the lines of `years` of a club book CSV (each line starts with its
    ISO date)."""
    header, *lines = book.decode("utf-8").splitlines(keepends=True)
    return (header + "".join(line for line in lines if line.startswith(years))).encode("utf-8")


def test_every_club_owned_row_of_the_file_carries_its_club(full_club):
    club = Club.objects.get(name=full_club)
    tables = backup_document(club_backup(club=club))["tables"]
    written = [label for label in CLUB_PARENTS if tables.get(label)]
    # Every table with a parent that the full club has rows of (no sign-off: no closed
    # season; report builds and push subscriptions are not backed up).
    assert len(written) == 10, written
    for label in written:
        assert {row["fields"]["club"] for row in tables[label]} == {club.pk}, label


def test_a_backup_written_before_the_club_column_is_restored_with_the_club_derived(full_club):
    club = Club.objects.get(name=full_club)
    before = club_figures(full_club)
    rows = our_rows()
    document = backup_document(club_backup(club=club))
    # The file as a Schockclub before the club column wrote it: its club-owned rows (and
    # their history records) without `club`, its migrations without the two that added it.
    stripped = 0
    for label, table_rows in document["tables"].items():
        model = apps.get_model(label)
        live = getattr(model, "instance_type", model)._meta.label
        if live in CLUB_PARENTS:
            for row in table_rows:
                del row["fields"]["club"]
                stripped += 1
    for app, name in backup_services.CLUB_COLUMN_MIGRATIONS.items():
        document["migrations"][app].remove(name)
    assert stripped > 100
    delete_club(full_club)
    club_restore(data=sealed(document))
    assert our_rows() == rows
    assert differences(before, club_figures(full_club)) == []
    for label in CLUB_PARENTS:
        assert set(apps.get_model(label).objects.values_list("club_id", flat=True)) <= {club.pk}
    assert set(Game.history.values_list("club_id", flat=True)) == {club.pk}


def test_a_backup_of_other_migrations_than_just_before_the_club_column_is_still_refused(
    full_club,
):
    document = backup_document(club_backup(club=Club.objects.get(name=full_club)))
    document["migrations"]["games"].remove(backup_services.CLUB_COLUMN_MIGRATIONS["games"])
    delete_club(full_club)
    with pytest.raises(BooksError) as refused:
        club_restore(data=sealed(document))
    assert refused.value.code == "backup_schema"
