"""The kept-read oracle: after every writer, every kept read answers what an empty cache
would answer.

About 65 reads of a club's books are kept (league/club/caching.py: `books_cached`,
`books_cached_many`, `books_fragment`, `books_page`; league/club/api_common.py:
`kept_api_list`, `kept_api_object`; `{% books_cache %}`; the API views' ETags and 304s).
A key that misses something a read shows serves the old answer after a write. Here, for
each WRITER (a service that writes, an admin form or action, a management command, a
Celery task, and the clock moving to a new day), on a small club (a secretary, a member and
a guest with logins, two seasons, two evenings with games, a payment, a Runde given, a
stored season report):

1. every KEPT READ is asked as the secretary, the member and the guest (the cache warm);
   a writer whose write needs something the cast lacks (a closed season to reopen, a
   token to revoke) has it made by its SETUP first, and the reads are asked again then;
2. the writer performs one representative write;
3. each read is asked again through the cache as it is, and with the ETag of step 1 in
   `If-None-Match` (a 304 keeps the old body in the browser);
4. the cache is emptied and each read asked once more: the answer of an empty cache.

Status and body of 3 must equal 4 (CSRF tokens and nonces masked), and a 304 in 3 is only
right when the body of 1 equals 4. The stored season report is compared with one built
from nothing.

The completeness tests fail when a writer or a kept read exists that the tables below do
not name: the public functions of the service modules (minus the reads listed in
`READS_ONLY`), the admin's writes (add, change, delete, actions), the management commands,
the Celery tasks, and every URL whose view reaches a caching helper (found by following the
view's code: the names it calls, transitively through the project's modules, and the
templates it renders).

Stale answers on main today are listed in `KNOWN_STALE` (writer, read) -> why; each is a
strict xfail: when the stale answer is fixed, its test passes, fails as XPASS, and the
entry must go.
"""

from __future__ import annotations

import datetime
import functools
import importlib
import inspect
import io
import logging
import pickle
import re
import tempfile
import types
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import time_machine
from axes.models import AccessAttempt
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.core.management import call_command, get_commands
from django.db import transaction
from django.template import TemplateDoesNotExist
from django.template.base import Template
from django.template.loader import get_template
from django.test import Client, RequestFactory, override_settings
from django.urls import get_resolver
from django.urls.resolvers import URLResolver

from games.evenings.models import Evening, Game
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_finalise,
    evening_update,
    game_delete,
    game_record,
    game_undo,
    game_update,
    objection_answer,
    objection_create,
    planned_evening_add,
    planned_evening_cancel,
    planned_evening_move,
)
from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from games.rounds.services import (
    game_record_rounds,
)
from league.backup.selectors import (
    club_backup,
)
from league.backup.services import (
    club_restore,
)
from league.banking.bank_import import (
    BankLine,
    bank_lines_book,
    bank_lines_match,
    line_key,
    parse_bank_csv,
)
from league.banking.girocode import girocode_reference
from league.banking.reminders import payment_reminders_send
from league.banking.services import (
    club_bank_account_set,
    notification_choice_set,
    payment_reminders_set,
    push_subscription_delete,
    push_subscription_save,
    push_subscriptions_of_login_delete,
)
from league.banking.settlement import bank_statement_import
from league.closing.services import season_close, season_reopen, season_sign_off
from league.club import api_common, caching
from league.club.accounts.services import (
    api_token_create,
    api_token_logout,
    api_token_revoke,
    api_tokens_revoke,
    login_email_set,
    login_lockout_lift,
    password_change,
    password_set,
)
from league.club.models import Club, Member, Season
from league.club.services import (
    club_create,
    club_statutes_update,
    club_suspend,
    guest_to_member,
    login_create,
    login_invitation,
    login_lock,
    member_calendar_revoke,
    member_change,
    member_create,
    member_login_set,
    member_merge,
    member_update,
    season_create,
    season_get_or_create,
    season_statutes_update,
    season_update,
    secretary_set,
)
from league.club.signup.services import club_signup_confirm, club_signup_request
from league.clubbook.services import club_book_import
from league.ledger.models import Payment
from league.ledger.services import payment_cancel, payment_record
from league.reports import pdf as report_pdf
from league.reports.builds import report_build_request, report_refresh_if_stale
from league.reports.models import ReportBuild
from league.reports.runs import report_build_fail, report_build_retrying, report_build_run
from league.runden.services import runde_mark_given, runde_unmark, runden_mark_evening_given
from league.sharing.models import WallScreen
from league.sharing.services import wall_screen_create, wall_screen_revoke
from tests.factories import ClubFactory
from tests.passwords import FAST_HASHERS

# The writer x kept-read matrix carries the `oracle` marker (minutes of CPU: `make oracle`);
# the completeness tests below it are cheap and run in `make test`, so a writer or kept read
# added without its line in the tables fails the suite.
pytestmark = [pytest.mark.django_db]

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
# Today for every test: the last day of the 2025 season; the 2026 season exists already.
# The next morning is in 2026 (the logins' sessions still valid).
TODAY = datetime.datetime(2025, 12, 31, 21, 0, tzinfo=BERLIN)
NEW_YEAR = datetime.datetime(2026, 1, 1, 10, 0, tzinfo=BERLIN)
PASSWORD = "schocken-123"
ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- the club


GAMELESS = datetime.date(2025, 11, 14)  # the cast's evening without games


@dataclass
class Books:
    """The small club of the oracle and what its writers and reads need."""

    club: Club
    s25: Season
    s26: Season
    secretary: Member
    member: Member
    guest: Member
    absent: Member
    evening: Evening  # 2025-11-07, four games
    evening2: Evening  # 2025-11-21, two games
    tonight: Evening  # 2025-12-31, TODAY's: one game (the home page's and the wall's evening)
    game: Game  # game 1 of `evening`: lost by the member, the secretary's Schock-Aus (a Runde)
    payment: Payment
    build: ReportBuild
    wall: str  # the token of the club's wall screen link (/tafel/<token>/)
    clock: Any
    admin: Client = field(default_factory=Client)
    # What a writer's setup (SETUPS) made for its write: reset before each writer.
    made: dict[str, Any] = field(default_factory=dict)

    @property
    def ids(self) -> dict[str, Any]:
        return {
            "club": self.club.pk,
            "season": self.s25.pk,
            "year": self.s25.year,
            "member": self.member.pk,
            "secretary": self.secretary.pk,
            "guest": self.guest.pk,
            "evening": self.evening.pk,
            "game": self.game.pk,
            "payment": self.payment.pk,
            "wall": self.wall,
        }

    def fresh(self, obj):
        return type(obj).objects.get(pk=obj.pk)


def _login(person: Member, username: str) -> None:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    member_login_set(person=person, user=user)


def _build_books(clock) -> Books:
    """The club, written through the services (its people through the factories' way of
    the page tests: a person and a login)."""
    club = club_create(name="Schockclub Eintracht", secretary_name="Bernd Krause").club
    secretary = Member.objects.get(club=club, name="Bernd Krause")
    member = member_create(club=club, name="Anna Becker")
    guest = member_create(club=club, name="Gustav Meier", kind=Member.Kind.GUEST)
    absent = member_create(club=club, name="Frank Roth")
    for person, username in ((secretary, "bernd"), (member, "anna"), (guest, "gustav")):
        login = login_create(person=person, username=username)
        # The holder's own, as the invitation sets it (a Kassenprüfer signs only then).
        password_set(user=login, password=PASSWORD, by_holder=True)
    s25 = season_get_or_create(club=club, year=2025)
    s26 = season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2025, 11, 7),
        secretary=secretary,
        present_members=[secretary, member],
        guests=[guest],
        absent_members=[absent],
    )
    game = game_record(evening=evening, loser=member, schock_aus_throwers=[secretary])
    game_record(evening=evening, loser=guest, schock_aus_throwers=[member])
    game_record(evening=evening, loser=secretary)
    game_record(evening=evening, loser=member, schock_aus_throwers=[member, guest])
    evening2 = evening_create(
        club=club,
        date=datetime.date(2025, 11, 21),
        secretary=secretary,
        present_members=[secretary, member, absent],
    )
    game_record(evening=evening2, loser=absent, schock_aus_throwers=[secretary])
    game_record(evening=evening2, loser=member)
    # An evening without games (its absent member charged): deleting it moves the books by
    # its own books-changed call, not by its games' deletions.
    evening_create(
        club=club,
        date=GAMELESS,
        secretary=secretary,
        present_members=[secretary, member],
        absent_members=[absent],
    )
    tonight = evening_create(
        club=club,
        date=TODAY.date(),
        secretary=secretary,
        present_members=[secretary, member],
    )
    game_record(evening=tonight, loser=secretary, schock_aus_throwers=[member])
    payment = payment_record(
        member=member, amount=Decimal("1.50"), paid_on=datetime.date(2025, 11, 7)
    )
    runde_mark_given(
        schock_aus=game.schock_aus.first(), given_on=datetime.date(2025, 11, 7), note="Bier"
    )
    build = report_build_request(season=s25)
    report_build_run(build_id=build.pk)
    _screen, wall = wall_screen_create(club=club, name="Tafel am Tresen")
    # The guest's login locked out after failed logins (django-axes): the logins page shows
    # it, and the writers that lift it have something to lift.
    AccessAttempt.objects.create(
        username="gustav",
        ip_address="127.0.0.1",
        user_agent="oracle",
        path_info="/anmelden/",
        failures_since_start=5,
    )
    root = get_user_model().objects.create_superuser("root", password=PASSWORD)
    books = Books(
        club=Club.objects.get(pk=club.pk),
        s25=Season.objects.get(pk=s25.pk),
        s26=Season.objects.get(pk=s26.pk),
        secretary=Member.objects.get(pk=secretary.pk),
        member=Member.objects.get(pk=member.pk),
        guest=Member.objects.get(pk=guest.pk),
        absent=Member.objects.get(pk=absent.pk),
        evening=Evening.objects.get(pk=evening.pk),
        evening2=Evening.objects.get(pk=evening2.pk),
        tonight=Evening.objects.get(pk=tonight.pk),
        game=Game.objects.get(pk=game.pk),
        payment=payment,
        build=ReportBuild.objects.get(pk=build.pk),
        wall=wall,
        clock=clock,
    )
    books.admin.force_login(root)
    return books


# --------------------------------------------------------------------------- admin forms


class _FormFields(HTMLParser):
    """The fields of an admin page's forms as a browser would post them."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "image", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.data.setdefault(name, []).append(
                a.get("value") or ("on" if kind == "checkbox" else "")
            )
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select].append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = [""]

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea][0] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            if self._textarea:
                self.data[self._textarea][0] = self.data[self._textarea][0].lstrip("\n")
            self._textarea = None


def _admin_save(b: Books, url: str, changes: dict[str, Any]) -> None:
    """Post the admin form at `url` as shown, with `changes` (a list for several values),
    and check that the admin saved it (a redirect)."""
    page = b.admin.get(url)
    assert page.status_code == 200, (url, page.status_code)
    parser = _FormFields()
    parser.feed(page.content.decode())
    data = {k: v for k, v in parser.data.items() if v}
    for key, value in changes.items():
        data[key] = value if isinstance(value, list) else [str(value)]
    data["_save"] = ["Sichern"]
    response = b.admin.post(url, data)
    assert response.status_code == 302, (url, _admin_errors(response))


def _admin_errors(response) -> str:
    text = response.content.decode()
    return " | ".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', text, re.S))[:600]


def _admin_delete(b: Books, model: str, pk: int) -> None:
    response = b.admin.post(f"/admin/{model}/{pk}/delete/", {"post": "yes"})
    assert response.status_code == 302, (model, _admin_errors(response))


def _admin_action(b: Books, model: str, action: str, ids: list[int]) -> None:
    data = {"action": action, "_selected_action": [str(i) for i in ids], "post": "yes"}
    response = b.admin.post(f"/admin/{model}/", data)
    assert response.status_code == 302, (model, action, response.status_code)


# --------------------------------------------------------------------------- writers


def _rounds(b: Books) -> list[RoundInput]:
    """One round of two: the secretary throws Schock-Aus, the member loses the game."""
    sec, mem = b.fresh(b.secretary), b.fresh(b.member)
    return [
        RoundInput(
            throws=[
                ThrowInput(player=sec, dice=(1, 1, 1), attempts=1),
                ThrowInput(player=mem, dice=(6, 5, 2), attempts=1),
            ]
        )
    ]


def _game2(b: Books) -> Game:
    """Game 2 of the first evening (no Runde given for its Schock-Aus)."""
    return Game.objects.get(evening=b.evening, number=2)


def _evening_again(b: Books, **changes) -> None:
    ev = b.fresh(b.evening)
    fields = {
        "date": ev.date,
        "secretary": b.secretary,
        "present_members": [b.secretary, b.member],
        "guests": [b.guest],
        "absent_members": [b.absent],
    }
    evening_update(evening=ev, **{**fields, **changes})


def _backup_of_another_club() -> bytes:
    """The backup of a club that is then gone (its rows rolled back): restorable here."""
    with transaction.atomic():
        other = club_create(name="Würfelfreunde Nord", secretary_name="Olga Außen").club
        season_get_or_create(club=other, year=2025)
        data = club_backup(club=other)
        transaction.set_rollback(True)
    return data


ATTENDANCE_CSV = (
    "date,name,role\n2025-11-28,Anna Becker,member\n2025-11-28,Bernd Krause,secretary\n"
)
GAMES_CSV = "date,number,loser,schock_aus\n2025-11-28,1,Anna Becker,Bernd Krause\n"


def _import_club_book(b: Books) -> None:
    result = club_book_import(
        club_name=b.club.name,
        attendance=ATTENDANCE_CSV.encode(),
        games=GAMES_CSV.encode(),
    )
    assert not getattr(result, "errors", None), result


def _bank_account(b: Books) -> None:
    """The club's bank account: its GiroCodes are shown (a writer, and the setup of the
    writers that need an account)."""
    club_bank_account_set(club=b.club, holder="Schockclub Eintracht", iban="DE89370400440532013000")


def _bank_import(b: Books) -> None:
    csv = (
        "Buchungstag;Auftraggeber/Empfänger;Verwendungszweck;Betrag\n"
        f"28.11.2025;Bernd Krause;Marken (Nr. {b.secretary.pk});1,00\n"
    ).encode()
    lines = parse_bank_csv(club=b.club, data=csv)
    proposals = bank_lines_match(club=b.club, lines=lines)
    assert proposals, "the bank line should pay the secretary's open Marks (two lost games)"
    confirmed = {p.bank_line.line_hash for p in proposals}
    bank_lines_book(club=b.club, lines=lines, confirmed=confirmed)


def _bank_statement(b: Books) -> None:
    """A statement line whose RF reference names the member's 2025 season: settled."""
    member, day, amount = b.fresh(b.member), datetime.date(2025, 11, 28), Decimal("0.50")
    reference = f"Marken {girocode_reference(member=member, season=b.s25)}"
    line = BankLine(
        line=1,
        booked_on=day,
        value_on=day,
        name=member.name,
        reference=reference,
        amount=amount,
        line_hash=line_key(
            club=b.club, booked_on=day, amount=amount, bank_ref="", name=member.name, text=reference
        ),
    )
    result = bank_statement_import(club=b.club, lines=[line])
    assert result.settled, result


def _reminders_off(b: Books) -> None:
    """The member's own opt-out of the payment reminders, on the GiroCode page (the view
    writes the person's row itself)."""
    client = Client()
    client.force_login(b.fresh(b.member).user)
    response = client.post("/marken/girocode/", {})
    assert response.status_code == 302, response.status_code
    assert not b.fresh(b.member).payment_reminders


def _objection(b: Books):
    """The member objects to game 1 of the first evening."""
    return objection_create(
        evening=b.fresh(b.evening), game=b.fresh(b.game), by=b.fresh(b.member), text="Falsch"
    )


def _signup() -> str:
    """A new club's sign-up: its link's token."""
    return club_signup_request(
        club_name="Würfelfreunde Nord",
        secretary_name="Olga Außen",
        email="olga@example.org",
        address="127.0.0.1",
    )


def _new_day(b: Books) -> None:
    b.clock.move_to(NEW_YEAR)


def _build_requested(b: Books) -> None:
    b.made["build"] = report_build_request(season=b.fresh(b.s26))


def _payer(b: Books) -> Member:
    """The member entered a second time, with a payment in 2025 and no evening anywhere:
    merging it moves money of a season through no evening."""
    payer = member_create(club=b.club, name="Anna Becker (2)")
    payment_record(member=payer, amount=Decimal("3.00"), paid_on=datetime.date(2025, 11, 28))
    return payer


Writer = Callable[[Books], Any]

# Each writer, one representative write on the small club. The key says where it lives.
WRITERS: dict[str, Writer] = {
    # --- services: play ---
    "games.evenings.services.evening_create": lambda b: evening_create(
        club=b.club,
        date=datetime.date(2025, 11, 28),
        secretary=b.secretary,
        present_members=[b.secretary, b.member],
        guests=[b.guest],
    ),
    "games.evenings.services.evening_update": lambda b: _evening_again(b, notes="Kegelbahn"),
    # Moved into the next season: the season it left changes its books too.
    "games.evenings.services.evening_update[other season]": lambda b: _evening_again(
        b, date=datetime.date(2026, 1, 9)
    ),
    "games.evenings.services.evening_delete": lambda b: evening_delete(
        evening=b.fresh(b.evening2), with_games=True
    ),
    "games.evenings.services.evening_delete[no games]": lambda b: evening_delete(
        evening=Evening.objects.get(club=b.club, date=GAMELESS)
    ),
    "games.evenings.services.game_record": lambda b: game_record(
        evening=b.fresh(b.evening), loser=b.guest, schock_aus_throwers=[b.guest]
    ),
    "games.evenings.services.game_update": lambda b: game_update(
        game=_game2(b), loser=b.secretary, schock_aus_throwers=[b.secretary]
    ),
    "games.evenings.services.game_delete": lambda b: game_delete(game=_game2(b)),
    "games.rounds.services.game_record_rounds": lambda b: game_record_rounds(
        evening=b.fresh(b.evening), rounds=_rounds(b)
    ),
    # Tonight's evening, as the home page and the wall screen show it.
    "games.evenings.services.game_record[tonight]": lambda b: game_record(
        evening=b.fresh(b.tonight), loser=b.member
    ),
    # Tonight's last game, saved a moment ago (the cast is built at TODAY).
    "games.evenings.services.game_undo": lambda b: game_undo(
        game=Game.objects.get(evening=b.tonight)
    ),
    # Objections: every evening is provisional (its games entered at TODAY, 48 hours).
    "games.evenings.services.objection_create": lambda b: _objection(b),
    "games.evenings.services.objection_answer": lambda b: objection_answer(
        objection=b.made["objection"],
        by=b.fresh(b.secretary),
        outcome="dismissed",
        reason="Stimmt so",
    ),
    "games.evenings.services.evening_finalise": lambda b: evening_finalise(
        evening=b.fresh(b.evening), by=b.fresh(b.secretary)
    ),
    # The calendar: Friday 2026-01-02 is the statutes' regular evening.
    "games.evenings.services.planned_evening_add": lambda b: planned_evening_add(
        club=b.club, date=datetime.date(2026, 1, 7)
    ),
    "games.evenings.services.planned_evening_move": lambda b: planned_evening_move(
        club=b.club, date=datetime.date(2026, 1, 2), new_date=datetime.date(2026, 1, 3)
    ),
    "games.evenings.services.planned_evening_cancel": lambda b: planned_evening_cancel(
        club=b.club, date=datetime.date(2026, 1, 2)
    ),
    # --- services: the register ---
    "league.club.services.season_create": lambda b: season_create(club=b.club, year=2024),
    "league.club.services.season_get_or_create": lambda b: season_get_or_create(
        club=b.club, year=2027
    ),
    "league.club.services.season_update": lambda b: season_update(
        season=b.fresh(b.s25), mark_value=Decimal("1.00")
    ),
    "league.club.services.season_statutes_update": lambda b: season_statutes_update(
        season=b.fresh(b.s25), statutes={"marks_per_game_lost": 2}, confirm=True
    ),
    "league.club.services.club_statutes_update": lambda b: club_statutes_update(
        club=b.fresh(b.club), statutes={"marks_per_game_lost": 2}
    ),
    "league.club.services.member_create": lambda b: member_create(club=b.club, name="Carla Vogt"),
    "league.club.services.member_update": lambda b: member_update(
        member=b.fresh(b.member), name="Anna Berger"
    ),
    # A variant (in brackets): the member, who may sign as Kassenprüfer, made inactive.
    "league.club.services.member_update[inactive]": lambda b: member_update(
        member=b.fresh(b.member), active=False
    ),
    "league.club.services.member_merge": lambda b: member_merge(
        source=b.fresh(b.absent), target=b.fresh(b.made["target"])
    ),
    # A person with only a payment (no evening) merged into the member: the payment's
    # season changes by the merge's own books-changed call, not by an evening's.
    "league.club.services.member_merge[payment only]": lambda b: member_merge(
        source=b.fresh(b.made["payer"]), target=b.fresh(b.member)
    ),
    "league.club.services.guest_to_member": lambda b: guest_to_member(person=b.fresh(b.guest)),
    "league.club.services.login_create": lambda b: login_create(
        person=b.fresh(b.absent), username="frank"
    ),
    # A login handed over (the admin's way): to the person without one, and taken away.
    "league.club.services.member_login_set": lambda b: member_login_set(
        person=b.fresh(b.absent), user=get_user_model().objects.create_user("frank")
    ),
    "league.club.services.member_login_set[taken]": lambda b: member_login_set(
        person=b.fresh(b.guest), user=None
    ),
    # An invitation is for a login without a password of its holder's: a new one.
    "league.club.services.login_invitation": lambda b: login_invitation(person=b.fresh(b.absent)),
    "league.club.services.login_lock": lambda b: login_lock(person=b.fresh(b.guest)),
    # Unlocking also lifts the guest's lockout after failed logins.
    "league.club.services.login_lock[unlock]": lambda b: login_lock(
        person=b.fresh(b.guest), locked=False
    ),
    # The API's PATCH of a person: a new name and the guest made a club member at once.
    "league.club.services.member_change": lambda b: member_change(
        person=b.fresh(b.guest), name="Gustav Maier", kind=Member.Kind.MEMBER
    ),
    "league.club.services.secretary_set": lambda b: secretary_set(
        person=b.fresh(b.member), is_secretary=True
    ),
    "league.club.services.club_create": lambda b: club_create(
        name="Würfelfreunde Nord", secretary_name="Olga Außen"
    ),
    "league.club.services.club_suspend": lambda b: club_suspend(club=b.fresh(b.club)),
    "league.club.services.member_calendar_revoke": lambda b: member_calendar_revoke(
        member=b.fresh(b.member)
    ),
    "league.club.signup.services.club_signup_request": lambda b: _signup(),
    "league.club.signup.services.club_signup_confirm": lambda b: club_signup_confirm(
        token=b.made["signup"], password="geheim-789x"
    ),
    "league.sharing.services.wall_screen_create": lambda b: wall_screen_create(
        club=b.club, name="Tafel im Saal"
    ),
    "league.sharing.services.wall_screen_revoke": lambda b: wall_screen_revoke(
        club=b.club, screen_id=WallScreen.objects.get(club=b.club).pk
    ),
    "league.club.accounts.services.api_token_create": lambda b: api_token_create(
        user=b.fresh(b.member).user
    ),
    "league.club.accounts.services.api_tokens_revoke": lambda b: api_tokens_revoke(
        user=b.fresh(b.member).user
    ),
    "league.club.accounts.services.api_token_logout": lambda b: api_token_logout(
        token=b.made["token"]
    ),
    "league.banking.services.push_subscriptions_of_login_delete": lambda b: (
        push_subscriptions_of_login_delete(user=b.fresh(b.member).user)
    ),
    "league.club.accounts.services.api_token_revoke": lambda b: api_token_revoke(
        user=b.fresh(b.member).user, key=b.made["token"].token_key
    ),
    "league.club.accounts.services.password_change": lambda b: password_change(
        user=b.fresh(b.member).user, old_password=PASSWORD, new_password="neu-geheim-456"
    ),
    "league.club.accounts.services.login_email_set": lambda b: login_email_set(
        user=b.fresh(b.member).user, email="anna@example.org"
    ),
    # The admin's "no password": the login waits for an invitation again.
    "league.club.accounts.services.password_set": lambda b: password_set(
        user=b.fresh(b.member).user, password=None, by_holder=False
    ),
    "league.club.accounts.services.login_lockout_lift": lambda b: login_lockout_lift(
        user=b.fresh(b.guest).user
    ),
    # --- services: the books ---
    "league.ledger.services.payment_record": lambda b: payment_record(
        member=b.fresh(b.member), amount=Decimal("2.00"), paid_on=datetime.date(2025, 11, 28)
    ),
    "league.ledger.services.payment_cancel": lambda b: payment_cancel(payment=b.fresh(b.payment)),
    "league.runden.services.runde_mark_given": lambda b: runde_mark_given(
        schock_aus=b.fresh(b.evening2).games.first().schock_aus.first(),
        given_on=datetime.date(2025, 11, 21),
    ),
    "league.runden.services.runde_unmark": lambda b: runde_unmark(
        schock_aus=b.fresh(b.game).schock_aus.first()
    ),
    "league.runden.services.runden_mark_evening_given": lambda b: runden_mark_evening_given(
        evening=b.fresh(b.evening), given_on=datetime.date(2025, 11, 7)
    ),
    "league.closing.services.season_close": lambda b: season_close(
        season=b.fresh(b.s25), by=b.secretary, confirm=True
    ),
    "league.closing.services.season_reopen": lambda b: season_reopen(
        season=b.fresh(b.s25), by=b.secretary, reason="Nachtrag"
    ),
    "league.closing.services.season_sign_off": lambda b: season_sign_off(
        season=b.fresh(b.s25), auditor=b.fresh(b.member)
    ),
    "league.banking.services.club_bank_account_set": _bank_account,
    "league.banking.services.payment_reminders_set": lambda b: payment_reminders_set(
        member=b.fresh(b.member), on=False
    ),
    "league.banking.services.notification_choice_set": lambda b: notification_choice_set(
        member=b.fresh(b.member), kind="open_amount", email=False, push=False
    ),
    "league.banking.services.push_subscription_save": lambda b: push_subscription_save(
        member=b.fresh(b.member),
        endpoint="https://fcm.googleapis.com/fcm/send/anna",
        p256dh="k",
        auth="a",
    ),
    "league.banking.services.push_subscription_delete": lambda b: push_subscription_delete(
        member=b.fresh(b.member), endpoint="https://fcm.googleapis.com/fcm/send/anna"
    ),
    "league.banking.bank_import.bank_lines_book": _bank_import,
    "league.banking.settlement.bank_statement_import": _bank_statement,
    "league.banking.reminders.payment_reminders_send": lambda b: payment_reminders_send(
        today=datetime.date(2025, 12, 1)
    ),
    "league.clubbook.services.club_book_import": _import_club_book,
    "league.backup.services.club_restore": lambda b: club_restore(data=_backup_of_another_club()),
    "league.reports.builds.report_build_request": lambda b: report_build_request(
        season=b.fresh(b.s26)
    ),
    # The stored 2025 report made stale by a game (the setup), then built anew.
    "league.reports.builds.report_refresh_if_stale": lambda b: report_refresh_if_stale(
        season=b.fresh(b.s25)
    ),
    "league.reports.runs.report_build_run": lambda b: report_build_run(build_id=b.made["build"].pk),
    "league.reports.runs.report_build_retrying": lambda b: report_build_retrying(
        build_id=b.made["build"].pk, reason="test"
    ),
    "league.reports.runs.report_build_fail": lambda b: report_build_fail(
        build_id=b.made["build"].pk, reason="test"
    ),
    # --- the admin (a superuser's forms and actions) ---
    "admin:league.club:change": lambda b: _admin_save(
        b, f"/admin/league/club/{b.club.pk}/change/", {"name": "Schockclub Zwietracht"}
    ),
    "admin:league.club:add": lambda b: _admin_save(
        b, "/admin/league/club/add/", {"name": "Würfelfreunde Nord", "rule_preset": "club"}
    ),
    # A club without people (one with a person cannot be deleted: its books stay).
    "admin:league.club:delete": lambda b: _admin_delete(b, "league/club", b.made["club"].pk),
    "admin:league.club:delete_selected": lambda b: _admin_action(
        b, "league/club", "delete_selected", [b.made["club"].pk]
    ),
    "admin:league.club:suspend": lambda b: _admin_action(b, "league/club", "suspend", [b.club.pk]),
    # A suspended club's suspension lifted (the cast's club suspended first).
    "admin:league.club:resume": lambda b: _admin_action(b, "league/club", "resume", [b.club.pk]),
    "admin:league.season:change": lambda b: _admin_save(
        b, f"/admin/league/season/{b.s25.pk}/change/", {"mark_value": "1.00"}
    ),
    "admin:league.season:add": lambda b: _admin_save(
        b,
        "/admin/league/season/add/",
        {
            "club": b.club.pk,
            "year": 2024,
            "starts_on": "2024-01-01",
            "ends_on": "2024-12-31",
            "rule_preset": "club",
        },
    ),
    "admin:league.member:change": lambda b: _admin_save(
        b, f"/admin/league/member/{b.member.pk}/change/", {"name": "Anna Berger"}
    ),
    # A login handed to the person without one, nothing else changed.
    "admin:league.member:change[login]": lambda b: _admin_save(
        b,
        f"/admin/league/member/{b.absent.pk}/change/",
        {"user": get_user_model().objects.create_user("frank").pk},
    ),
    "admin:league.member:add": lambda b: _admin_save(
        b,
        "/admin/league/member/add/",
        {"club": b.club.pk, "name": "Carla Vogt", "kind": "member", "active": "on"},
    ),
    "admin:league.payment:add": lambda b: _admin_save(
        b,
        "/admin/league/payment/add/",
        {
            "member": b.member.pk,
            "amount": "2.00",
            "paid_on": "2025-11-28",
            "method": "cash",
        },
    ),
    "admin:league.payment:cancel_payments": lambda b: _admin_action(
        b, "league/payment", "cancel_payments", [b.payment.pk]
    ),
    "admin:league.reportbuild:add": lambda b: _admin_save(
        b,
        "/admin/league/reportbuild/add/",
        {"season": b.s26.pk, "status": "failed", "data_version": 0, "attempts": 1},
    ),
    "admin:league.reportbuild:change": lambda b: _admin_save(
        b, f"/admin/league/reportbuild/{b.build.pk}/change/", {"status": "failed"}
    ),
    "admin:league.reportbuild:delete": lambda b: _admin_delete(b, "league/reportbuild", b.build.pk),
    "admin:league.reportbuild:delete_selected": lambda b: _admin_action(
        b, "league/reportbuild", "delete_selected", [b.build.pk]
    ),
    "admin:games.evening:change": lambda b: _admin_save(
        b, f"/admin/games/evening/{b.evening.pk}/change/", {"notes": "Kegelbahn"}
    ),
    "admin:games.evening:add": lambda b: _admin_save(
        b,
        "/admin/games/evening/add/",
        {
            "club": b.club.pk,
            "date": "2025-11-28",
            "secretary": b.secretary.pk,
            "present_members": [b.secretary.pk, b.member.pk],
        },
    ),
    "admin:games.evening:delete": lambda b: _admin_delete(b, "games/evening", b.evening2.pk),
    "admin:games.evening:delete_selected": lambda b: _admin_action(
        b, "games/evening", "delete_selected", [b.evening2.pk]
    ),
    "admin:games.game:change": lambda b: _admin_save(
        b, f"/admin/games/game/{_game2(b).pk}/change/", {"loser": b.secretary.pk}
    ),
    "admin:games.game:add": lambda b: _admin_save(
        b,
        "/admin/games/game/add/",
        {
            "evening": b.evening.pk,
            "number": 5,
            "loser": b.guest.pk,
            "schock_aus-TOTAL_FORMS": 0,
            "schock_aus-INITIAL_FORMS": 0,
        },
    ),
    "admin:games.game:delete": lambda b: _admin_delete(b, "games/game", _game2(b).pk),
    "admin:games.game:delete_selected": lambda b: _admin_action(
        b, "games/game", "delete_selected", [_game2(b).pk]
    ),
    "admin:league.rundegiven:add": lambda b: _admin_save(
        b,
        "/admin/league/rundegiven/add/",
        {
            "schock_aus": b.fresh(b.evening2).games.first().schock_aus.first().pk,
            "given_on": "2025-11-21",
        },
    ),
    "admin:league.rundegiven:delete": lambda b: _admin_delete(
        b, "league/rundegiven", b.fresh(b.game).schock_aus.first().runde_given.pk
    ),
    "admin:league.rundegiven:delete_selected": lambda b: _admin_action(
        b,
        "league/rundegiven",
        "delete_selected",
        [b.fresh(b.game).schock_aus.first().runde_given.pk],
    ),
    "admin:auth.user:change": lambda b: _admin_save(
        b, f"/admin/auth/user/{b.secretary.user_id}/change/", {"is_staff": "on"}
    ),
    "admin:auth.user:add": lambda b: _admin_save(
        b,
        "/admin/auth/user/add/",
        {"username": "carla", "password1": "geheim-789x", "password2": "geheim-789x"},
    ),
    "admin:auth.user:delete": lambda b: _admin_delete(b, "auth/user", b.guest.user_id),
    "admin:auth.user:delete_selected": lambda b: _admin_action(
        b, "auth/user", "delete_selected", [b.guest.user_id]
    ),
    "admin:auth.group:add": lambda b: _admin_save(b, "/admin/auth/group/add/", {"name": "Kasse"}),
    # django-axes' record of the guest's failed logins deleted: the lockout lifted.
    "admin:axes.accessattempt:delete": lambda b: _admin_delete(
        b, "axes/accessattempt", AccessAttempt.objects.get(username="gustav").pk
    ),
    "admin:axes.accessattempt:delete_selected": lambda b: _admin_action(
        b,
        "axes/accessattempt",
        "delete_selected",
        [AccessAttempt.objects.get(username="gustav").pk],
    ),
    # --- management commands ---
    "command:club_create": lambda b: call_command(
        "club_create",
        "Würfelfreunde Nord",
        secretary="Olga Außen",
        username="olga",
        stdout=io.StringIO(),
    ),
    "command:import_club_book": lambda b: _command_import(b),
    "command:club_restore": lambda b: _command_restore(),
    "command:forget_kept_reads": lambda b: call_command("forget_kept_reads", stdout=io.StringIO()),
    # --- Celery tasks (run as the worker runs them) ---
    "task:league.banking.tasks.send_payment_reminders": lambda b: importlib.import_module(
        "league.banking.tasks"
    ).send_payment_reminders.apply(),
    "task:league.reports.tasks.build_season_report": lambda b: importlib.import_module(
        "league.reports.tasks"
    ).build_season_report.apply(args=[b.made["build"].pk]),
    # The member with a login e-mail address: the reminders due at 21:00 (not quiet) go out.
    "task:league.banking.tasks.send_notifications": lambda b: importlib.import_module(
        "league.banking.tasks"
    ).send_notifications.apply(),
    # --- pages that write themselves (no service) ---
    "view:my_girocodes[reminders off]": _reminders_off,
    # --- time: the next day, in the next season (no write; pages that follow the day) ---
    "clock:new_day_in_the_next_season": _new_day,
}


def _close_2025(b: Books) -> None:
    season_close(season=b.fresh(b.s25), by=b.secretary, confirm=True)


def _stash(name: str, make: Callable[[Books], Any]) -> Writer:
    def setup(b: Books) -> None:
        b.made[name] = make(b)

    return setup


# What a writer's write needs that the cast lacks, made before it and before the kept
# reads are asked again (the cache then holds their answers after the setup): the write
# alone is what the oracle checks, so a write whose own invalidation is missing cannot
# hide behind its setup's (a reopened season behind its close, say).
SETUPS: dict[str, Writer] = {
    "games.evenings.services.objection_answer": _stash("objection", _objection),
    "league.club.services.member_merge": _stash(
        "target", lambda b: member_create(club=b.club, name="Frank Rot")
    ),
    "league.club.services.member_merge[payment only]": _stash("payer", _payer),
    "league.club.services.login_invitation": lambda b: login_create(
        person=b.fresh(b.absent), username="frank"
    ),
    "league.club.signup.services.club_signup_confirm": _stash("signup", lambda b: _signup()),
    "league.club.accounts.services.api_token_logout": _stash(
        "token", lambda b: api_token_create(user=b.fresh(b.member).user)[0]
    ),
    "league.club.accounts.services.api_token_revoke": _stash(
        "token", lambda b: api_token_create(user=b.fresh(b.member).user)[0]
    ),
    "league.closing.services.season_reopen": _close_2025,
    "league.closing.services.season_sign_off": _close_2025,
    "league.banking.bank_import.bank_lines_book": _bank_account,
    "league.banking.settlement.bank_statement_import": _bank_account,
    "league.banking.reminders.payment_reminders_send": _bank_account,
    "task:league.banking.tasks.send_payment_reminders": _bank_account,
    "task:league.banking.tasks.send_notifications": lambda b: login_email_set(
        user=b.fresh(b.member).user, email="anna@example.org"
    ),
    "league.reports.builds.report_refresh_if_stale": lambda b: game_record(
        evening=b.fresh(b.evening2), loser=b.fresh(b.member)
    ),
    "league.reports.runs.report_build_run": _build_requested,
    "league.reports.runs.report_build_retrying": _build_requested,
    "league.reports.runs.report_build_fail": _build_requested,
    "task:league.reports.tasks.build_season_report": _build_requested,
    "admin:league.club:delete": _stash("club", lambda b: ClubFactory(name="Leer")),
    "admin:league.club:delete_selected": _stash("club", lambda b: ClubFactory(name="Leer")),
    "admin:league.club:resume": lambda b: club_suspend(club=b.fresh(b.club)),
}


def _command_import(b: Books) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "a.csv").write_text(ATTENDANCE_CSV, encoding="utf-8")
        (folder / "g.csv").write_text(GAMES_CSV, encoding="utf-8")
        call_command(
            "import_club_book",
            str(folder / "a.csv"),
            str(folder / "g.csv"),
            club=b.club.name,
            stdout=io.StringIO(),
        )


def _command_restore() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "backup.json.gz"
        path.write_bytes(_backup_of_another_club())
        call_command("club_restore", str(path), stdout=io.StringIO())


# Public functions of the writer modules that write nothing (reads, pure helpers, wiring),
# and those that write only as a part of another writer (inside its transaction).
READS_ONLY: dict[str, str] = {
    # reads and pure helpers
    "league.banking.bank_import.parse_bank_csv": "parses a file",
    "league.banking.bank_import.keys_numbered": "numbers the keys of a statement's lines "
    "alike, writes nothing",
    "league.banking.bank_import.line_key": "a key",
    "league.club.accounts.services.email_normalized": "checks and folds an address",
    "league.club.services.club_exists_error": "makes an error",
    "league.club.signup.services.signup_link_url": "makes a link",
    "league.club.signup.services.signup_link_read": "reads a signed token",
    "league.club.signup.services.signup_link_send": "sends a mail, writes nothing",
    "league.banking.settlement.settle_line": "part of bank_statement_import (its one caller)",
    "league.banking.bank_import.bank_lines_match": "proposes matches, writes nothing",
    "league.closing.services.carry_source_key": "a key",
    "league.club.services.season_rules_data": "converts rules to data",
    "league.club.services.member_merge_connect": "wiring at start-up",
    "league.club.accounts.services.login_ended_connect": "wiring at start-up",
    "league.clubbook.services.club_book_parse": "parses files",
    "league.clubbook.services.database_refusal": "maps an error",
    "league.reports.builds.tasks_run_eagerly": "a setting",
    "league.reports.builds.broker_available": "asks the broker",
    "league.reports.builds.report_build_current": "read",
    "league.reports.builds.report_state": "read",
    "league.reports.builds.report_build_for_download": "read",
    "league.reports.runs.report_data_version": "read",
    # parts of another writer, called inside its transaction (that writer is tested)
    "league.club.services.login_clubs_set": "part of member_login_set and of the backup's "
    "restore (the logins' clubs, which no read shows)",
    "games.evenings.services.evening_changed": "the books-changed call of the evening writers",
    "games.evenings.services.evening_people_merge": "part of member_merge",
    "games.evenings.services.evenings_finalise": "part of season_close",
    "games.rounds.services.rounds_people_merge": "part of member_merge",
    "league.ledger.services.ledger_member_merge": "part of member_merge",
    "league.ledger.services.charge_entry": "part of the ledger's books-changed receiver",
    "league.ledger.services.ledger_sync_evening": "part of the books-changed receiver",
    "league.ledger.services.ledger_sync_evening_deleted": "part of the books-changed receiver",
    "league.ledger.services.ledger_sync_season": "part of the books-changed receiver",
    "league.ledger.services.ledger_on_books_changed": "the books-changed receiver itself",
}

# Writer modules not named services.py (they write through their own transactions).
OTHER_WRITER_MODULES = (
    "league.banking.bank_import",
    "league.banking.reminders",
    "league.banking.settlement",
    "league.reports.builds",
    "league.reports.runs",
)

# Management commands that write nothing.
READ_ONLY_COMMANDS = {
    "club_backup": "writes a file, not the database",
    "export_club_book": "writes files, not the database",
    # The demo club: minutes to build, and its own club (tests/pages/test_demo*.py).
    "demo": "builds the demo clubs; too slow here, its pages are tested with the demo",
}

# Admin writes that cannot touch what a kept read shows, and why (the other admin writes
# are in WRITERS).
_NO_BOOKS = "not shown by any kept read"
ADMIN_NOT_READ: dict[str, str] = {
    # Permission groups: what the admin lets a staff login do; no page of the club shows them.
    "admin:auth.group:change": _NO_BOOKS,
    "admin:auth.group:delete": _NO_BOOKS,
    "admin:auth.group:delete_selected": _NO_BOOKS,
    # django-axes' records of failed logins: the lockouts the logins page shows are deleted
    # in WRITERS; the admin changes no attempt, and the cleanup deletes expired ones only
    # (none: the clock stands within the cool-off).
    "admin:axes.accessattempt:change": _NO_BOOKS,
    "admin:axes.accessattempt:cleanup_expired_attempts": _NO_BOOKS,
    "admin:axes.accessfailurelog:change": _NO_BOOKS,
    "admin:axes.accessfailurelog:delete": _NO_BOOKS,
    "admin:axes.accessfailurelog:delete_selected": _NO_BOOKS,
    "admin:axes.accesslog:change": _NO_BOOKS,
    "admin:axes.accesslog:delete": _NO_BOOKS,
    "admin:axes.accesslog:delete_selected": _NO_BOOKS,
    # API tokens: shown on /anmeldungen/ (my_logins), which is not kept.
    "admin:knox.authtoken:add": _NO_BOOKS,
    "admin:knox.authtoken:change": _NO_BOOKS,
    "admin:knox.authtoken:delete": _NO_BOOKS,
    "admin:knox.authtoken:delete_selected": _NO_BOOKS,
}


# --------------------------------------------------------------------------- kept reads

# Every kept read: URL name -> the URLs asked (variants by query), from `Books.ids`.
KEPT_READS: dict[str, tuple[str, ...]] = {
    "home": ("/",),
    "season_standings": ("/saison/{year}/",),
    "member_dues": ("/saison/{year}/marken/{member}/",),
    "all_time_standings": ("/ewige-tabelle/",),
    "evening_list": ("/abende/",),
    "evening_detail": ("/abende/{evening}/",),
    "evening_delete": ("/abende/{evening}/loeschen/",),
    "game_entry": ("/abende/{evening}/spiele/",),
    "game_edit": ("/abende/{evening}/spiele/{game}/",),
    "game_rounds_entry": ("/abende/{evening}/runden-eintragen/",),
    "game_rounds": ("/spiele/{game}/runden/",),
    "evening_share": ("/abende/{evening}/teilen/",),
    "evening_share_card": ("/abende/{evening}/teilen.png",),
    "evening_sheet_pdf": ("/abende/{evening}/abendblatt.pdf",),
    "ledger_home": ("/kasse/", "/kasse/?saison=alle"),
    "ledger_statement": ("/kasse/konto/{member}/", "/kasse/konto/{member}/?saison=alle"),
    "my_girocodes": ("/marken/girocode/",),
    "runden_list": ("/runden/",),
    "audit_index": ("/verlauf/",),
    "audit_evening": ("/verlauf/abend/{evening}/",),
    "audit_member": ("/verlauf/person/{member}/",),
    "season_csv": (
        "/saison/{year}/tabelle.csv",
        "/saison/{year}/kasse.csv",
        "/saison/{year}/schock-aus.csv",
    ),
    "season_report_download": ("/saison/{year}/saisonbericht.pdf",),
    "schock_aus_stats": ("/statistik/",),
    "statistics_season": ("/statistik/saisons/?saison={year}",),
    "statistics_records": ("/statistik/rekorde/",),
    "season_recap": ("/saison/{year}/rueckblick/",),
    "season_recap_image": ("/saison/{year}/rueckblick.png",),
    "season_create": ("/saison/neu/",),
    "season_rules_edit": ("/saison/{year}/regeln/bearbeiten/",),
    "season_statutes": ("/saison/{year}/satzung/",),
    "season_close": ("/saison/{year}/abschluss/",),
    "club_logins": ("/verein/zugaenge/",),
    "club_seasons": ("/verein/saisons/",),
    "odds": ("/wahrscheinlichkeiten/",),
    # --- the API ---
    "season-list": ("/api/v1/seasons/",),
    "season-standings": ("/api/v1/seasons/{season}/standings/",),
    "season-runden": ("/api/v1/seasons/{season}/runden/",),
    "api-season-statistics": ("/api/v1/seasons/{season}/statistics/",),
    "api-statistics-records": ("/api/v1/statistics/records/",),
    "api-standings-all-time": ("/api/v1/standings/all-time/",),
    "api-season-close": ("/api/v1/seasons/{season}/close/",),
    "member-dues": ("/api/v1/members/{member}/dues/",),
    "api-member-statement": (
        "/api/v1/members/{member}/statement/",
        "/api/v1/members/{member}/statement/?season=all",
    ),
    "api-member-girocode": ("/api/v1/members/{member}/girocode.png",),
    "api-balances": ("/api/v1/balances/",),
    "evening-list": ("/api/v1/evenings/",),
    "evening-detail": ("/api/v1/evenings/{evening}/",),
    "evening-summary": ("/api/v1/evenings/{evening}/summary/",),
    "game-list": ("/api/v1/games/",),
    "game-detail": ("/api/v1/games/{game}/",),
    "game-rounds": ("/api/v1/games/{game}/rounds/",),
    "runde-list": ("/api/v1/runden/",),
    "api-evening-share": ("/api/v1/evenings/{evening}/share/",),
    "api-history": ("/api/v1/history/",),
    # --- the wall screen (no login: asked by each role's client all the same) ---
    "wall": ("/tafel/{wall}/", "/tafel/{wall}/?teil=1"),
}

# Reads kept by other means than the caching helpers (not found by following the views).
KEPT_ELSEWHERE = {
    "season_report_download": "the stored PDF of a READY build (league/reports/builds.py)",
}

# URLs whose view reaches a caching helper but keeps no read, and why.
NOT_KEPT: dict[str, str] = {
    "runde_given": "a POST: marks a Runde given",
    "runden_evening_given": "a POST: marks an evening's Runden given",
    # The close state's open items read the seasons' objection hours (a kept read), which
    # the close itself and a refusal's page (the wizard rendered again) reach.
    "season_close_action": "a POST: closes the season",
    "season_reopen_action": "a POST: reopens the season",
    "season_sign_off_action": "a POST: a Kassenprüfer signs the season",
}

ROLES = ("secretary", "member", "guest")
USERNAMES = {"secretary": "bernd", "member": "anna", "guest": "gustav"}

# (writer, read URL name) -> why the kept answer is stale today. Each is a strict xfail:
# when the answer is fixed, its test passes and fails as XPASS, and the entry must go.
KNOWN_STALE: dict[tuple[str, str], str] = {}


# --------------------------------------------------------------------------- answers

_MASKS = (
    (re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+'), rb"\1*"),
    (re.compile(rb'(name="csrf-token" content=")[^"]+'), rb"\1*"),
    (re.compile(rb'nonce="[^"]+"'), rb'nonce="*"'),
    (re.compile(rb"\b[A-Za-z0-9]{64}\b"), rb"*csrf*"),
)


def _body(response) -> bytes:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Type", "").startswith("image/"):
        return content  # no token in a drawing: compared unmasked
    for pattern, repl in _MASKS:
        content = pattern.sub(repl, content)
    return content


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    etag: str | None = None

    def same(self, other: Answer) -> bool:
        return (self.status, self.body) == (other.status, other.body)


def _ask(client: Client, url: str, etag: str | None = None) -> Answer:
    headers = {"If-None-Match": etag} if etag else {}
    response = client.get(url, headers=headers)
    assert response.status_code != 429, f"{url} was throttled: the throttle counts are no answer"
    return Answer(response.status_code, _body(response), response.get("ETag"))


def _urls(b: Books) -> list[tuple[str, str]]:
    ids = b.ids
    return [(name, url.format(**ids)) for name, urls in KEPT_READS.items() for url in urls]


def _clients() -> dict[str, Client]:
    clients = {}
    for role in ROLES:
        client = Client()
        client.force_login(get_user_model().objects.get(username=USERNAMES[role]))
        client.get("/")  # the CSRF cookie: pages get their ETag from then on
        clients[role] = client
    return clients


def _read_all(clients, urls) -> dict[tuple[str, str], Answer]:
    return {(role, url): _ask(c, url) for role, c in clients.items() for _n, url in urls}


def _report_from_nothing(
    b: Books, clients: dict[str, Client], served: set[tuple[str, str]]
) -> dict[tuple[str, str], Answer]:
    """The `served` report downloads ((role, URL) pairs) as if no report had been stored:
    a build of each one's season made now."""
    years = {int(m.group(1)) for _r, url in served if (m := re.search(r"/saison/(\d+)/", url))}
    out = {}
    with transaction.atomic():
        ReportBuild.objects.all().delete()
        for season in Season.objects.filter(club=b.club, year__in=years):
            report_build_run(build_id=report_build_request(season=season).pk)
        for role, url in sorted(served):
            out[(role, url)] = _ask(clients[role], url)
        transaction.set_rollback(True)
    return out


# --- the cache as it was after the warm-up, put back before each writer -----------------


def _cache_snapshot() -> Any:
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(None, write=True)
        return [(k, max(client.pttl(k), 0), client.dump(k)) for k in client.keys("*")]
    memory: Any = backend
    return dict(memory._cache), dict(memory._expire_info)


def _cache_restore(snapshot: Any) -> None:
    backend = caches["default"]
    backend.clear()
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(None, write=True)
        pipe = client.pipeline(transaction=False)  # one round trip for all keys
        for key, ttl, value in snapshot:
            pipe.restore(key, ttl, value, replace=True)
        pipe.execute()
        return
    memory: Any = backend
    values, expiry = snapshot
    memory._cache.update(values)
    memory._expire_info.update(expiry)


# --- pure drawing, done once per input ------------------------------------------------


def _once_per_input(fn: Callable[..., Any], key: Callable[..., Any] | None = None):
    """`fn`, a pure function of its arguments (no query, no clock), answering a second
    call with equal arguments (equal pickles, plus `key`'s value of them) from memory.
    The empty-cache pass asks the odds page and the charts and images again after every
    writer; their drawing (the odds simulation, matplotlib, PNG encoding) was most of its
    time. Nothing the oracle compares changes: the answer for equal input is the same
    bytes, and other input is drawn anew."""
    memory: dict[bytes, Any] = {}

    @functools.wraps(fn)
    def once(*args: Any, **kwargs: Any) -> Any:
        try:
            extra = key(*args, **kwargs) if key else None
            found = pickle.dumps((args, sorted(kwargs.items()), extra))
        except Exception:  # what cannot be pickled is drawn each time
            return fn(*args, **kwargs)
        if found not in memory:
            memory[found] = fn(*args, **kwargs)
        return memory[found]

    return once


# module, name, key (what the function reads beyond its arguments' pickled fields)
PURE_DRAWING = (
    ("games.rounds.selectors", "_odds", None),
    ("league.statistics.views", "schock_aus_chart_svg", None),
    # The card names the season's club (a relation, read when drawn).
    ("league.statistics.views", "recap_png", lambda recap: recap.season.club.name),
    ("league.reports.charts", "points_chart_svg", None),
    ("league.reports.charts", "schock_aus_chart_svg", None),
    ("league.banking.selectors", "girocode_png", None),
)


def _plain_render(self: Template, context: Any) -> Any:
    """Django's own `Template._render` (setup_test_environment replaces it by one that
    sends `template_rendered`, whose receiver in the test client copies the context)."""
    return self.nodelist.render(context)


@dataclass
class Warm:
    """The club, the three logins' clients, the URLs, what each read answered after the
    warm-up, and the cache then."""

    books: Books
    clients: dict[str, Client]
    urls: list[tuple[str, str]]
    before: dict[tuple[str, str], Answer]
    snapshot: Any


@pytest.fixture(scope="module")
def warm(django_db_setup, django_db_blocker) -> Iterator[Warm]:
    """The small club and every kept read asked once by each role, built once for the
    module inside a transaction rolled back at its end (each test's own transaction rolls
    back its writer). Marked like the test case's own blocks: the cache stays on."""
    with ExitStack() as stack:
        stack.enter_context(django_db_blocker.unblock())
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        # The PDFs as their HTML: WeasyPrint renders the HTML and nothing else, and its PDF
        # carries the time of rendering.
        patch.setattr(report_pdf, "_weasyprint", lambda html: html.encode("utf-8"))
        for module_name, name, key in PURE_DRAWING:
            module = importlib.import_module(module_name)
            patch.setattr(module, name, _once_per_input(getattr(module, name), key))
        # The members' and guests' 403s and 404s are answers compared here, not news: their
        # logged tracebacks cost more than the answers.
        patch.setattr(logging.getLogger("django.request"), "level", logging.ERROR)
        # The test client's template signal copies every template's context on each render
        # (for `response.context`, which nothing here reads): the plain render instead.
        patch.setattr(Template, "_render", _plain_render)
        media = stack.enter_context(tempfile.TemporaryDirectory())
        stack.enter_context(override_settings(MEDIA_ROOT=media, PASSWORD_HASHERS=FAST_HASHERS))
        clock = stack.enter_context(time_machine.travel(TODAY, tick=False))
        atomic = transaction.atomic()
        atomic._from_testcase = True
        atomic.__enter__()
        try:
            caches["default"].clear()
            books = _build_books(clock)
            clients = _clients()
            urls = _urls(books)
            before = _read_all(clients, urls)
            yield Warm(books, clients, urls, before, _cache_snapshot())
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            caches["default"].clear()


@dataclass
class Outcome:
    """What a writer left: per kept read (URL name) the answers that differ."""

    stale: dict[str, list[str]]


_outcomes: dict[str, Outcome] = {}


class _Recorder:
    """Records, per request, the cache keys it found (hits) and stored, on the default
    cache's backend, except the keys that hold no part of an answer (`NO_ANSWER_KEYS`)."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.hits: list[str] = []
        self.stored: dict[str, Any] = {}

    def raw_get(self, key: str) -> Any:
        return self._get(key)

    def start(self, patch: pytest.MonkeyPatch) -> None:
        get, get_many = self.backend.get, self.backend.get_many
        self._get = get
        set_, set_many, add = self.backend.set, self.backend.set_many, self.backend.add
        missing = object()

        def record_get(key, default=None, version=None):
            value = get(key, missing, version=version)
            if value is missing:
                return default
            self._hit(key)
            return value

        def record_get_many(keys, version=None):
            found = get_many(keys, version=version)
            for key in found:
                self._hit(key)
            return found

        def record_set(key, value, *args, **kwargs):
            self._store(key, value)
            return set_(key, value, *args, **kwargs)

        def record_set_many(data, *args, **kwargs):
            for key, value in data.items():
                self._store(key, value)
            return set_many(data, *args, **kwargs)

        def record_add(key, value, *args, **kwargs):
            self._store(key, value)
            return add(key, value, *args, **kwargs)

        patch.setattr(self.backend, "get", record_get)
        patch.setattr(self.backend, "get_many", record_get_many)
        patch.setattr(self.backend, "set", record_set)
        patch.setattr(self.backend, "set_many", record_set_many)
        patch.setattr(self.backend, "add", record_add)

    def _hit(self, key: str) -> None:
        if not _no_answer(key):
            self.hits.append(key)

    def _store(self, key: str, value: Any) -> None:
        if not _no_answer(key):
            self.stored[key] = value

    def take(self) -> tuple[list[str], dict[str, Any]]:
        hits, stored = self.hits, self.stored
        self.hits, self.stored = [], {}
        return hits, stored


# The sessions, and the API throttles' counts of requests (league/club/throttles.py): the
# tests' rates are far above what the oracle sends, and `_ask` fails on a 429, so a count
# never changes an answer. Counted as found values, they tainted every API read after
# every writer (the counts grow with each request: never rebuilt equal).
NO_ANSWER_KEYS = ("django.contrib.sessions", "throttle_user_", "throttle_address_")


def _no_answer(key: str) -> bool:
    return any(part in key for part in NO_ANSWER_KEYS)


def _same_value(a: Any, b: Any) -> bool:
    """Whether two kept values are the same to the last detail: their pickles (`==` is too
    kind: two model instances with one primary key are equal whatever their fields)."""
    try:
        return pickle.dumps(a) == pickle.dumps(b)
    except Exception:  # a value that cannot be compared counts as changed
        return False


def _run_writer(writer: str, w: Warm) -> Outcome:
    """The writer's stale reads.

    The kept pass asks every read after the write (with the old ETag first) and records
    the cache keys each request found. A request that found only values stored after the
    write, by requests that found none from before it, computed what an empty cache
    computes: the requests run in the same order in both passes, so its answer is the
    empty cache's (by induction). The others are "tainted" by a value kept from before the
    write (or built from one). The empty-cache pass asks the tainted reads in the same
    order; a kept value it rebuilds equal clears the taint of every later read that only
    found that value, so most reads are asked once.

    A read answered 304 with the old ETag is asked again without it (the kept body) and
    its two requests count as one for the taint. Its empty-cache answer is needed twice:
    equal to the kept body, and equal to the old body (the 304 is right). Both follow
    from one comparison when the kept body is untainted: it then is the empty cache's
    answer by the argument above, so the old body is compared with it, and the read is
    asked again only when tainted, like any other.

    A writer with a setup (SETUPS) has it run first and every read asked again: those
    answers and that cache are the ones before its write."""
    b = w.books
    b.clock.move_to(TODAY)
    _cache_restore(w.snapshot)
    b.made = {}
    before, snapshot = w.before, w.snapshot
    if writer in SETUPS:
        # The setup's answers are the ones before the write (the cache warm with them).
        SETUPS[writer](b)
        before = _read_all(w.clients, w.urls)
        snapshot = _cache_snapshot()
    WRITERS[writer](b)
    names = {url: name for name, url in w.urls}
    backend = caches["default"]
    old_keys = _snapshot_keys(snapshot)
    old_values: dict[str, Any] = {}
    kept: dict[tuple[str, str], Answer] = {}
    taint: dict[tuple[str, str], set[str]] = {}  # the old keys an answer depends on
    revalidated: set[tuple[str, str]] = set()
    recorder = _Recorder(backend)
    key_taint: dict[str, set[str]] = {}
    with pytest.MonkeyPatch.context() as patch:
        recorder.start(patch)
        for role, client in w.clients.items():
            for _n, url in w.urls:
                pair = (role, url)
                old = before[pair]
                answer = _ask(client, url, old.etag)
                if answer.status == 304:
                    revalidated.add(pair)
                    # What the 304 found and stored counts for the pair as well: a value it
                    # kept from an old one must taint what the body below finds of it.
                    answer = _ask(client, url)
                kept[pair] = answer
                hits, stored = recorder.take()
                depends: set[str] = set()
                for key in hits:
                    if key in key_taint:
                        depends |= key_taint[key]
                    elif key in old_keys:
                        depends.add(key)
                        if key not in old_values:
                            old_values[key] = recorder.raw_get(key)
                taint[pair] = depends
                for key in stored:
                    key_taint[key] = depends
    # The empty cache: ask the tainted reads, in the same order.
    backend.clear()
    cleared: set[str] = set()  # old keys whose value an empty cache rebuilds equal
    fresh: dict[tuple[str, str], Answer] = {}
    with pytest.MonkeyPatch.context() as patch:
        recorder.start(patch)
        for role, client in w.clients.items():
            for _n, url in w.urls:
                pair = (role, url)
                if taint[pair] <= cleared:
                    fresh[pair] = kept[pair]
                    continue
                fresh[pair] = _ask(client, url)
                _hits, stored = recorder.take()
                for key, value in stored.items():
                    if key in old_values and _same_value(old_values[key], value):
                        cleared.add(key)
    # A stored report is compared only where one is served: without a build of the current
    # data the download sends to the report page (where a new one is asked for), as it
    # would with nothing stored.
    served = {p for p, a in kept.items() if names[p[1]] in KEPT_ELSEWHERE and a.status == 200}
    if served:
        fresh.update(_report_from_nothing(b, w.clients, served))
    stale: dict[str, list[str]] = {}
    for pair, answer in fresh.items():
        role, url = pair
        name = names[url]
        if not kept[pair].same(answer):
            stale.setdefault(name, []).append(
                f"{role} {url}: kept {kept[pair].status} fresh {answer.status}"
                f"{_first_difference(kept[pair].body, answer.body)}"
            )
        if pair in revalidated and not before[pair].same(answer):
            stale.setdefault(name, []).append(f"{role} {url}: 304 with the old ETag")
    return Outcome(stale)


def _snapshot_keys(snapshot: Any) -> set[str]:
    """The keys of a cache snapshot, as the cache's callers name them."""
    backend = caches["default"]
    prefix_len = len(backend.make_key(""))
    if isinstance(backend, RedisCache):
        raw = [k.decode() if isinstance(k, bytes) else k for k, _t, _v in snapshot]
    else:
        raw = list(snapshot[0])
    return {k[prefix_len:] for k in raw}


def _first_difference(a: bytes, b: bytes) -> str:
    if a == b:
        return ""
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f" at {i}: kept {a[max(0, i - 40) : i + 60]!r} fresh {b[max(0, i - 40) : i + 60]!r}"


def _outcome(writer: str, w: Warm) -> Outcome:
    if writer not in _outcomes:
        _outcomes[writer] = _run_writer(writer, w)
    return _outcomes[writer]


def _params():
    for writer in WRITERS:
        yield pytest.param(writer, None, id=writer)
        for (w, read), why in KNOWN_STALE.items():
            if w == writer:
                yield pytest.param(
                    writer,
                    read,
                    id=f"{writer}--{read}",
                    marks=pytest.mark.xfail(strict=True, reason=why),
                )


@pytest.mark.oracle
@pytest.mark.parametrize(("writer", "read"), list(_params()))
def test_kept_reads_answer_as_an_empty_cache_after_the_writer(writer, read, warm, db):
    outcome = _outcome(writer, warm)
    if read is not None:
        assert read not in outcome.stale, outcome.stale[read]
        return
    known = {r for (w, r) in KNOWN_STALE if w == writer}
    stale = {name: lines for name, lines in outcome.stale.items() if name not in known}
    assert not stale, "\n".join(line for lines in stale.values() for line in lines)


# Variants of kept reads (beside KEPT_READS' URLs) for the viewers' test below: other
# queries, and another person's GiroCode. A key that leaves out the query or the person
# serves one variant's answer to the next.
URL_VARIANTS = (
    "/runden/?status=alle",
    "/runden/?saison=alle",
    "/verlauf/?seite=2",
    "/marken/girocode/?jahr={year}",
    "/api/v1/games/?evening={evening}",
    "/api/v1/members/{secretary}/girocode.png",
)


@pytest.mark.oracle
def test_kept_reads_answer_each_viewer_and_url_as_an_empty_cache(warm, db):
    """Every kept read (and the variants above), asked by the secretary, then the
    member, then the guest through one cache, answers each what an empty cache answers
    that viewer for that URL. A key that leaves out what tells viewers or URLs apart (the
    role, the person, the login, the query) serves the first one's answer to the next;
    the writers' passes above cannot see it, since their empty-cache pass asks in the
    same order and shares its values alike. The club has a bank account here, so that
    each person's GiroCodes are shown."""
    b = warm.books
    b.clock.move_to(TODAY)
    _bank_account(b)
    variants = [v.format(**b.ids) for v in URL_VARIANTS]
    urls = [url for _n, url in warm.urls] + variants
    backend = caches["default"]
    shared: list[str] = []
    try:
        backend.clear()
        through = {(r, url): _ask(c, url) for r, c in warm.clients.items() for url in urls}
        for (role, url), kept in through.items():
            backend.clear()
            alone = _ask(warm.clients[role], url)
            if not kept.same(alone):
                shared.append(
                    f"{role} {url}: through one cache {kept.status}, alone {alone.status}"
                    f"{_first_difference(kept.body, alone.body)}"
                )
    finally:
        _cache_restore(warm.snapshot)
    assert not shared, "\n".join(shared)
    # The variants are pages the secretary may read (the others may be refused them).
    assert {through[("secretary", url)].status for url in variants} == {200}


# --------------------------------------------------------------------------- completeness


def _writer_modules() -> list[str]:
    found = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for folder in ("games", "league")
        for p in (ROOT / folder).rglob("services.py")
    )
    return found + list(OTHER_WRITER_MODULES)


def _service_functions() -> set[str]:
    names = set()
    for module_name in _writer_modules():
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if (
                inspect.isfunction(value)
                and value.__module__ == module_name
                and not name.startswith("_")
            ):
                names.add(f"{module_name}.{name}")
    return names


def test_every_service_that_writes_is_a_writer_of_the_oracle():
    services = _service_functions()
    listed = {w.split("[")[0] for w in WRITERS if "." in w and ":" not in w}
    missing = sorted(services - listed - set(READS_ONLY))
    assert not missing, f"writers missing from WRITERS (or READS_ONLY): {missing}"
    gone = sorted((listed | set(READS_ONLY)) - services)
    assert not gone, f"entries for functions that no longer exist: {gone}"


def _admin_writes() -> set[str]:
    request = RequestFactory().get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    writes = set()
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label_lower
        if model_admin.has_add_permission(request):
            writes.add(f"admin:{label}:add")
        if model_admin.has_change_permission(request):
            writes.add(f"admin:{label}:change")
        if model_admin.has_delete_permission(request):
            writes.add(f"admin:{label}:delete")
        for action in model_admin.get_actions(request):
            writes.add(f"admin:{label}:{action}")
    return writes


def test_every_admin_write_is_a_writer_of_the_oracle():
    writes = _admin_writes()
    # A variant of a write (in brackets) is that write.
    listed = {w.split("[")[0] for w in WRITERS if w.startswith("admin:")} | set(ADMIN_NOT_READ)
    missing, gone = sorted(writes - listed), sorted(listed - writes)
    assert not missing, f"admin writes missing from WRITERS (or ADMIN_NOT_READ): {missing}"
    assert not gone, f"WRITERS names admin writes that no longer exist: {gone}"


def test_every_management_command_that_writes_is_a_writer_of_the_oracle():
    ours = {name for name, app in get_commands().items() if app in ("league", "games")}
    listed = {w.removeprefix("command:") for w in WRITERS if w.startswith("command:")}
    missing = sorted(ours - listed - set(READ_ONLY_COMMANDS))
    assert not missing, f"commands missing from WRITERS (or READ_ONLY_COMMANDS): {missing}"
    gone = sorted((listed | set(READ_ONLY_COMMANDS)) - ours)
    assert not gone, f"commands listed that no longer exist: {gone}"


def test_every_celery_task_is_a_writer_of_the_oracle():
    from schockclub.celery import app

    app.loader.import_default_modules()
    ours = {n for n in app.tasks if n.startswith(("league.", "games."))}
    listed = {w.removeprefix("task:") for w in WRITERS if w.startswith("task:")}
    assert not ours - listed, f"tasks missing from WRITERS: {sorted(ours - listed)}"
    assert not listed - ours, f"tasks listed that no longer exist: {sorted(listed - ours)}"


# The caching helpers a kept read goes through.
HELPERS = (
    caching.books_cached,
    caching.books_cached_many,
    caching.books_fragment,
    caching.books_page,
    caching.club_books_version,
    caching.season_part_version,
    caching.KeptRead,
    caching.api_conditional,
    caching.api_not_modified,
    api_common.kept_api_read,
    api_common.kept_api_list,
    api_common.kept_api_object,
)
PROJECT = ("games.", "league.", "schockclub.")


def _codes(code: types.CodeType):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _template_keeps(name: str) -> bool:
    try:
        source = get_template(name).template.source
    except TemplateDoesNotExist:
        return False
    return "{% books_cache" in source


def _reaches_helper(obj: Any, seen: set[int], owner: type | None = None) -> bool:
    """Whether `obj` (a view function, method or class) calls a caching helper or renders a
    template with `{% books_cache %}`, directly or through the project's functions it
    names (globals, closures, decorated functions, attributes of its class)."""
    if id(obj) in seen:
        return False
    seen.add(id(obj))
    if any(obj is h for h in HELPERS) or isinstance(obj, caching.KeptRead):
        return True
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if not isinstance(obj, types.FunctionType):
        return False
    wrapped = getattr(obj, "__wrapped__", None)
    if wrapped is not None and _reaches_helper(wrapped, seen, owner):
        return True
    for cell in obj.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if _reaches_helper(value, seen, owner):
            return True
    if not (obj.__module__ or "").startswith(PROJECT):
        return False
    for code in _codes(obj.__code__):
        for const in code.co_consts:
            if isinstance(const, str) and const.endswith(".html") and _template_keeps(const):
                return True
        for name in code.co_names:
            candidates = [obj.__globals__.get(name)]
            if owner is not None:
                candidates.append(inspect.getattr_static(owner, name, None))
            for value in candidates:
                if isinstance(value, types.ModuleType):
                    if value.__name__.startswith(PROJECT):
                        candidates += [getattr(value, n, None) for n in code.co_names]
                    continue
                if value is not None and _reaches_helper(value, seen, owner):
                    return True
    return False


def _view_keeps(callback) -> bool:
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is None:
        return _reaches_helper(callback, set())
    actions = getattr(callback, "actions", None) or {}
    # The GET handler (a viewset's action for GET) and the hooks DRF and Django call on the
    # way to it (DRF's own code is not followed).
    methods = [actions.get("get", "get"), *VIEW_HOOKS]
    return any(_reaches_helper(inspect.getattr_static(cls, m, None), set(), cls) for m in methods)


VIEW_HOOKS = (
    "dispatch",
    "initial",
    "get_queryset",
    "get_object",
    "filter_queryset",
    "paginate_queryset",
    "get_paginated_response",
    "get_serializer",
    "get_serializer_class",
    "get_serializer_context",
    "finalize_response",
    "get_context_data",
)


def _routes(patterns=None):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace != "admin":
                yield from _routes(pattern.url_patterns)
        elif pattern.name:
            yield pattern.name, pattern.callback


def test_every_kept_read_is_a_read_of_the_oracle():
    kept = {name for name, callback in _routes() if _view_keeps(callback)}
    listed = set(KEPT_READS) - set(KEPT_ELSEWHERE)
    missing = sorted(kept - listed - set(NOT_KEPT))
    assert not missing, f"kept reads missing from KEPT_READS (or NOT_KEPT): {missing}"
    gone = sorted((listed | set(NOT_KEPT)) - kept)
    assert not gone, f"reads listed whose views keep nothing: {gone}"


def test_every_setup_is_of_a_writer():
    assert set(SETUPS) <= set(WRITERS)


def test_every_stale_entry_names_a_writer_and_a_read():
    assert {w for w, _r in KNOWN_STALE} <= set(WRITERS)
    assert {r for _w, r in KNOWN_STALE} <= set(KEPT_READS)
