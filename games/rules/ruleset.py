"""Rule sets: the switches in which Schocken tables differ (RULES.md section 6).

A club changes its rules through a ``RuleSet``, never through code edits. ``PRESETS`` holds
the five rule sets named after their seeds; ``PRESETS["club"]`` (seed 003) is the default
everywhere in ``games.rules``. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .errors import RuleViolation

__all__ = ["FORMATS", "PRESETS", "RuleSet"]

FORMATS = ("single", "halves")


@dataclass(frozen=True)
class RuleSet:
    """One table's rules (RULES.md section 6). Immutable and hashable.

    Fields (defaults are the club's rules, seed 003):
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
        deckel_total: Deckel in the stock, 13.
        max_attempts: attempts a Vorleger may use, 1..3.
        name: a label only; it takes no part in equality or hashing, so two rule sets with
            the same switches are the same rules.

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
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise _invalid(f"{f.name} muss wahr oder falsch sein, nicht {value!r}.")
        if self.format not in FORMATS:
            raise _invalid(f"format muss 'single' oder 'halves' sein, nicht {self.format!r}.")
        if not _is_int(self.deckel_total) or self.deckel_total < 1:
            raise _invalid(
                f"deckel_total muss eine ganze Zahl ab 1 sein, nicht {self.deckel_total!r}."
            )
        if not _is_int(self.max_attempts) or not 1 <= self.max_attempts <= 3:
            raise _invalid(f"max_attempts muss 1, 2 oder 3 sein, nicht {self.max_attempts!r}.")
        if not isinstance(self.name, str):
            raise _invalid(f"name muss ein Text sein, nicht {self.name!r}.")

    def __getstate__(self) -> dict:
        # games.rules.throws caches lookup tables on the instance (underscore attributes);
        # they are rebuilt on demand, so a pickled rule set carries its fields only.
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid(message: str) -> RuleViolation:
    return RuleViolation("invalid_rule_set", message, rule="RULES.md 6")


# RULES.md section 6, table of presets. Every preset: 13 Deckel, up to 3 attempts.
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
