"""Season close: the lock, reopening, the carry-over, the fingerprint
and the Kassenprüfer's signature."""

import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from games.evenings.models import SchockAus
from games.evenings.services import evening_create, game_record
from league.closing.models import SeasonSignOff
from league.closing.selectors import (
    BROKEN,
    VALID,
    carry_amount,
    season_fingerprint,
    season_member_balances,
    season_open_items,
    signature_state,
)
from league.closing.services import (
    season_close,
    season_reopen,
    season_sign_off,
)
from league.club.errors import BooksError
from league.club.models import Club, Season
from league.club.services import member_create, member_login_set, season_create, season_update
from league.clubbook.services import club_book_import
from league.ledger.models import LedgerEntry
from league.ledger.selectors import (
    member_statement,
    reversal_reason_label,
)
from league.ledger.services import (
    payment_record,
)
from league.runden.services import runde_mark_given
from tests.conftest import SAMPLES
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 10, 9)


def _close(books, **kwargs):
    return season_close(season=books.season, by=books.secretary, confirm=True, **kwargs)


# --------------------------------------------------------------------------- writers


def _game(books):
    game_record(evening=books.evening, loser=books.people["Anna Becker"])


def _evening(books):
    evening_create(
        club=books.club,
        date=datetime.date(2026, 10, 16),
        secretary=books.secretary,
        present_members=[books.secretary, books.auditor],
    )


def _payment(books):
    payment_record(member=books.auditor, amount=Decimal("1.00"), paid_on=DAY)


def _runde_given(books):
    first = (
        SchockAus.objects.filter(game__evening=books.evening)
        .order_by("game__number", "position")
        .first()
    )
    runde_mark_given(schock_aus=first, given_on=DAY)


def _mark_value(books):
    season_update(season=books.season, mark_value=Decimal("1.00"))


def _import(books):
    attendance = (SAMPLES / "club-book-attendance.csv").read_bytes()
    games = (SAMPLES / "club-book-games.csv").read_bytes()
    result = club_book_import(
        club_name=books.club.name,
        attendance=attendance
        + b"2026-10-16,Anna Becker,secretary\r\n2026-10-16,Bernd Krause,member\r\n",
        games=games + b"2026-10-16,1,Bernd Krause,\r\n",
    )
    assert not result.errors, result.errors


WRITERS = {
    "game": _game,
    "evening": _evening,
    "payment": _payment,
    "runde_given": _runde_given,
    "mark_value": _mark_value,
    "club_book_import": _import,
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_closed_season_refuses_every_writer_until_reopened(books, writer):
    _close(books)
    version = Season.objects.get(pk=books.season.pk).data_version
    entries = LedgerEntry.objects.count()
    with pytest.raises(BooksError) as refused:
        WRITERS[writer](books)
    assert refused.value.code == "season_closed"
    assert refused.value.status == 409
    assert "abgeschlossen" in refused.value.message
    assert Season.objects.get(pk=books.season.pk).data_version == version
    assert LedgerEntry.objects.count() == entries

    season_reopen(season=books.season, by=books.secretary, reason="Spiel nachgetragen")
    WRITERS[writer](books)
    assert Season.objects.get(pk=books.season.pk).data_version > version


def test_closing_with_incomplete_evenings_or_open_runden_needs_confirmation(books):
    items = season_open_items(season=books.season)
    assert items.runden_open  # the sample's Runden were never given
    with pytest.raises(BooksError) as refused:
        season_close(season=books.season, by=books.secretary)
    assert refused.value.code == "open_items"
    assert Season.objects.get(pk=books.season.pk).closed_at is None


def test_an_evening_with_games_missing_is_listed_as_incomplete(books):
    evening_create(
        club=books.club,
        date=datetime.date(2026, 10, 16),
        secretary=books.secretary,
        present_members=[books.secretary, books.auditor],
    )
    items = season_open_items(season=books.season)
    assert [(e.date, e.games_entered, e.games_expected) for e in items.incomplete_evenings] == [
        (datetime.date(2026, 10, 16), 0, 10)
    ]


def test_closing_twice_is_refused(books):
    _close(books)
    with pytest.raises(BooksError) as refused:
        _close(books)
    assert refused.value.code == "season_already_closed"


def test_reopening_needs_a_reason_and_is_in_the_audit_history(books):
    _close(books)
    for reason, code in (
        ("", "reason_required"),
        ("   ", "reason_required"),
        ("x" * 101, "reason_too_long"),
    ):
        with pytest.raises(BooksError) as refused:
            season_reopen(season=books.season, by=books.secretary, reason=reason)
        assert refused.value.code == code
    assert Season.objects.get(pk=books.season.pk).closed_at is not None

    season_reopen(season=books.season, by=books.secretary, reason="Zahlung von Anna fehlte")
    record = books.season.history.order_by("-history_id").first()
    assert record.closed_at is None
    assert record.history_change_reason == "Zahlung von Anna fehlte"
    assert record.history_user == books.secretary.user
    closing = record.prev_record
    assert closing.closed_at is not None and closing.history_change_reason == "season_closed"
    assert reversal_reason_label(closing.history_change_reason) == "Saison abgeschlossen"


def test_reopening_an_open_season_is_refused(books):
    with pytest.raises(BooksError) as refused:
        season_reopen(season=books.season, by=books.secretary, reason="warum")
    assert refused.value.code == "season_not_closed"


# --------------------------------------------------------------------------- carry-over


def _standing(kind, **filters):
    return LedgerEntry.objects.filter(kind=kind, reversed_by__isnull=True, **filters)


def test_open_balances_are_carried_into_the_next_season_once(books):
    anna = books.auditor
    payment_record(member=anna, amount=Decimal("0.50"), paid_on=DAY)
    owed = {b.member.pk: b.balance for b in season_member_balances(season=books.season)}
    assert owed[anna.pk] > 0

    _close(books)
    following = Season.objects.get(club=books.club, year=2027)
    for _round in range(2):  # close -> reopen -> close books it once
        season_reopen(season=books.season, by=books.secretary, reason="nochmal")
        _close(books)

    carried_in = {
        e.member_id: e.amount for e in _standing(LedgerEntry.Kind.CARRY_IN, season=following)
    }
    assert carried_in == {pk: amount for pk, amount in owed.items() if amount}
    # The closed season's balances are zero, the next season's statement opens with them.
    for b in season_member_balances(season=books.season):
        total = sum(
            e.amount for e in LedgerEntry.objects.filter(season=books.season, member=b.member)
        )
        assert total == 0
    account = member_statement(member=anna, season=following).seasons[0]
    assert account.balance == owed[anna.pk]
    labels = [line.label for line in account.lines]
    assert labels.count("Übertrag aus Saison 2026") == 3  # three closes
    assert labels.count("Storno: Übertrag aus Saison 2026 (Saison wieder geöffnet)") == 2


def test_reopening_reverses_the_carry_in_both_seasons(books):
    _close(books)
    following = Season.objects.get(club=books.club, year=2027)
    season_reopen(season=books.season, by=books.secretary, reason="Korrektur")
    assert not _standing(LedgerEntry.Kind.CARRY_IN, season=following).exists()
    assert not _standing(LedgerEntry.Kind.CARRY_OUT, season=books.season).exists()
    assert sum(e.amount for e in LedgerEntry.objects.filter(season=following)) == 0


def test_a_closed_next_season_refuses_the_carry(books):
    _close(books)
    following = Season.objects.get(club=books.club, year=2027)
    season_close(season=following, by=books.secretary, confirm=True)
    with pytest.raises(BooksError) as refused:
        season_reopen(season=books.season, by=books.secretary, reason="Korrektur")
    assert refused.value.code == "next_season_closed"
    assert Season.objects.get(pk=books.season.pk).closed_at is not None


def test_a_dm_balance_is_carried_into_the_euro_season_at_the_fixed_rate():
    club = Club.objects.create(name="Altclub")
    secretary = member_create(club=club, name="Bernd", is_secretary=True)
    anna = member_create(club=club, name="Anna")
    season_2001 = season_create(club=club, year=2001)
    evening = evening_create(
        club=club,
        date=datetime.date(2001, 12, 7),
        secretary=secretary,
        present_members=[secretary, anna],
    )
    for _number in range(7):
        game_record(evening=evening, loser=anna)
    owed_dm = {b.member.pk: b.balance for b in season_member_balances(season=season_2001)}
    assert owed_dm[anna.pk] == Decimal("7.00")

    season_close(season=season_2001, by=secretary, confirm=True)
    season_2002 = Season.objects.get(club=club, year=2002)
    assert season_2002.currency == "EUR"
    line = _standing(LedgerEntry.Kind.CARRY_IN, season=season_2002, member=anna).get()
    assert line.amount == Decimal("3.58")  # 7.00 DM / 1.95583 = 3.579 EUR
    assert line.currency == "EUR"
    label = member_statement(member=anna, season=season_2002).seasons[0].lines[0].label
    assert label == "Übertrag aus Saison 2001 (7,00\u00a0DM umgerechnet zu 1,95583 DM = 1 €)"


@pytest.mark.parametrize(
    ("amount", "source", "target", "expected"),
    [
        ("12.00", "DM", "EUR", "6.14"),
        ("1.95583", "DM", "EUR", "1.00"),
        ("-3.00", "DM", "EUR", "-1.53"),
        ("2.50", "EUR", "EUR", "2.50"),
        ("1.00", "EUR", "DM", "1.96"),
    ],
)
def test_carry_amount_converts_at_the_fixed_euro_rate(amount, source, target, expected):
    result = carry_amount(Decimal(amount), from_currency=source, to_currency=target)
    assert result == Decimal(expected)


# --------------------------------------------------------------------------- fingerprint


def test_the_fingerprint_is_stable_while_the_figures_stay(books):
    before = season_fingerprint(season=books.season)
    assert len(before) == 64 and int(before, 16) >= 0
    assert season_fingerprint(season=books.season) == before
    _close(books)  # the carry out is not one of the figures
    assert season_fingerprint(season=books.season) == before
    season_reopen(season=books.season, by=books.secretary, reason="nur nachsehen")
    assert season_fingerprint(season=books.season) == before


@pytest.mark.parametrize("writer", ["game", "payment", "runde_given", "mark_value"])
def test_the_fingerprint_changes_with_the_figures(books, writer):
    before = season_fingerprint(season=books.season)
    WRITERS[writer](books)
    assert season_fingerprint(season=books.season) != before


def test_a_signature_breaks_after_a_change(books):
    _close(books)
    signed = season_sign_off(season=books.season, auditor=books.auditor)
    assert signed.fingerprint == season_fingerprint(season=books.season)
    assert signature_state(sign_off=signed) == VALID

    season_reopen(season=books.season, by=books.secretary, reason="Spiel vergessen")
    assert signature_state(sign_off=signed) == VALID  # reopened, nothing changed yet
    _game(books)
    _close(books)
    assert signature_state(sign_off=SeasonSignOff.objects.get(pk=signed.pk)) == BROKEN

    again = season_sign_off(season=books.season, auditor=books.auditor)  # after a new check
    assert signature_state(sign_off=again) == VALID


def test_only_a_closed_season_is_signed(books):
    with pytest.raises(BooksError) as refused:
        season_sign_off(season=books.season, auditor=books.auditor)
    assert refused.value.code == "season_not_closed"


@pytest.mark.parametrize("who", ["secretary", "guest", "no_login", "other_club"])
def test_only_a_club_member_with_a_login_who_is_not_the_secretary_signs(books, who):
    _close(books)
    if who == "secretary":
        person = books.secretary
    elif who == "guest":
        person = books.people["Gustav Meier"]
        member_login_set(person=person, user=UserFactory(username="gustav"))
    elif who == "no_login":
        person = books.people["Dieter Hahn"]
    else:
        other = Club.objects.create(name="Fremdclub")
        person = member_create(club=other, name="Olga")
        member_login_set(person=person, user=UserFactory(username="olga"))
    with pytest.raises(BooksError) as refused:
        season_sign_off(season=books.season, auditor=person)
    assert refused.value.code == "auditor_not_allowed"
    assert refused.value.status == 403


def test_one_or_two_auditors_sign_each_once(books):
    _close(books)
    season_sign_off(season=books.season, auditor=books.auditor)
    with pytest.raises(BooksError) as refused:
        season_sign_off(season=books.season, auditor=books.auditor)
    assert refused.value.code == "already_signed"
    season_sign_off(season=books.season, auditor=books.second_auditor)
    third = books.people["Erik Lange"]
    third.password_set_by_holder = True
    member_login_set(
        person=third, user=UserFactory(username="erik"), also_saved=["password_set_by_holder"]
    )
    with pytest.raises(BooksError) as refused:
        season_sign_off(season=books.season, auditor=third)
    assert refused.value.code == "auditors_complete"


# --------------------------------------------------------------------------- the database


def test_the_database_refuses_raising_a_closed_seasons_data_version(books):
    _close(books)
    with pytest.raises(IntegrityError, match="season_closed"), transaction.atomic():
        Season.objects.filter(pk=books.season.pk).update(data_version=F("data_version") + 1)


def test_the_database_lets_an_open_season_and_the_reopen_through(books):
    Season.objects.filter(pk=books.season.pk).update(data_version=F("data_version") + 1)
    _close(books)
    Season.objects.filter(pk=books.season.pk).update(
        closed_at=None, data_version=F("data_version") + 1
    )


def test_the_season_table_keeps_its_integrity_triggers(db):
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name = 'league_season'"
            )
            expected = {"schock_season_upd", "schock_season_closed"}
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'league_season'::regclass "
                "AND NOT tgisinternal"
            )
            expected = {"schock_season_check", "schock_season_closed"}
        assert expected <= {row[0] for row in cursor.fetchall()}
