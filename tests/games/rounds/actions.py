"""Games with the seed actions of docs/rules.md 4, built from the seeds' own
examples, for the service, page and API tests.

Players (seating, clockwise): Anna, Bernd, Carla, Dieter of the sample club, in a season of
the preset named; every throw natural in one attempt.

- ``ausscheidung`` (regelwerk2019, seed 000 "Ausscheidung um den Spielbeginn"): Bernd and
  Dieter tie with 2-2-1; in the re-throw Bernd throws Schock-Aus, so the first half goes to
  Dieter at once. Dieter opens the second half, throws 2-2-1 while Anna throws Schock-Aus:
  Dieter loses both halves (Blattschuss). Schock-Aus: Bernd, Anna.
- ``deckel_nehmen`` (regelwerk2019, seed 000 "Schock 3 vorgelegt, drei Deckel genommen"):
  Anna lays Schock 3, Bernd keeps 6-4-1 covered and takes three Deckel, opens the next round
  with it; Carla's Schock-Aus gives Anna (2-2-1) the first half, and Bernd's the second:
  Anna loses. Schock-Aus: Carla, Bernd.
- ``choose_opener`` (regelwerk2019, seed 000 "Vorlegen"): Anna loses the first half to
  Carla's Schock-Aus and names Carla to open the second; Bernd's Schock-Aus gives Anna the
  second half too. Schock-Aus: Carla, Bernd.
- ``join``/``leave`` (stammtisch, seed 001 "einwürfeln"): Bernd takes three Deckel in the
  first round; Dieter joins after Anna; Carla, without Deckel, leaves; Anna's Schock-Aus
  gives Dieter the first half, Bernd's the second. Schock-Aus: Anna, Bernd.
"""

import datetime

from games.evenings.services import evening_create
from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from league.club.services import season_create
from tests.sample import sample_club

ANNA, BERND, CARLA, DIETER = "Anna Becker", "Bernd Krause", "Carla Vogt", "Dieter Hahn"
SEATING = [ANNA, BERND, CARLA, DIETER]


def action_evening(sample: dict, preset: str, *, year: int = 2024):
    """An evening of a ``preset`` season with Anna, Bernd, Carla, Dieter present."""
    club, people = sample_club(sample)
    season_create(club=club, year=year, rule_preset=preset)
    evening = evening_create(
        club=club,
        date=datetime.date(year, 3, 6),
        secretary=people[sample["evening"]["secretary"]],
        present_members=[people[n] for n in SEATING],
        guests=[],
        absent_members=[],
    )
    return evening, people


# Entries as plain values: (kind, throws [(name, dice)], extra {"player", "after", "covered"}).
GAMES = {
    "ausscheidung": [
        (
            "ausscheidung",
            [(ANNA, (6, 5, 3)), (BERND, (2, 2, 1)), (CARLA, (6, 4, 2)), (DIETER, (2, 2, 1))],
            {},
        ),
        ("ausscheidung", [(BERND, (1, 1, 1)), (DIETER, (5, 4, 2))], {}),
        (
            "round",
            [(DIETER, (2, 2, 1)), (ANNA, (1, 1, 1)), (BERND, (6, 5, 3)), (CARLA, (6, 4, 2))],
            {},
        ),
    ],
    "deckel_nehmen": [
        ("deckel_nehmen", [(ANNA, (1, 1, 3))], {"player": BERND, "covered": (6, 4, 1)}),
        ("round", [(BERND, (6, 4, 1)), (CARLA, (1, 1, 1)), (ANNA, (2, 2, 1))], {}),
        ("round", [(ANNA, (2, 2, 1)), (BERND, (1, 1, 1)), (CARLA, (6, 5, 3))], {}),
    ],
    "choose_opener": [
        ("round", [(ANNA, (2, 2, 1)), (BERND, (6, 5, 3)), (CARLA, (1, 1, 1))], {}),
        ("choose_opener", [], {"player": CARLA}),
        ("round", [(CARLA, (6, 5, 3)), (ANNA, (2, 2, 1)), (BERND, (1, 1, 1))], {}),
    ],
    "einwuerfeln": [
        ("round", [(ANNA, (1, 1, 3)), (BERND, (2, 2, 1)), (CARLA, (6, 5, 3))], {}),
        ("join", [], {"player": DIETER, "after": ANNA}),
        ("leave", [], {"player": CARLA}),
        ("round", [(BERND, (6, 5, 3)), (ANNA, (1, 1, 1)), (DIETER, (2, 2, 1))], {}),
        ("round", [(DIETER, (2, 2, 1)), (BERND, (1, 1, 1)), (ANNA, (6, 5, 3))], {}),
    ],
}

#: preset, loser, Schock-Aus throwers in order, per game of GAMES.
EXPECTED = {
    "ausscheidung": ("regelwerk2019", DIETER, [BERND, ANNA]),
    "deckel_nehmen": ("regelwerk2019", ANNA, [CARLA, BERND]),
    "choose_opener": ("regelwerk2019", ANNA, [CARLA, BERND]),
    "einwuerfeln": ("stammtisch", DIETER, [ANNA, BERND]),
}


def round_inputs(name: str, people: dict) -> list[RoundInput]:
    """GAMES[name] as the service's RoundInputs."""
    result = []
    for kind, throws, extra in GAMES[name]:
        result.append(
            RoundInput(
                kind=kind,
                throws=[
                    ThrowInput(player=people[n], dice=d, attempts=1, natural=True)
                    for n, d in throws
                ],
                player=people[extra["player"]] if "player" in extra else None,
                after=people[extra["after"]] if "after" in extra else None,
                covered=extra.get("covered"),
            )
        )
    return result


def api_rounds(name: str, people: dict) -> list[dict]:
    """GAMES[name] as the API's ``rounds`` (persons by id)."""
    result = []
    for kind, throws, extra in GAMES[name]:
        item: dict = {"kind": kind}
        if throws or kind in ("round", "ausscheidung", "deckel_nehmen"):
            item["throws"] = [
                {"player": people[n].pk, "dice": list(d), "attempts": 1, "natural": True}
                for n, d in throws
            ]
        if "player" in extra:
            item["player"] = people[extra["player"]].pk
        if "after" in extra:
            item["after"] = people[extra["after"]].pk
        if "covered" in extra:
            item["covered"] = list(extra["covered"])
        result.append(item)
    return result
