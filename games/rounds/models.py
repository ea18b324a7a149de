"""Evenings, attendance, games, Schock-Aus, rounds and throws, and Runden given.

What must never happen is refused by the database itself (constraints here, triggers in
migration 0002): two games with one number in an evening, a loser, Vorleger or thrower who
was not present that evening, an evening outside its season's dates or of another club,
a person of another club. Source: issue 2, RULES.md sections 4 and 5.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.club.models import Member


class Round(models.Model):
    """One round of a game entered round by round (RULES.md section 4)."""

    class Phase(models.TextChoices):
        SINGLE = "single", _("game")
        FIRST_HALF = "first_half", _("first half")
        SECOND_HALF = "second_half", _("second half")
        FINAL = "final", _("final")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.SINGLE)
    vorleger = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    loser = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    deckel = models.PositiveSmallIntegerField(help_text="Deckel that moved in this round.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} Runde {self.number}"


class RoundThrow(models.Model):
    """A player's final throw in a round; `turn` holds the attempts when entered in detail
    (list of {"rolled": [...], "keep": [...], "umwandlung": n})."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="throws")
    position = models.PositiveSmallIntegerField(help_text="1-based place in throwing order.")
    player = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    die1 = models.PositiveSmallIntegerField()
    die2 = models.PositiveSmallIntegerField()
    die3 = models.PositiveSmallIntegerField()
    attempts = models.PositiveSmallIntegerField()
    natural = models.BooleanField()
    turn = models.JSONField(null=True, blank=True)
    muss_regel = models.BooleanField(
        default=False, help_text="The Muss-Regel applied to this turn (RULES.md 3)."
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="round_throw_unique_pos"),
            models.UniqueConstraint(fields=["round", "player"], name="round_throw_unique_player"),
            models.CheckConstraint(
                condition=Q(die1__gte=1, die1__lte=6, die2__gte=1, die2__lte=6)
                & Q(die3__gte=1, die3__lte=6),
                name="round_throw_dice_range",
            ),
            models.CheckConstraint(
                condition=Q(attempts__gte=1, attempts__lte=3), name="round_throw_attempts_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.die1}-{self.die2}-{self.die3}"

    @property
    def dice(self) -> tuple[int, int, int]:
        return (self.die1, self.die2, self.die3)
