"""The rules of Schocken as the club plays them, and as other tables do (docs/rules.md).

Pure Python, standard library only: the web forms, the API, the import and the simulator
all validate with this package. The public names below are the contract of docs/rules.md
section 7.
"""

from .errors import RuleViolation
from .flags import FLAGS, PRESET_SOURCES, FlagInfo
from .rounds import RoundResult, resolve_round
from .ruleset import PRESETS, RuleSet, preset_name
from .runden import RundeOwed, runden_owed, runden_owed_by
from .throws import Category, Evaluation, Throw, evaluate, rank, round_key
from .turns import Attempt, muss_regel_applies, validate_throw, validate_turn

__all__ = [
    "FLAGS",
    "PRESETS",
    "PRESET_SOURCES",
    "Attempt",
    "Category",
    "Evaluation",
    "FlagInfo",
    "RoundResult",
    "RuleSet",
    "RuleViolation",
    "RundeOwed",
    "Throw",
    "evaluate",
    "muss_regel_applies",
    "preset_name",
    "rank",
    "resolve_round",
    "round_key",
    "runden_owed",
    "runden_owed_by",
    "validate_throw",
    "validate_turn",
]

# Game engine, simulator and exact odds (docs/rules.md 4 and 7; engine.py, simulator.py, odds.py).
from . import odds
from .engine import (
    Ausscheidung,
    AusscheidungStep,
    ChooseOpener,
    Game,
    GameReplay,
    Join,
    Leave,
    RoundOutcome,
    TakeDeckel,
    replay_game,
)
from .simulator import (
    SimulatedEvening,
    SimulatedGame,
    SimulatedRound,
    SimulatedTurn,
    simulate_evening,
    simulate_game,
)

__all__ += [
    "Ausscheidung",
    "AusscheidungStep",
    "ChooseOpener",
    "Game",
    "GameReplay",
    "Join",
    "Leave",
    "RoundOutcome",
    "TakeDeckel",
    "SimulatedEvening",
    "SimulatedGame",
    "SimulatedRound",
    "SimulatedTurn",
    "odds",
    "replay_game",
    "simulate_evening",
    "simulate_game",
]
