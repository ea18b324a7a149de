"""Builds the sample evening of tests/samples into the database through the services
(the pages, the API and the import have their own tests that go their own way)."""

import datetime
import functools

from games.evenings.services import evening_create, game_record
from league.club.models import Club, Member
from league.club.services import season_get_or_create


def recorded_natural(turn: dict) -> bool:
    """The `natural` flag of a final throw the sample records without its attempts, as it
    can have come about under the club rules.

    **Decision** (taken when the rule sets became data): the sample records Anna's 6-5-5 of game 20
    as
    collected in three attempts. Under `keep_only_ones` (docs/rules.md 3) only ones are laid
    out, so a collected throw always shows a one: a 6-5-5 can only have come from one
    attempt, i.e. natural. validate_throw refuses the literal record
    (`collected_without_one`; tests/games/rounds/test_services.py); a Hausnummer ranks the
    same either way, so every figure of the books stays as the sample says.
    """
    if not turn["natural"] and 1 not in turn["final_dice"]:
        return True
    return bool(turn["natural"])


def sample_club(sample: dict) -> tuple[Club, dict[str, Member]]:
    """The sample's club with its members and guests, and a name -> Member map."""
    club, _ = Club.objects.get_or_create(name=sample["club"], rule_preset=sample["rule_set"])
    people = {}
    for name in sample["club_members"]:
        people[name], _ = Member.objects.get_or_create(club=club, name=name)
    for name in sample["evening"]["guests"]:
        people[name], _ = Member.objects.get_or_create(club=club, name=name, kind="guest")
    people[sample["evening"]["secretary"]].is_secretary = True
    people[sample["evening"]["secretary"]].save()
    return club, people


def enter_sample_evening(sample: dict, *, date: datetime.date | None = None):
    """Create the sample evening (optionally on another date) and its 25 games."""
    club, people = sample_club(sample)
    ev = sample["evening"]
    date = date or datetime.date.fromisoformat(ev["date"])
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
        game_record(
            evening=evening,
            number=game["number"],
            loser=people[game["loser"]],
            schock_aus_throwers=[people[n] for n in game["schock_aus"]],
        )
    return evening, people


# The rows enter_sample_evening wrote, per table as PostgreSQL's COPY text, kept per process
# (each xdist worker has its own database, whose sequences are past these ids for good) and
# per what the entering reads besides the sample: the statutes a new season starts with
# (tests patch them) and the clock (the rows carry its time; tests travel).
_copied_rows: dict[tuple[str, str], dict[str, bytes]] = {}


def _copy_key() -> tuple[str, str]:
    from django.utils import timezone

    from league.club import statutes

    now = timezone.now()
    return repr(statutes.CLUB_STATUTES), now.replace(
        minute=now.minute - now.minute % 10, second=0, microsecond=0
    ).isoformat()


def enter_sample_evening_copied(sample: dict):
    """The sample evening as enter_sample_evening leaves it, for tests that start from it.

    On PostgreSQL the first call of a process (for the same statutes and ten minutes of the
    clock) enters it through the services in a savepoint, keeps every row it wrote
    (COPY ... TO) and rolls back; every call then writes those rows again (COPY ... FROM,
    triggers and foreign keys off for the copy only: the rows passed them when the services
    wrote them). 25 games through the services are 660 queries, half a second; the copy is
    one statement per table. Elsewhere, or when the database already holds the sample's
    club, it is enter_sample_evening. Returns (evening, name -> Member).
    """
    from django.db import connection, transaction

    from games.evenings.models import Evening

    if not _copy_possible(connection) or Club.objects.filter(name=sample["club"]).exists():
        return enter_sample_evening(sample)
    key = _copy_key()
    if key not in _copied_rows:
        _copied_rows[key] = _sample_rows(sample)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table, data in _copied_rows[key].items():
            with cursor.copy(f'COPY "{table}" FROM STDIN') as copy:
                copy.write(data)
        cursor.execute("SET LOCAL session_replication_role = origin")
    club = Club.objects.get(name=sample["club"])
    evening = Evening.objects.get(club=club, date=sample["evening"]["date"])
    return evening, {m.name: m for m in Member.objects.filter(club=club)}


def _copy_possible(connection) -> bool:
    """PostgreSQL, as a superuser (who alone may switch the triggers off for a copy)."""
    return connection.vendor == "postgresql" and _is_superuser()


@functools.cache
def _is_superuser() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        return bool(cursor.fetchone()[0])


def _sample_rows(sample: dict) -> dict[str, bytes]:
    """Enter the sample through the services in a savepoint; the rows it added, by table."""
    from django.db import connection, transaction

    def rows() -> dict[str, set[bytes]]:
        found = {}
        with connection.cursor() as cursor:
            for table in connection.introspection.table_names(cursor):
                with cursor.copy(f'COPY "{table}" TO STDOUT') as copy:
                    found[table] = set(b"".join(copy).splitlines(keepends=True))
        return found

    before = rows()
    with transaction.atomic():
        enter_sample_evening(sample)
        after = rows()
        transaction.set_rollback(True)
    added = {table: lines - before.get(table, set()) for table, lines in after.items()}
    return {table: b"".join(sorted(lines)) for table, lines in added.items() if lines}
