"""The games app's models, gathered for Django from the packages that own them.

Code imports a model from its own package (`games.evenings.models`, `games.rounds.models`);
only Django's app loading reads this module.
"""

from games.evenings.models import (
    Attendance,
    Evening,
    Game,
    Objection,
    PlannedEvening,
    SchockAus,
)
from games.rounds.models import Round, RoundThrow

__all__ = [
    "Attendance",
    "Evening",
    "Game",
    "Objection",
    "PlannedEvening",
    "Round",
    "RoundThrow",
    "SchockAus",
]
