"""Builds the sample evening of tests/samples into the database through the services
(the pages, the API and the import have their own tests that go their own way)."""

import datetime

from games.evenings.services import evening_create, game_record
from league.club.models import Club, Member
from league.club.services import season_get_or_create
from tests.copied import copied


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


def enter_sample_evening_copied(sample: dict, *, date: datetime.date | None = None):
    """The sample evening as enter_sample_evening leaves it, for tests that start from it.

    Entered through the services the first time in a process, then its rows are written
    again by COPY (tests/copied.py): 25 games through the services are 660 queries, half a
    second; the copy is one statement per table. Returns (evening, name -> Member).
    """
    return copied(
        "sample evening", lambda: enter_sample_evening(sample, date=date), repr(sample), date
    )
