"""Every record of the books leaves a history line with who, when, before -> after, also when
written in bulk; the audit selectors and GET /api/v1/history/ show it per
evening, per person and in the club's latest changes.

One test per record type and path: club, season, member, login role, evening, attendance,
game, Schock-Aus, round, throw, payment, reversal, Runde given, and the club-book import.
Pages write through HistoryRequestMiddleware, the API by token (no middleware sees that
user before DRF authenticates it), services called by hand through `acting_as`.
"""

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.services import evening_create, evening_update, game_record, game_update
from games.rounds.models import Round, RoundThrow
from games.rounds.services import game_record_rounds
from league.audit.selectors import AuditLine, club_audit_recent, evening_audit, member_audit
from league.club.models import Club, Member, Season
from league.club.services import member_login_set, season_get_or_create, season_update
from league.clubbook.services import club_book_import
from league.ledger.models import LedgerEntry, Payment
from league.ledger.services import payment_cancel, payment_record
from league.runden.models import RundeGiven
from league.runden.services import runde_mark_given
from tests.conftest import SAMPLES
from tests.factories import UserFactory
from tests.games.rounds.sample import game_20_rounds
from tests.league.audit.conftest import DAY, WHEN, acting_as
from tests.sample import sample_club

pytestmark = pytest.mark.django_db

LATER = WHEN + datetime.timedelta(minutes=25)
SHOWN_DAY = "09.10.2026"


def _line(lines: list[AuditLine], what: str, action: str) -> AuditLine:
    """The newest line about `what` with `action` ("+", "~", "-")."""
    found = [line for line in lines if line.what == what and line.action == action]
    assert found, [(line.what, line.action) for line in lines]
    return found[0]


def _changes(line: AuditLine) -> dict[str, tuple[str, str]]:
    return {c.label: (c.before, c.after) for c in line.changes}


def _game_text(number: int) -> str:
    return _("game %(number)s on %(date)s") % {"number": number, "date": SHOWN_DAY}


def _latest(model, **filters):
    return model.history.filter(**filters).order_by("-history_date", "-history_id").first()


@pytest.fixture
def evening(page, cast) -> Evening:
    """The evening of WHEN entered on the page: Bernd, Anna, Carla present, Gustav a guest,
    Frank absent; game 1 lost by Carla with a Schock-Aus by Anna."""
    response = page.post(
        reverse("evening_create"),
        {
            "date": DAY.isoformat(),
            "secretary": cast.secretary.pk,
            **{f"role_{m.pk}": "member" for m in (cast.secretary, cast.anna, cast.carla)},
            f"role_{cast.frank.pk}": "absent",
            "guests": [cast.guest.pk],
            "new_guests": "",
            "notes": "",
        },
    )
    assert response.status_code == 302
    evening = Evening.objects.get(club=cast.club, date=DAY)
    response = page.post(
        reverse("game_entry", args=[evening.pk]),
        {"number": 1, "vorleger": "", "loser": cast.carla.pk, "schock_aus": [cast.anna.pk]},
    )
    assert response.status_code == 302
    return evening


# --- evening, attendance, game, Schock-Aus: the entry page, in bulk -------------------------


def test_an_evening_entered_on_the_page_has_its_history_line(evening, cast):
    record = Evening.history.get(id=evening.pk, history_type="+")
    assert (record.history_user, record.history_date) == (cast.secretary.user, WHEN)
    line = _line(
        evening_audit(evening_id=evening.pk), _("Evening of %(date)s") % {"date": SHOWN_DAY}, "+"
    )
    assert (line.who, line.when, _changes(line)[_("date")]) == (
        "Bernd Krause",
        WHEN,
        ("", SHOWN_DAY),
    )


def test_attendance_written_in_bulk_on_the_page_has_a_history_line_each(evening, cast):
    records = Attendance.history.filter(evening_id=evening.pk)
    assert records.count() == Attendance.objects.filter(evening=evening).count() == 5
    authors = {(r.history_type, r.history_user_id, r.history_date) for r in records}
    assert authors == {("+", cast.secretary.user.pk, WHEN)}


def test_attendance_lines_show_in_the_evenings_and_the_persons_history(evening, cast):
    what = _("Attendance of %(name)s on %(date)s") % {"name": "Frank Roth", "date": SHOWN_DAY}
    line = _line(member_audit(member=cast.frank), what, "+")
    assert (line.who, line.when, line.evening_id) == ("Bernd Krause", WHEN, evening.pk)
    assert _changes(line)[_("role")] == ("", str(Attendance.Role.ABSENT.label))
    assert _line(evening_audit(evening_id=evening.pk), what, "+") == line


def test_an_attendance_change_shows_the_role_before_and_after(evening, cast, frozen):
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):
        evening_update(
            evening=evening,
            date=DAY,
            secretary=cast.secretary,
            present_members=[cast.secretary, cast.anna, cast.carla, cast.frank],
            guests=[cast.guest],
        )
    what = _("Attendance of %(name)s on %(date)s") % {"name": "Frank Roth", "date": SHOWN_DAY}
    line = _line(evening_audit(evening_id=evening.pk), what, "~")
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    assert _changes(line)[_("role")] == (
        str(Attendance.Role.ABSENT.label),
        str(Attendance.Role.MEMBER.label),
    )


def test_a_game_entered_on_the_page_has_its_history_line(evening, cast):
    game = evening.games.get()
    record = Game.history.get(id=game.pk)
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        WHEN,
    )
    line = _line(evening_audit(evening_id=evening.pk), _game_text(1).capitalize(), "+")
    assert _changes(line)[_("loser")] == ("", "Carla Vogt")
    assert _line(member_audit(member=cast.carla), _game_text(1).capitalize(), "+") == line


def test_schock_aus_written_in_bulk_on_the_page_have_their_history_line(evening, cast):
    record = SchockAus.history.get()
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        WHEN,
    )
    what = _("Schock-Aus in %(game)s") % {"game": _game_text(1)}
    line = _line(member_audit(member=cast.anna), what, "+")
    assert (line.who, line.evening_id, _changes(line)[_("thrower")]) == (
        "Bernd Krause",
        evening.pk,
        ("", "Anna Becker"),
    )
    assert _line(evening_audit(evening_id=evening.pk), what, "+") == line


def test_a_game_corrected_through_the_api_shows_the_loser_before_and_after(
    evening, cast, api, frozen
):
    frozen.move_to(LATER)
    game = evening.games.get()
    response = api.patch(
        f"/api/v1/games/{game.pk}/", {"loser": cast.anna.pk, "version": game.version}, format="json"
    )
    assert response.status_code == 200
    record = _latest(Game, id=game.pk)
    assert (record.history_type, record.history_user) == ("~", cast.secretary.user)
    line = _line(evening_audit(evening_id=evening.pk), _game_text(1).capitalize(), "~")
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    assert _changes(line)[_("loser")] == ("Carla Vogt", "Anna Becker")


def test_replaced_schock_aus_leave_a_deleted_and_a_created_line(evening, cast, frozen):
    frozen.move_to(LATER)
    game = evening.games.get()
    with acting_as(cast.secretary.user):
        game_update(game=game, loser=cast.carla, schock_aus_throwers=[cast.secretary])
    what = _("Schock-Aus in %(game)s") % {"game": _game_text(1)}
    lines = evening_audit(evening_id=evening.pk)
    deleted, created = _line(lines, what, "-"), _line(lines, what, "+")
    assert (deleted.who, deleted.when) == ("Bernd Krause", LATER)
    assert _changes(created)[_("thrower")] == ("", "Bernd Krause")


# --- rounds and throws -------------------------------------------------------------------------


@pytest.fixture
def rounds_game(db, frozen, sample_evening):
    """The sample evening, game 20 entered round by round by its secretary (a login), the
    games before it short."""
    club, people = sample_club(sample_evening)
    ev = sample_evening["evening"]
    season_get_or_create(club=club, year=2026)
    secretary = people[ev["secretary"]]
    member_login_set(person=secretary, user=UserFactory(username="buchfuehrer"))
    evening = evening_create(
        club=club,
        date=DAY,
        secretary=secretary,
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
    )
    for game in ev["games"][:19]:
        game_record(
            evening=evening,
            number=game["number"],
            loser=people[game["loser"]],
            schock_aus_throwers=[people[n] for n in game["schock_aus"]],
        )
    with acting_as(secretary.user):
        game = game_record_rounds(
            evening=evening, number=20, rounds=game_20_rounds(sample_evening, people)
        )
    return game, people


def test_rounds_have_their_history_line(rounds_game):
    game, people = rounds_game
    records = Round.history.filter(game_id=game.pk)
    assert records.count() == game.rounds.count() == 4
    assert {(r.history_type, r.history_user.username, r.history_date) for r in records} == {
        ("+", "buchfuehrer", WHEN)
    }
    what = _("Round %(number)s of %(game)s") % {"number": 4, "game": _game_text(20)}
    line = _line(evening_audit(evening_id=game.evening_id), what, "+")
    assert _changes(line)[_("loser")] == ("", "Anna Becker")
    assert _line(member_audit(member=people["Anna Becker"]), what, "+") == line


def test_throws_written_in_bulk_have_their_history_line(rounds_game):
    game, people = rounds_game
    records = RoundThrow.history.filter(round_id__in=game.rounds.values("id"))
    assert records.count() == RoundThrow.objects.filter(round__game=game).count() > 0
    round_text = _("round %(number)s of %(game)s") % {"number": 4, "game": _game_text(20)}
    what = _("Throw of %(name)s in %(round)s") % {"name": "Anna Becker", "round": round_text}
    line = _line(member_audit(member=people["Anna Becker"]), what, "+")
    assert (line.who, line.when, line.evening_id) == ("Bernd Krause", WHEN, game.evening_id)
    assert _line(evening_audit(evening_id=game.evening_id), what, "+") == line


# --- payments, reversals, Runden -------------------------------------------------------------


def test_a_payment_recorded_through_the_api_has_its_history_line(cast, api):
    body = {"member": cast.anna.pk, "amount": "2.00", "paid_on": DAY.isoformat()}
    assert api.post("/api/v1/payments/", body, format="json").status_code == 201
    record = Payment.history.get()
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        WHEN,
    )
    line = _line(
        member_audit(member=cast.anna), _("Payment of %(name)s") % {"name": "Anna Becker"}, "+"
    )
    assert (line.who, _changes(line)[_("amount")]) == ("Bernd Krause", ("", "2,00\u00a0€"))


def test_a_cancelled_payment_leaves_a_reversal_line_with_who_and_when(cast, api, frozen):
    payment = payment_record(member=cast.anna, amount=Decimal("2.00"), paid_on=DAY)
    frozen.move_to(LATER)
    assert api.post(f"/api/v1/payments/{payment.pk}/cancel/").status_code in (200, 201)
    record = LedgerEntry.history.get(kind=LedgerEntry.Kind.REVERSAL)
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        LATER,
    )
    what = _("Reversal in the account of %(name)s: %(reason)s") % {
        "name": "Anna Becker",
        "reason": _("payment cancelled"),
    }
    line = _line(member_audit(member=cast.anna), what, "+")
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    # The payment's line was -2.00 (money in); its reversal owes the 2.00 again.
    assert _changes(line)[_("amount")] == ("", "2,00\u00a0€")


def test_a_cancelled_payment_is_a_change_of_the_payment_too(cast, frozen):
    payment = payment_record(member=cast.anna, amount=Decimal("2.00"), paid_on=DAY)
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):
        payment_cancel(payment=payment)
    line = _line(
        member_audit(member=cast.anna), _("Payment of %(name)s") % {"name": "Anna Becker"}, "~"
    )
    assert (line.who, line.when, line.reason) == ("Bernd Krause", LATER, "payment_cancelled")


def test_a_corrected_loser_leaves_a_reversal_line(evening, cast, api, frozen):
    frozen.move_to(LATER)
    game = evening.games.get()
    api.patch(
        f"/api/v1/games/{game.pk}/", {"loser": cast.anna.pk, "version": game.version}, format="json"
    )
    record = LedgerEntry.history.get(kind=LedgerEntry.Kind.REVERSAL)
    assert (record.history_user, record.history_date) == (cast.secretary.user, LATER)
    what = _("Reversal in the account of %(name)s: %(reason)s") % {
        "name": "Carla Vogt",
        "reason": _("loser corrected"),
    }
    assert _line(evening_audit(evening_id=evening.pk), what, "+").who == "Bernd Krause"


def test_a_runde_given_on_the_page_has_its_history_line(evening, cast, page, frozen):
    frozen.move_to(LATER)
    schock_aus = SchockAus.objects.get()
    response = page.post(reverse("runde_given", args=[schock_aus.pk]), {"given_on": "2026-10-16"})
    assert response.status_code == 302
    record = RundeGiven.history.get()
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        LATER,
    )
    what = _("Runde of %(name)s for the Schock-Aus in %(game)s") % {
        "name": "Anna Becker",
        "game": _game_text(1),
    }
    line = _line(member_audit(member=cast.anna), what, "+")
    assert (line.who, line.evening_id, _changes(line)[_("given on")]) == (
        "Bernd Krause",
        evening.pk,
        ("", "16.10.2026"),
    )
    assert _line(evening_audit(evening_id=evening.pk), what, "+") == line


def test_a_runde_taken_back_on_the_page_leaves_a_deleted_line(evening, cast, page):
    schock_aus = SchockAus.objects.get()
    with acting_as(cast.secretary.user):
        runde_mark_given(schock_aus=schock_aus, given_on=DAY)
    assert page.post(reverse("runde_undo", args=[schock_aus.pk])).status_code == 302
    what = _("Runde of %(name)s for the Schock-Aus in %(game)s") % {
        "name": "Anna Becker",
        "game": _game_text(1),
    }
    assert _line(evening_audit(evening_id=evening.pk), what, "-").who == "Bernd Krause"


# --- the club, its seasons and people, login roles -------------------------------------------


def test_a_renamed_club_shows_the_name_before_and_after(cast, frozen):
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):  # what the admin's change form does
        cast.club.name = "Heimclub 1979"
        cast.club.save()
    line = _line(
        club_audit_recent(club=cast.club), _("Club %(name)s") % {"name": "Heimclub 1979"}, "~"
    )
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    assert _changes(line)[_("name")] == ("Heimclub", "Heimclub 1979")


def test_a_season_created_on_the_page_is_in_the_clubs_history(cast, page):
    response = page.post(reverse("season_create"), {"year": 2027, "rule_preset": "club"})
    assert response.status_code == 302
    record = Season.history.get(year=2027)
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        WHEN,
    )
    line = _line(club_audit_recent(club=cast.club), _("Season %(year)s") % {"year": 2027}, "+")
    assert (line.who, _changes(line)[_("value of one Mark")]) == (
        "Bernd Krause",
        ("", "0,50\u00a0€"),
    )


def test_a_new_mark_value_shows_before_and_after(cast, frozen):
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):
        season_update(season=cast.season, mark_value=Decimal("1.00"))
    line = _line(club_audit_recent(club=cast.club), _("Season %(year)s") % {"year": 2026}, "~")
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    assert _changes(line) == {_("value of one Mark"): ("0,50\u00a0€", "1,00\u00a0€")}


def test_moving_the_seasons_data_version_writes_no_history_line(cast, evening):
    """Every write moves the season's data version (a cache key): no history line."""
    assert Season.history.filter(id=cast.season.pk).count() == 1


def test_a_member_created_through_the_api_names_the_secretary(cast, api):
    response = api.post("/api/v1/members/", {"name": "Hans Neu"}, format="json")
    assert response.status_code == 201
    hans = Member.objects.get(name="Hans Neu")
    record = Member.history.get(id=hans.pk)
    assert (record.history_type, record.history_user, record.history_date) == (
        "+",
        cast.secretary.user,
        WHEN,
    )
    what = _("Person %(name)s") % {"name": "Hans Neu"}
    line = _line(member_audit(member=hans), what, "+")
    assert (line.who, _changes(line)[_("name")]) == ("Bernd Krause", ("", "Hans Neu"))
    assert _line(club_audit_recent(club=cast.club), what, "+") == line


def test_a_login_role_change_shows_the_secretary_flag_and_the_login_before_and_after(cast, frozen):
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):  # what the admin's change form does
        cast.anna.is_secretary = True
        member_login_set(
            person=cast.anna, user=UserFactory(username="anna"), also_saved=["is_secretary"]
        )
    what = _("Person %(name)s") % {"name": "Anna Becker"}
    line = _line(member_audit(member=cast.anna), what, "~")
    assert (line.who, line.when) == ("Bernd Krause", LATER)
    assert _changes(line) == {_("secretary"): (_("no"), _("yes")), _("login"): ("–", "anna")}
    assert _line(club_audit_recent(club=cast.club), what, "~") == line


def test_the_api_shows_a_login_role_change_for_the_person_and_the_club(cast, api, frozen):
    frozen.move_to(LATER)
    with acting_as(cast.secretary.user):
        cast.anna.is_secretary = True
        cast.anna.save()
    what = _("Person %(name)s") % {"name": "Anna Becker"}
    for query in (f"?member={cast.anna.pk}", ""):
        first = api.get(f"/api/v1/history/{query}").json()["results"][0]
        assert (first["what"], first["action"], first["who"]) == (what, "~", "Bernd Krause")
        assert first["when"] == LATER.isoformat()


# --- the API writes by token, also in bulk ------------------------------------------------------


def test_an_evening_created_through_the_api_names_its_author_on_every_attendance_line(cast, api):
    body = {
        "date": DAY.isoformat(),
        "present_members": [cast.secretary.pk, cast.anna.pk],
        "absent_members": [cast.frank.pk],
    }
    response = api.post("/api/v1/evenings/", body, format="json")
    assert response.status_code == 201
    records = Attendance.history.filter(evening_id=response.json()["id"])
    assert {r.history_user for r in records} == {cast.secretary.user}
    body = api.get(f"/api/v1/history/?evening={response.json()['id']}").json()
    assert {line["who"] for line in body["results"]} == {"Bernd Krause"}
    assert body["count"] == 4  # the evening and three attendance lines


# --- the club-book import ---------------------------------------------------------------------

ATTENDANCE = (SAMPLES / "club-book-attendance.csv").read_bytes()
GAMES = (SAMPLES / "club-book-games.csv").read_bytes()
IMPORTED = [Club, Member, Season, Evening, Attendance, Game, SchockAus, LedgerEntry]


@pytest.fixture
def imported(db, frozen):
    """The sample club book imported by the user "kassenwart" (no person of the club)."""
    user = UserFactory(username="kassenwart")
    result = club_book_import(
        club_name="Schockclub Sample", attendance=ATTENDANCE, games=GAMES, user=user
    )
    assert result.ok
    return Club.objects.get(name="Schockclub Sample"), user


@pytest.mark.parametrize("model", IMPORTED, ids=[m.__name__ for m in IMPORTED])
def test_the_import_writes_a_history_line_for_every_row(imported, model):
    _club, user = imported
    records = model.history.all()
    assert records.count() == model.objects.count() > 0
    assert {
        (r.history_type, r.history_user_id, r.history_date, r.history_change_reason)
        for r in records
    } == {("+", user.pk, WHEN, "club book import")}


def test_the_imported_ledger_lines_are_the_rows_as_written(imported):
    for entry in LedgerEntry.objects.all():
        record = LedgerEntry.history.get(id=entry.pk)
        assert (record.member_id, record.amount, record.source_key) == (
            entry.member_id,
            entry.amount,
            entry.source_key,
        )


def test_an_imported_evening_shows_its_import_lines(imported):
    club, _user = imported
    evening = Evening.objects.get(club=club)
    lines = evening_audit(evening_id=evening.pk)
    expected = sum(
        model.objects.filter(**scope).count()
        for model, scope in [
            (Evening, {"pk": evening.pk}),
            (Attendance, {"evening": evening}),
            (Game, {"evening": evening}),
            (SchockAus, {"game__evening": evening}),
        ]
    )
    assert len(lines) == expected
    assert {(line.who, line.when, line.reason_label) for line in lines} == {
        ("kassenwart", WHEN, _("club book import"))
    }


def test_an_imported_person_shows_the_import_in_the_own_history(imported):
    club, _user = imported
    anna = Member.objects.get(club=club, name="Anna Becker")
    line = _line(member_audit(member=anna), _("Person %(name)s") % {"name": "Anna Becker"}, "+")
    assert (line.who, line.reason) == ("kassenwart", "club book import")


def test_the_imports_records_stay_out_of_the_clubs_latest_changes(imported):
    club, _user = imported
    assert club_audit_recent(club=club) == []


def test_the_import_command_without_a_user_records_no_author(db, frozen):
    call_command(
        "import_club_book",
        str(SAMPLES / "club-book-attendance.csv"),
        str(SAMPLES / "club-book-games.csv"),
        "--club",
        "Schockclub Sample",
    )
    assert set(Game.history.values_list("history_user", flat=True)) == {None}
    evening = Evening.objects.get()
    assert {line.who for line in evening_audit(evening_id=evening.pk)} == {_("import")}


# --- a fixed number of queries ------------------------------------------------------------------


def _queries(function) -> int:
    with CaptureQueriesContext(connection) as context:
        function()
    return len(context.captured_queries)


def _busy_evening(cast, day: int) -> Evening:
    """An evening with attendance, a game corrected, a Schock-Aus whose Runde was given, a
    payment cancelled and a login changed, all by the secretary."""
    date = datetime.date(2026, 10, day)
    with acting_as(cast.secretary.user):
        evening = evening_create(
            club=cast.club,
            date=date,
            secretary=cast.secretary,
            present_members=[cast.secretary, cast.anna, cast.carla],
            guests=[cast.guest],
            absent_members=[cast.frank],
        )
        game = game_record(evening=evening, loser=cast.carla, schock_aus_throwers=[cast.anna])
        game_update(game=game, loser=cast.anna, schock_aus_throwers=[cast.anna])
        runde_mark_given(schock_aus=game.schock_aus.get(), given_on=date)
        payment_cancel(payment=payment_record(member=cast.anna, amount=Decimal("1"), paid_on=date))
        cast.anna.is_secretary = not cast.anna.is_secretary
        cast.anna.save()
    return evening


@pytest.mark.parametrize("selector", ["evening", "person", "club"])
def test_an_audit_selector_reads_as_many_queries_for_three_evenings_as_for_one(cast, selector):
    def count(evening):
        return _queries(
            {
                "evening": lambda: evening_audit(evening_id=evening.pk),
                "person": lambda: member_audit(member=cast.anna),
                "club": lambda: club_audit_recent(club=cast.club),
            }[selector]
        )

    one = count(_busy_evening(cast, 9))
    _busy_evening(cast, 16)
    assert count(_busy_evening(cast, 23)) == one
