"""One books-changed event (docs/rules.md 5): every writer of the books moves
the season's data version inside its own transaction, so a season report that was ready
goes stale and the figures it shows change. The admin's actions have theirs in
tests/games/test_admin.py, with the helpers of this module."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import Sum

from games.evenings.models import Attendance, Evening, SchockAus
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from games.rounds.services import game_record_rounds
from league.club.books import (
    BooksChangedOutsideTransaction,
    books_changed,
    books_changes_gathered,
)
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.services import season_get_or_create, season_update
from league.clubbook.services import club_book_import
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    CHARGE_KINDS,
    club_balances,
    member_balance,
)
from league.ledger.services import (
    payment_cancel,
    payment_record,
)
from league.reports.builds import report_build_request, report_state
from league.reports.selectors import (
    season_report_data,
)
from league.runden.services import runde_mark_given, runde_unmark
from schockclub.celery import app
from tests.factories import SeasonFactory
from tests.games.rounds.sample import game_20_rounds
from tests.sample import enter_sample_evening, enter_sample_evening_copied

pytestmark = pytest.mark.django_db

LATER = datetime.date(2026, 10, 16)
END_OF_SEASON = datetime.date(2026, 12, 31)


# --- helpers (also used by tests/games/test_admin.py) --------------------------------------


@pytest.fixture(autouse=True)
def cheap_reports(monkeypatch):
    """Report builds run in the test process (also where CI sets REDIS_URL) and render a
    stub instead of the PDF: a ready report costs next to nothing."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    monkeypatch.setattr(
        "league.reports.pdf.build_season_report_pdf",
        lambda *, season, today=None: b"%PDF-1.4 stub",
    )
    yield
    app.conf.task_always_eager = saved


def make_report_ready(season: Season, capture) -> None:
    """Ask for the season report and build it (the eager task runs after commit)."""
    with capture(execute=True):
        report_build_request(season=season)
    assert report_state(season=season).state == "ready"


def report_figures(season: Season) -> dict[str, object]:
    """What the season report shows, in plain values, and the season's kitty balances."""
    season = Season.objects.get(pk=season.pk)
    report = season_report_data(season=season, today=END_OF_SEASON)
    balances = club_balances(club=season.club, season=season)
    return {
        "standings": [
            (r.member.name, r.place, r.points, r.games_lost, r.schock_aus, r.marks, r.money)
            for r in report.standings.everyone
        ],
        "evenings": [(line.date, line.games, line.absent) for line in report.evenings],
        "money": (report.marks_total, report.money_total, report.paid_total, report.open_total),
        "runden": [(line.ordinal, line.runde, line.runde_given_on) for line in report.chronicle],
        "balances": sorted((r.member.name, r.charged, r.paid) for r in balances.rows),
    }


def changed_figures(before: dict, after: dict) -> set[str]:
    return {key for key in before if before[key] != after[key]}


# --- the writers ---------------------------------------------------------------------------


@dataclass
class Books:
    """The sample evening entered through the services, and what a writer needs."""

    sample: dict
    evening: Evening
    people: dict[str, Member]

    @property
    def season(self) -> Season:
        return self.evening.season

    def game(self, number: int):
        return self.evening.games.get(number=number)

    def schock_aus(self, game_number: int) -> SchockAus:
        return SchockAus.objects.get(game__evening=self.evening, game__number=game_number)

    def attendance(self, **changes) -> dict:
        roles = {a.member: a.role for a in self.evening.attendances.select_related("member")}
        kwargs = {
            "date": self.evening.date,
            "secretary": self.evening.secretary,
            "present_members": [m for m, r in roles.items() if r == Attendance.Role.MEMBER],
            "guests": [m for m, r in roles.items() if r == Attendance.Role.GUEST],
            "absent_members": [m for m, r in roles.items() if r == Attendance.Role.ABSENT],
        }
        return kwargs | changes


@pytest.fixture
def books(sample_evening) -> Books:
    evening, people = enter_sample_evening_copied(sample_evening)
    return Books(sample_evening, evening, people)


def _payment(books: Books) -> Payment:
    return payment_record(member=books.people["Anna Becker"], amount=Decimal("2.50"), paid_on=LATER)


def _evening_created(books: Books, _before) -> None:
    p = books.people
    evening_create(
        club=books.evening.club,
        date=LATER,
        secretary=p["Bernd Krause"],
        present_members=[p["Anna Becker"], p["Bernd Krause"]],
        absent_members=[p["Frank Roth"]],
    )


def _evening_moved(books: Books, _before) -> None:
    evening_update(evening=books.evening, **books.attendance(date=datetime.date(2026, 10, 10)))


def _evening_deleted(books: Books, _before) -> None:
    evening_delete(evening=books.evening, with_games=True)


def _attendance_changed(books: Books, _before) -> None:
    evening_update(evening=books.evening, **books.attendance(absent_members=[]))


def _game_recorded(books: Books, _before) -> None:
    game_record(evening=books.evening, loser=books.people["Anna Becker"])


def _game_updated(books: Books, _before) -> None:
    game = books.game(1)
    game_update(game=game, loser=books.people["Carla Vogt"], vorleger=game.vorleger)


def _game_deleted(books: Books, _before) -> None:
    game_delete(game=books.game(1))


def _schock_aus_changed(books: Books, _before) -> None:
    game = books.game(2)
    game_update(
        game=game,
        loser=game.loser,
        vorleger=game.vorleger,
        schock_aus_throwers=[books.people["Dieter Hahn"]],
    )


def _rounds_recorded(books: Books, _before) -> None:
    rounds = game_20_rounds(books.sample, books.people)
    game_record_rounds(evening=books.evening, number=20, rounds=rounds)


def _payment_recorded(books: Books, _before) -> None:
    _payment(books)


def _payment_cancelled(books: Books, payment: Payment) -> None:
    payment_cancel(payment=payment)


def _runde_given(books: Books, _before) -> None:
    runde_mark_given(schock_aus=books.schock_aus(3), given_on=LATER)


def _runde_taken_back(books: Books, _before) -> None:
    runde_unmark(schock_aus=books.schock_aus(3))


def _club_book_imported(books: Books, _before) -> None:
    result = club_book_import(
        club_name=books.sample["club"],
        attendance=b"date,name,role\r\n2026-10-16,Anna Becker,secretary\r\n"
        b"2026-10-16,Bernd Krause,member\r\n",
        games=b"date,number,loser,schock_aus\r\n2026-10-16,1,Bernd Krause,\r\n",
    )
    assert not result.errors


def _mark_value_changed(books: Books, _before) -> None:
    season_update(season=books.season, mark_value=Decimal("1.00"))


def _nothing(_books: Books):
    return None


def _up_to_game_19(books: Books):
    """Games 20 to 25 deleted: game 20 can be entered round by round (its rounds follow
    the Schock-Aus of games 1 to 19)."""
    for game in books.evening.games.filter(number__gte=20).order_by("-number"):
        game_delete(game=game)


def _give_runde(books: Books):
    return runde_mark_given(schock_aus=books.schock_aus(3), given_on=LATER)


# writer -> (what stands before the report is built, the change, the figures that change)
WRITERS = {
    "evening created": (_nothing, _evening_created, {"standings", "evenings", "balances"}),
    "evening updated": (_nothing, _evening_moved, {"evenings"}),
    "evening deleted": (_nothing, _evening_deleted, {"standings", "evenings", "balances"}),
    "attendance changed": (_nothing, _attendance_changed, {"standings", "evenings", "balances"}),
    "game recorded": (_nothing, _game_recorded, {"standings", "evenings", "balances"}),
    "game updated": (_nothing, _game_updated, {"standings", "balances"}),
    "game deleted": (_nothing, _game_deleted, {"standings", "evenings", "balances"}),
    "Schock-Aus changed": (_nothing, _schock_aus_changed, {"standings", "runden"}),
    "rounds recorded": (_up_to_game_19, _rounds_recorded, {"standings", "runden", "balances"}),
    "payment recorded": (_nothing, _payment_recorded, {"money", "balances"}),
    "payment cancelled": (_payment, _payment_cancelled, {"money", "balances"}),
    "Runde given": (_nothing, _runde_given, {"runden"}),
    "Runde taken back": (_give_runde, _runde_taken_back, {"runden"}),
    "club book imported": (_nothing, _club_book_imported, {"standings", "evenings", "balances"}),
    "Mark value changed": (_nothing, _mark_value_changed, {"standings", "money", "balances"}),
}


@pytest.mark.parametrize("writer", WRITERS)
def test_every_writer_makes_the_ready_report_stale(
    books, writer, django_capture_on_commit_callbacks
):
    setup, change, _figures = WRITERS[writer]
    before = setup(books)
    make_report_ready(books.season, django_capture_on_commit_callbacks)
    change(books, before)
    assert report_state(season=books.season).state == "stale"


@pytest.mark.parametrize("writer", WRITERS)
def test_every_writer_changes_the_figures_of_the_report(books, writer):
    setup, change, figures = WRITERS[writer]
    before = setup(books)
    shown = report_figures(books.season)
    change(books, before)
    assert changed_figures(shown, report_figures(books.season)) >= figures


@pytest.mark.parametrize("writer", WRITERS)
def test_every_writer_moves_the_data_version_once_at_least(books, writer):
    setup, change, _figures = WRITERS[writer]
    before = setup(books)
    version = Season.objects.get(pk=books.season.pk).data_version
    change(books, before)
    assert Season.objects.get(pk=books.season.pk).data_version > version


# --- the event itself ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_books_changed_outside_a_transaction_is_refused():
    season = SeasonFactory()
    with pytest.raises(BooksChangedOutsideTransaction):
        books_changed(season_id=season.pk, reason="payment")
    assert Season.objects.get(pk=season.pk).data_version == season.data_version


def test_a_change_rolled_back_takes_its_data_version_back():
    season = SeasonFactory()
    with pytest.raises(RuntimeError), transaction.atomic():
        books_changed(season_id=season.pk, reason="payment")
        raise RuntimeError("the writer failed after the event")
    assert Season.objects.get(pk=season.pk).data_version == season.data_version


def test_a_refused_payment_leaves_the_data_version(books):
    version = Season.objects.get(pk=books.season.pk).data_version
    with pytest.raises(BooksError):
        payment_record(member=books.people["Anna Becker"], amount=Decimal("0"), paid_on=LATER)
    assert Season.objects.get(pk=books.season.pk).data_version == version


# --- a Mark value changed ------------------------------------------------------------------


def _charges_marks(member: Member, season: Season) -> int:
    lines = LedgerEntry.objects.filter(member=member, season=season)
    return lines.aggregate(s=Sum("marks"))["s"] or 0


def test_a_new_mark_value_leaves_the_old_ledger_lines_untouched(books):
    fields = ("pk", "kind", "marks", "amount", "currency", "booked_on", "description")
    old = list(LedgerEntry.objects.filter(season=books.season).values_list(*fields))
    season_update(season=books.season, mark_value=Decimal("1.00"))
    pks = [line[0] for line in old]
    assert list(LedgerEntry.objects.filter(pk__in=pks).values_list(*fields)) == old


def test_a_new_mark_value_reverses_every_charge_and_books_it_again(books):
    old = list(LedgerEntry.objects.filter(season=books.season, kind__in=CHARGE_KINDS))
    season_update(season=books.season, mark_value=Decimal("1.00"))
    reversals = LedgerEntry.objects.filter(reverses__in=old)
    assert reversals.count() == len(old)
    assert set(reversals.values_list("description", flat=True)) == {"mark_value_changed"}
    open_charges = LedgerEntry.objects.filter(
        season=books.season, kind__in=CHARGE_KINDS, reversed_by__isnull=True
    )
    assert open_charges.count() == len(old)
    assert all(c.amount == c.marks * Decimal("1.00") for c in open_charges)


def test_a_members_balance_follows_the_new_mark_value_and_keeps_the_payment(books):
    anna = books.people["Anna Becker"]
    _payment(books)
    marks = _charges_marks(anna, books.season)
    season_update(season=books.season, mark_value=Decimal("1.00"))
    assert _charges_marks(anna, books.season) == marks
    expected = marks * Decimal("1.00") - Decimal("2.50")
    assert member_balance(member=anna, season=books.season) == expected


def test_the_same_mark_value_again_writes_nothing(books):
    version = Season.objects.get(pk=books.season.pk).data_version
    lines = LedgerEntry.objects.count()
    season_update(season=books.season, mark_value=books.season.mark_value)
    assert Season.objects.get(pk=books.season.pk).data_version == version
    assert LedgerEntry.objects.count() == lines


@pytest.mark.parametrize("value", [Decimal("0"), Decimal("-0.50"), Decimal("0.505")])
def test_a_mark_value_not_positive_in_cents_is_refused(books, value):
    with pytest.raises(BooksError) as refused:
        season_update(season=books.season, mark_value=value)
    assert refused.value.code == "invalid_mark_value"


def test_season_dates_that_leave_an_evening_outside_are_refused(books):
    with pytest.raises(BooksError) as refused:
        season_update(season=books.season, ends_on=datetime.date(2026, 10, 1))
    assert refused.value.code == "evening_outside_season"
    assert Season.objects.get(pk=books.season.pk).ends_on == datetime.date(2026, 12, 31)


def test_an_evening_moved_to_another_season_makes_both_reports_stale(
    books, django_capture_on_commit_callbacks
):
    old = books.season
    new = season_get_or_create(club=old.club, year=2027)
    make_report_ready(old, django_capture_on_commit_callbacks)
    make_report_ready(new, django_capture_on_commit_callbacks)
    evening_update(evening=books.evening, **books.attendance(date=datetime.date(2027, 1, 8)))
    assert (report_state(season=old).state, report_state(season=new).state) == ("stale", "stale")
    open_in_old = LedgerEntry.objects.filter(season=old).aggregate(total=Sum("amount"))["total"]
    assert open_in_old == Decimal("0.00")


# --- changes gathered: the receivers once per distinct change, at the block's end ----------


def test_changes_gathered_reach_the_ledger_once_each_and_book_the_same_money(
    sample_evening, monkeypatch
):
    from league.club import books as books_module

    calls: list[object] = []
    receivers = [lambda change: calls.append(change), *books_module._receivers]
    monkeypatch.setattr(books_module, "_receivers", receivers)
    one_by_one, _people = enter_sample_evening(sample_evening)
    per_game_calls = len(calls)
    calls.clear()
    later = datetime.date.fromisoformat(sample_evening["evening"]["date"]) + datetime.timedelta(
        days=1
    )
    with transaction.atomic(), books_changes_gathered():
        gathered, _people = enter_sample_evening(sample_evening, date=later)
        # Inside the block the versions move but the ledger waits.
        assert not LedgerEntry.objects.filter(evening_id_ref=gathered.pk).exists()
    assert per_game_calls > 25 and len(calls) == len(set(calls)) <= 2
    assert {c.evening_id for c in calls} == {gathered.pk}  # type: ignore[attr-defined]
    one_by_one_lines = LedgerEntry.objects.filter(evening_id_ref=one_by_one.pk)
    gathered_lines = LedgerEntry.objects.filter(evening_id_ref=gathered.pk)
    assert gathered_lines.count() <= one_by_one_lines.count()

    def net(lines) -> dict[tuple[str, str], tuple[int, Decimal]]:
        rows = lines.values_list("member__name", "kind").annotate(
            marks=Sum("marks"), amount=Sum("amount")
        )
        return {(name, kind): (marks, amount) for name, kind, marks, amount in rows}

    assert net(gathered_lines) == net(one_by_one_lines) != {}


def test_changes_gathered_are_dropped_when_the_block_fails(books, monkeypatch):
    from league.club import books as books_module

    calls: list[object] = []
    monkeypatch.setattr(books_module, "_receivers", [lambda change: calls.append(change)])
    with pytest.raises(RuntimeError), transaction.atomic(), books_changes_gathered():
        books_changed(season_id=books.season.pk, reason="payment")
        raise RuntimeError("the writer failed")
    assert calls == []
    with transaction.atomic(), books_changes_gathered():
        books_changed(season_id=books.season.pk, reason="payment")
        books_changed(season_id=books.season.pk, reason="payment")
        assert calls == []
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_changes_gathered_outside_a_transaction_are_refused():
    with pytest.raises(BooksChangedOutsideTransaction), books_changes_gathered():
        pass
