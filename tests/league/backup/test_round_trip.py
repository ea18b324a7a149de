"""A club backed up, deleted and restored shows every figure as before (issue 13 item 6)."""

import time
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from league.backup.services import club_backup, club_restore
from league.club.models import Club, Member, Season
from league.ledger.models import LedgerEntry, Payment
from league.ledger.services import payment_record
from tests.league.backup.conftest import assert_nothing_left, neighbours, our_rows
from tests.league.backup.figures import (
    TODAY,
    club_figures,
    delete_club,
    differences,
    history_lines,
)

pytestmark = pytest.mark.django_db


def _round_trip(name: str, *, every_season: bool = True) -> tuple[dict, dict, bytes]:
    before = club_figures(name, every_season=every_season)
    rows = our_rows()
    data = club_backup(club=Club.objects.get(name=name))
    delete_club(name)
    assert_nothing_left()
    club_restore(data=data)
    assert our_rows() == rows
    return before, club_figures(name, every_season=every_season), data


def test_the_demo_club_shows_every_figure_as_before_after_backup_and_restore():
    call_command("demo", today=TODAY, stdout=open("/dev/null", "w"))
    before, after, _data = _round_trip("Schockclub Demo")
    assert history_lines(before) > 3000
    assert differences(before, after) == []


def test_a_club_with_rounds_runden_given_reversals_and_deleted_rows_is_restored_alike(full_club):
    before, after, _data = _round_trip(full_club)
    assert len(before["runden"]) > 0 and before["logins"]
    assert differences(before, after) == []


def test_logins_keep_their_password_group_and_authors_stay_named(full_club):
    _round_trip(full_club)
    anna = get_user_model().objects.get(username="anna.becker")
    assert anna.check_password("schocken-123") and anna.member.name == "Anna Becker"
    assert list(anna.groups.values_list("name", "permissions__codename")) == [
        ("Kasse", "view_payment")
    ]
    # The admin who recorded the payment is no person of the club, but its author.
    admin = get_user_model().objects.get(username="kassenpruefer")
    assert admin.check_password("pruef-123") and admin.is_staff
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


def test_the_48_season_bench_club_shows_every_figure_as_before(capsys):
    from bench.bench_backup import import_bench_club

    start = time.perf_counter()
    name = import_bench_club()
    imported = time.perf_counter()
    before, after, data = _round_trip(name, every_season=False)
    with capsys.disabled():
        print(
            f"\n48-season club: import {imported - start:.1f} s; {len(data):,} bytes; backup, "
            f"delete, restore and figures {time.perf_counter() - imported:.1f} s"
        )
    assert len(before) > 48
    assert differences(before, after) == []
