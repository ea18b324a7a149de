"""Reading the audit trail: who changed what, when, before -> after.

Every creation, change and deletion of a record of the books is a django-simple-history
record: the club, its seasons and people (with their login and secretary flag), evenings,
attendance, games, Schock-Aus, rounds and throws, payments, the ledger's reversal lines and
Runden given (the models declare `history`). The author is the request's user (pages and
API, through `HistoryRequestMiddleware`), the club-book import's user with the reason "club
book import", or nobody (a management command: shown as "system").

These selectors turn the records into German lines per evening, per person and for the
club; a change is the difference to the object's previous record. Each reads a fixed
number of queries, whatever the number of records (tests/league/audit/test_history.py).

The records of the club-owned models are read in the active club's scope (their history
managers are scoped, league/club/history.py): a selector filters by the evening or person
asked for, never by the club, and a read outside a club scope raises ScopeError. The Club's
own records (not a row of a club) are picked by its id; `audit_state` is SQL, which no scope
reaches, and names the club itself.
"""

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import connection, models
from django.db.models import Q, Subquery
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game, Objection, SchockAus
from games.rounds.models import Round, RoundThrow
from league.club.books import CLUB_BOOK_IMPORT as IMPORT_REASON
from league.club.models import Club, Member, Season
from league.club.money import format_money
from league.club.scoping import club_scope
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    reversal_reason_label as ledger_reason_label,
)
from league.runden.models import RundeGiven

CREATED, CHANGED, DELETED = "+", "~", "-"

REVERSAL = LedgerEntry.Kind.REVERSAL

# Record = a historical model instance of simple_history (its fields, plus history_date,
# history_type "+"/"~"/"-", history_user, history_change_reason).
Record = Any


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
    the club-book import, a reversal's reason code) and the evening it belongs to (id, or
    None)."""

    when: datetime.datetime
    who: str
    action: str
    what: str
    changes: list[Change] = field(default_factory=list)
    reason: str = ""
    evening_id: int | None = None
    sort_id: tuple[datetime.datetime, str, int] | tuple[()] = ()

    @property
    def reason_label(self) -> str:
        """The reason in German ("club book import", "payment cancelled"), or as stored."""
        if self.reason == IMPORT_REASON:
            return _("club book import")
        return ledger_reason_label(self.reason)

    @property
    def action_label(self) -> str:
        return {CREATED: _("created"), CHANGED: _("changed"), DELETED: _("deleted")}[self.action]


PERSON_FIELDS = (
    "secretary_id",
    "member_id",
    "loser_id",
    "vorleger_id",
    "thrower_id",
    "player_id",
    "raised_by_id",
)


def _labels() -> dict[str, str]:
    """German labels of the fields shown, by attribute name."""
    return {
        "name": _("name"),
        "rule_preset": _("rule set"),
        "year": _("year"),
        "starts_on": _("first day"),
        "ends_on": _("last day"),
        "mark_value": _("value of one Mark"),
        "currency": _("currency"),
        "kind": _("kind"),
        "active": _("active"),
        "is_secretary": _("secretary"),
        "user_id": _("login"),
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
        "phase": _("phase"),
        "deckel": _("Deckel"),
        "player_id": _("player"),
        "dice": _("dice"),
        "attempts": _("attempts"),
        "natural": _("natural"),
        "muss_regel": _("Muss-Regel"),
        "amount": _("amount"),
        "marks": _("Marks"),
        "booked_on": _("booked on"),
        "paid_on": _("paid on"),
        "method": _("how"),
        "note": _("note"),
        "given_on": _("given on"),
        "status": _("status"),
        "text": _("objection"),
        "answer": _("answer"),
        "raised_by_id": _("raised by"),
    }


def _value(record: Record, name: str) -> Any:
    """A shown field's value; `dice` is the throw's three dice as one value."""
    if name == "dice":
        return (record.die1, record.die2, record.die3)
    return getattr(record, name)


@dataclass
class _Context:
    """What the lines need to know beyond their own records, loaded in bulk (one query
    each): names of people, seasons and logins by id; each game's (number, evening id),
    each evening's date, each Schock-Aus's (game id, thrower id), each round's (game id,
    number), by id, from the latest history record (the object may be deleted)."""

    members: dict[int, str] = field(default_factory=dict)
    seasons: dict[int, int] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)
    games: dict[int, tuple[int, int]] = field(default_factory=dict)
    evening_dates: dict[int, datetime.date] = field(default_factory=dict)
    schock_aus: dict[int, tuple[int, int]] = field(default_factory=dict)
    rounds: dict[int, tuple[int, int]] = field(default_factory=dict)

    def day(self, evening_id: int | None) -> str:
        d = self.evening_dates.get(evening_id) if evening_id is not None else None
        return d.strftime("%d.%m.%Y") if d else "?"

    def game_evening(self, game_id: int | None) -> int | None:
        return self.games[game_id][1] if game_id in self.games else None

    def game_text(self, game_id: int | None) -> str:
        number = self.games[game_id][0] if game_id in self.games else "?"
        return _("game %(number)s on %(date)s") % {
            "number": number,
            "date": self.day(self.game_evening(game_id)),
        }

    def round_text(self, round_id: int) -> str:
        game_id, number = self.rounds.get(round_id, (None, "?"))
        return _("round %(number)s of %(game)s") % {
            "number": number,
            "game": self.game_text(game_id),
        }

    def person(self, member_id: int | None) -> str:
        if member_id is None:
            return "–"
        return self.members.get(member_id, f"#{member_id}")

    def show(self, model: type[models.Model], name: str, value: Any, record: Record) -> str:
        """A field's value as display text (German where it is a choice or a flag)."""
        if value is None or value == "":
            return "–"
        if name in PERSON_FIELDS:
            return self.person(value)
        if name == "season_id":
            return str(self.seasons.get(value, value))
        if name == "user_id":
            return self.users.get(value, f"#{value}")
        if name == "dice":
            return "-".join(str(d) for d in value)
        choices = _choices(model, name)
        if choices:
            return str(choices.get(value, value))
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, datetime.date):
            return value.strftime("%d.%m.%Y")
        if isinstance(value, Decimal):
            return format_money(value, getattr(record, "currency", "EUR"))
        return str(value)


def _choices(model: type[models.Model], name: str) -> dict[Any, Any]:
    """value -> label of a field with choices (translated when shown), else {}."""
    try:
        model_field = model._meta.get_field(name)
    except FieldDoesNotExist:  # a shown value that is not a field (dice)
        return {}
    if not isinstance(model_field, models.Field) or not model_field.choices:
        return {}
    return dict(model_field.flatchoices)


@dataclass(frozen=True)
class _Spec:
    """How one model's records become lines: the fields shown, the German text of a record
    and the evening it belongs to."""

    model: type[models.Model]
    fields: tuple[str, ...]
    describe: Callable[[Record, _Context], str]
    evening_of: Callable[[Record, _Context], int | None] = lambda r, c: None


def _specs() -> dict[type[models.Model], _Spec]:
    """Every record type of the books with its fields and texts (sources: the models)."""
    return {
        s.model: s
        for s in [
            _Spec(
                Club, ("name", "rule_preset"), lambda r, c: _("Club %(name)s") % {"name": r.name}
            ),
            _Spec(
                Season,
                ("year", "starts_on", "ends_on", "rule_preset", "mark_value", "currency"),
                lambda r, c: _("Season %(year)s") % {"year": r.year},
            ),
            _Spec(
                Member,
                ("name", "kind", "active", "is_secretary", "user_id"),
                lambda r, c: _("Person %(name)s") % {"name": r.name},
            ),
            _Spec(
                Evening,
                ("date", "secretary_id", "notes", "season_id"),
                lambda r, c: _("Evening of %(date)s") % {"date": c.day(r.id)},
                lambda r, c: r.id,
            ),
            _Spec(
                Attendance,
                ("member_id", "role"),
                lambda r, c: (
                    _("Attendance of %(name)s on %(date)s")
                    % {"name": c.person(r.member_id), "date": c.day(r.evening_id)}
                ),
                lambda r, c: r.evening_id,
            ),
            _Spec(
                Game,
                ("number", "loser_id", "vorleger_id"),
                lambda r, c: c.game_text(r.id).capitalize(),
                lambda r, c: r.evening_id,
            ),
            *_play_specs(),
            *_money_specs(),
            _Spec(
                Objection,
                ("status", "text", "answer"),
                lambda r, c: (
                    _("Objection of %(name)s to game %(number)s on %(date)s")
                    % {
                        "name": c.person(r.raised_by_id),
                        "number": r.game_number,
                        "date": c.day(r.evening_id),
                    }
                ),
                lambda r, c: r.evening_id,
            ),
        ]
    }


def _play_specs() -> list[_Spec]:
    """Schock-Aus, rounds and throws: texts through their game."""
    return [
        _Spec(
            SchockAus,
            ("thrower_id", "position"),
            lambda r, c: _("Schock-Aus in %(game)s") % {"game": c.game_text(r.game_id)},
            lambda r, c: c.game_evening(r.game_id),
        ),
        _Spec(
            Round,
            ("number", "phase", "vorleger_id", "loser_id", "deckel"),
            lambda r, c: (
                _("Round %(number)s of %(game)s")
                % {"number": r.number, "game": c.game_text(r.game_id)}
            ),
            lambda r, c: c.game_evening(r.game_id),
        ),
        _Spec(
            RoundThrow,
            ("player_id", "position", "dice", "attempts", "natural", "muss_regel"),
            lambda r, c: (
                _("Throw of %(name)s in %(round)s")
                % {"name": c.person(r.player_id), "round": c.round_text(r.round_id)}
            ),
            lambda r, c: c.game_evening(c.rounds.get(r.round_id, (None, 0))[0]),
        ),
    ]


def _money_specs() -> list[_Spec]:
    """Payments, the ledger's reversal lines and Runden given."""

    def runde_game(r: Record, c: _Context) -> int | None:
        return c.schock_aus.get(r.schock_aus_id, (None, None))[0]

    return [
        _Spec(
            Payment,
            ("amount", "paid_on", "method", "note", "season_id"),
            lambda r, c: _("Payment of %(name)s") % {"name": c.person(r.member_id)},
        ),
        _Spec(
            LedgerEntry,
            ("amount", "marks", "booked_on"),
            # A reversal keeps its reason code in its description (league.ledger.services);
            # the line's `reason` stays the history record's own (the writer's).
            lambda r, c: (
                _("Reversal in the account of %(name)s: %(reason)s")
                % {"name": c.person(r.member_id), "reason": ledger_reason_label(r.description)}
            ),
            lambda r, c: r.evening_id_ref,
        ),
        _Spec(
            RundeGiven,
            ("given_on", "note"),
            lambda r, c: (
                _("Runde of %(name)s for the Schock-Aus in %(game)s")
                % {
                    "name": c.person(c.schock_aus.get(r.schock_aus_id, (None, None))[1]),
                    "game": c.game_text(runde_game(r, c)),
                }
            ),
            lambda r, c: c.game_evening(runde_game(r, c)),
        ),
    ]


# --- turning records into lines --------------------------------------------------------------


def _who(record: Record) -> str:
    user = record.history_user
    if user is None:
        return _("import") if record.history_change_reason == IMPORT_REASON else _("system")
    member: Member | None = getattr(user, "member", None)
    return member.name if member else user.get_username()


def _changes(
    spec: _Spec, record: Record, previous: Record | None, ctx: _Context, labels: dict[str, str]
) -> list[Change]:
    """The shown fields that differ from the previous record (all that are set, for the
    first record); none for a deletion."""
    if record.history_type == DELETED:
        return []
    changes = []
    for name in spec.fields:
        after = _value(record, name)
        if previous is None:
            if after not in (None, ""):
                changes.append(Change(labels[name], "", ctx.show(spec.model, name, after, record)))
            continue
        before = _value(previous, name)
        if before != after:
            changes.append(
                Change(
                    labels[name],
                    ctx.show(spec.model, name, before, previous),
                    ctx.show(spec.model, name, after, record),
                )
            )
    return changes


def _lines_of(spec: _Spec, records: list[Record], ctx: _Context) -> list[AuditLine]:
    """AuditLines of one model's records (all records of each object, any order)."""
    by_object: dict[int, list[Record]] = defaultdict(list)
    for r in records:
        by_object[r.id].append(r)
    labels = _labels()
    lines = []
    for items in by_object.values():
        items.sort(key=lambda r: (r.history_date, r.history_id))
        previous = None
        for r in items:
            changes = _changes(spec, r, previous, ctx, labels)
            previous = r
            if r.history_type == CHANGED and not changes and not r.history_change_reason:
                continue  # a save that changed nothing shown (e.g. the version counter)
            lines.append(
                AuditLine(
                    when=r.history_date,
                    who=_who(r),
                    action=r.history_type,
                    what=spec.describe(r, ctx),
                    changes=changes,
                    reason=r.history_change_reason or "",
                    evening_id=spec.evening_of(r, ctx),
                    sort_id=(r.history_date, spec.model.__name__, r.history_id),
                )
            )
    return lines


def _latest(model: type[models.Model], ids: Iterable[int], *keys: str) -> dict[int, Any]:
    """id -> the values of `keys` in the object's latest record (objects may be deleted);
    one query, none for no ids."""
    ids = set(ids) - {None}
    if not ids:
        return {}
    out = {}
    rows = (
        model.history.filter(id__in=ids)  # type: ignore[attr-defined]
        .order_by("history_date", "history_id")
        .values_list("id", *keys)
    )
    for pk, *values in rows:
        out[pk] = values[0] if len(values) == 1 else tuple(values)
    return out


def _ids(records: Iterable[Record], *names: str) -> set[int]:
    return {getattr(r, n) for r in records for n in names if getattr(r, n, None) is not None}


def _context(records: dict[type[models.Model], list[Record]]) -> _Context:
    """The _Context of these records: at most seven queries."""

    def get(model: type[models.Model]) -> list[Record]:
        return records.get(model, [])

    ctx = _Context()
    ctx.rounds = _latest(Round, _ids(get(RoundThrow), "round_id"), "game_id", "number")
    ctx.schock_aus = _latest(
        SchockAus, _ids(get(RundeGiven), "schock_aus_id"), "game_id", "thrower_id"
    )
    game_ids = (
        _ids(get(Game), "id")
        | _ids(get(SchockAus) + get(Round), "game_id")
        | {g for g, _n in ctx.rounds.values()}
        | {g for g, _t in ctx.schock_aus.values()}
    )
    ctx.games = _latest(Game, game_ids, "number", "evening_id")
    evening_ids = (
        _ids(get(Evening), "id")
        | _ids(get(Attendance), "evening_id")
        | _ids(get(LedgerEntry), "evening_id_ref")
        | _ids(get(Objection), "evening_id")
        | {e for _n, e in ctx.games.values()}
    )
    ctx.evening_dates = _latest(Evening, evening_ids, "date")
    every = [r for rs in records.values() for r in rs]
    member_ids = _ids(every, *PERSON_FIELDS) | {t for _g, t in ctx.schock_aus.values()}
    if member_ids:
        ctx.members = dict(Member.objects.filter(pk__in=member_ids).values_list("pk", "name"))
    if season_ids := _ids(every, "season_id"):
        ctx.seasons = dict(Season.objects.filter(pk__in=season_ids).values_list("pk", "year"))
    if user_ids := _ids(get(Member), "user_id"):
        users = get_user_model().objects.filter(pk__in=user_ids)
        ctx.users = {u.pk: u.get_username() for u in users}
    return ctx


def _collect(records: dict[type[models.Model], list[Record]]) -> list[AuditLine]:
    """The lines of the records of every model, newest first."""
    ctx = _context(records)
    specs = _specs()
    lines = []
    for model, items in records.items():
        lines += _lines_of(specs[model], items, ctx)
    lines.sort(key=lambda line: line.sort_id, reverse=True)
    return lines


# --- the selectors ---------------------------------------------------------------------------


def _records(model: type[models.Model], matching: Q) -> list[Record]:
    """The records matching `matching`, with their author and the author's person (one
    query)."""
    history = model.history  # type: ignore[attr-defined]
    return list(history.filter(matching).select_related("history_user__member"))


def _all_records(model: type[models.Model], matching: Q) -> list[Record]:
    """All records of every object that has a record matching `matching` (one query)."""
    ids = model.history.filter(matching).order_by().values("id")  # type: ignore[attr-defined]
    return _records(model, Q(id__in=Subquery(ids)))


def _ids_of(model: type[models.Model], matching: Q) -> Subquery:
    """The ids of every object with a record matching `matching`, as a subquery (without
    the history's default order, which PostgreSQL would sort for nothing)."""
    history = model.history.filter(matching)  # type: ignore[attr-defined]
    return Subquery(history.order_by().values("id"))


def evening_audit(*, evening_id: int) -> list[AuditLine]:
    """Every recorded change of an evening (also a deleted one), its attendance, games,
    Schock-Aus, rounds and throws, reversal lines, Runden given and objections, newest
    first. Sixteen queries at most."""
    games = _ids_of(Game, Q(evening_id=evening_id))
    schock_aus = _ids_of(SchockAus, Q(game_id__in=games))
    rounds = _ids_of(Round, Q(game_id__in=games))
    return _collect(
        {
            Evening: _records(Evening, Q(id=evening_id)),
            Attendance: _records(Attendance, Q(evening_id=evening_id)),
            Game: _records(Game, Q(evening_id=evening_id)),
            SchockAus: _records(SchockAus, Q(game_id__in=games)),
            Round: _records(Round, Q(game_id__in=games)),
            RoundThrow: _records(RoundThrow, Q(round_id__in=rounds)),
            LedgerEntry: _records(LedgerEntry, Q(evening_id_ref=evening_id, kind=REVERSAL)),
            RundeGiven: _records(RundeGiven, Q(schock_aus_id__in=schock_aus)),
            Objection: _records(Objection, Q(evening_id=evening_id)),
        }
    )


def _member_scopes(member: Member) -> dict[type[models.Model], Q]:
    """Which history records concern a person, per model: the person's own records, every
    record of each object that ever named the person (so a change away from the person
    shows too), reversal lines and Runden given for the person's Schock-Aus."""
    pk = member.pk

    def every_record_of(model: type[models.Model], matching: Q) -> Q:
        return Q(id__in=_ids_of(model, matching))

    return {
        Member: Q(id=pk),
        Attendance: every_record_of(Attendance, Q(member_id=pk)),
        Game: every_record_of(Game, Q(loser_id=pk) | Q(vorleger_id=pk)),
        SchockAus: every_record_of(SchockAus, Q(thrower_id=pk)),
        Round: every_record_of(Round, Q(loser_id=pk) | Q(vorleger_id=pk)),
        RoundThrow: every_record_of(RoundThrow, Q(player_id=pk)),
        Payment: every_record_of(Payment, Q(member_id=pk)),
        LedgerEntry: Q(member_id=pk, kind=REVERSAL),
        RundeGiven: Q(schock_aus_id__in=_ids_of(SchockAus, Q(thrower_id=pk))),
    }


def member_audit(*, member: Member) -> list[AuditLine]:
    """Every recorded change that concerns a person: the person itself (name, kind, login,
    secretary flag), attendance, games lost or opened, Schock-Aus thrown, rounds lost or
    opened, throws, payments, reversal lines and Runden given; newest first. Sixteen
    queries at most. A page of it without reading the rest: `member_audit_page`."""
    return _collect({model: _records(model, q) for model, q in _member_scopes(member).items()})


@dataclass
class AuditPage:
    """One page of a person's history: `lines` (newest first) and `total`, the number of
    records concerning the person (a save that changed nothing shown has a record but no
    line, so a page may hold fewer lines than asked for)."""

    lines: list[AuditLine]
    total: int


def member_audit_page(
    *, member: Member, offset: int = 0, limit: int = 300, count: bool = True
) -> AuditPage:
    """The lines `offset` to `offset + limit` of `member_audit` (records in its order),
    reading only those records and each one's object's other records for the diffs, not the
    person's whole history (a page of 300 lines of 13,000 records).

    Queries: one a model for the newest `offset + limit` record keys, one a model with a
    record on the page for the records, a count for each model with more records than
    that, and at most seven for names: bounded by the models, not by the history. With
    `count=False` (the caller counted already, `member_audit_count`) no count is made and
    `total` is the records read (at most `offset + limit`)."""
    want = offset + limit
    keys: list[tuple[Any, str, int, type[models.Model], int]] = []
    total = 0
    for model, q in _member_scopes(member).items():
        history = model.history.filter(q)  # type: ignore[attr-defined]
        newest = list(
            history.order_by("-history_date", "-history_id").values_list(
                "history_date", "history_id", "id"
            )[:want]
        )
        total += len(newest) if len(newest) < want or not count else history.count()
        keys += [(when, model.__name__, hid, model, obj) for when, hid, obj in newest]
    keys.sort(key=lambda k: (k[0], k[1], k[2]), reverse=True)
    shown = keys[offset:want]
    wanted = {(k[1], k[2]) for k in shown}
    objects: dict[type[models.Model], set[int]] = defaultdict(set)
    for _when, _name, _hid, model, obj in shown:
        objects[model].add(obj)
    records = {model: _records(model, Q(id__in=ids)) for model, ids in objects.items()}
    lines = [line for line in _collect(records) if line.sort_id[1:] in wanted]
    return AuditPage(lines=lines, total=total)


def member_audit_count(*, member: Member) -> int:
    """The number of history records concerning a person (`member_audit_page`'s total):
    one count a model."""
    return sum(
        model.history.filter(q).count()  # type: ignore[attr-defined]
        for model, q in _member_scopes(member).items()
    )


class MemberAuditLines:
    """A person's history as a sequence a paginator slices: `count()` counts the records,
    a slice reads only its page (`member_audit_page`). For the API's pagination."""

    def __init__(self, member: Member) -> None:
        self.member = member
        self._count: int | None = None

    def count(self) -> int:
        if self._count is None:
            self._count = member_audit_count(member=self.member)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[AuditLine]:
        start, stop = index.start or 0, index.stop
        # The paginator has counted: the page makes no count of its own.
        page = member_audit_page(
            member=self.member, offset=start, limit=stop - start, count=self._count is None
        )
        return page.lines


def _club_scopes(club: Club) -> dict[type[models.Model], Q]:
    """Which records of each model the club's list shows: the club's own records, and of
    the club-owned models every record in the active club's scope but the ledger's other
    lines (rounds and throws are left out of the club's list: a game entered round by
    round writes dozens; they show per evening and per person)."""
    return {
        Club: Q(id=club.pk),
        Season: Q(),
        Member: Q(),
        Evening: Q(),
        Attendance: Q(),
        Game: Q(),
        SchockAus: Q(),
        Payment: Q(),
        LedgerEntry: Q(kind=REVERSAL),
        RundeGiven: Q(),
        Objection: Q(),
    }


def club_audit_recent(*, club: Club, limit: int = 50) -> list[AuditLine]:
    """The club's latest changes to the club, its seasons and people, evenings,
    attendance, games, Schock-Aus, payments, reversal lines and Runden given (not the
    records of the club-book import), newest first. Read in the scope of `club` (a page's
    or an API call's own club; the history of the club-owned models is filtered by the
    scope, not here). Two queries a model and seven more."""
    with club_scope(club):
        return _club_audit_recent(club, limit)


def _club_audit_recent(club: Club, limit: int) -> list[AuditLine]:
    """`club_audit_recent` in the active club scope."""
    records = {}
    for model, scope in _club_scopes(club).items():
        latest = list(
            model.history.filter(scope)  # type: ignore[attr-defined]
            .exclude(history_change_reason=IMPORT_REASON)
            .order_by("-history_date", "-history_id")
            .values_list("id", flat=True)[:limit]
        )
        # Diffs need each object's previous record: load the full records of those objects.
        records[model] = _records(model, Q(id__in=set(latest))) if latest else []
    lines = [line for line in _collect(records) if line.reason != IMPORT_REASON]
    return lines[:limit]


# --- what the history shows beyond the books version ----------------------------------------


@dataclass(frozen=True)
class AuditState:
    """What a history read shows that can change without the club's books version
    (league/club/caching.py `club_books_version`), read in one query (`audit_state`).

    Every record of the books' own tables is written with `books_changed` (which moves the
    version) except these: the club's own records (its statutes, `club_statutes_update`,
    and changes in the admin) and the people's records that touch no figure (active,
    secretary flag, payment reminders, a login given, locked or unlocked). Their newest
    `history_id`s (0 when none) join the version in the keys of the kept history reads.

    `evening_known`: the asked-for evening is the club's, now or as a deleted one (None
    when no evening was asked for); `member_known`: the asked-for person is the club's
    (None when none was asked for)."""

    club_record: int
    people_record: int
    evening_known: bool | None = None
    member_known: bool | None = None

    @property
    def key(self) -> tuple[int, int]:
        """The part of a cache key or ETag: the two newest records."""
        return (self.club_record, self.people_record)


def audit_state(
    *, club: Club, evening_id: int | None = None, member_id: int | None = None
) -> AuditState:
    """The club's `AuditState` (and whether `evening_id` / `member_id` is the club's), in one
    query, whatever the size of the history (the history tables' indexes on the object's
    and the club's id). Written as SQL: the ORM's cost of building four subqueries is
    larger than the query's."""
    club_history = Club.history.model._meta.db_table
    people_history = Member.history.model._meta.db_table
    evening_table = Evening._meta.db_table
    evening_history = Evening.history.model._meta.db_table
    member_table = Member._meta.db_table
    parts = [
        f'(SELECT COALESCE(MAX("history_id"), 0) FROM "{club_history}" WHERE "id" = %s)',
        f'(SELECT COALESCE(MAX("history_id"), 0) FROM "{people_history}" WHERE "club_id" = %s)',
    ]
    params: list[int] = [club.pk, club.pk]
    if evening_id is not None:
        parts.append(
            f'(EXISTS (SELECT 1 FROM "{evening_table}" WHERE "id" = %s AND "club_id" = %s)'
            f' OR EXISTS (SELECT 1 FROM "{evening_history}" WHERE "id" = %s AND "club_id" = %s))'
        )
        params += [evening_id, club.pk, evening_id, club.pk]
    if member_id is not None:
        parts.append(f'EXISTS (SELECT 1 FROM "{member_table}" WHERE "id" = %s AND "club_id" = %s)')
        params += [member_id, club.pk]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        row = cursor.fetchone()
    values = iter(row[2:])
    return AuditState(
        club_record=row[0],
        people_record=row[1],
        evening_known=bool(next(values)) if evening_id is not None else None,
        member_known=bool(next(values)) if member_id is not None else None,
    )


def clubs_overview() -> "models.QuerySet[Club]":
    """Every club for the operator (the admin's club list), each annotated with
    `people_count` (members and guests), `season_count`, `game_count` and
    `last_activity` (the latest change of an evening or a game of the club, an aware
    datetime; None for a club without one). One query: each figure is a subquery of its
    own, so the counts do not multiply each other as joins would."""

    def counted(queryset: "models.QuerySet[Any]") -> Subquery:
        return Subquery(
            queryset.order_by().values("club_ref").annotate(n=models.Count("*")).values("n")[:1],
            output_field=models.IntegerField(),
        )

    club = models.OuterRef("pk")
    last_evening = Subquery(
        Evening.objects.filter(club=club).order_by("-updated_at").values("updated_at")[:1]
    )
    last_game = Subquery(
        Game.objects.filter(evening__club=club).order_by("-updated_at").values("updated_at")[:1]
    )
    return Club.objects.annotate(
        people_count=models.functions.Coalesce(
            counted(Member.objects.filter(club=club).annotate(club_ref=models.F("club_id"))), 0
        ),
        season_count=models.functions.Coalesce(
            counted(Season.objects.filter(club=club).annotate(club_ref=models.F("club_id"))), 0
        ),
        game_count=models.functions.Coalesce(
            counted(
                Game.objects.filter(evening__club=club).annotate(
                    club_ref=models.F("evening__club_id")
                )
            ),
            0,
        ),
        last_activity=models.functions.Greatest(
            models.functions.Coalesce(last_game, last_evening),
            models.functions.Coalesce(last_evening, last_game),
        ),
    )
