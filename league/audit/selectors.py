"""Reading the audit trail (issue 6.4): who changed what, when, before -> after.

Every creation, change and deletion of an evening, attendance, game, Schock-Aus, payment
and Runde given is a django-simple-history record (the models declare `history`; pages
record the logged-in user through `HistoryRequestMiddleware`, the club-book import its
user with the reason "club book import"). These selectors turn the records into German
lines per evening and per member; a change is the difference to the object's previous
record. A fixed number of queries per page, whatever the number of records.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.models import Member
from league.club.money import format_money
from league.ledger.models import Payment
from league.runden.models import RundeGiven

CREATED, CHANGED, DELETED = "+", "~", "-"


@dataclass
class Change:
    """One field's change: its German label, the value before and after (display text)."""

    label: str
    before: str
    after: str


@dataclass
class AuditLine:
    """One history record: when (aware datetime), who (display name), action ("+" created,
    "~" changed, "-" deleted), what (German text), the changed fields, the reason (e.g.
    the club-book import) and the evening it belongs to (id, or None)."""

    when: datetime.datetime
    who: str
    action: str
    what: str
    changes: list[Change] = field(default_factory=list)
    reason: str = ""
    evening_id: int | None = None
    sort_id: tuple = ()

    @property
    def reason_label(self) -> str:
        """The reason in German ("club book import", "payment cancelled"), or as stored."""
        return {
            "club book import": _("club book import"),
            "payment_cancelled": _("payment cancelled"),
        }.get(self.reason, self.reason)

    @property
    def action_label(self) -> str:
        return {CREATED: _("created"), CHANGED: _("changed"), DELETED: _("deleted")}[self.action]


# Tracked fields per model and how to show them.
_FIELDS = {
    Evening: ["date", "secretary_id", "notes", "season_id"],
    Attendance: ["member_id", "role"],
    Game: ["number", "loser_id", "vorleger_id"],
    SchockAus: ["thrower_id", "position"],
    Payment: ["amount", "paid_on", "method", "note", "season_id"],
    RundeGiven: ["given_on", "note"],
}


def _labels() -> dict[str, str]:
    return {
        "date": _("date"),
        "secretary_id": _("secretary"),
        "notes": _("notes"),
        "season_id": _("season"),
        "member_id": _("person"),
        "role": _("role"),
        "number": _("number"),
        "loser_id": _("loser"),
        "vorleger_id": _("Vorleger"),
        "thrower_id": _("thrower"),
        "position": _("position"),
        "amount": _("amount"),
        "paid_on": _("paid on"),
        "method": _("how"),
        "note": _("note"),
        "given_on": _("given on"),
    }


class _Names:
    """Display texts of ids and codes, loaded in bulk."""

    def __init__(self, records: list):
        member_ids = set()
        season_ids = set()
        for r in records:
            for attr in ("secretary_id", "member_id", "loser_id", "vorleger_id", "thrower_id"):
                if getattr(r, attr, None):
                    member_ids.add(getattr(r, attr))
            if getattr(r, "season_id", None):
                season_ids.add(r.season_id)
        self.members = dict(Member.objects.filter(pk__in=member_ids).values_list("pk", "name"))
        from league.club.models import Season

        self.seasons = dict(Season.objects.filter(pk__in=season_ids).values_list("pk", "year"))
        self.roles = dict(Attendance.Role.choices)
        self.methods = dict(Payment.Method.choices)

    def show(self, name: str, value, record=None) -> str:
        if value is None or value == "":
            return "–"
        if name in ("secretary_id", "member_id", "loser_id", "vorleger_id", "thrower_id"):
            return self.members.get(value, f"#{value}")
        if name == "season_id":
            return str(self.seasons.get(value, value))
        if name == "role":
            return str(self.roles.get(value, value))
        if name == "method":
            return str(self.methods.get(value, value))
        if isinstance(value, datetime.date):
            return value.strftime("%d.%m.%Y")
        if isinstance(value, Decimal):
            return format_money(value, getattr(record, "currency", "EUR"))
        return str(value)


def _who(record) -> str:
    user = record.history_user
    if user is None:
        return _("import") if record.history_change_reason else _("system")
    member = getattr(user, "member", None)
    return member.name if member else user.get_username()


def _lines_of(model, records: list, names: _Names, describe, evening_of) -> list[AuditLine]:
    """AuditLines of one model's records (all records of each object, any order)."""
    by_object = defaultdict(list)
    for r in records:
        by_object[r.id].append(r)
    labels = _labels()
    lines = []
    for items in by_object.values():
        items.sort(key=lambda r: (r.history_date, r.history_id))
        previous = None
        for r in items:
            changes = []
            for name in _FIELDS[model]:
                after = getattr(r, name)
                if r.history_type == DELETED:
                    continue
                before = getattr(previous, name) if previous is not None else None
                if previous is None and after in (None, ""):
                    continue
                if previous is None or before != after:
                    changes.append(
                        Change(
                            labels[name],
                            names.show(name, before, previous) if previous is not None else "",
                            names.show(name, after, r),
                        )
                    )
            if r.history_type == CHANGED and not changes and not r.history_change_reason:
                previous = r
                continue  # a save that changed nothing shown (e.g. the version counter)
            lines.append(
                AuditLine(
                    when=r.history_date,
                    who=_who(r),
                    action=r.history_type,
                    what=describe(r),
                    changes=changes,
                    reason=r.history_change_reason or "",
                    evening_id=evening_of(r),
                    sort_id=(r.history_date, model.__name__, r.history_id),
                )
            )
            previous = r
    return lines


def _latest(history_qs, key: str) -> dict:
    """id -> the value of `key` in the object's latest record (objects may be deleted)."""
    out = {}
    for pk, value in history_qs.order_by("history_date", "history_id").values_list("id", key):
        out[pk] = value
    return out


def _collect(
    evenings: list,
    attendances: list,
    games: list,
    schock_aus: list,
    payments: list,
    runden: list,
) -> list[AuditLine]:
    names = _Names(evenings + attendances + games + schock_aus + payments + runden)
    game_ids = {r.id for r in games} | {r.game_id for r in schock_aus}
    game_number = _latest(Game.history.filter(id__in=game_ids), "number")
    game_evening = _latest(Game.history.filter(id__in=game_ids), "evening_id")
    evening_ids = (
        {r.id for r in evenings} | {r.evening_id for r in attendances} | set(game_evening.values())
    )
    evening_date = _latest(Evening.history.filter(id__in=evening_ids), "date")
    sa_ids = {r.schock_aus_id for r in runden}
    sa_info = {
        pk: (game_id, thrower_id)
        for pk, game_id, thrower_id in SchockAus.history.filter(id__in=sa_ids)
        .order_by("history_date", "history_id")
        .values_list("id", "game_id", "thrower_id")
    }
    extra_members = {t for _g, t in sa_info.values()} - set(names.members)
    names.members.update(Member.objects.filter(pk__in=extra_members).values_list("pk", "name"))

    def day(evening_id):
        d = evening_date.get(evening_id)
        return d.strftime("%d.%m.%Y") if d else "?"

    def game_text(game_id):
        return _("game %(number)s on %(date)s") % {
            "number": game_number.get(game_id, "?"),
            "date": day(game_evening.get(game_id)),
        }

    lines = []
    lines += _lines_of(
        Evening,
        evenings,
        names,
        lambda r: _("Evening of %(date)s") % {"date": day(r.id)},
        lambda r: r.id,
    )
    lines += _lines_of(
        Attendance,
        attendances,
        names,
        lambda r: (
            _("Attendance of %(name)s on %(date)s")
            % {"name": names.show("member_id", r.member_id), "date": day(r.evening_id)}
        ),
        lambda r: r.evening_id,
    )
    lines += _lines_of(
        Game, games, names, lambda r: game_text(r.id).capitalize(), lambda r: r.evening_id
    )
    lines += _lines_of(
        SchockAus,
        schock_aus,
        names,
        lambda r: _("Schock-Aus in %(game)s") % {"game": game_text(r.game_id)},
        lambda r: game_evening.get(r.game_id),
    )
    lines += _lines_of(
        Payment,
        payments,
        names,
        lambda r: _("Payment of %(name)s") % {"name": names.show("member_id", r.member_id)},
        lambda r: None,
    )

    def runde_text(r):
        game_id, thrower_id = sa_info.get(r.schock_aus_id, (None, None))
        return _("Runde of %(name)s for the Schock-Aus in %(game)s") % {
            "name": names.show("thrower_id", thrower_id),
            "game": game_text(game_id),
        }

    lines += _lines_of(
        RundeGiven,
        runden,
        names,
        runde_text,
        lambda r: game_evening.get(sa_info.get(r.schock_aus_id, (None,))[0]),
    )
    lines.sort(key=lambda line: line.sort_id, reverse=True)
    return lines


def evening_audit(*, evening_id: int) -> list[AuditLine]:
    """Every recorded change of an evening (also a deleted one), its attendance, games,
    Schock-Aus and Runden given, newest first. About a dozen queries."""
    games = list(Game.history.filter(evening_id=evening_id).select_related("history_user"))
    game_ids = {r.id for r in games}
    schock_aus = list(SchockAus.history.filter(game_id__in=game_ids).select_related("history_user"))
    runden = list(
        RundeGiven.history.filter(schock_aus_id__in={r.id for r in schock_aus}).select_related(
            "history_user"
        )
    )
    return _collect(
        list(Evening.history.filter(id=evening_id).select_related("history_user")),
        list(Attendance.history.filter(evening_id=evening_id).select_related("history_user")),
        games,
        schock_aus,
        [],
        runden,
    )


def _all_records(model, matching) -> list:
    """All records of every object that has a record matching `matching` (a Q)."""
    ids = set(model.history.filter(matching).values_list("id", flat=True))
    return list(model.history.filter(id__in=ids).select_related("history_user"))


def member_audit(*, member: Member) -> list[AuditLine]:
    """Every recorded change that concerns a person: attendance, games lost or opened,
    Schock-Aus thrown, payments, Runden given; newest first. About a dozen queries."""
    schock_aus = _all_records(SchockAus, Q(thrower_id=member.pk))
    runden = list(
        RundeGiven.history.filter(schock_aus_id__in={r.id for r in schock_aus}).select_related(
            "history_user"
        )
    )
    return _collect(
        [],
        _all_records(Attendance, Q(member_id=member.pk)),
        _all_records(Game, Q(loser_id=member.pk) | Q(vorleger_id=member.pk)),
        schock_aus,
        _all_records(Payment, Q(member_id=member.pk)),
        runden,
    )


def club_audit_recent(*, club, limit: int = 50) -> list[AuditLine]:
    """The club's latest changes to evenings, attendance, games and payments (not the
    import's bulk records), newest first."""
    evenings = list(
        Evening.history.filter(club_id=club.pk, history_change_reason__isnull=True)
        .select_related("history_user")
        .order_by("-history_date")[:limit]
    )
    club_evening_ids = set(Evening.history.filter(club_id=club.pk).values_list("id", flat=True))
    games = list(
        Game.history.filter(evening_id__in=club_evening_ids, history_change_reason__isnull=True)
        .select_related("history_user")
        .order_by("-history_date")[:limit]
    )
    attendances = list(
        Attendance.history.filter(
            evening_id__in=club_evening_ids, history_change_reason__isnull=True
        )
        .select_related("history_user")
        .order_by("-history_date")[:limit]
    )
    payments = list(
        Payment.history.filter(club_id=club.pk)
        .select_related("history_user")
        .order_by("-history_date")[:limit]
    )
    # Diffs need each object's previous record: load the full records of those objects.
    lines = _collect(
        _full(Evening, evenings),
        _full(Attendance, attendances),
        _full(Game, games),
        [],
        _full(Payment, payments),
        [],
    )
    return lines[:limit]


def _full(model, records: list) -> list:
    if not records:
        return []
    return list(model.history.filter(id__in={r.id for r in records}).select_related("history_user"))
