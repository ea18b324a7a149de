"""Evenings, attendance, games, Schock-Aus, rounds and throws, and Runden given.

What must never happen is refused by the database itself (constraints here, triggers in
migration 0002): two games with one number in an evening, a loser, Vorleger or thrower who
was not present that evening, an evening outside its season's dates or of another club,
a person of another club. Source: docs/rules.md sections 4 and 5.
"""

from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.club.history import ClubHistoricalRecords
from league.club.models import Club, Member
from league.club.scoping import ScopedManager


class Round(models.Model):
    """One entry of a game entered round by round (docs/rules.md section 4), in the order it
    happened: ``number`` is the entry's 1-based place in the game (for a game without the
    seed actions of docs/rules.md 4 the same as the round's number).

    ``kind`` says what the entry is: an ordinary round; a step of the Ausscheidung (its
    throws; ``loser`` None while players are tied); a round ended by Deckel nehmen (the
    throws before the taker, ``loser`` the taker, ``covered`` its covered dice if entered);
    or an action without throws, naming ``player``: the opener of the second half
    (``choose_opener``), a player joining after ``after`` (``join``) or leaving (``leave``).
    Only ordinary and Deckel-nehmen rounds and the deciding Ausscheidung step move Deckel.
    """

    objects: ClassVar[models.Manager["Round"]] = ScopedManager(club="club")

    class Kind(models.TextChoices):
        ROUND = "round", _("round")
        AUSSCHEIDUNG = "ausscheidung", _("Ausscheidung")
        DECKEL_NEHMEN = "deckel_nehmen", _("Deckel nehmen")
        CHOOSE_OPENER = "choose_opener", _("opener of the second half")
        JOIN = "join", _("joins")
        LEAVE = "leave", _("leaves")

    class Phase(models.TextChoices):
        SINGLE = "single", _("game")
        FIRST_HALF = "first_half", _("first half")
        SECOND_HALF = "second_half", _("second half")
        FINAL = "final", _("final")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.SINGLE)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ROUND)
    vorleger = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    loser = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    deckel = models.PositiveSmallIntegerField(
        default=0, help_text="Deckel that moved in this round."
    )
    player = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="Who took the Deckel, opens the second half, joins or leaves.",
    )
    after = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="A joining player sits after this one (default: the last seat).",
    )
    covered = models.JSONField(
        null=True, blank=True, help_text="Deckel nehmen: the covered throw's dice, if entered."
    )
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "number"], name="round_unique_number"),
            models.UniqueConstraint(fields=["id", "club"], name="round_id_club"),
        ]

    def __str__(self) -> str:
        return f"{self.game} Runde {self.number}"


class RoundThrow(models.Model):
    """A player's final throw in a round; `turn` holds the attempts when entered in detail
    (list of {"rolled": [...], "keep": [...], "umwandlung": n})."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["RoundThrow"]] = ScopedManager(club="club")

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
        default=False, help_text="The Muss-Regel applied to this turn (docs/rules.md 3)."
    )
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("throw of a round")
        verbose_name_plural = _("throws of rounds")
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "round", "position"], name="round_throw_unique_pos"
            ),
            models.UniqueConstraint(
                fields=["club", "round", "player"], name="round_throw_unique_player"
            ),
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
