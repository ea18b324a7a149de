"""Evenings, attendance, games, Schock-Aus, rounds and throws, and Runden given.

What must never happen is refused by the database itself (constraints here, triggers in
migration 0002): two games with one number in an evening, a loser, Vorleger or thrower who
was not present that evening, an evening outside its season's dates or of another club,
a person of another club. Source: issue 2, RULES.md sections 4 and 5.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.models import Club, Member, Season


class Evening(models.Model):
    """One club night (Schockabend): its date, season, secretary (Buchführer) and attendance.

    `version` rises with every change to the evening, its attendance or its games; a
    client that sends a stale version is refused (optimistic locking, issue 4).
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="evenings")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="evenings")
    date = models.DateField(_("date"))
    secretary = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("secretary")
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="evening_unique_date_per_club"),
        ]
        indexes = [models.Index(fields=["season", "date"])]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%d.%m.%Y}"


class Attendance(models.Model):
    """Who was at an evening and as what: a present club member, a guest, or an absent
    club member (who pays 6 Mark, RULES.md section 5)."""

    class Role(models.TextChoices):
        MEMBER = "member", _("present member")
        GUEST = "guest", _("guest")
        ABSENT = "absent", _("absent member")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="attendances")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("attendance")
        verbose_name_plural = _("attendances")
        ordering = ["evening", "member__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "member"], name="attendance_unique_member_per_evening"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} ({self.get_role_display()})"

    @property
    def present(self) -> bool:
        return self.role != self.Role.ABSENT


class Game(models.Model):
    """One game (Spiel) of an evening: its number, Vorleger and loser.

    A game is entered either short (loser plus Schock-Aus throwers) or round by round
    (`entry_mode = "rounds"`, with `Round` rows from which loser and Schock-Aus are derived).
    Both count alike in the books.
    """

    class EntryMode(models.TextChoices):
        SHORT = "short", _("loser and Schock-Aus")
        ROUNDS = "rounds", _("round by round")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(_("number"))
    vorleger = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("Vorleger"),
    )
    loser = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="games_lost", verbose_name=_("loser")
    )
    entry_mode = models.CharField(max_length=10, choices=EntryMode.choices, default="short")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="game_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.number}"


class SchockAus(models.Model):
    """A Schock-Aus (1-1-1) thrown in a game; `position` is its place in throwing order
    within the game (1, 2, ...). The evening's ordinals follow game number, then position."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="schock_aus")
    thrower = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="schock_aus", verbose_name=_("thrower")
    )
    position = models.PositiveIntegerField(_("position"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Schock-Aus")
        verbose_name_plural = _("Schock-Aus")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="schock_aus_unique_pos"),
            models.CheckConstraint(condition=Q(position__gte=1), name="schock_aus_pos_positive"),
        ]

    def __str__(self) -> str:
        return f"Schock-Aus {self.thrower} ({self.game})"


class Round(models.Model):
    """One round of a game entered round by round (RULES.md section 4)."""

    class Phase(models.TextChoices):
        SINGLE = "single", _("game")
        FIRST_HALF = "first_half", _("first half")
        SECOND_HALF = "second_half", _("second half")
        FINAL = "final", _("final")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.SINGLE)
    vorleger = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    loser = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    deckel = models.PositiveSmallIntegerField(help_text="Deckel that moved in this round.")

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


class RundeGiven(models.Model):
    """The record that the Runde owed for a Schock-Aus (RULES.md section 5) was given."""

    schock_aus = models.OneToOneField(
        SchockAus, on_delete=models.PROTECT, related_name="runde_given"
    )
    given_on = models.DateField(_("given on"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Runde given")
        verbose_name_plural = _("Runden given")

    def __str__(self) -> str:
        return f"{self.schock_aus} {self.given_on}"
