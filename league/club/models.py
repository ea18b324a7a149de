"""Clubs, seasons, members, and the club's money: ledger, payments, Runden given, reports.

Sources: docs/rules.md section 5 (the club's books) and section 6 (rule sets per season).
"""

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.club.history import ClubHistoricalRecords
from league.club.names import validate_name
from league.club.scoping import ScopedManager

# docs/rules.md section 6: the preset names. Kept here as plain choices so that the database
# never depends on importing the rules module's objects.
# Named as the members know them (where each comes from: games.rules.PRESET_SOURCES).
RULE_PRESET_CHOICES = [
    ("club", _("Club house rules")),
    ("regelwerk2019", _("Regelwerk 2019")),
    ("stammtisch", _("Stammtisch")),
    ("meisterschaft", _("Meisterschaft")),
    ("app", _("App")),
]


class ClubOneToOneField(models.OneToOneField):
    """A one-to-one link between two rows of one club, unique per club in the database.

    Python sees a one-to-one link (the forward and the reverse accessors are single
    objects, e.g. ``entry.reversed_by``, ``schock_aus.runde_given``), but the column is not
    unique by itself: the model declares ``UniqueConstraint(fields=["club", <link>])``
    instead, so that every unique constraint of a club-owned table includes the club
    (README "Distributing by club (Citus)"). On PostgreSQL a composite foreign key
    ``(<link>_id, club_id) -> (id, club_id)`` makes the linked row one of the row's own
    club, so unique per club means unique: the meaning is the OneToOneField's.

    Why a subclass and not a ForeignKey with the constraint: a ForeignKey's reverse
    accessor is a manager (``payment.ledger_entry`` would become a queryset, at every
    reader); this keeps the API and changes only the schema. Django reads ``unique`` of the
    field for the ORM too, so what a plain OneToOneField allows beyond this is lost: a
    reverse ``select_related`` (use an annotation or ``prefetch_related``), the reverse
    cache filled by a forward ``select_related``, and the single-column check of
    ``validate_unique`` (the UniqueConstraint is checked instead when the club is in the
    form). The writers check a second link themselves (e.g. ``runde_already_given``);
    the database refuses one (IntegrityError).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._unique = False  # OneToOneField sets unique=True; the constraint carries club


class Currency(models.TextChoices):
    DM = "DM", "DM"
    EUR = "EUR", "EUR"


class Club(models.Model):
    """A Schocken club. Each club sees only its own data."""

    name = models.CharField(_("name"), max_length=100, unique=True, validators=[validate_name])
    rule_preset = models.CharField(
        _("rule set"), max_length=20, choices=RULE_PRESET_CHOICES, default="club"
    )
    # The club's statutes: the defaults its new seasons are kept under
    # (league.club.statutes.Statutes.to_data(); empty: seed 003's).
    statutes = models.JSONField(_("statutes"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by the operator (the admin's action "suspend"): the club's pages and API answer
    # 403 `club_suspended` while it is set; nothing of the club is deleted.
    suspended_at = models.DateTimeField(_("suspended at"), null=True, blank=True)
    # The versions every kept read of the club is keyed by (league/club/caching.py), moved
    # by one in the writer's transaction and read with the club (no query of their own):
    # `books_version` by every change of the books (league.club.books.books_changed),
    # `register_version` by every change of the register (people, logins, the club's
    # name and bank account; league.club.books.register_changed). Cache keys, not
    # records: no history, and `save()` never writes them back (an instance read before
    # a move would set the counter back to a version whose kept reads showed other books).
    books_version = models.PositiveBigIntegerField(default=0, editable=False)
    register_version = models.PositiveBigIntegerField(default=0, editable=False)
    history = HistoricalRecords(excluded_fields=["books_version", "register_version"])

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            # "Kegelclub Nord" and "kegelclub nord" are one club (a sign-up or a second
            # club_create beside the first is refused by the database too).
            models.UniqueConstraint(Lower("name"), name="club_unique_name_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Save the club without its versions (see their fields): only an F() update moves
        them; a new club starts at 0."""
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in CLUB_VERSION_FIELDS
            ]
        super().save(*args, **kwargs)


#: The columns of `Club` that are cache versions, never written by `Club.save()`.
CLUB_VERSION_FIELDS = ("books_version", "register_version")


class Season(models.Model):
    """A championship period of a club (docs/rules.md section 5), with its rule set and Mark value.

    `rules` holds the rule set's flags as data (docs/rules.md 6: "a season stores the flags it
    was played with"); `rule_preset` names the preset they were composed from.

    `mark_value` is the money one Mark is worth in `currency`: 1.00 DM up to and including
    2001, 0.50 EUR from 2002 (league.club.statutes.Statutes.mark_value).
    """

    objects: ClassVar[models.Manager["Season"]] = ScopedManager(club="club")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    year = models.PositiveIntegerField(_("year"))
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    rule_preset = models.CharField(
        _("rule set"), max_length=20, choices=RULE_PRESET_CHOICES, default="club"
    )
    # The flags the season is played with (games.rules.RuleSet.to_dict()); `rule_preset`
    # stays the preset they started from ("Grundlage"). Empty: the preset's flags
    # (league.club.statutes.season_rules is the one reader).
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    # The statutes the season's books are kept under (Statutes.to_data(),
    # league.club.statutes.season_statutes is the one reader; empty: seed 003's).
    statutes = models.JSONField(_("statutes"), default=dict, blank=True)
    mark_value = models.DecimalField(_("value of one Mark"), max_digits=6, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices)
    data_version = models.PositiveIntegerField(
        default=0, help_text="Bumped whenever the season's records change (report cache key)."
    )
    # Season close (league.closing): while `closed_at` is set the books
    # are locked; `books_changed` and a database trigger (league migration 0010) refuse.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        "Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    # The data version is a cache key moved by `books_changed`, not a record of the books.
    history = ClubHistoricalRecords(excluded_fields=["data_version"])

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "-year"]
        constraints = [
            models.UniqueConstraint(fields=["club", "year"], name="season_unique_year_per_club"),
            models.UniqueConstraint(fields=["id", "club"], name="season_id_club"),
            models.CheckConstraint(
                condition=Q(starts_on__lte=models.F("ends_on")), name="season_dates_ordered"
            ),
            models.CheckConstraint(
                condition=Q(mark_value__gt=Decimal("0")), name="season_mark_value_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.year}"


class Member(models.Model):
    """A person of a club: a club member or a guest, with an optional login.

    `is_secretary` gives write access to the club's books (the Buchführer).
    """

    objects: ClassVar[models.Manager["Member"]] = ScopedManager(club="club")

    class Kind(models.TextChoices):
        MEMBER = "member", _("club member")
        GUEST = "guest", _("guest")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.MEMBER)
    active = models.BooleanField(_("active"), default=True)
    is_secretary = models.BooleanField(_("secretary"), default=False)
    # A monthly e-mail about an open amount with its GiroCode; opt-out.
    payment_reminders = models.BooleanField(_("payment reminders by e-mail"), default=True)
    # Whether the login's password was set by its holder (the invitation link, a reset by
    # e-mail, a change with the old password), not by anyone else (the admin, a first
    # password of old): only such a login signs a season off as Kassenprüfer.
    password_set_by_holder = models.BooleanField(_("password set by the holder"), default=False)
    # The version of the person's secret calendar link (league.club.selectors
    # `member_calendar_token`): revoking the link moves it, and every older link is a 404.
    calendar_version = models.PositiveIntegerField(_("calendar link version"), default=0)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("login"),
    )
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="member_unique_name_per_club"),
            # Lets other tables refer to (member, club) together, so the database can refuse
            # a person of another club (see games migrations).
            models.UniqueConstraint(fields=["id", "club"], name="member_id_club"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.kind == self.Kind.GUEST


class LoginClub(models.Model):
    """The club a login belongs to: one row per login that is or was a person's (written
    by `league.club.services.login_clubs_set`, which every writer of a person's login
    calls; a login unlinked keeps its row until it is given to a person again).

    Installation-wide, like `auth_user`: a reference table under Citus (copied to every
    node), not one of the club's rows (no scope, no history, no `(id, club_id)` key). It
    keeps in the database that a login is one person of one club in a form a distributed
    `league_member` can hold (README "Distributing by club (Citus)"): on PostgreSQL
    `league_member` has `UNIQUE (user_id, club_id)` (one person per login in a club) and
    a foreign key `(user_id, club_id)` to this table's `(user_id, club_id)` (the person's
    club is the login's one club), league migration 0030."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="login_club",
        verbose_name=_("login"),
    )
    # A club with people cannot be deleted (Member.club is PROTECT); what is left of a
    # club without people is the rows of logins that were theirs, which go with it.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )

    class Meta:
        verbose_name = _("club of a login")
        verbose_name_plural = _("clubs of logins")
        constraints = [
            # What league_member's foreign key (user_id, club_id) refers to (PostgreSQL).
            models.UniqueConstraint(fields=["user", "club"], name="login_club_user_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.club}"


class IdempotencyKey(models.Model):
    """A write sent with an `Idempotency-Key` (the API's header, the IETF httpapi draft
    "The Idempotency-Key HTTP Header Field"; a page form's hidden key), kept so that the
    same write sent again books nothing (league/club/idempotency.py).

    One row per login and key (`user`, `key` unique); `club` is the login's club when the
    write came. `fingerprint` is the sha256 (hex) of the request's method, path and body;
    `status` is None while the first request is being processed, then the HTTP status of
    its answer, kept with the answer's `body` (text) and `headers` (ETag, Location).
    Rows older than a day are deleted when a new key is written."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.TextField(blank=True, default="")
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")
        ]

    def __str__(self) -> str:
        return self.key


class ClubSignup(models.Model):
    """A request to sign a new club up at /registrieren/ (league/club/signup): kept so that
    requests are counted per e-mail address and per client address (the rate limit) and
    the operator sees them in the admin. `confirmed_at` is set when the secretary's link
    created the club."""

    club_name = models.CharField(_("club name"), max_length=100)
    email = models.EmailField(_("e-mail"), db_index=True)
    address = models.GenericIPAddressField(_("client address"), null=True, blank=True)
    created_at = models.DateTimeField(_("requested at"), db_index=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("club sign-up")
        verbose_name_plural = _("club sign-ups")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club_name} <{self.email}>"
