"""Writing clubs, seasons, members and guests, their logins, and merging a person entered
twice."""

import dataclasses
import datetime
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Protocol

from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from games.rules import RuleSet, RuleViolation, preset_name
from league.club.accounts.services import (
    api_tokens_revoke,
    login_lockout_lift,
)
from league.club.books import (
    MARK_VALUE_CHANGED,
    STATUTES_CHANGED,
    books_changed,
    register_changed,
)
from league.club.errors import BooksError, books_error_from_integrity
from league.club.fields import FIRST_YEAR
from league.club.models import RULE_PRESET_CHOICES, Club, LoginClub, Member, Season
from league.club.money import round_money
from league.club.names import clean_name
from league.club.scoping import club_scope
from league.club.selectors import (
    season_dates_check,
    season_last_year,
    season_overlaps_error,
)
from league.club.statutes import (
    Statutes,
    club_statutes,
    preset_rules,
    season_rules,
    season_statutes,
)

#: What a caller may hand as a season's rules: a whole RuleSet, or flags (name -> value)
#: laid over a basis (the chosen preset for a new season, the season's rules for a change).
RulesInput = RuleSet | Mapping[str, object]


def season_rules_data(*, rules: RulesInput, basis: RuleSet) -> dict[str, bool | int | str]:
    """The flags a season stores for `rules` (docs/rules.md 6): a RuleSet as it is, a mapping
    laid over `basis` and read strictly (``RuleSet.from_dict``). The stored ``name`` is the
    preset the flags equal, else "custom".

    Raises BooksError `invalid_rule_set` (400, field "rules") for flags the rules refuse.
    """
    try:
        if isinstance(rules, RuleSet):
            ruleset = rules
        elif isinstance(rules, Mapping):
            ruleset = RuleSet.from_dict({**basis.to_dict(), **rules})
        else:
            ruleset = RuleSet.from_dict(rules)  # refuses it with its own message
    except RuleViolation as exc:
        raise BooksError(
            "invalid_rule_set",
            _("This rule set cannot be played: %(reason)s") % {"reason": str(exc)},
            field="rules",
        ) from exc
    return dataclasses.replace(ruleset, name=preset_name(ruleset) or "custom").to_dict()


def _season_year_check(year: int) -> None:
    if not isinstance(year, int) or not FIRST_YEAR <= year <= season_last_year():
        raise BooksError(
            "year_out_of_range",
            _("A season's year lies from %(first)s to %(last)s.")
            % {"first": FIRST_YEAR, "last": season_last_year()},
            field="year",
        )


@transaction.atomic
def season_create(
    *,
    club: Club,
    year: int,
    rule_preset: str | None = None,
    rules: RulesInput | None = None,
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
) -> Season:
    """Create a club's season for `year` (docs/rules.md section 5): a calendar year unless the
    club gives other dates, the club's rule preset unless another is named, the club's
    statutes (`Club.statutes`, seed 003's when it keeps none) and the
    Mark's value and currency of the year by their eras (seed 003: 1.00 DM to 2001, 0.50
    EUR from 2002).

    The season stores its rule set as flags (docs/rules.md 6): `rules` (a RuleSet, or flags laid
    over the preset) composed from the preset, else the preset's own flags; `rule_preset`
    stays the preset it started from.

    Raises BooksError `season_exists` (409) when the club has that year already,
    `season_overlaps` (409) when the dates share a day with another season of the club,
    `year_out_of_range`, `date_out_of_range`, `dates_unordered`, `invalid_rule_preset` or
    `invalid_rule_set` (400). A year and dates lie from 1900 to the year after next.
    """
    _season_year_check(year)
    starts_on = starts_on or datetime.date(year, 1, 1)
    ends_on = ends_on or datetime.date(year, 12, 31)
    if Season.objects.filter(club=club, year=year).exists():
        raise _season_exists(year)
    season_dates_check(club_id=club.pk, starts_on=starts_on, ends_on=ends_on)
    preset = rule_preset or club.rule_preset
    if preset not in dict(RULE_PRESET_CHOICES):
        raise BooksError("invalid_rule_preset", _("Unknown rule set."), field="rule_preset")
    basis = preset_rules(preset)
    flags = season_rules_data(rules=basis if rules is None else rules, basis=basis)
    statutes = club_statutes(club)  # the club's statutes, stored with the season
    value, currency = statutes.mark_value(year)
    try:
        with transaction.atomic():
            season = Season.objects.create(
                club=club,
                year=year,
                rule_preset=preset,
                rules=flags,
                statutes=statutes.to_data(),
                starts_on=starts_on,
                ends_on=ends_on,
                mark_value=value,
                currency=currency,
            )
    except IntegrityError as exc:  # a season written beside this one in the meantime
        if "season_dates_no_overlap" in str(exc):
            raise season_overlaps_error() from exc
        raise _season_exists(year) from exc
    # A new season shows in every page's season switcher: a change of the books.
    books_changed(season_id=season.pk, reason="season_created")
    season.refresh_from_db(fields=["data_version"])
    return season


def _season_exists(year: int) -> BooksError:
    return BooksError(
        "season_exists",
        _("The season %(year)s exists already.") % {"year": year},
        field="year",
        status=409,
    )


def _season_changes(
    season: Season,
    *,
    mark_value: Decimal | None,
    rule_preset: str | None,
    rules: RulesInput | None,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
) -> dict[str, object]:
    """The fields `season_update` changes (name -> new value), checked."""
    if mark_value is not None:
        mark_value = Decimal(mark_value)
        if mark_value <= 0 or mark_value != round_money(mark_value):
            raise BooksError(
                "invalid_mark_value",
                _("The value of one Mark must be more than zero, with at most two decimal places."),
                field="mark_value",
            )
    if rule_preset is not None and rule_preset not in dict(RULE_PRESET_CHOICES):
        raise BooksError("invalid_rule_preset", _("Unknown rule set."), field="rule_preset")
    flags = None
    if rules is not None:  # flags laid over the new preset, else the season's own rules
        basis = preset_rules(rule_preset) if rule_preset else season_rules(season)
        flags = season_rules_data(rules=rules, basis=basis)
    elif rule_preset is not None and rule_preset != season.rule_preset:
        # Another Grundlage without flags: the season plays that preset (as before rules
        # were stored as data).
        flags = season_rules_data(rules=preset_rules(rule_preset), basis=preset_rules(None))
    if starts_on is not None or ends_on is not None:
        season_dates_check(
            club_id=season.club_id,
            starts_on=starts_on or season.starts_on,
            ends_on=ends_on or season.ends_on,
            season_id=season.pk,
        )
    wanted = {
        "mark_value": mark_value,
        "rule_preset": rule_preset,
        "rules": flags,
        "starts_on": starts_on,
        "ends_on": ends_on,
    }
    return {
        name: value
        for name, value in wanted.items()
        if value is not None and value != getattr(season, name)
    }


@transaction.atomic
def season_update(
    *,
    season: Season,
    mark_value: Decimal | None = None,
    rule_preset: str | None = None,
    rules: RulesInput | None = None,
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
) -> Season:
    """Change a season's Mark value, rule set or dates (docs/rules.md 5 and 6); None keeps a
    field as it is. Year, club and currency stay (they decide which season it is).

    `rules` is the season's new rule set: a RuleSet, or flags laid over the new
    `rule_preset` when one is given, else over the season's rules. A new `rule_preset`
    without `rules` gives the season that preset's flags. A rule change moves no figure of
    the books (points and Marks count games, not throws), but it raises the books-changed
    event like every other change, so caches and ETags follow.

    `mark_value` is Decimal money per Mark in the season's currency (DM or EUR, at most
    two decimal places, e.g. Decimal("0.50")). Everything the value decides follows in the
    same transaction through the books-changed event (reason `MARK_VALUE_CHANGED`): the
    ledger reverses every charge of the season booked at the old value and books it again
    at the new one (never editing a line), standings and report money follow. Any other
    change raises the event too (reason "season"). Nothing changed: nothing is written.
    Returns the season as stored, its `data_version` read again.

    Raises BooksError: invalid_mark_value, invalid_rule_preset, invalid_rule_set,
    dates_unordered, date_out_of_range, season_overlaps (409: another season of the club
    holds one of the days), evening_outside_season (an evening of the season would lie
    outside the new dates).
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    changes = _season_changes(
        season,
        mark_value=mark_value,
        rule_preset=rule_preset,
        rules=rules,
        starts_on=starts_on,
        ends_on=ends_on,
    )
    if not changes:
        return season
    for name, value in changes.items():
        setattr(season, name, value)
    try:
        with transaction.atomic():
            season.save(update_fields=list(changes))
    except IntegrityError as exc:  # the database refuses an evening outside the dates
        raise books_error_from_integrity(exc) from exc
    reason = MARK_VALUE_CHANGED if "mark_value" in changes else "season"
    books_changed(season_id=season.pk, reason=reason)
    season.refresh_from_db(fields=["data_version"])
    return season


#: What a caller may hand as statutes: a whole Statutes, or data (``Statutes.to_data()``'s
#: shape) whose left-out keys keep the figures the season (or club) has.
StatutesInput = Statutes | Mapping[str, object]


def _statutes_of(statutes: StatutesInput, *, basis: Statutes) -> Statutes:
    if isinstance(statutes, Statutes):
        return statutes
    return Statutes.from_data(statutes, basis=basis)


def _season_mark_value_follow(season: Season, statutes: Statutes) -> list[str]:
    """Set the season's Mark value and currency to those of the new eras of `statutes`
    for its year; returns the fields changed. Raises BooksError `currency_in_use` (409)
    when the currency would change on a season that has ledger lines."""
    fields = []
    value, currency = statutes.mark_value(season.year)
    if currency != season.currency:
        if season.ledger_entries.exists():
            raise BooksError(
                "currency_in_use",
                _("The season has entries in %(currency)s; its currency cannot change.")
                % {"currency": season.currency},
                field="statutes.mark_eras",
                status=409,
            )
        season.currency = currency
        fields.append("currency")
    if value != season.mark_value:
        season.mark_value = value
        fields.append("mark_value")
    return fields


@transaction.atomic
def season_statutes_update(
    *, season: Season, statutes: StatutesInput, confirm: bool = False
) -> Season:
    """Change the statutes a season's books are kept under (docs/rules.md 5).

    `statutes` is a Statutes or data read strictly by ``Statutes.from_data`` over the
    season's current statutes. On a season that has evenings the change recomputes every
    point, Mark and money amount of its books, so it needs `confirm`; then, in one
    transaction, the season stores the new statutes (its audit trail records the change
    with the reason "statutes_changed"), its Mark value (and currency, while it has no
    ledger lines) follows the new eras when the eras changed, and the books-changed event
    (reason `STATUTES_CHANGED`) moves the data version and has the ledger reverse and
    re-book every charge that changed. A change of the club's newest season also becomes
    the club's statutes (`Club.statutes`, the defaults of its next seasons). Unchanged
    statutes: nothing is written. Returns the season as stored, its `data_version` read
    again.

    Raises BooksError: the ``statutes_*`` codes of ``Statutes.from_data`` (400);
    ``confirmation_required`` (409) on a season with evenings without `confirm`;
    ``currency_in_use`` (409) when new eras would change the currency of a season that
    has ledger lines; ``season_closed`` (409) for a closed season.
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    if getattr(season, "closed_at", None) is not None:
        raise BooksError(
            "season_closed", _("This season is closed; its books cannot change."), status=409
        )
    old = season_statutes(season)
    new = _statutes_of(statutes, basis=old)
    if new == old and season.statutes:
        return season
    evenings = season.evenings.count()
    if evenings and not confirm:
        raise BooksError(
            "confirmation_required",
            _(
                "The season has %(n)s evenings already; every amount and every point will "
                "be recomputed."
            )
            % {"n": evenings},
            field="confirm",
            status=409,
        )
    fields = ["statutes"]
    if new.mark_eras != old.mark_eras:
        fields += _season_mark_value_follow(season, new)
    season.statutes = new.to_data()
    season._change_reason = STATUTES_CHANGED  # type: ignore[attr-defined]
    season.save(update_fields=fields)
    if not Season.objects.filter(club_id=season.club_id, year__gt=season.year).exists():
        # The club's newest season: its statutes become the club's for the seasons to come.
        club_statutes_update(club=season.club, statutes=new)
    books_changed(season_id=season.pk, reason=STATUTES_CHANGED)
    season.refresh_from_db(fields=["data_version"])
    return season


@transaction.atomic
def club_statutes_update(*, club: Club, statutes: StatutesInput) -> Club:
    """Set the statutes a club gives its new seasons (`Club.statutes`).
    Seasons that exist keep theirs (``season_statutes_update`` changes one). Audited
    (reason "statutes_changed"). Raises BooksError: the ``statutes_*`` codes (400)."""
    new = _statutes_of(statutes, basis=club_statutes(club))
    club.statutes = new.to_data()
    club._change_reason = STATUTES_CHANGED  # type: ignore[attr-defined]
    club.save(update_fields=["statutes"])
    return club


def season_get_or_create(*, club: Club, year: int) -> Season:
    """The club's season of `year`, created with the defaults of `season_create` if missing."""
    season = Season.objects.filter(club=club, year=year).first()
    return season or season_create(club=club, year=year)


def _free_name(*, club_id: int, name: str, person_id: int | None = None) -> str:
    """`name` with its white space folded (`league.club.names.clean_name`), when no other
    person of the club has it.

    Raises BooksError `name_required`, `name_invalid_character`, `name_too_long` or
    `member_exists` (409).
    """
    name = clean_name(name)
    others = Member.objects.filter(club_id=club_id, name=name)
    if person_id is not None:
        others = others.exclude(pk=person_id)
    if others.exists():
        raise BooksError(
            "member_exists",
            _("%(name)s exists already.") % {"name": name},
            field="name",
            status=409,
        )
    return name


@transaction.atomic
def member_create(
    *, club: Club, name: str, kind: str = Member.Kind.MEMBER, is_secretary: bool = False
) -> Member:
    """Create a person of the club (a club member or a guest).

    Raises BooksError `name_required` or `member_exists` (409).
    """
    name = _free_name(club_id=club.pk, name=name)
    person = Member.objects.create(club=club, name=name, kind=kind, is_secretary=is_secretary)
    register_changed(club=club.pk)
    return person


@transaction.atomic
def member_update(
    *,
    member: Member,
    name: str | None = None,
    kind: str | None = None,
    active: bool | None = None,
    is_secretary: bool | None = None,
) -> Member:
    """Change a person of the club: name, member or guest, active, secretary.

    A person is the register, not the books: a change moves the club's register version
    (`register_changed`), which every kept read that shows names depends on, and no
    season's data version, so a closed season's standings show a new name at once.

    The club always keeps one active secretary who can log in: taking the role from, or
    deactivating, the last one is refused (`last_secretary`, 409). The club's row is
    locked first (`_club_locked`), so two secretaries taking each other's role at the same
    moment are counted one after the other and one of them stays.

    Raises BooksError `name_required`, `member_exists` (409), `invalid_kind` or
    `last_secretary` (409).
    """
    if active is False or is_secretary is False:
        _club_locked(member.club_id)
    member = Member.objects.select_for_update().get(pk=member.pk)
    if (active is False or is_secretary is False) and _is_last_secretary(member):
        raise _last_secretary_error(member)
    before = (member.name, member.kind, member.active, member.is_secretary)
    if name is not None:
        member.name = _free_name(club_id=member.club_id, name=name, person_id=member.pk)
    if kind is not None:
        if kind not in Member.Kind.values:
            raise BooksError("invalid_kind", _("A person is a member or a guest."), field="kind")
        member.kind = kind
    if active is not None:
        member.active = active
    if is_secretary is not None:
        member.is_secretary = is_secretary
    member.save()
    if (member.name, member.kind, member.active, member.is_secretary) != before:
        register_changed(club=member.club_id)
    return member


# --- merging a person entered twice, guests who join, logins ----------------

#: What a merge receiver answers: the (season id, evening id or None) pairs whose books it
#: changed. Evenings raise the books-changed event themselves; seasons named with None
#: (e.g. payments moved) get one event each from `member_merge`.
MergeTouched = set[tuple[int, int | None]]


class MergeReceiver(Protocol):
    def __call__(self, *, source: Member, target: Member, reason: str) -> MergeTouched: ...


_merge_receivers: list[MergeReceiver] = []

#: The change reason every audit record of a merge carries.
MEMBER_MERGED = "member_merged"


def member_merge_connect(receiver: MergeReceiver) -> None:
    """Connect a layer's part of a merge (idempotent; from `LeagueConfig.ready`, in layer
    order: play before the books). The register sits below play and the books and cannot
    import them, so they hand in what they move, as with `books.books_changed_connect`."""
    if receiver not in _merge_receivers:
        _merge_receivers.append(receiver)


def _check_merge(source: Member, target: Member) -> None:
    if source.pk == target.pk:
        raise BooksError(
            "merge_same_person", _("Choose two different people to merge."), field="target"
        )
    if source.club_id != target.club_id:
        raise BooksError(
            "person_of_other_club", _("This person belongs to another club."), field="target"
        )


@transaction.atomic
def member_merge(*, source: Member, target: Member) -> Member:
    """Merge a person entered twice: everything of `source` moves to
    `target`, then `source` is deleted. Returns `target` as stored.

    The receivers connected by the layers above move the rows that name the person: play
    (attendance, games lost, Vorleger, Schock-Aus throwers, rounds and throws, the evening's
    secretary; each evening touched gets a new version and the books-changed event, so the
    ledger rebooks the charges the statutes imply, e.g. an absence's charge under the kept
    person's key) and the books (ledger entries and payments keep their amounts and move
    with the person). Runden follow their Schock-Aus. Every row moved leaves an audit record
    with the reason "member_merged" and the request's user as author (simple-history's
    middleware); each season touched moves its data version.

    The register's own part: `target` keeps its name, kind and login; it is secretary when
    either was; a login of `source` moves over when `target` has none, else it is locked.

    Raises BooksError `merge_same_person`, `person_of_other_club`, and `merge_conflict`
    (409, from play) when both were present at one evening (the German message names the
    evening and the people); nothing is written then.
    """
    source = Member.objects.select_for_update().get(pk=source.pk)
    target = Member.objects.select_for_update().get(pk=target.pk)
    _check_merge(source, target)
    touched: MergeTouched = set()
    for receiver in _merge_receivers:
        touched |= receiver(source=source, target=target, reason=MEMBER_MERGED)
    login = source.user
    moves = login is not None and target.user_id is None
    if login is not None:
        source._change_reason = MEMBER_MERGED  # type: ignore[attr-defined]
        member_login_set(person=source, user=None)
        if not moves:
            login.is_active = False
            login.save(update_fields=["is_active"])
    target.is_secretary = target.is_secretary or source.is_secretary
    target.active = target.active or source.active
    target._change_reason = MEMBER_MERGED  # type: ignore[attr-defined]
    if moves:
        member_login_set(person=target, user=login, also_saved=["is_secretary", "active"])
    else:
        target.save()
    source._change_reason = MEMBER_MERGED  # type: ignore[attr-defined]
    source.delete()
    register_changed(club=target.club_id)
    for season_id in sorted({season for season, evening in touched if evening is None}):
        books_changed(season_id=season_id, reason=MEMBER_MERGED)
    return target


@transaction.atomic
def guest_to_member(*, person: Member) -> Member:
    """Turn a regular guest into a club member. From now on the person
    counts as a member (standings, an evening's absence); evenings already entered keep
    the role the person had there (a guest then), so no charge of the past changes.

    Raises BooksError `not_a_guest` when the person is a member already.
    """
    if not person.is_guest:
        raise BooksError(
            "not_a_guest", _("%(name)s is a member already.") % {"name": person.name}, field="kind"
        )
    return member_update(member=person, kind=Member.Kind.MEMBER)


def _club_locked(club_id: int) -> Club:
    """The club's row, locked until the transaction ends (PostgreSQL `SELECT ... FOR
    UPDATE`; SQLite serialises writers anyway). Every change that may leave the club
    without a secretary takes this lock before it counts the secretaries, so two such
    changes never both count the other one as still there."""
    return Club.objects.select_for_update().get(pk=club_id)


def _active_secretaries(club_id: int) -> QuerySet[Member]:
    """The club's secretaries who can act: active people with a login that is not locked."""
    return Member.objects.filter(
        club_id=club_id, is_secretary=True, active=True, user__is_active=True
    )


def _is_last_secretary(person: Member) -> bool:
    """Whether `person` is an active secretary with a usable login and no other is left."""
    if not _active_secretaries(person.club_id).filter(pk=person.pk).exists():
        return False
    return not _active_secretaries(person.club_id).exclude(pk=person.pk).exists()


def _last_secretary_error(person: Member) -> BooksError:
    return BooksError(
        "last_secretary",
        _("%(name)s is the club's only secretary with a login.") % {"name": person.name},
        status=409,
    )


def _username_free(username: str, *, user_id: int | None = None) -> str:
    username = username.strip()
    if not username:
        raise BooksError("username_required", _("Please enter a user name."), field="username")
    validator = UnicodeUsernameValidator()
    try:
        validator(username)
    except ValidationError as exc:
        raise BooksError(
            "invalid_username",
            _("A user name may hold letters, digits and @ . + - _ only."),
            field="username",
        ) from exc
    if len(username) > 150:
        raise BooksError("invalid_username", _("The user name is too long."), field="username")
    others = User.objects.filter(username__iexact=username)
    if user_id is not None:
        others = others.exclude(pk=user_id)
    if others.exists():
        raise BooksError(
            "username_taken",
            _("The user name %(username)s is taken already.") % {"username": username},
            field="username",
            status=409,
        )
    return username


def login_clubs_set(*, people: Iterable[Member]) -> None:
    """Record the club of each login of `people` (the person's club) in `LoginClub`, in
    one query (an INSERT ... ON CONFLICT (user_id) DO UPDATE, on PostgreSQL and SQLite);
    people without a login are passed over.

    For the writers that put a person's login in place without `member_login_set`: the
    backup's restore, which inserts people as they were (no save, no history). The
    caller's transaction must hold both writes: on PostgreSQL league_member refers to the
    row by `(user_id, club_id)` (league migration 0030), checked at commit.
    """
    rows = {p.user_id: LoginClub(user_id=p.user_id, club_id=p.club_id) for p in people if p.user_id}
    if rows:
        LoginClub.objects.bulk_create(
            list(rows.values()),
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=["club"],
        )


@transaction.atomic
def member_login_set(
    *, person: Member, user: User | None, also_saved: Sequence[str] = ()
) -> Member:
    """Give `person` the login `user`, or take the person's login away (None): the one way
    a person's login is set (invitations' `login_create`, the sign-up, a merge, the
    admin's handover, the demo, the benches). Returns `person`, saved with
    `update_fields` "user" and `also_saved` (fields the caller set on it too); the audit
    record carries the caller's `person._change_reason`, if any. A change of the club's
    register (`register_changed`: the logins page and the people's kept reads follow).

    A login first gets its `LoginClub` row naming the person's club (`login_clubs_set`):
    on PostgreSQL the person's `(user_id, club_id)` must be that row's (league migration
    0030), which is what keeps a login one person of one club there. A login taken away
    keeps its row, so it can be given to a person of another club later (after it was
    taken from the person who had it).

    Raises IntegrityError when `user` is another person's login (unlink that one first):
    at once for a person of the same club (and on SQLite, `UNIQUE (user_id)`), at commit
    on PostgreSQL for one of another club (the deferred foreign key: the other person's
    club is no longer the login's). No app path gives a linked login to a second person;
    the admin's form checks it first.
    """
    person.user = user
    if user is not None:
        login_clubs_set(people=[person])
    person.save(update_fields=["user", *also_saved])
    register_changed(club=person.club_id)
    return person


@transaction.atomic
def login_create(*, person: Member, username: str) -> User:
    """Give a person of the club a login. The login has no usable
    password until the person sets one through the invitation (`login_invitation`): nobody
    else ever chooses or learns a password that works.

    Raises BooksError `login_exists` (409), `username_required`, `invalid_username`,
    `username_taken` (409).
    """
    person = Member.objects.select_for_update().get(pk=person.pk)
    if person.user_id is not None:
        raise BooksError(
            "login_exists",
            _("%(name)s has a login already.") % {"name": person.name},
            field="username",
            status=409,
        )
    username = _username_free(username)
    user = User(username=username, first_name=person.name[:150])
    user.set_unusable_password()
    user.save()
    person.password_set_by_holder = False
    person._change_reason = "login_created"  # type: ignore[attr-defined]
    member_login_set(person=person, user=user, also_saved=["password_set_by_holder"])
    return user


#: The refusal of an invitation for a login that has a password already.
LOGIN_HAS_PASSWORD = "login_has_password"


@transaction.atomic
def login_invitation(*, person: Member) -> tuple[str, str]:
    """The one-time invitation of a person's login: (uidb64, token) for the page where the
    person sets their own password (Django's password-reset token: it is void as soon as
    a password is set, and after PASSWORD_RESET_TIMEOUT seconds). The person's audit trail
    records it (reason "login_invited", with the request's user).

    Only for a login that has no usable password yet: an invitation sets the password, so
    one for a login in use would let whoever holds the link become that person.

    Raises BooksError `no_login` when the person has none, `login_has_password` (409)
    when the login has a password already (the person uses "Passwort vergessen").
    """
    user = User.objects.filter(member__pk=person.pk).first()
    if user is None:
        raise BooksError("no_login", _("%(name)s has no login.") % {"name": person.name})
    if user.has_usable_password():
        raise BooksError(
            LOGIN_HAS_PASSWORD,
            _(
                "%(name)s has a password already; an invitation would replace it. A "
                'forgotten password is reset by its holder with "Forgot your password?" '
                "on the login page."
            )
            % {"name": person.name},
            status=409,
        )
    person = Member.objects.get(pk=person.pk)
    person._change_reason = "login_invited"  # type: ignore[attr-defined]
    person.save()
    return urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)


@transaction.atomic
def login_lock(*, person: Member, locked: bool = True, by: User | None = None) -> User:
    """Lock a person's login (it can no longer log in, `User.is_active` False) or unlock it.
    The person and the books stay as they are; the person's audit trail records it (reason
    "login_locked" or "login_unlocked", with the request's user).

    Locking revokes the login's API tokens. Unlocking also lifts a lockout after failed
    logins (django-axes), so that the person can log in at once.

    Raises BooksError `no_login`, `own_login` (409) when `by` (the login asking) would
    lock itself out, and `last_secretary` (409) when it would lock the login of the club's
    last active secretary (counted under the club's row lock, see `member_update`).
    """
    if locked and by is not None and person.user_id == by.pk:
        raise BooksError(
            "own_login",
            _("You cannot lock your own login: another secretary can."),
            status=409,
        )
    if locked:
        _club_locked(person.club_id)
    person = Member.objects.select_for_update(of=("self",)).select_related("user").get(pk=person.pk)
    if person.user is None:
        raise BooksError("no_login", _("%(name)s has no login.") % {"name": person.name})
    if locked and _is_last_secretary(person):
        raise _last_secretary_error(person)
    user = person.user
    user.is_active = not locked
    user.save(update_fields=["is_active"])
    if locked:
        api_tokens_revoke(user=user)
    else:
        login_lockout_lift(user=user)
    # Logins keep no history of their own: the person's audit trail records who locked or
    # unlocked it, and when.
    person._change_reason = "login_locked" if locked else "login_unlocked"  # type: ignore[attr-defined]
    person.save()
    register_changed(club=person.club_id)
    return user


@transaction.atomic
def secretary_set(*, person: Member, is_secretary: bool) -> Member:
    """Make a person a secretary of the club or take it back. The club
    always keeps one secretary who can log in.

    Raises BooksError `secretary_is_guest` (a guest cannot keep the books) and
    `last_secretary` (409; counted under the club's row lock, see `member_update`).
    """
    if is_secretary and person.is_guest:
        raise BooksError(
            "secretary_is_guest",
            _("%(name)s is a guest; only a member can be secretary.") % {"name": person.name},
        )
    return member_update(member=person, is_secretary=is_secretary)


@transaction.atomic
def club_create(*, name: str, secretary_name: str, rule_preset: str = "club") -> Member:
    """A new club with its first secretary (the one step before the secretary sets the
    club up on its pages: seasons, people, logins, evenings). Returns
    the secretary (a club member, no login yet: give one with `login_create`).

    Raises BooksError `name_required`, `name_invalid_character`, `name_too_long` (the
    club's or the secretary's name), `club_exists` (409; names are unique ignoring case),
    `invalid_rule_preset`.
    """
    name = clean_name(name)
    if rule_preset not in dict(RULE_PRESET_CHOICES):
        raise BooksError("invalid_rule_preset", _("Unknown rule set."), field="rule_preset")
    if Club.objects.filter(name__iexact=name).exists():
        raise club_exists_error(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, rule_preset=rule_preset)
    except IntegrityError as exc:  # the same name written beside this one meanwhile
        raise club_exists_error(name) from exc
    with club_scope(club):  # the new club's first person, in its scope whoever asks
        return member_create(club=club, name=secretary_name, is_secretary=True)


def club_exists_error(name: str) -> BooksError:
    """`club_exists` (409, field "name"): a club of that name, ignoring case, exists."""
    return BooksError(
        "club_exists",
        _("The club %(name)s exists already.") % {"name": name},
        field="name",
        status=409,
    )


@transaction.atomic
def club_suspend(*, club: Club, suspended: bool = True) -> Club:
    """Suspend a club (the operator's admin action) or lift it: while suspended, every page
    and API call of its people answers 403 `club_suspended` (league.club.access); nothing
    of the club is deleted or changed. The club's audit trail records it (reason
    "club_suspended" or "club_resumed"). Returns the club as stored."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if (club.suspended_at is not None) != suspended:
        club.suspended_at = timezone.now() if suspended else None
        club._change_reason = "club_suspended" if suspended else "club_resumed"  # type: ignore[attr-defined]
        club.save()
        register_changed(club=club.pk)
    return club


@transaction.atomic
def member_change(
    *,
    person: Member,
    name: str | None = None,
    kind: str | None = None,
    active: bool | None = None,
    is_secretary: bool | None = None,
) -> Member:
    """Change a person the way the people pages do, several fields at once (the API's
    PATCH of a member): a new name (`member_update`), a guest made a club member
    (`guest_to_member`), active or not (`member_update`), secretary or not
    (`secretary_set`, with its rules). None leaves a field as it is. All or nothing: a
    refusal rolls every change back. Returns the person as stored.

    Raises BooksError: `name_required`, `member_exists` (409), `invalid_kind`,
    `member_to_guest` (a club member is never made a guest again, as on the pages), and
    whatever `secretary_set` refuses (`secretary_is_guest`, `last_secretary` 409).
    """
    if name is not None:
        person = member_update(member=person, name=name)
    if kind is not None and kind != person.kind:
        if kind not in Member.Kind.values:
            raise BooksError("invalid_kind", _("A person is a member or a guest."), field="kind")
        if kind == Member.Kind.GUEST:
            raise BooksError(
                "member_to_guest",
                _("A club member cannot become a guest again."),
                field="kind",
            )
        person = guest_to_member(person=person)
    if active is not None and active != person.active:
        person = member_update(member=person, active=active)
    if is_secretary is not None and is_secretary != person.is_secretary:
        person = secretary_set(person=person, is_secretary=is_secretary)
    return person


@transaction.atomic
def member_calendar_revoke(*, member: Member) -> Member:
    """Revoke the person's calendar link: `calendar_version` moves by one, so the old
    link (league.club.selectors.member_calendar_token) answers 404 from now on and a new
    one is given. Audited in the person's history. Not a change of the register's kept
    reads (none shows the link)."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    member.calendar_version += 1
    member._change_reason = "calendar_link_revoked"  # type: ignore[attr-defined]
    member.save(update_fields=["calendar_version"])
    return member
