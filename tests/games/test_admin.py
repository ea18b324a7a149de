"""The admin, the secretary's fallback, writes the books only through the services: every admin
action ends in the books-changed event, so a ready season report goes
stale and its figures change exactly as after a change made on the pages; payments are
corrected by reversal; what the services do not write is read-only."""

import datetime
from decimal import Decimal

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.rounds.models import Round, RoundThrow
from league.club.models import Season
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    CHARGE_KINDS,
)
from league.ledger.services import (
    payment_record,
)
from league.reports.builds import report_state
from league.runden.models import RundeGiven
from league.runden.services import runde_mark_given
from schockclub.celery import app
from tests.factories import ClubFactory, UserFactory
from tests.league.test_books_changed import (
    Books,
    changed_figures,
    make_report_ready,
    report_figures,
)
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db

LATER = datetime.date(2026, 10, 16)


@pytest.fixture(autouse=True)
def cheap_reports(monkeypatch, settings, tmp_path):
    """Eager report builds of a stub PDF into a private media folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    monkeypatch.setattr(
        "league.reports.pdf.build_season_report_pdf",
        lambda *, season, today=None: b"%PDF-1.4 stub",
    )
    yield
    app.conf.task_always_eager = saved


@pytest.fixture
def books(sample_evening) -> Books:
    evening, people = enter_sample_evening_copied(sample_evening)
    return Books(sample_evening, evening, people)


@pytest.fixture
def staff(client):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    return client


def _url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def _ids(people) -> list[str]:
    return [str(p.pk) for p in people]


def _evening_form(books: Books, **changes) -> dict:
    kwargs = books.attendance()
    data = {
        "date": kwargs["date"].isoformat(),
        "secretary": str(kwargs["secretary"].pk),
        "notes": "",
        "present_members": _ids(kwargs["present_members"]),
        "guests": _ids(kwargs["guests"]),
        "absent_members": _ids(kwargs["absent_members"]),
    }
    return data | changes


def _game_form(game: Game, throwers=None, **changes) -> dict:
    """The admin's change form of a game as posted: its fields and its Schock-Aus rows."""
    rows = list(game.schock_aus.order_by("position")) if game.pk else []
    wanted = throwers if throwers is not None else [row.thrower for row in rows]
    data = {
        "number": str(game.number),
        "vorleger": str(game.vorleger_id or ""),
        "loser": str(game.loser_id),
        "schock_aus-TOTAL_FORMS": str(max(len(rows), len(wanted))),
        "schock_aus-INITIAL_FORMS": str(len(rows)),
        "schock_aus-MIN_NUM_FORMS": "0",
        "schock_aus-MAX_NUM_FORMS": "1000",
    }
    for i in range(max(len(rows), len(wanted))):
        row = rows[i] if i < len(rows) else None
        data[f"schock_aus-{i}-id"] = str(row.pk) if row else ""
        data[f"schock_aus-{i}-game"] = str(game.pk or "")
        data[f"schock_aus-{i}-position"] = str(i + 1)
        if i < len(wanted):
            data[f"schock_aus-{i}-thrower"] = str(wanted[i].pk)
        else:
            data[f"schock_aus-{i}-thrower"] = str(row.thrower_id)
            data[f"schock_aus-{i}-DELETE"] = "on"
    return data | changes


def _saved(response) -> None:
    """The admin answered a save with a redirect (an error page would be 200)."""
    assert response.status_code == 302, response.content.decode()[:2000]


# --- the admin's writers -------------------------------------------------------------------


def _nothing(_books):
    return None


def _evening_added(staff, books: Books, _before) -> None:
    p = books.people
    data = {
        "club": str(books.evening.club_id),
        "date": LATER.isoformat(),
        "secretary": str(p["Bernd Krause"].pk),
        "notes": "",
        "present_members": _ids([p["Anna Becker"], p["Bernd Krause"]]),
        "absent_members": _ids([p["Frank Roth"]]),
    }
    _saved(staff.post(_url(Evening, "add"), data))


def _attendance_changed(staff, books: Books, _before) -> None:
    url = _url(Evening, "change", books.evening.pk)
    _saved(staff.post(url, _evening_form(books, absent_members=[])))


def _evening_deleted(staff, books: Books, _before) -> None:
    _saved(staff.post(_url(Evening, "delete", books.evening.pk), {"post": "yes"}))


def _evenings_deleted_by_action(staff, books: Books, _before) -> None:
    data = {"action": "delete_selected", "_selected_action": [books.evening.pk], "post": "yes"}
    _saved(staff.post(_url(Evening, "changelist"), data))


def _game_added(staff, books: Books, _before) -> None:
    new = Game(evening=books.evening, number=26, loser=books.people["Anna Becker"])
    data = _game_form(new, throwers=[books.people["Carla Vogt"]], evening=books.evening.pk)
    _saved(staff.post(_url(Game, "add"), data))


def _loser_changed(staff, books: Books, _before) -> None:
    game = books.game(1)
    data = _game_form(game, loser=str(books.people["Carla Vogt"].pk))
    _saved(staff.post(_url(Game, "change", game.pk), data))


def _schock_aus_changed(staff, books: Books, _before) -> None:
    game = books.game(2)
    data = _game_form(game, throwers=[books.people["Dieter Hahn"]])
    _saved(staff.post(_url(Game, "change", game.pk), data))


def _game_deleted(staff, books: Books, _before) -> None:
    _saved(staff.post(_url(Game, "delete", books.game(1).pk), {"post": "yes"}))


def _games_deleted_by_action(staff, books: Books, _before) -> None:
    chosen = [books.game(24).pk, books.game(25).pk]
    data = {"action": "delete_selected", "_selected_action": chosen, "post": "yes"}
    _saved(staff.post(_url(Game, "changelist"), data))


def _payment_added(staff, books: Books, _before) -> None:
    data = {
        "member": str(books.people["Anna Becker"].pk),
        "season": "",
        "amount": "2.50",
        "paid_on": LATER.isoformat(),
        "method": "cash",
        "note": "",
    }
    _saved(staff.post(_url(Payment, "add"), data))


def _a_payment(books: Books) -> Payment:
    return payment_record(member=books.people["Anna Becker"], amount=Decimal("2.50"), paid_on=LATER)


def _payment_cancelled(staff, books: Books, payment: Payment) -> None:
    data = {"action": "cancel_payments", "_selected_action": [payment.pk], "index": "0"}
    _saved(staff.post(_url(Payment, "changelist"), data))


def _mark_value_changed(staff, books: Books, _before) -> None:
    season = books.season
    data = {
        "mark_value": "1.00",
        "rule_preset": season.rule_preset,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
    }
    _saved(staff.post(_url(Season, "change", season.pk), data))


def _runde_given(staff, books: Books, _before) -> None:
    data = {"schock_aus": str(books.schock_aus(3).pk), "given_on": LATER.isoformat(), "note": ""}
    _saved(staff.post(_url(RundeGiven, "add"), data))


def _give_runde(books: Books) -> RundeGiven:
    return runde_mark_given(schock_aus=books.schock_aus(3), given_on=LATER)


def _runde_taken_back(staff, books: Books, given: RundeGiven) -> None:
    _saved(staff.post(_url(RundeGiven, "delete", given.pk), {"post": "yes"}))


# admin action -> (what stands before the report is built, the action, figures that change)
ADMIN_WRITERS = {
    "evening added": (_nothing, _evening_added, {"standings", "evenings", "balances"}),
    "attendance changed": (_nothing, _attendance_changed, {"standings", "balances"}),
    "evening with games deleted": (_nothing, _evening_deleted, {"standings", "balances"}),
    "evenings deleted (action)": (_nothing, _evenings_deleted_by_action, {"standings"}),
    "game added": (_nothing, _game_added, {"standings", "runden", "balances"}),
    "loser changed": (_nothing, _loser_changed, {"standings", "balances"}),
    "Schock-Aus changed": (_nothing, _schock_aus_changed, {"standings", "runden"}),
    "game deleted": (_nothing, _game_deleted, {"standings", "evenings", "balances"}),
    "games deleted (action)": (_nothing, _games_deleted_by_action, {"standings", "balances"}),
    "payment added": (_nothing, _payment_added, {"money", "balances"}),
    "payment cancelled (action)": (_a_payment, _payment_cancelled, {"money", "balances"}),
    "Mark value changed": (_nothing, _mark_value_changed, {"money", "balances"}),
    "Runde given": (_nothing, _runde_given, {"runden"}),
    "Runde taken back": (_give_runde, _runde_taken_back, {"runden"}),
}


@pytest.mark.parametrize("action", ADMIN_WRITERS)
def test_every_admin_action_makes_the_ready_report_stale(
    staff, books, action, django_capture_on_commit_callbacks
):
    setup, act, _figures = ADMIN_WRITERS[action]
    before = setup(books)
    make_report_ready(books.season, django_capture_on_commit_callbacks)
    act(staff, books, before)
    assert report_state(season=books.season).state == "stale"


@pytest.mark.parametrize("action", ADMIN_WRITERS)
def test_every_admin_action_changes_the_figures_of_the_report(staff, books, action):
    setup, act, figures = ADMIN_WRITERS[action]
    before = setup(books)
    shown = report_figures(books.season)
    act(staff, books, before)
    assert changed_figures(shown, report_figures(books.season)) >= figures


# --- what the services do for the admin ------------------------------------------------------


def _open_charge(key: str) -> LedgerEntry:
    return LedgerEntry.objects.get(source_key=key, kind__in=CHARGE_KINDS, reversed_by__isnull=True)


def test_an_evening_with_games_is_deleted_in_the_admin_with_every_charge_reversed(staff, books):
    keys = set(
        LedgerEntry.objects.filter(evening_id_ref=books.evening.pk).values_list(
            "source_key", flat=True
        )
    )
    _evening_deleted(staff, books, None)
    assert not Evening.objects.filter(pk=books.evening.pk).exists()
    charges = LedgerEntry.objects.filter(source_key__in=keys, kind__in=CHARGE_KINDS)
    assert all(LedgerEntry.objects.filter(reverses=c).exists() for c in charges)
    reasons = set(LedgerEntry.objects.filter(kind="reversal").values_list("description", flat=True))
    assert reasons == {"game_deleted", "evening_deleted"}


def test_deleting_a_game_in_the_admin_reverses_its_charge(staff, books):
    key = f"game:{books.game(1).pk}"
    _game_deleted(staff, books, None)
    charge = LedgerEntry.objects.get(source_key=key, kind="game_lost")
    assert LedgerEntry.objects.filter(reverses=charge, description="game_deleted").exists()


def test_changing_a_loser_in_the_admin_moves_the_charge(staff, books):
    game = books.game(1)
    version = Evening.objects.get(pk=books.evening.pk).version
    _loser_changed(staff, books, None)
    assert _open_charge(f"game:{game.pk}").member.name == "Carla Vogt"
    assert Evening.objects.get(pk=books.evening.pk).version == version + 1


def test_a_game_added_in_the_admin_keeps_its_schock_aus_in_throwing_order(staff, books):
    _game_added(staff, books, None)
    game = books.game(26)
    assert [sa.thrower.name for sa in game.schock_aus.all()] == ["Carla Vogt"]
    assert _open_charge(f"game:{game.pk}").member.name == "Anna Becker"


def test_a_payment_added_in_the_admin_is_booked_in_the_ledger(staff, books):
    _payment_added(staff, books, None)
    payment = Payment.objects.get()
    entry = LedgerEntry.objects.get(payment=payment)
    assert (payment.season, payment.created_by.username) == (books.season, "admin")
    assert (entry.kind, entry.amount) == ("payment", Decimal("-2.50"))


def test_a_payment_cancelled_in_the_admin_is_reversed_and_stays_visible(staff, books):
    payment = _a_payment(books)
    _payment_cancelled(staff, books, payment)
    entry = LedgerEntry.objects.get(payment=payment)
    reversal = LedgerEntry.objects.get(reverses=entry)
    assert (reversal.amount, reversal.description) == (Decimal("2.50"), "payment_cancelled")
    assert Payment.objects.filter(pk=payment.pk).exists()


def test_a_payment_cancelled_twice_in_the_admin_is_reversed_once(staff, books):
    payment = _a_payment(books)
    _payment_cancelled(staff, books, payment)
    _payment_cancelled(staff, books, payment)
    assert LedgerEntry.objects.filter(reverses__payment=payment).count() == 1


def test_a_mark_value_changed_in_the_admin_rebooks_the_charges(staff, books):
    anna = books.people["Anna Becker"]
    _mark_value_changed(staff, books, None)
    assert Season.objects.get(pk=books.season.pk).mark_value == Decimal("1.00")
    open_charges = LedgerEntry.objects.filter(
        member=anna, kind__in=CHARGE_KINDS, reversed_by__isnull=True
    )
    assert open_charges and all(c.amount == c.marks * Decimal("1.00") for c in open_charges)


def test_a_season_added_in_the_admin_takes_the_mark_value_of_its_year(staff):
    club = ClubFactory(name="Alter Club")
    data = {
        "club": club.pk,
        "year": 2001,
        "starts_on": "2001-01-01",
        "ends_on": "2001-12-31",
        "rule_preset": "club",
    }
    _saved(staff.post(_url(Season, "add"), data))
    season = Season.objects.get(club=club, year=2001)
    assert (season.mark_value, season.currency) == (Decimal("1.00"), "DM")


def test_a_runde_given_in_the_admin_names_who_recorded_it(staff, books):
    _runde_given(staff, books, None)
    assert RundeGiven.objects.get().recorded_by.username == "admin"


# --- refusals: shown, nothing written ------------------------------------------------------


def test_a_refused_game_shows_the_reason_on_the_form_and_writes_nothing(staff, books):
    version = Season.objects.get(pk=books.season.pk).data_version
    absent = books.people["Frank Roth"]
    new = Game(evening=books.evening, number=26, loser=absent)
    response = staff.post(_url(Game, "add"), _game_form(new, evening=books.evening.pk))
    assert response.status_code == 200
    assert "Frank Roth" in response.content.decode()
    assert response.context["adminform"].form.errors
    assert not books.evening.games.filter(number=26).exists()
    assert Season.objects.get(pk=books.season.pk).data_version == version


def test_a_refused_mark_value_keeps_the_input_on_the_form(staff, books):
    season = books.season
    data = {
        "mark_value": "0.50",
        "rule_preset": season.rule_preset,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": "2026-10-01",
    }
    response = staff.post(_url(Season, "change", season.pk), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    assert Season.objects.get(pk=season.pk).ends_on == datetime.date(2026, 12, 31)


def test_an_evening_whose_runde_was_given_is_not_deleted_in_the_admin(staff, books):
    _give_runde(books)
    staff.post(_url(Evening, "delete", books.evening.pk), {"post": "yes"})
    assert Evening.objects.filter(pk=books.evening.pk).exists()
    assert not LedgerEntry.objects.filter(kind="reversal").exists()


def test_a_payment_cannot_be_edited_or_deleted_in_the_admin(staff, books):
    payment = _a_payment(books)
    change = staff.post(_url(Payment, "change", payment.pk), {"amount": "1.00"})
    delete = staff.post(_url(Payment, "delete", payment.pk), {"post": "yes"})
    assert (change.status_code, delete.status_code) == (403, 403)
    assert Payment.objects.get(pk=payment.pk).amount == Decimal("2.50")


def test_a_payment_cannot_be_reverted_from_its_history(staff, books):
    payment = _a_payment(books)
    version = payment.history.first()
    url = reverse("admin:league_payment_simple_history", args=[payment.pk, version.pk])
    assert staff.post(url, {"amount": "1.00"}).status_code == 403


@pytest.mark.parametrize(
    "model", [Attendance, SchockAus, Round, RoundThrow, LedgerEntry], ids=lambda m: m.__name__
)
def test_records_written_only_through_their_evening_or_game_are_read_only(model):
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(username="admin", is_staff=True, is_superuser=True)
    model_admin = admin.site._registry[model]
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def test_an_attendance_cannot_be_changed_past_its_evening(staff, books):
    attendance = books.evening.attendances.get(member__name="Frank Roth")
    response = staff.post(_url(Attendance, "change", attendance.pk), {"role": "member"})
    assert response.status_code == 403
    assert Attendance.objects.get(pk=attendance.pk).role == "absent"


@pytest.mark.parametrize(
    "model", [Evening, Game, Payment, Season, RundeGiven], ids=lambda m: m.__name__
)
def test_the_admin_add_forms_of_the_books_open(staff, books, model):
    assert staff.get(_url(model, "add")).status_code == 200


def test_the_admin_asks_before_deleting_an_evening_with_its_games(staff, books):
    response = staff.get(_url(Evening, "delete", books.evening.pk))
    assert response.status_code == 200
    assert not response.context["perms_lacking"] and not response.context["protected"]


def test_the_evening_change_form_shows_its_attendance(staff, books):
    response = staff.get(_url(Evening, "change", books.evening.pk))
    form = response.context["adminform"].form
    frank = books.people["Frank Roth"]
    assert form["absent_members"].value() == [frank.pk]


def test_a_games_history_can_be_read_but_not_reverted_in_the_admin(staff, books):
    game = books.game(1)
    _loser_changed(staff, books, None)
    old = game.history.order_by("history_id").first()
    assert staff.get(_url(Game, "history", game.pk)).status_code == 200
    url = reverse("admin:games_game_simple_history", args=[game.pk, old.pk])
    assert staff.get(url).status_code == 200
    assert staff.post(url, _game_form(game)).status_code == 403
    assert Game.objects.get(pk=game.pk).loser.name == "Carla Vogt"
