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
from league.club.models import Club, Member, Season
from league.club.scoping import ScopedManager


class Evening(models.Model):
    """One club night (Schockabend): its date, season, secretary (Buchführer) and attendance.

    `version` rises with every change to the evening, its attendance or its games; a
    client that sends a stale version is refused (optimistic locking).
    """

    objects: ClassVar[models.Manager["Evening"]] = ScopedManager(club="club")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="evenings")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="evenings")
    date = models.DateField(_("date"))
    secretary = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("secretary")
    )
    notes = models.TextField(_("notes"), blank=True)
    # Set when the secretary declared the evening final before its objection time ran
    # out (no objection open); otherwise it is final once that time has passed with none
    # open (games.evenings.selectors.evening_provisional_state).
    finalised_at = models.DateTimeField(_("final since"), null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="evening_unique_date_per_club"),
            models.UniqueConstraint(fields=["id", "club"], name="evening_id_club"),
        ]
        indexes = [models.Index(fields=["season", "date"])]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%d.%m.%Y}"


class Attendance(models.Model):
    """Who was at an evening and as what: a present club member, a guest, or an absent
    club member (who pays 6 Mark, docs/rules.md section 5)."""

    objects: ClassVar[models.Manager["Attendance"]] = ScopedManager(club="club")

    class Role(models.TextChoices):
        MEMBER = "member", _("present member")
        GUEST = "guest", _("guest")
        ABSENT = "absent", _("absent member")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="attendances")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("attendance")
        verbose_name_plural = _("attendances")
        ordering = ["evening", "member__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "evening", "member"], name="attendance_unique_member_per_evening"
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

    objects: ClassVar[models.Manager["Game"]] = ScopedManager(club="club")

    class EntryMode(models.TextChoices):
        SHORT = "short", _("loser and Schock-Aus")
        ROUNDS = "rounds", _("round by round")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
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
    # The key a phone gives a game it queued offline: a game sent twice
    # (the answer to the first sending was lost) is recorded once.
    client_key = models.UUIDField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["evening", "number"]
        indexes = [models.Index(fields=["created_at"], name="game_created_at")]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "evening", "number"], name="game_unique_number"
            ),
            models.UniqueConstraint(fields=["club", "client_key"], name="game_unique_client_key"),
            models.UniqueConstraint(fields=["id", "club"], name="game_id_club"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.number}"


class SchockAus(models.Model):
    """A Schock-Aus (1-1-1) thrown in a game; `position` is its place in throwing order
    within the game (1, 2, ...). The evening's ordinals follow game number, then position."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["SchockAus"]] = ScopedManager(club="club")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="schock_aus")
    thrower = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="schock_aus", verbose_name=_("thrower")
    )
    position = models.PositiveIntegerField(_("position"))
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("Schock-Aus")
        verbose_name_plural = _("Schock-Aus")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "position"], name="schock_aus_unique_pos"
            ),
            models.UniqueConstraint(fields=["id", "club"], name="schock_aus_id_club"),
            models.CheckConstraint(condition=Q(position__gte=1), name="schock_aus_pos_positive"),
        ]

    def __str__(self) -> str:
        return f"Schock-Aus {self.thrower} ({self.game})"


class Objection(models.Model):
    """A person's objection to a game of a provisional evening, and the secretary's answer
    (the provisional evening: an evening's charges stand "vorläufig" until its objection
    time has passed with no objection open, league.club.statutes `provisional_hours`).

    `status` is open until the secretary answers: `corrected` (the game was corrected
    through the normal correction, or deleted, after the objection was raised) or
    `dismissed` (with the reason in `answer`). `game_version` is the game's version when
    the objection was raised: a correction moves it. The game may be deleted by the
    correction (`game` becomes null; `game_number` keeps which it was). Every change is
    in the audit trail (django-simple-history)."""

    objects: ClassVar[models.Manager["Objection"]] = ScopedManager(club="club")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CORRECTED = "corrected", _("corrected")
        DISMISSED = "dismissed", _("dismissed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="objections")
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="objections"
    )
    game_number = models.PositiveIntegerField(_("game"))
    game_version = models.PositiveIntegerField(default=1)
    raised_by = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("raised by")
    )
    text = models.TextField(_("objection"), max_length=1000)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    answer = models.TextField(_("answer"), max_length=1000, blank=True)
    answered_by = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("objection")
        verbose_name_plural = _("objections")
        ordering = ["evening", "created_at", "pk"]
        constraints = [
            # One open objection per person and game: a second one is the same objection.
            models.UniqueConstraint(
                fields=["club", "game", "raised_by"],
                condition=Q(status="open"),
                name="objection_one_open_per_person_and_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.game_number}: {self.get_status_display()}"


class PlannedEvening(models.Model):
    """The secretary's change to the club's planned evenings (the calendar feed): the
    statutes plan one evening a week (`evening_weekday` at `evening_time`,
    league.club.statutes); a row moves one of them (`regular_date` the statutes' date,
    `date` and `starts_at` where it went), cancels one (`cancelled`), or adds an evening
    of its own (`regular_date` empty). `starts_at` empty: the statutes' time. Audited."""

    objects: ClassVar[models.Manager["PlannedEvening"]] = ScopedManager(club="club")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="planned_evenings")
    regular_date = models.DateField(_("planned by the statutes on"), null=True, blank=True)
    date = models.DateField(_("date"))
    starts_at = models.TimeField(_("begins at"), null=True, blank=True)
    cancelled = models.BooleanField(_("cancelled"), default=False)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("planned evening")
        verbose_name_plural = _("planned evenings")
        ordering = ["club", "date"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "regular_date"],
                condition=Q(regular_date__isnull=False),
                name="planned_evening_one_change_per_regular_date",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%d.%m.%Y}"
