"""The club's statutes as data a season carries (seed 003, docs/rules.md section 5).

Every figure of the books lives here once: how championship points are scored (per
Schock-Aus and per lost game, or by an evening's rank), Marks per lost game, what an
absence costs (nothing, a fixed number of Marks, or the evening's average plus a
surcharge), games per present club member, the Mark's value and currency by era, and
which Schock-Aus owe a Runde. A club keeps its own statutes (`Club.statutes`, the
defaults of its new seasons) and every season stores the statutes it was kept under
(`Season.statutes`); services and selectors ask a season for them (`season_statutes`)
and read the figures from there; none of them writes a figure of its own.

An empty stored value means seed 003's statutes, `CLUB_STATUTES`, exactly as the club
has kept its books since 1979.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules import PRESETS, RuleSet, RundeOwed, runden_owed_by
from league.club.errors import BooksError

if TYPE_CHECKING:
    from league.club.models import Club, Season

__all__ = [
    "ABSENCE_MODES",
    "CLUB_STATUTES",
    "SCORING_MODES",
    "MarkEra",
    "StatuteClause",
    "Statutes",
    "absence_text",
    "club_statutes",
    "game_lost_text",
    "marks_text",
    "preset_rules",
    "season_rules",
    "season_statutes",
    "statute_clause",
    "statutes_view",
]

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

#: Scoring modes: "per_event" (points per Schock-Aus and per lost game, seed 003) and
#: "by_rank" (points by an evening's rank, e.g. 7/5/4/3/2/1).
SCORING_MODES = ("per_event", "by_rank")
#: Absence modes: "none" (an absence costs nothing), "fixed" (a fixed number of Marks,
#: seed 003: 6), "average_plus" (the evening's average plus a surcharge).
ABSENCE_MODES = ("none", "fixed", "average_plus")
CURRENCIES = ("DM", "EUR")

# Bounds of every number (inclusive): a figure outside is refused, never clipped.
POINTS_BOUND = 100  # points per event: -100..100; rank points 0..100
MARKS_BOUND = 100  # Marks per lost game, per absence, surcharge: 0..100
GAMES_BOUNDS = (1, 50)  # games per present club member
EVERY_BOUND = 100  # every n-th Schock-Aus owes a Runde: 0 (none) .. 100
RANKS_MAX = 30  # at most 30 ranks with points
ERAS_MAX = 10
YEAR_BOUNDS = (1900, 2200)
MARK_VALUE_MAX = Decimal("9999.99")
PROVISIONAL_HOURS_BOUNDS = (0, 720)  # an evening stays provisional at most 30 days


@dataclass(frozen=True)
class MarkEra:
    """From `since_year` on (until the next era), one Mark is worth `value` (Decimal money,
    two decimal places) in `currency` ("DM" or "EUR")."""

    since_year: int
    value: Decimal
    currency: str


SEED_003_ERAS = (
    MarkEra(1979, Decimal("1.00"), "DM"),
    MarkEra(2002, Decimal("0.50"), "EUR"),
)


@dataclass(frozen=True)
class Statutes:
    """The statutes of a club's books (docs/rules.md 5; the defaults are seed 003).

    Attributes:
        scoring: "per_event" or "by_rank" (`SCORING_MODES`).
        points_per_schock_aus: per_event: championship points for every Schock-Aus (+1).
        points_per_game_lost: per_event: championship points for every lost game (-1).
        rank_points: by_rank: points for an evening's 1st, 2nd, ... place (e.g. 7, 5, 4, 3,
            2, 1); later places get none. Never rising from one place to the next.
        marks_per_game_lost: Marks the loser of a game pays into the kitty (1).
        absence: "none", "fixed" or "average_plus" (`ABSENCE_MODES`).
        marks_per_absence: fixed: Marks a club member pays for an evening absent (6: the
            average of five games plus one penalty Mark).
        absence_surcharge: average_plus: Marks added to the evening's average.
        games_per_present_member: games an evening has per present club member; guests
            add none (5).
        mark_eras: the Mark's value and currency by era, sorted by `since_year`: 1.00 DM
            up to and including 2001, 0.50 EUR from 2002. A year before the first era takes
            the first era's value.
        runden_first, runden_last: the first / the last Schock-Aus of an evening owes a Runde.
        runden_every: every n-th Schock-Aus owes a Runde (5; 0: none).
        runden_shift: when the last already owes one, its Runde falls to the one before.
        provisional_hours: hours after an evening's last game during which its charges
            are provisional ("vorläufig") and a person may object to a game (48; 0 to 720).
        evening_weekday: the club's evening day, 0 Monday to 6 Sunday (4, Friday).
        evening_time: the hour and minute the club's evenings begin, "HH:MM" in the club's
            zone Europe/Berlin ("20:00"); the calendar feed lists evenings from it.

    Evening rank (by_rank; the issue is silent, **Decision**): the club members present
    at an evening are ranked by fewest games lost that evening; equal losses share the
    better place (1, 2, 2, 4) and each gets that place's points. Guests and absent members
    get no points.

    The average of an absence (average_plus; **Decision**): the Marks the club members
    present at the evening lost (guests' lost games not counted) divided by their number,
    as a Decimal rounded half up to whole Marks (charges are whole Marks; 4.5 -> 5), plus
    the surcharge. No member present: the surcharge alone. The sample evening of
    2026-10-09: members lost 22 games, 5 present: 4.4 -> 4 Marks, + 1 = 5. Such a charge
    follows the evening: while its games are entered, the ledger reverses the absence
    charge and books it again whenever its whole Marks change (reason "marks_changed").
    """

    scoring: str = "per_event"
    points_per_schock_aus: int = 1
    points_per_game_lost: int = -1
    rank_points: tuple[int, ...] = ()
    marks_per_game_lost: int = 1
    absence: str = "fixed"
    marks_per_absence: int = 6
    absence_surcharge: int = 0
    games_per_present_member: int = 5
    mark_eras: tuple[MarkEra, ...] = field(default=SEED_003_ERAS)
    runden_first: bool = True
    runden_last: bool = True
    runden_every: int = 5
    runden_shift: bool = True
    provisional_hours: int = 48
    evening_weekday: int = 4
    evening_time: str = "20:00"

    # --- the figures -------------------------------------------------------------------

    @property
    def by_rank(self) -> bool:
        """Points come from an evening's rank (scoring "by_rank")."""
        return self.scoring == "by_rank"

    @property
    def absence_depends_on_evening(self) -> bool:
        """An absence costs the evening's average plus a surcharge (it follows the games)."""
        return self.absence == "average_plus"

    def points(self, *, schock_aus: int, games_lost: int) -> int:
        """per_event championship points: Schock-Aus and lost games weighed by the statutes.
        By rank, points come from `evening_rank_points` (this gives 0 then)."""
        if self.by_rank:
            return 0
        return schock_aus * self.points_per_schock_aus + games_lost * self.points_per_game_lost

    def evening_rank_points(self, games_lost: Mapping[K, int]) -> dict[K, int]:
        """by_rank: the points of each club member present at one evening, from
        `games_lost` (member -> games lost that evening, every present club member listed,
        0 included). Fewest lost ranks first, ties share the better place (1, 2, 2, 4).
        per_event: every member gets 0 (points come from `points`)."""
        if not self.by_rank:
            return dict.fromkeys(games_lost, 0)
        order = sorted(games_lost.values())
        place_of: dict[int, int] = {}
        for index, lost in enumerate(order, start=1):
            place_of.setdefault(lost, index)
        table = self.rank_points
        return {
            key: table[place_of[lost] - 1] if place_of[lost] <= len(table) else 0
            for key, lost in games_lost.items()
        }

    def evening_points(
        self,
        *,
        present_members: Iterable[K],
        games_lost: Mapping[K, int],
        schock_aus: Mapping[K, int],
    ) -> dict[K, int]:
        """Championship points of one evening for each club member present at it
        (`present_members`; guests and absent members get none): per_event by `points`
        from `games_lost` and `schock_aus` (member -> count that evening, missing: 0), by
        rank by `evening_rank_points`. A season's points are the sum over its evenings."""
        members = list(present_members)
        if self.by_rank:
            return self.evening_rank_points({m: games_lost.get(m, 0) for m in members})
        return {
            m: self.points(schock_aus=schock_aus.get(m, 0), games_lost=games_lost.get(m, 0))
            for m in members
        }

    def absence_marks(self, *, lost_by_members: int = 0, present_members: int = 0) -> int:
        """Marks a club member absent from an evening pays: none; the fixed Marks (6 in
        seed 003); or the evening's average (the Marks of the `lost_by_members` games its
        `present_members` present club members lost, over their number, half up to whole
        Marks) plus the surcharge."""
        if self.absence == "none":
            return 0
        if self.absence == "fixed":
            return self.marks_per_absence
        if present_members <= 0:
            return self.absence_surcharge
        average = Decimal(lost_by_members * self.marks_per_game_lost) / Decimal(present_members)
        return int(average.quantize(Decimal(1), rounding=ROUND_HALF_UP)) + self.absence_surcharge

    def marks(
        self,
        *,
        games_lost: int,
        evenings_absent: int = 0,
        lost_by_members: int = 0,
        present_members: int = 0,
    ) -> int:
        """Marks owed for `games_lost` lost games and `evenings_absent` absences from one
        evening (whose present members lost `lost_by_members` games, when the absence
        follows the evening: `absence_marks`)."""
        absent = self.absence_marks(
            lost_by_members=lost_by_members, present_members=present_members
        )
        return games_lost * self.marks_per_game_lost + evenings_absent * absent

    def games_expected(self, *, present_members: int) -> int:
        """Games an evening has with `present_members` club members present (guests add none)."""
        return self.games_per_present_member * present_members

    def mark_value(self, year: int) -> tuple[Decimal, str]:
        """The Mark's value and currency of a season year by era: seed 003 gives
        (Decimal("1.00"), "DM") up to and including 2001, (Decimal("0.50"), "EUR") from 2002."""
        era = self.mark_eras[0]
        for candidate in self.mark_eras:
            if candidate.since_year <= year:
                era = candidate
        return era.value, era.currency

    def runden(self, throwers: Sequence[T]) -> list[RundeOwed]:
        """The Runden owed for an evening's Schock-Aus throwers in throwing order (docs/rules.md 5;
        seed 003: first, every fifth, last, with the shift): `games.rules.runden_owed_by`."""
        return runden_owed_by(
            list(throwers),
            first=self.runden_first,
            last=self.runden_last,
            every=self.runden_every,
            shift=self.runden_shift,
        )

    # --- as data -----------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The statutes as JSON data (what `Season.statutes` / `Club.statutes` and the API
        hold; `from_data` reads it back)."""
        return {
            "scoring": {
                "mode": self.scoring,
                "points_per_schock_aus": self.points_per_schock_aus,
                "points_per_game_lost": self.points_per_game_lost,
                "rank_points": list(self.rank_points),
            },
            "marks_per_game_lost": self.marks_per_game_lost,
            "absence": {
                "mode": self.absence,
                "marks": self.marks_per_absence,
                "surcharge": self.absence_surcharge,
            },
            "games_per_present_member": self.games_per_present_member,
            "mark_eras": [
                {"since_year": e.since_year, "value": str(e.value), "currency": e.currency}
                for e in self.mark_eras
            ],
            "runden": {
                "first": self.runden_first,
                "last": self.runden_last,
                "every": self.runden_every,
                "shift": self.runden_shift,
            },
            "provisional_hours": self.provisional_hours,
            "evening": {"weekday": self.evening_weekday, "time": self.evening_time},
        }

    @classmethod
    def from_data(cls, data: object, *, basis: Statutes | None = None) -> Statutes:
        """Read statutes from JSON data (the shape of `to_data`), strictly. A key left out
        keeps `basis`'s figure (seed 003 unless given); an unknown key, a wrong type, a
        number out of bounds or an unknown mode is refused.

        Raises BooksError (400, field "statutes.<path>") with the codes
        ``statutes_invalid`` (not an object / unknown key), ``statutes_invalid_number``,
        ``statutes_invalid_mode``, ``statutes_invalid_flag``, ``statutes_invalid_rank_points``,
        ``statutes_invalid_mark_eras``, ``statutes_invalid_time``.
        """
        return _parse(data, basis or CLUB_STATUTES)


CLUB_STATUTES = Statutes()


# --- strict reading ----------------------------------------------------------------------


def _object(value: object, path: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BooksError(
            "statutes_invalid", _("The statutes must be an object of figures."), field=path
        )
    unknown = sorted(str(k) for k in value if k not in keys)
    if unknown:
        raise BooksError(
            "statutes_invalid",
            _("Unknown statutes field: %(name)s") % {"name": unknown[0]},
            field=f"{path}.{unknown[0]}",
        )
    return value


def _int(value: object, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BooksError(
            "statutes_invalid_number",
            _("%(field)s must be a whole number from %(low)s to %(high)s.")
            % {"field": path, "low": low, "high": high},
            field=path,
        )
    return value


def _clock(value: object, path: str) -> str:
    """A time of day "HH:MM" (24 hours, ASCII digits)."""
    if (
        isinstance(value, str)
        and len(value) == 5
        and value[2] == ":"
        and value[:2].isascii()
        and value[:2].isdigit()
        and value[3:].isascii()
        and value[3:].isdigit()
        and int(value[:2]) < 24
        and int(value[3:]) < 60
    ):
        return value
    raise BooksError(
        "statutes_invalid_time",
        _("A time of day is written HH:MM, from 00:00 to 23:59."),
        field=path,
    )


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise BooksError(
            "statutes_invalid_flag",
            _("%(field)s must be true or false.") % {"field": path},
            field=path,
        )
    return value


def _mode(value: object, path: str, modes: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in modes:
        raise BooksError(
            "statutes_invalid_mode",
            _("%(field)s must be one of: %(modes)s.") % {"field": path, "modes": ", ".join(modes)},
            field=path,
        )
    return value


def _rank_points(value: object, path: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > RANKS_MAX:
        raise BooksError(
            "statutes_invalid_rank_points",
            _("The rank points must be a list of at most %(n)s numbers.") % {"n": RANKS_MAX},
            field=path,
        )
    points = tuple(_int(v, f"{path}[{i}]", 0, POINTS_BOUND) for i, v in enumerate(value))
    if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        raise BooksError(
            "statutes_invalid_rank_points",
            _("A better place never gets fewer points than a worse one."),
            field=path,
        )
    return points


def _mark_eras(value: object, path: str) -> tuple[MarkEra, ...]:
    def refuse(message: str) -> BooksError:
        return BooksError("statutes_invalid_mark_eras", message, field=path)

    if not isinstance(value, list) or not 1 <= len(value) <= ERAS_MAX:
        raise refuse(_("The Mark's eras must be a list of 1 to %(n)s eras.") % {"n": ERAS_MAX})
    eras = []
    for i, item in enumerate(value):
        era = _object(item, f"{path}[{i}]", ("since_year", "value", "currency"))
        if set(era) != {"since_year", "value", "currency"}:
            raise refuse(_("Every era needs since_year, value and currency."))
        year = _int(era["since_year"], f"{path}[{i}].since_year", *YEAR_BOUNDS)
        raw = era["value"]
        try:
            if isinstance(raw, bool) or not isinstance(raw, str | int):
                raise InvalidOperation
            money = Decimal(str(raw).strip())
        except InvalidOperation:
            money = Decimal(-1)
        if (
            not money.is_finite()
            or not Decimal("0") < money <= MARK_VALUE_MAX
            or money != money.quantize(Decimal("0.01"))
        ):
            raise refuse(
                _("The value of one Mark must be more than zero, with at most two decimal places.")
            )
        currency = _mode(era["currency"], f"{path}[{i}].currency", CURRENCIES)
        eras.append(MarkEra(year, money.quantize(Decimal("0.01")), currency))
    if any(b.since_year <= a.since_year for a, b in zip(eras, eras[1:], strict=False)):
        raise refuse(_("The Mark's eras must follow each other by year."))
    return tuple(eras)


def _scoring(value: object) -> dict[str, Any]:
    p = "statutes.scoring"
    scoring = _object(
        value, p, ("mode", "points_per_schock_aus", "points_per_game_lost", "rank_points")
    )
    figures: dict[str, Any] = {}
    if "mode" in scoring:
        figures["scoring"] = _mode(scoring["mode"], f"{p}.mode", SCORING_MODES)
    for name in ("points_per_schock_aus", "points_per_game_lost"):
        if name in scoring:
            figures[name] = _int(scoring[name], f"{p}.{name}", -POINTS_BOUND, POINTS_BOUND)
    if "rank_points" in scoring:
        figures["rank_points"] = _rank_points(scoring["rank_points"], f"{p}.rank_points")
    return figures


def _absence(value: object) -> dict[str, Any]:
    absence = _object(value, "statutes.absence", ("mode", "marks", "surcharge"))
    figures: dict[str, Any] = {}
    if "mode" in absence:
        figures["absence"] = _mode(absence["mode"], "statutes.absence.mode", ABSENCE_MODES)
    if "marks" in absence:
        figures["marks_per_absence"] = _int(
            absence["marks"], "statutes.absence.marks", 0, MARKS_BOUND
        )
    if "surcharge" in absence:
        figures["absence_surcharge"] = _int(
            absence["surcharge"], "statutes.absence.surcharge", 0, MARKS_BOUND
        )
    return figures


def _runden(value: object) -> dict[str, Any]:
    runden = _object(value, "statutes.runden", ("first", "last", "every", "shift"))
    figures: dict[str, Any] = {}
    for name in ("first", "last", "shift"):
        if name in runden:
            figures[f"runden_{name}"] = _flag(runden[name], f"statutes.runden.{name}")
    if "every" in runden:
        figures["runden_every"] = _int(runden["every"], "statutes.runden.every", 0, EVERY_BOUND)
    return figures


def _evening(value: object) -> dict[str, Any]:
    evening = _object(value, "statutes.evening", ("weekday", "time"))
    figures: dict[str, Any] = {}
    if "weekday" in evening:
        figures["evening_weekday"] = _int(evening["weekday"], "statutes.evening.weekday", 0, 6)
    if "time" in evening:
        figures["evening_time"] = _clock(evening["time"], "statutes.evening.time")
    return figures


# The statutes' top-level fields, in the order they are checked (the first error found is
# the one answered), each with the reader of its figures (field of Statutes -> value).
_FIELDS: dict[str, Callable[[object], dict[str, Any]]] = {
    "scoring": _scoring,
    "marks_per_game_lost": lambda v: {
        "marks_per_game_lost": _int(v, "statutes.marks_per_game_lost", 0, MARKS_BOUND)
    },
    "absence": _absence,
    "games_per_present_member": lambda v: {
        "games_per_present_member": _int(v, "statutes.games_per_present_member", *GAMES_BOUNDS)
    },
    "mark_eras": lambda v: {"mark_eras": _mark_eras(v, "statutes.mark_eras")},
    "runden": _runden,
    "provisional_hours": lambda v: {
        "provisional_hours": _int(v, "statutes.provisional_hours", *PROVISIONAL_HOURS_BOUNDS)
    },
    "evening": _evening,
}


def _parse(data: object, basis: Statutes) -> Statutes:
    top = _object(data, "statutes", tuple(_FIELDS))
    figures: dict[str, Any] = {}
    for name, read in _FIELDS.items():
        if name in top:
            figures.update(read(top[name]))
    statutes = replace(basis, **figures)
    if statutes.by_rank and not statutes.rank_points:
        raise BooksError(
            "statutes_invalid_rank_points",
            _("Scoring by rank needs the points of at least one place."),
            field="statutes.scoring.rank_points",
        )
    return statutes


@lru_cache(maxsize=256)
def _stored_statutes(text: str) -> Statutes:
    return Statutes.from_data(json.loads(text))


def _statutes_of(data: object) -> Statutes:
    if not data:
        return CLUB_STATUTES
    # One Statutes per stored value (frozen, so shared safely between requests).
    return _stored_statutes(json.dumps(data, sort_keys=True))


def season_statutes(season: Season | None = None) -> Statutes:
    """The statutes a season's books are kept by: the ones it stores (`Season.statutes`,
    read by `Statutes.from_data`), seed 003's (`CLUB_STATUTES`) when it stores none or
    when no season is given.

    Raises BooksError (statutes_*) for stored data the statutes refuse; every writer
    validates it first (``league.club.services.season_statutes_update``)."""
    if season is None:
        return CLUB_STATUTES
    return _statutes_of(getattr(season, "statutes", None))


@dataclass(frozen=True)
class StatutesView:
    """What the statutes page and the API show of a season: its id (`pk`), year, Mark
    value (Decimal) and currency, data version, number of evenings, its `statutes` and
    their data (`statutes_data`, the shape of ``Statutes.to_data``)."""

    pk: int
    year: int
    mark_value: Decimal
    currency: str
    data_version: int
    evenings: int
    statutes: Statutes

    @property
    def statutes_data(self) -> dict[str, Any]:
        return self.statutes.to_data()


def statutes_view(season: Season) -> StatutesView:
    """The `StatutesView` of a season (one query: its evenings counted)."""
    return StatutesView(
        pk=season.pk,
        year=season.year,
        mark_value=season.mark_value,
        currency=season.currency,
        data_version=season.data_version,
        evenings=season.evenings.count(),
        statutes=season_statutes(season),
    )


def club_statutes(club: Club) -> Statutes:
    """The statutes a club gives its new seasons (`Club.statutes`; seed 003 when empty)."""
    return _statutes_of(getattr(club, "statutes", None))


def season_rules(season: Season) -> RuleSet:
    """The rule set a season is played with (docs/rules.md 6): the flags it stores
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
    """The rule set of a preset name (docs/rules.md 6), the club's rules for an unknown one."""
    return PRESETS.get(preset or "club", PRESETS["club"])


# --- the statutes in the club's words --------------------------------------------------


def absence_text(statutes: Statutes) -> str:
    """What an absence costs, one German phrase ("6 Mark je versäumtem Abend ...")."""
    if statutes.absence == "none":
        return _("an absence costs nothing")
    if statutes.absence == "fixed":
        return ngettext(
            "%(n)s Mark per evening missed by a club member",
            "%(n)s Marks per evening missed by a club member",
            statutes.marks_per_absence,
        ) % {"n": statutes.marks_per_absence}
    return ngettext(
        "the evening's average plus %(n)s Mark per evening missed by a club member",
        "the evening's average plus %(n)s Marks per evening missed by a club member",
        statutes.absence_surcharge,
    ) % {"n": statutes.absence_surcharge}


def game_lost_text(statutes: Statutes) -> str:
    """What a lost game costs, one German phrase ("1 Mark je verlorenem Spiel")."""
    return ngettext(
        "%(n)s Mark per game lost", "%(n)s Marks per game lost", statutes.marks_per_game_lost
    ) % {"n": statutes.marks_per_game_lost}


def marks_text(statutes: Statutes) -> str:
    """Marks per lost game and per absence, one German phrase."""
    return f"{game_lost_text(statutes)}, {absence_text(statutes)}"


@dataclass(frozen=True)
class StatuteClause:
    """The clause of a season's statutes that charges a kind of ledger line, in the
    club's words: `key` ("marks_per_game_lost" or "absence", the statutes' field),
    `title` (German, the clause's name) and `text` (German, what the clause says under
    the season's figures, e.g. "1 Mark je verlorenem Spiel")."""

    key: str
    title: str
    text: str


def statute_clause(statutes: Statutes, kind: str) -> StatuteClause | None:
    """The clause that charges a ledger line of `kind` ("game_lost", "absence"; docs/rules.md
    5: the loser pays the Marks per lost game; a club member absent pays the absence
    charge), None for any other kind (payments, carries, reversals charge nothing)."""
    if kind == "game_lost":
        return StatuteClause(
            "marks_per_game_lost", _("Dues for a lost game"), game_lost_text(statutes)
        )
    if kind == "absence":
        return StatuteClause("absence", _("Dues for an evening missed"), absence_text(statutes))
    return None
