"""`manage.py demo`: a demo club with members, logins and two seasons of simulated evenings.

The evenings are played by the rules module's simulator (games.rules.simulate_evening,
seeded, so the demo is the same on every machine) and written through the same services
the pages use. Running it again changes nothing and prints the logins.
"""

import datetime
import random
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.evenings.services import evening_create, game_record
from games.rules.simulator import simulate_evening
from league.banking.models import ClubBankAccount
from league.banking.services import club_bank_account_set
from league.closing.services import season_close, season_sign_off
from league.club.books import books_changes_gathered
from league.club.models import Club, Member
from league.club.scoping import across_clubs
from league.club.services import (
    club_statutes_update,
    member_login_set,
    member_update,
    season_get_or_create,
)
from league.club.statutes import season_rules
from league.ledger.selectors import (
    member_balance,
)
from league.ledger.services import (
    payment_record,
)

CLUB = "Schockclub Demo"
MEMBERS = [
    "Anna Becker",
    "Bernd Krause",
    "Carla Vogt",
    "Dieter Hahn",
    "Erik Lange",
    "Frank Roth",
    "Greta Sommer",
    "Heinz Wolf",
]
GUESTS = ["Gustav Meier", "Ines Brandt"]
SECRETARY = "Bernd Krause"
# A second secretary (Carla keeps the books when Bernd is away; the club page shows how to
# make or unmake one) and a guest who reads the table and what he owes.
DEPUTY = "Carla Vogt"
LOGINS = {
    "sekretaer": (SECRETARY, "schocken"),
    "anna": ("Anna Becker", "schocken"),
    "carla": (DEPUTY, "schocken"),
    "gustav": ("Gustav Meier", "schocken"),
}
SECRETARIES = (SECRETARY, DEPUTY)
SEED = 1979

# A second club keeps other statutes: points by an evening's rank
# 7/5/4/3/2/1, an absence costs the evening's average plus one Mark, and a Runde is owed
# by the first and every third Schock-Aus (no "last", no shift).
SECOND_CLUB = "Stammtisch Kegelbahn"
SECOND_MEMBERS = [
    "Kurt Bauer",
    "Lena Fuchs",
    "Moritz Jung",
    "Nina Kraft",
    "Otto Pohl",
    "Paula Seidel",
]
SECOND_GUESTS = ["Rudi Voss"]
SECOND_SECRETARY = "Kurt Bauer"
SECOND_LOGINS = {"kegel": (SECOND_SECRETARY, "schocken")}
SECOND_STATUTES = {
    "scoring": {"mode": "by_rank", "rank_points": [7, 5, 4, 3, 2, 1]},
    "absence": {"mode": "average_plus", "surcharge": 1},
    "runden": {"first": True, "last": False, "every": 3, "shift": False},
}


def club_fridays(year: int, until: datetime.date) -> list[datetime.date]:
    """Every second Friday of `year` up to `until` (the club's evenings in the demo)."""
    day = datetime.date(year, 1, 1)
    day += datetime.timedelta(days=(4 - day.weekday()) % 7)
    days = []
    while day.year == year and day <= until:
        days.append(day)
        day += datetime.timedelta(days=14)
    return days


class Command(BaseCommand):
    help = "Create the demo club with two seasons of simulated evenings (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--today",
            type=datetime.date.fromisoformat,
            default=None,
            help="Last possible evening date (default: today).",
        )
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="Where the app is served, for the last line (make run passes its HOST).",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo although DEBUG is off (its logins share a known password).",
        )

    @across_clubs()  # the demo clubs, two of them
    def handle(self, *args, today=None, url="http://127.0.0.1:8000/", force=False, **options):
        # The demo's logins all have the password "schocken": in a production database
        # they would be open doors. DEMO_ALLOWED is DEBUG as the environment set it.
        if not (settings.DEMO_ALLOWED or force):
            raise CommandError(
                "DEBUG is off: the demo's logins have a known password and do not belong in "
                "a production database. Use --force if this database is a throwaway."
            )
        today = today or datetime.date.today()
        self.first_club(today)
        if not Club.objects.filter(name=SECOND_CLUB).exists():
            self.build_second(today)
        self.add_second_logins(Club.objects.get(name=SECOND_CLUB))
        self.stdout.write(self.style.SUCCESS(f"Demo club: {CLUB}"))
        for username, (name, password) in LOGINS.items():
            role = "Buchführer" if name in SECRETARIES else "Mitglied"
            role = "Gast" if name in GUESTS else role
            self.stdout.write(f"  Login ({role}, {name}): {username} / {password}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Second club (other statutes, /saison/<jahr>/satzung/): {SECOND_CLUB}"
            )
        )
        for username, (name, password) in SECOND_LOGINS.items():
            self.stdout.write(f"  Login (Buchführer, {name}): {username} / {password}")
        self.stdout.write(f"  Open {url} and log in.")

    def first_club(self, today: datetime.date) -> Club:
        """The demo club (`CLUB`) with its two seasons, logins, last season closed and bank
        account; each step only where it is missing. Returns the club."""
        if not Club.objects.filter(name=CLUB).exists():
            self.build(today)
        club = Club.objects.get(name=CLUB)
        self.add_logins(club)
        self.close_last_season(club, today)
        self.add_bank_account(club)
        return club

    def add_bank_account(self, club: Club) -> None:
        """The demo club's bank account (an example IBAN that passes the checksum, never a
        real account), so that "Mit GiroCode bezahlen" and the GiroCode API answer on the
        demo. Only when the club has none: one the secretary set stays."""
        if not ClubBankAccount.objects.filter(club=club).exists():
            club_bank_account_set(
                club=club, holder=CLUB, iban="DE89 3704 0044 0532 0130 00", bic="COBADEFFXXX"
            )

    @transaction.atomic
    def close_last_season(self, club: Club, today: datetime.date) -> None:
        """Last year's season closed by the secretary and signed by anna as Kassenprüfer
        (/saison/<jahr>/abschluss/). Only once: a season the secretary
        reopened stays open."""
        season = club.seasons.filter(year=today.year - 1).first()
        if (
            season is None
            or season.closed_at is not None
            or season.history.filter(closed_at__isnull=False).exists()
        ):
            return
        secretary = Member.objects.get(club=club, name=LOGINS["sekretaer"][0])
        season_close(season=season, by=secretary, confirm=True)
        season_sign_off(
            season=season, auditor=Member.objects.get(club=club, name=LOGINS["anna"][0])
        )

    @transaction.atomic
    def build(self, today: datetime.date) -> None:
        club = Club.objects.create(name=CLUB, rule_preset="club")
        people = {n: Member.objects.create(club=club, name=n) for n in MEMBERS}
        people.update({n: Member.objects.create(club=club, name=n, kind="guest") for n in GUESTS})
        rng = random.Random(SEED)
        for year in (today.year - 1, today.year):
            season = season_get_or_create(club=club, year=year)
            rules = season_rules(season)
            dates = club_fridays(year, today)
            for date in dates:
                self.play_evening(club, people, rules, date, rng)
            self.pay_dues(season, people, dates, rng, settle=year < today.year)

    @transaction.atomic
    def build_second(self, today: datetime.date) -> None:
        """The second club: its statutes first (its season is kept under them), then one
        season of evenings played by the simulator and entered through the services, and
        its dues paid in part."""
        club = Club.objects.create(name=SECOND_CLUB, rule_preset="club")
        club_statutes_update(club=club, statutes=SECOND_STATUTES)
        people = {n: Member.objects.create(club=club, name=n) for n in SECOND_MEMBERS}
        people.update(
            {n: Member.objects.create(club=club, name=n, kind="guest") for n in SECOND_GUESTS}
        )
        rng = random.Random(SEED + 1)
        season = season_get_or_create(club=club, year=today.year)
        rules = season_rules(season)
        dates = club_fridays(today.year, today)[1::2]  # every fourth Friday
        for date in dates:
            self.play_evening(
                club,
                people,
                rules,
                date,
                rng,
                members=SECOND_MEMBERS,
                guests=SECOND_GUESTS,
                secretary=SECOND_SECRETARY,
            )
        self.pay_dues(season, people, dates, rng, settle=False)

    @transaction.atomic
    def add_second_logins(self, club: Club) -> None:
        """The second club's secretary and login."""
        users = get_user_model()
        person = Member.objects.get(club=club, name=SECOND_SECRETARY)
        if not person.is_secretary:
            member_update(member=person, is_secretary=True)
        for username, (name, password) in SECOND_LOGINS.items():
            person = Member.objects.get(club=club, name=name)
            if person.user_id is None and not users.objects.filter(username=username).exists():
                login = users.objects.create_user(username=username, password=password)
                member_login_set(person=person, user=login)

    @transaction.atomic
    def add_logins(self, club: Club) -> None:
        """The secretaries and the demo logins (also into a demo club made before they
        were added)."""
        users = get_user_model()
        for name in SECRETARIES:
            person = Member.objects.get(club=club, name=name)
            if not person.is_secretary:
                member_update(member=person, is_secretary=True)
        for username, (name, password) in LOGINS.items():
            person = Member.objects.get(club=club, name=name)
            if person.user_id is None and not users.objects.filter(username=username).exists():
                login = users.objects.create_user(username=username, password=password)
                # The demo's people stand for themselves: the password printed for them is
                # theirs, so anna may sign the closed season as Kassenprüfer.
                person.password_set_by_holder = True
                member_login_set(person=person, user=login, also_saved=["password_set_by_holder"])

    def pay_dues(self, season, people, dates, rng: random.Random, *, settle: bool) -> None:
        """Payments as a club makes them: a past season settled in full at its last
        evening; the current one paid in part (some members pay round sums, some not yet)."""
        if not dates:
            return
        for member in people.values():
            owed = member_balance(member=member, season=season)
            if owed <= 0:
                continue
            if settle:
                amount, paid_on = owed, dates[-1]
            elif rng.random() < 0.6:
                amount = min(owed, Decimal(rng.choice([5, 10, 20, 25])))
                paid_on = dates[len(dates) // 2]
            else:
                continue
            payment_record(
                member=member,
                amount=amount,
                paid_on=paid_on,
                season=season,
                method=rng.choice(["cash", "transfer"]),
                note="Saisonabrechnung" if settle else "Abschlag",
            )

    def play_evening(
        self,
        club,
        people,
        rules,
        date,
        rng: random.Random,
        *,
        members: list[str] = MEMBERS,
        guests: list[str] = GUESTS,
        secretary: str = SECRETARY,
    ) -> None:
        others = [n for n in members if n != secretary]
        present = [secretary] + sorted(rng.sample(others, rng.randint(3, len(others))))
        absent = [n for n in members if n not in present]
        guests = [g for g in guests if rng.random() < 0.2]
        played = simulate_evening(
            present, guests, rules, seed=f"{SEED}-{date.isoformat()}", secretary=secretary
        )
        # The evening's charges are brought in line once, after its last game, not after
        # each of its 25 (the versions still move with every game).
        with transaction.atomic(), books_changes_gathered():
            evening = evening_create(
                club=club,
                date=date,
                secretary=people[secretary],
                present_members=[people[n] for n in present],
                guests=[people[n] for n in guests],
                absent_members=[people[n] for n in absent],
            )
            for number, game in enumerate(played.games, start=1):
                game_record(
                    evening=evening,
                    number=number,
                    loser=people[game.loser],
                    vorleger=people[game.vorleger],
                    schock_aus_throwers=[people[n] for n in game.schock_aus],
                )
