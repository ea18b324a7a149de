"""Fixtures of the backup tests: a club with every kind of row (the sample evening with a
game entered round by round, a Runde given, a payment and its cancellation, a deleted game,
logins with a group, an admin as author), and a check that nothing of any club is left."""

import datetime
import gzip
import hashlib
import json
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from games.evenings.models import Objection, PlannedEvening, SchockAus
from games.evenings.services import evening_create, evening_update, game_delete, game_record
from games.rounds.services import game_record_rounds
from league.banking.models import (
    BankStatementLine,
    NotificationKind,
    NotificationSent,
    PaymentReminder,
)
from league.banking.services import club_bank_account_set, notification_choice_set
from league.club.models import Club, Member
from league.club.services import member_login_set, season_get_or_create
from league.ledger.services import payment_cancel, payment_record
from league.runden.selectors import (
    runden_overview,
)
from league.runden.services import (
    runde_mark_given,
)
from tests.copied import copied
from tests.games.rounds.sample import game_20_rounds
from tests.sample import sample_club


@pytest.fixture
def full_club(sample_evening, db):
    """The sample club's name, after writing every kind of row it can hold (through the
    services once per process, then copied: tests/copied.py)."""
    return copied(
        "backup full club", lambda: _write_full_club(sample_evening), repr(sample_evening)
    )


def _write_full_club(sample_evening) -> str:
    club, people = sample_club(sample_evening)
    ev = sample_evening["evening"]
    date = datetime.date.fromisoformat(ev["date"])
    season_get_or_create(club=club, year=date.year)
    evening = evening_create(
        club=club,
        date=date,
        secretary=people[ev["secretary"]],
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
    )
    for game in ev["games"]:
        if game["number"] == 20:
            game_record_rounds(
                evening=evening, number=20, rounds=game_20_rounds(sample_evening, people)
            )
        else:
            game_record(
                evening=evening,
                number=game["number"],
                loser=people[game["loser"]],
                schock_aus_throwers=[people[n] for n in game["schock_aus"]],
            )
    evening = type(evening).objects.get(pk=evening.pk)
    evening_update(
        evening=evening,
        date=date,
        secretary=people[ev["secretary"]],
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
        notes="Kegelbahn war besetzt, im Nebenraum gespielt.",
    )
    game_delete(game=evening.games.get(number=25))
    users = get_user_model()
    admin = users.objects.create_user("kassenpruefer", password="pruef-123", is_staff=True)
    group = Group.objects.create(name="Kasse")
    group.permissions.add(Permission.objects.get(codename="view_payment"))
    anna = people["Anna Becker"]
    member_login_set(
        person=anna, user=users.objects.create_user("anna.becker", password="schocken-123")
    )
    anna.user.groups.add(group)
    paid = payment_record(member=anna, amount=Decimal("5.00"), paid_on=date, created_by=admin)
    payment_cancel(payment=paid)
    transfer = payment_record(
        member=anna, amount=Decimal("7.50"), paid_on=date, method="transfer", created_by=admin
    )
    # A booked bank line and a reminder sent (written as their services write them).
    BankStatementLine.objects.create(
        club=club,
        line_hash="a" * 64,
        booked_on=date,
        name="Anna Becker",
        reference="Schock",
        amount=Decimal("7.50"),
        payment=transfer,
    )
    PaymentReminder.objects.create(member=anna, month=date.replace(day=1), amount=Decimal("6.00"))
    # An objection answered, a planned evening moved, a notification choice and a message
    # sent (rows as their services write them; the services' own tests check the rules).
    objection = Objection.objects.create(
        evening=evening,
        game=evening.games.get(number=3),
        game_number=3,
        raised_by=anna,
        text="Das war Frank, nicht ich.",
    )
    objection.status, objection.answer = Objection.Status.DISMISSED, "Stimmt so."
    objection.answered_by = people[ev["secretary"]]
    objection.save()
    PlannedEvening.objects.create(
        club=club,
        regular_date=date + datetime.timedelta(days=7),
        date=date + datetime.timedelta(days=8),
    )
    notification_choice_set(
        member=anna, kind=NotificationKind.EVENING_TOMORROW, email=False, push=True
    )
    NotificationSent.objects.create(
        member=anna, kind=NotificationKind.EVENING_TOMORROW, period=date, channels="email"
    )
    owed = runden_overview(club=club)
    runde_mark_given(
        schock_aus=SchockAus.objects.get(pk=owed[0].schock_aus_id),
        given_on=date,
        note="Pils",
        recorded_by=admin,
    )
    Member.objects.filter(pk=people["Gustav Meier"].pk).update(active=False)
    club_bank_account_set(club=club, holder="Schockclub Kasse", iban="DE89 3704 0044 0532 0130 00")
    return club.name


def our_rows() -> dict[str, int]:
    """Rows of every model of the league and games apps (history included), by label."""
    return {
        m._meta.label: m._base_manager.count()
        for app in ("league", "games")
        for m in apps.get_app_config(app).get_models()
    }


def assert_nothing_left() -> None:
    """No row of any club is left in any table of league and games (the test deleted the
    only club: this does not rely on the backup's own list of tables)."""
    left = {label: n for label, n in our_rows().items() if n}
    assert left == {}


def neighbours() -> Club:
    """A second, small club ("Nachbarclub") with one evening of three games."""
    club = Club.objects.create(name="Nachbarclub")
    people = [Member.objects.create(club=club, name=n) for n in ("Ute", "Volker", "Willi")]
    season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club, date=datetime.date(2026, 10, 9), secretary=people[0], present_members=people
    )
    for number, loser in enumerate(people, start=1):
        game_record(evening=evening, number=number, loser=loser, schock_aus_throwers=[])
    return club


def backup_document(data: bytes) -> dict:
    """The JSON document of a backup file."""
    return json.loads(gzip.decompress(data))


def sealed(document: dict) -> bytes:
    """A backup file of `document` with its digest taken anew, as the file format says
    (SHA-256 of the JSON of every other key in its order, no spaces, UTF-8): an edit that
    only the other checks can find."""
    body = {key: value for key, value in document.items() if key != "digest"}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    body["digest"] = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return gzip.compress(json.dumps(body, ensure_ascii=False).encode("utf-8"))
