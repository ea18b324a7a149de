"""The kitty ledger: charges derived from the records, reversals, payments, statements."""

import datetime
from decimal import Decimal

import pytest
from django.db.models import Sum

from games.evenings.models import Attendance
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from league.club.errors import BooksError
from league.club.services import season_get_or_create
from league.ledger.models import LedgerEntry
from league.ledger.selectors import (
    club_balances,
    member_balance,
    member_statement,
)
from league.ledger.services import (
    ledger_sync_evening,
    ledger_sync_season,
    payment_cancel,
    payment_record,
)

pytestmark = pytest.mark.django_db


def _marks(member) -> int:
    return LedgerEntry.objects.filter(member=member).aggregate(s=Sum("marks"))["s"] or 0


def _attendance_kwargs(evening):
    roles = {a.member: a.role for a in evening.attendances.select_related("member")}
    return {
        "date": evening.date,
        "secretary": evening.secretary,
        "present_members": [m for m, r in roles.items() if r == Attendance.Role.MEMBER],
        "guests": [m for m, r in roles.items() if r == Attendance.Role.GUEST],
        "absent_members": [m for m, r in roles.items() if r == Attendance.Role.ABSENT],
    }


def test_every_person_of_the_sample_evening_is_charged_the_expected_marks(
    sample_entered, sample_evening
):
    _, people = sample_entered
    for name, expected in sample_evening["expected"]["per_person"].items():
        assert _marks(people[name]) == expected["marks"], name


def test_the_sample_evening_charges_the_expected_money(sample_entered, sample_evening):
    evening, _ = sample_entered
    total = LedgerEntry.objects.filter(evening_id_ref=evening.pk).aggregate(s=Sum("amount"))["s"]
    assert total == Decimal(sample_evening["expected"]["money_total"])


def test_an_absent_member_is_charged_six_marks_keyed_by_evening_and_member(sample_entered):
    evening, people = sample_entered
    frank = people["Frank Roth"]
    entry = LedgerEntry.objects.get(member=frank)
    assert (entry.kind, entry.marks, entry.amount) == ("absence", 6, Decimal("3.00"))
    assert entry.source_key == f"absence:{evening.pk}:{frank.pk}"


def test_a_lost_game_is_charged_one_mark_keyed_by_the_game(sample_entered):
    evening, people = sample_entered
    game = evening.games.get(number=1)
    entry = LedgerEntry.objects.get(source_key=f"game:{game.pk}")
    assert (entry.member, entry.marks, entry.game_id_ref) == (people["Dieter Hahn"], 1, game.pk)


def test_syncing_again_without_a_change_writes_nothing(sample_entered):
    evening, _ = sample_entered
    before = LedgerEntry.objects.count()
    assert ledger_sync_evening(evening_id=evening.pk) == {"charged": 0, "reversed": 0}
    assert LedgerEntry.objects.count() == before


def test_correcting_a_loser_reverses_the_charge_and_charges_the_new_loser(sample_entered):
    evening, people = sample_entered
    game = evening.games.get(number=1)
    game_update(game=game, loser=people["Anna Becker"])
    entries = list(LedgerEntry.objects.filter(source_key=f"game:{game.pk}").order_by("id"))
    assert [(e.kind, e.member.name, e.marks) for e in entries] == [
        ("game_lost", "Dieter Hahn", 1),
        ("reversal", "Dieter Hahn", -1),
        ("game_lost", "Anna Becker", 1),
    ]
    assert entries[1].reverses == entries[0]
    assert entries[1].description == "loser_changed"


def test_a_correction_leaves_the_original_charge_untouched(sample_entered):
    evening, people = sample_entered
    game = evening.games.get(number=1)
    original = LedgerEntry.objects.get(source_key=f"game:{game.pk}")
    game_update(game=game, loser=people["Anna Becker"])
    original_after = LedgerEntry.objects.get(pk=original.pk)
    assert (original_after.member_id, original_after.amount, original_after.kind) == (
        original.member_id,
        original.amount,
        original.kind,
    )


def test_deleting_a_game_reverses_its_charge(sample_entered):
    evening, people = sample_entered
    game = evening.games.get(number=25)
    before = _marks(people["Anna Becker"])
    game_delete(game=game)
    assert _marks(people["Anna Becker"]) == before - 1
    assert LedgerEntry.objects.filter(
        source_key=f"game:{game.pk}", kind="reversal", description="game_deleted"
    ).exists()


def test_making_an_absent_member_present_reverses_the_absence_charge(sample_entered):
    evening, people = sample_entered
    kwargs = _attendance_kwargs(evening)
    frank = people["Frank Roth"]
    kwargs["absent_members"] = []
    kwargs["present_members"] = kwargs["present_members"] + [frank]
    evening_update(evening=evening, **kwargs)
    assert _marks(frank) == 0
    assert LedgerEntry.objects.filter(member=frank, description="attendance_changed").count() == 1


def test_deleting_an_evening_reverses_its_absence_charges(sample_evening, db):
    from tests.sample import sample_club

    club, people = sample_club(sample_evening)
    season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=people["Bernd Krause"],
        present_members=[people["Bernd Krause"]],
        absent_members=[people["Frank Roth"]],
    )
    evening_delete(evening=evening)
    assert _marks(people["Frank Roth"]) == 0
    assert LedgerEntry.objects.filter(description="evening_deleted").count() == 1


def test_a_dm_season_charges_one_mark_as_one_dm(sample_evening, db):
    from tests.sample import sample_club

    club, people = sample_club(sample_evening)
    season_get_or_create(club=club, year=1985)
    evening = evening_create(
        club=club,
        date=datetime.date(1985, 5, 3),
        secretary=people["Bernd Krause"],
        present_members=[people["Bernd Krause"], people["Anna Becker"]],
    )
    game_record(evening=evening, loser=people["Anna Becker"])
    entry = LedgerEntry.objects.get(member=people["Anna Becker"])
    assert (entry.amount, entry.currency) == (Decimal("1.00"), "DM")


def test_a_partial_payment_lowers_the_balance_by_its_amount(sample_entered):
    evening, people = sample_entered
    dieter = people["Dieter Hahn"]
    payment_record(member=dieter, amount=Decimal("1.50"), paid_on=datetime.date(2026, 10, 9))
    assert member_balance(member=dieter, season=evening.season) == Decimal("1.00")


def test_paying_more_than_owed_leaves_a_credit(sample_entered):
    evening, people = sample_entered
    anna = people["Anna Becker"]
    payment_record(member=anna, amount=Decimal("5.00"), paid_on=datetime.date(2026, 10, 10))
    assert member_balance(member=anna, season=evening.season) == Decimal("-3.00")


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-1.00"), Decimal("1.005")])
def test_a_payment_that_is_not_a_positive_amount_in_cents_is_refused(sample_entered, amount):
    _, people = sample_entered
    with pytest.raises(BooksError) as exc:
        payment_record(
            member=people["Anna Becker"], amount=amount, paid_on=datetime.date(2026, 10, 9)
        )
    assert exc.value.code == "invalid_amount"


def test_a_payment_without_a_season_for_its_date_is_refused(sample_entered):
    _, people = sample_entered
    with pytest.raises(BooksError) as exc:
        payment_record(
            member=people["Anna Becker"], amount=Decimal("1.00"), paid_on=datetime.date(2025, 1, 1)
        )
    assert exc.value.code == "no_season"


def test_cancelling_a_payment_brings_the_debt_back(sample_entered):
    evening, people = sample_entered
    anna = people["Anna Becker"]
    payment = payment_record(member=anna, amount=Decimal("2.00"), paid_on=evening.date)
    payment_cancel(payment=payment)
    assert member_balance(member=anna, season=evening.season) == Decimal("2.00")


def test_a_payment_cannot_be_cancelled_twice(sample_entered):
    evening, people = sample_entered
    payment = payment_record(
        member=people["Anna Becker"], amount=Decimal("2.00"), paid_on=evening.date
    )
    payment_cancel(payment=payment)
    with pytest.raises(BooksError) as exc:
        payment_cancel(payment=payment)
    assert exc.value.code == "payment_cancelled"


def test_the_statement_runs_its_balance_line_by_line(sample_entered):
    evening, people = sample_entered
    dieter = people["Dieter Hahn"]
    payment_record(member=dieter, amount=Decimal("1.00"), paid_on=datetime.date(2026, 10, 10))
    account = member_statement(member=dieter).seasons[0]
    running = Decimal("0.00")
    for line in account.lines:
        running += line.amount
        assert line.balance == running
    assert account.lines[-1].balance == Decimal("1.50")
    assert account.lines[-1].balance_marks == Decimal("3")


def test_the_statement_names_the_game_of_every_mark(sample_entered):
    evening, people = sample_entered
    account = member_statement(member=people["Dieter Hahn"]).seasons[0]
    assert [line.label for line in account.lines] == [
        f"Spiel {n} verloren am 09.10.2026" for n in (1, 3, 9, 15, 21)
    ]


def test_the_statement_shows_a_reversal_with_its_reason(sample_entered):
    evening, people = sample_entered
    game_delete(game=evening.games.get(number=21))
    account = member_statement(member=people["Dieter Hahn"]).seasons[0]
    reversal = account.lines[-1]
    assert reversal.label == "Storno: Spiel 21 verloren am 09.10.2026 (Spiel gelöscht)"
    assert reversal.marks == -1
    assert account.marks_charged == 4


def test_the_overview_lists_who_owes_and_the_kitty_holds_the_payments(sample_entered):
    evening, people = sample_entered
    payment_record(member=people["Dieter Hahn"], amount=Decimal("2.50"), paid_on=evening.date)
    balances = club_balances(club=evening.club)
    owing = {r.member.name: r.balance for r in balances.owing}
    assert "Dieter Hahn" not in owing
    assert owing["Frank Roth"] == Decimal("3.00")
    assert balances.kitty == {"EUR": Decimal("2.50")}
    assert balances.owed == {"EUR": Decimal("15.50") - Decimal("2.50")}


def test_dm_and_eur_seasons_are_never_added_together(sample_entered, sample_evening):
    evening, people = sample_entered
    season_get_or_create(club=evening.club, year=1999)
    old = evening_create(
        club=evening.club,
        date=datetime.date(1999, 5, 7),
        secretary=people["Bernd Krause"],
        present_members=[people["Bernd Krause"]],
        absent_members=[people["Frank Roth"]],
    )
    assert old.season.currency == "DM"
    statement = member_statement(member=people["Frank Roth"])
    assert statement.balance_by_currency == {"DM": Decimal("6.00"), "EUR": Decimal("3.00")}


def test_a_changed_mark_value_is_rebooked_at_the_next_sync(sample_entered):
    evening, people = sample_entered
    evening.season.mark_value = Decimal("1.00")
    evening.season.save()
    ledger_sync_evening(evening_id=evening.pk)
    assert member_balance(member=people["Frank Roth"], season=evening.season) == Decimal("6.00")
    assert LedgerEntry.objects.filter(description="mark_value_changed").count() == 26


def test_a_season_sync_without_a_change_writes_nothing(sample_entered):
    evening, _ = sample_entered
    lines = LedgerEntry.objects.count()
    assert ledger_sync_season(season_id=evening.season_id) == {"charged": 0, "reversed": 0}
    assert LedgerEntry.objects.count() == lines
