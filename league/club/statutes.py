"""The club's statutes as data a season carries (seed 003, RULES.md section 5).

Every figure of the statutes lives here once: points per Schock-Aus and per lost game,
Marks per lost game and per absence, games per present club member, the Mark's value and
currency by era, and which Schock-Aus owe a Runde. Services and selectors ask a season for
its statutes (`season_statutes`) and its rule set (`season_rules`) and read the figures
from there; none of them writes a figure of its own. Today every season of every club
carries `CLUB_STATUTES`; statutes chosen per club build on this (a later issue).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from games.rules import PRESETS, RuleSet, RundeOwed, runden_owed

if TYPE_CHECKING:
    from league.club.models import Season

__all__ = ["CLUB_STATUTES", "Statutes", "preset_rules", "season_rules", "season_statutes"]

T = TypeVar("T")


@dataclass(frozen=True)
class Statutes:
    """The statutes of a club's books (RULES.md 5; seed 003 unless said otherwise).

    Attributes:
        points_per_schock_aus: championship points for every Schock-Aus thrown (+1).
        points_per_game_lost: championship points for every game lost (-1).
        marks_per_game_lost: Marks the loser of a game pays into the kitty (1).
        marks_per_absence: Marks a club member pays for an evening absent: the average of
            five games plus one penalty Mark (6).
        games_per_present_member: games an evening has for every present club member; guests
            add none (5).
        euro_since: the first season year whose Mark is counted in EUR (2002).
        mark_value_dm: what one Mark is worth before `euro_since`, in DM (1.00).
        mark_value_eur: what one Mark is worth from `euro_since` on, in EUR (0.50).

    Which Schock-Aus owe a Runde (the first, every fifth and the last of an evening) is the
    rules module's `runden_owed` (RULES.md 5); `runden` below is the one way the books ask.
    """

    points_per_schock_aus: int = 1
    points_per_game_lost: int = -1
    marks_per_game_lost: int = 1
    marks_per_absence: int = 6
    games_per_present_member: int = 5
    euro_since: int = 2002
    mark_value_dm: Decimal = Decimal("1.00")
    mark_value_eur: Decimal = Decimal("0.50")

    def points(self, *, schock_aus: int, games_lost: int) -> int:
        """Championship points of a person: Schock-Aus and lost games weighed by the statutes."""
        return schock_aus * self.points_per_schock_aus + games_lost * self.points_per_game_lost

    def marks(self, *, games_lost: int, evenings_absent: int = 0) -> int:
        """Marks owed for `games_lost` lost games and `evenings_absent` evenings absent."""
        return games_lost * self.marks_per_game_lost + evenings_absent * self.marks_per_absence

    def games_expected(self, *, present_members: int) -> int:
        """Games an evening has with `present_members` club members present (guests add none)."""
        return self.games_per_present_member * present_members

    def mark_value(self, year: int) -> tuple[Decimal, str]:
        """The Mark's value and currency of a season year: (Decimal("1.00"), "DM") up to and
        including 2001, (Decimal("0.50"), "EUR") from 2002."""
        if year < self.euro_since:
            return self.mark_value_dm, "DM"
        return self.mark_value_eur, "EUR"

    def runden(self, throwers: Sequence[T]) -> list[RundeOwed]:
        """The Runden owed for an evening's Schock-Aus throwers in throwing order (RULES.md 5:
        first, every fifth, last): `games.rules.runden_owed`."""
        return runden_owed(list(throwers))


CLUB_STATUTES = Statutes()


def season_statutes(season: Season | None = None) -> Statutes:
    """The statutes a season's books are kept by (today the club's, seed 003, for all)."""
    return CLUB_STATUTES


def season_rules(season: Season) -> RuleSet:
    """The rule set a season is played with (RULES.md 6): the flags it stores
    (``season.rules``, ``RuleSet.from_dict``); when it stores none, its preset, and the
    club's rules for a name the rules module does not know. The one place that maps a
    season to its rules.

    Raises RuleViolation (code ``invalid_rule_set``) for stored flags the rules module
    refuses; every writer validates them first (``league.club.services``)."""
    if season.rules:
        try:
            return _stored_rules(tuple(sorted(season.rules.items())))
        except TypeError:  # an unhashable value: from_dict names what is wrong
            return RuleSet.from_dict(season.rules)
    return preset_rules(season.rule_preset)


@lru_cache(maxsize=128)
def _stored_rules(items: tuple[tuple[str, object], ...]) -> RuleSet:
    # One RuleSet per stored rule set: games.rules caches its lookup tables on the
    # instance, so every request of a season plays with the same, warmed-up object.
    return RuleSet.from_dict(dict(items))


def preset_rules(preset: str | None) -> RuleSet:
    """The rule set of a preset name (RULES.md 6), the club's rules for an unknown one."""
    return PRESETS.get(preset or "club", PRESETS["club"])
