"""Writing clubs, seasons and members."""

import dataclasses
import datetime
from collections.abc import Mapping
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.rules import RuleSet, RuleViolation, preset_name
from league.club.books import MARK_VALUE_CHANGED, books_changed
from league.club.errors import BooksError, books_error_from_integrity
from league.club.models import RULE_PRESET_CHOICES, Club, Member, Season
from league.club.money import round_money
from league.club.statutes import preset_rules, season_rules, season_statutes

#: What a caller may hand as a season's rules: a whole RuleSet, or flags (name -> value)
#: laid over a basis (the chosen preset for a new season, the season's rules for a change).
RulesInput = RuleSet | Mapping[str, object]


def season_rules_data(*, rules: RulesInput, basis: RuleSet) -> dict[str, bool | int | str]:
    """The flags a season stores for `rules` (RULES.md 6): a RuleSet as it is, a mapping
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
    """Create a club's season for `year` (RULES.md section 5): a calendar year unless the
    club gives other dates, the club's rule preset unless another is named, and the Mark's
    value and currency of the year (1.00 DM to 2001, 0.50 EUR from 2002).

    The season stores its rule set as flags (RULES.md 6): `rules` (a RuleSet, or flags laid
    over the preset) composed from the preset, else the preset's own flags; `rule_preset`
    stays the preset it started from.

    Raises BooksError `season_exists` (409) when the club has that year already,
    `invalid_rule_preset` or `invalid_rule_set` (400).
    """
    preset = rule_preset or club.rule_preset
    if preset not in dict(RULE_PRESET_CHOICES):
        raise BooksError("invalid_rule_preset", _("Unknown rule set."), field="rule_preset")
    basis = preset_rules(preset)
    flags = season_rules_data(rules=basis if rules is None else rules, basis=basis)
    value, currency = season_statutes().mark_value(year)
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club,
                year=year,
                rule_preset=preset,
                rules=flags,
                starts_on=starts_on or datetime.date(year, 1, 1),
                ends_on=ends_on or datetime.date(year, 12, 31),
                mark_value=value,
                currency=currency,
            )
    except IntegrityError as exc:
        raise BooksError(
            "season_exists",
            _("The season %(year)s exists already.") % {"year": year},
            field="year",
            status=409,
        ) from exc


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
    if (ends_on or season.ends_on) < (starts_on or season.starts_on):
        raise BooksError(
            "dates_unordered", _("The last day lies before the first day."), field="ends_on"
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
    """Change a season's Mark value, rule set or dates (RULES.md 5 and 6); None keeps a
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
    dates_unordered, evening_outside_season (an evening of the season would lie outside
    the new dates).
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


def season_get_or_create(*, club: Club, year: int) -> Season:
    """The club's season of `year`, created with the defaults of `season_create` if missing."""
    season = Season.objects.filter(club=club, year=year).first()
    return season or season_create(club=club, year=year)


def _free_name(*, club_id: int, name: str, person_id: int | None = None) -> str:
    """`name` with its white space folded, when no other person of the club has it.

    Raises BooksError `name_required` or `member_exists` (409).
    """
    name = " ".join(name.split())
    if not name:
        raise BooksError("name_required", _("Please enter a name."), field="name")
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
    return Member.objects.create(club=club, name=name, kind=kind, is_secretary=is_secretary)


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

    A person's name and kind show in every season's books (standings, reports, the
    all-time records), so a change that touches them raises the books-changed event for
    every season of the club; active and secretary touch no figure and move no version.

    Raises BooksError `name_required`, `member_exists` (409) or `invalid_kind`.
    """
    member = Member.objects.select_for_update().get(pk=member.pk)
    changed: list[str] = []
    if name is not None:
        name = _free_name(club_id=member.club_id, name=name, person_id=member.pk)
        changed += ["name"] if name != member.name else []
        member.name = name
    if kind is not None:
        if kind not in Member.Kind.values:
            raise BooksError("invalid_kind", _("A person is a member or a guest."), field="kind")
        changed += ["kind"] if kind != member.kind else []
        member.kind = kind
    if active is not None:
        member.active = active
    if is_secretary is not None:
        member.is_secretary = is_secretary
    member.save()
    if changed:
        for season_id in Season.objects.filter(club_id=member.club_id).values_list("pk", flat=True):
            books_changed(season_id=season_id, reason="member_changed")
    return member
