"""Rule sets: the switches in which Schocken tables differ (docs/rules.md section 6).

A club changes its rules through a ``RuleSet``, never through code edits. ``PRESETS`` holds
the five rule sets named after their seeds; ``PRESETS["club"]`` (seed 003) is the default
everywhere in ``games.rules``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .errors import RuleViolation

__all__ = ["DICE", "FORMATS", "MAX_ATTEMPTS", "MAX_DECKEL", "PRESETS", "RuleSet", "preset_name"]

FORMATS = ("single", "halves")
#: Most Deckel a rule set may play with (sources play 13 to 17; a cap keeps input sane).
MAX_DECKEL = 99
#: Dice of a throw (docs/rules.md 1); an attempt rolls at most these.
DICE = 3
#: Attempts of a turn at most (docs/rules.md 3); a rule set's `max_attempts` is 1 to 3.
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class RuleSet:
    """One table's rules (docs/rules.md section 6). Immutable and hashable.

    Section 6 fields (defaults are the club's rules, seed 003):
        general_beats_schock_doof: every General ranks above Schock Doof (1-1-2); when off,
            Schock Doof ranks above every General (section 1).
        generals_ranked: Generals rank by pips (666 > 222); when off all Generals rank
            equal and the tie-breaks of section 2 decide.
        strassen_ranked: Straßen rank by their highest die; when off all rank equal.
        fewer_attempts_win_ties: between equal throws fewer attempts win (section 2, 2.).
        koenigswurf: a natural Schock-Aus beats a collected one (seed 000, section 2, 1.).
        keep_only_ones: only ones (and ones made by Umwandlung) may be laid out (seed 003).
        muss_regel: the club's forced-continuation rule is played (section 3).
        format: ``"single"`` (one game, seed 003) or ``"halves"`` (two halves and a final).
        deckel_total: Deckel in the stock, 13 (variant: 15 in papr/schocken-discord-bot,
            13-17 in the encyclopedia's description; VARIANTS.md "Deckel").
        max_attempts: attempts a Vorleger may use, 1..3.

    Seed flags of docs/rules.md section 4 (the game engine plays them, ``engine.Game``):
        ausscheidung: before the first round every player throws once; the worst throw
            takes Deckel and opens (seeds 000 "Ausscheidung um den Spielbeginn", 002 item 1).
        deckel_nehmen: a player whose turn is still covered may take the Deckel the best
            throw so far is worth instead of throwing (seed 000, "Aufnehmen der Deckel").
        opener_choice: the first half's loser names who opens the second half (seed 000,
            "Vorlegen").
        einwuerfeln: players may join a running half between rounds, and leave the game
            if they have received no Deckel in it (seed 001, "man kann sich jederzeit in
            ein bestehendes Spiel einwürfeln. Man darf nur wieder aussteigen, wenn man
            keine Pappen erhalten hat").

    Variant flags clubs compose (VARIANTS.md; off or default-valued in all five presets,
    so the presets behave as before; ``FLAGS`` gives each a German label and example):
        umwandlung: two (three) sixes of one attempt may become one (two) laid-out ones
            with an attempt left. On in the seeds 000, 002, 003, 004 and in
            shawdyy/schocken (``twoSixToOne``); off for tables that do not turn dice.
        jule: 4-2-1 thrown natural is a "Jule" worth 7 Deckel, ranked just below the
            Schock-Aus (papr/schocken-discord-bot ``SonderWurf.Jule``: 7 Deckel, priority
            between Schock-Aus and Schock 6; shawdyy/schocken option ``jule``).
        collected_strasse_counts: a Straße collected over several attempts counts as a
            Straße (RebelMetal/schocken-web-app ``DiceRoll.getType`` ignores "hand";
            shawdyy/schocken option ``throwTogether``).
        collected_general_counts: a General collected over several attempts counts as a
            General (RebelMetal/schocken-web-app ``TRIPLET``; shawdyy/schocken
            ``throwTogether``).
        natural_wins_ties: between throws equal by section 1, one thrown "aus der Hand"
            beats a collected one, for every throw, not only the Schock-Aus
            (RebelMetal/schocken-web-app ``DiceRoll.compareTo``: "Hand beats combined").
        keep_sixes: under ``keep_only_ones`` sixes may be laid out too
            (shawdyy/schocken ``whichNumbersCanBeHeld`` = 1, "oneSix", its default).

    ``name`` is a label only; it takes no part in equality or hashing, so two rule sets
    with the same switches are the same rules. ``to_dict`` / ``from_dict`` store a rule
    set as plain data (a season keeps the flags it was played with); ``preset_name``
    names the preset a rule set equals.

    Raises:
        RuleViolation (code ``invalid_rule_set``) for a field of the wrong type or range.
    """

    general_beats_schock_doof: bool = True
    generals_ranked: bool = True
    strassen_ranked: bool = True
    fewer_attempts_win_ties: bool = True
    koenigswurf: bool = False
    keep_only_ones: bool = True
    muss_regel: bool = True
    format: str = "single"
    deckel_total: int = 13
    max_attempts: int = 3
    # Seed flags (docs/rules.md section 4).
    ausscheidung: bool = False
    deckel_nehmen: bool = False
    opener_choice: bool = False
    einwuerfeln: bool = False
    # Variant flags (VARIANTS.md).
    umwandlung: bool = True
    jule: bool = False
    collected_strasse_counts: bool = False
    collected_general_counts: bool = False
    natural_wins_ties: bool = False
    keep_sixes: bool = False
    name: str = field(default="custom", compare=False)

    # Lookup tables games.rules.throws and games.rules.turns cache on each instance (set with
    # object.__setattr__, absent until the first evaluation; not dataclass fields). Typed
    # there: importing throws here would make the two modules import each other.
    _evaluations: ClassVar[list[Any]]
    _ranks: ClassVar[list[int]]
    # games.rules.turns caches the final throws a turn can end with, per cap and Muss-Regel.
    _reachable_codes: ClassVar[dict[int, frozenset[int]]]

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise _invalid(f"{f.name} muss wahr oder falsch sein, nicht {value!r}.")
        if not isinstance(self.format, str) or self.format not in FORMATS:
            raise _invalid(f"format muss 'single' oder 'halves' sein, nicht {self.format!r}.")
        if not _is_int(self.deckel_total) or not 1 <= self.deckel_total <= MAX_DECKEL:
            raise _invalid(
                f"deckel_total muss eine ganze Zahl von 1 bis {MAX_DECKEL} sein, nicht "
                f"{self.deckel_total!r}."
            )
        if not _is_int(self.max_attempts) or not 1 <= self.max_attempts <= MAX_ATTEMPTS:
            raise _invalid(f"max_attempts muss 1, 2 oder 3 sein, nicht {self.max_attempts!r}.")
        if not isinstance(self.name, str):
            raise _invalid(f"name muss ein Text sein, nicht {self.name!r}.")

    def __getstate__(self) -> dict[str, object]:
        # games.rules.throws caches lookup tables on the instance (underscore attributes);
        # they are rebuilt on demand, so a pickled rule set carries its fields only.
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict[str, object]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)

    def to_dict(self) -> dict[str, bool | int | str]:
        """The rule set as plain JSON-ready data: every rule field, plus ``name``.

        ``RuleSet.from_dict(rules.to_dict()) == rules`` (and keeps the name).
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Parse a stored or submitted rule set strictly (hostile input welcome).

        Args:
            data: a mapping from field names to values, as ``to_dict`` writes it. Keys
                that are missing take the field's default (the club's rules, with every
                seed and variant flag at its default), so a rule set stored before a flag
                existed reads as it was played. ``name`` is optional.

        Raises:
            RuleViolation (code ``invalid_rule_set``): ``data`` is not a mapping, a key is
            not a field name, a value has the wrong type (``1`` is not ``True``; bools are
            not ints) or is out of range.
        """
        if not isinstance(data, Mapping):
            raise _invalid(f"Ein Regelwerk ist eine Zuordnung Name -> Wert, nicht {data!r:.80}.")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if not isinstance(key, str) or key not in known:
                raise _invalid(f"Unbekannte Regel {key!r:.60}.")
            expected = known[key].type
            if expected == "bool" and not isinstance(value, bool):
                raise _invalid(f"{key} muss wahr oder falsch sein, nicht {value!r:.60}.")
            if expected == "int" and not _is_int(value):
                raise _invalid(f"{key} muss eine ganze Zahl sein, nicht {value!r:.60}.")
            if expected == "str" and not isinstance(value, str):
                raise _invalid(f"{key} muss ein Text sein, nicht {value!r:.60}.")
            values[key] = value
        return cls(**values)

    @property
    def preset(self) -> str | None:
        """The name of the preset these rules equal, or None (see ``preset_name``)."""
        return preset_name(self)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid(message: str) -> RuleViolation:
    return RuleViolation("invalid_rule_set", message, rule="docs/rules.md 6")


# docs/rules.md section 6, table of presets. Every preset: 13 Deckel, up to 3 attempts,
# Umwandlung allowed, no variant flag; the seed flags of section 4 where docs/rules.md names them.
PRESETS: dict[str, RuleSet] = {
    "club": RuleSet(
        general_beats_schock_doof=True,
        generals_ranked=True,
        strassen_ranked=True,
        fewer_attempts_win_ties=True,
        koenigswurf=False,
        keep_only_ones=True,
        muss_regel=True,
        format="single",
        name="club",
    ),
    "regelwerk2019": RuleSet(
        general_beats_schock_doof=True,
        generals_ranked=True,
        strassen_ranked=True,
        fewer_attempts_win_ties=True,
        koenigswurf=True,
        keep_only_ones=False,
        muss_regel=False,
        format="halves",
        ausscheidung=True,
        deckel_nehmen=True,
        opener_choice=True,
        name="regelwerk2019",
    ),
    "stammtisch": RuleSet(
        general_beats_schock_doof=False,
        generals_ranked=False,
        strassen_ranked=True,
        fewer_attempts_win_ties=False,
        koenigswurf=False,
        keep_only_ones=False,
        muss_regel=False,
        format="halves",
        einwuerfeln=True,
        name="stammtisch",
    ),
    "meisterschaft": RuleSet(
        general_beats_schock_doof=True,
        generals_ranked=True,
        strassen_ranked=True,
        fewer_attempts_win_ties=True,
        koenigswurf=False,
        keep_only_ones=False,
        muss_regel=False,
        format="halves",
        ausscheidung=True,
        name="meisterschaft",
    ),
    "app": RuleSet(
        general_beats_schock_doof=False,
        generals_ranked=True,
        strassen_ranked=True,
        fewer_attempts_win_ties=True,
        koenigswurf=False,
        keep_only_ones=False,
        muss_regel=False,
        format="halves",
        name="app",
    ),
}


def preset_name(rules: RuleSet) -> str | None:
    """Name the preset whose rules ``rules`` equal (names are ignored), else None.

    ``preset_name(dataclasses.replace(PRESETS["app"], name="ours")) == "app"``; a rule set
    with any flag changed from every preset gives None (a club's own composition).
    """
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
