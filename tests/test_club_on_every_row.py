"""Every club-owned table carries `club_id`, and every unique constraint of it includes the
club (README "Distributing by club (Citus)"); on PostgreSQL so do its primary key and its
foreign keys to other club-owned tables, and a row can never claim another club than its
parent's; its history table's club is never empty there and is part of its key; a login
stays one person of one club by `UNIQUE (user_id, club_id)` and a foreign key to the
logins' clubs (`LoginClub`, a reference table); the migrations fill the column of rows
written before them."""

import datetime
import importlib
import uuid
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, models, transaction
from django.db.migrations.executor import MigrationExecutor

from games.evenings.models import Evening, Game, Objection
from league.apps import CLUB_PARENTS
from league.club.history import ClubHistory
from league.club.models import Club
from tests.league.backup.conftest import full_club, neighbours

__all__ = ["full_club"]  # the fixture, imported for these tests

PROJECT_APPS = ("league", "games")

#: Models that reach a club but are not the club's rows, and why.
NOT_CLUB_OWNED = {
    # A login's answer kept for a day so a retried write books once: keyed by login and
    # key (the club is the login's at the time, empty for a login without a club).
    "league.IdempotencyKey": "per login, not per club",
    # The club of a login (keyed by the login): installation-wide like auth_user, a
    # reference table that league_member refers to by (user_id, club_id).
    "league.LoginClub": "per login, not per club",
}

#: Links of club-owned rows unique by themselves in Django's state, and why (README
#: "Distributing by club (Citus)"). The links between two rows of one club are unique per
#: club instead (`ClubOneToOneField`); what is left is a person's login.
ONE_TO_ONE_LINKS = {
    ("league.Member", "user"): (
        "a login (auth_user, installation-wide, a reference table) is one person of one"
        " club: Django's state keeps the OneToOneField (user.member); on PostgreSQL the"
        " database keeps it by UNIQUE (user_id, club_id) and the foreign key (user_id,"
        " club_id) to the login's one LoginClub row (league migration 0030); SQLite keeps"
        " Django's UNIQUE (user_id)"
    ),
}


def reaches_club(model: type[models.Model], seen: frozenset = frozenset()) -> bool:
    """Whether a chain of foreign keys (or one-to-one links) leads from `model` to Club."""
    if model is Club:
        return True
    for field in model._meta.concrete_fields:
        target = field.related_model if field.many_to_one or field.one_to_one else None
        if target is None or target._meta.app_label not in PROJECT_APPS or target in seen:
            continue
        if reaches_club(target, seen | {model}):
            return True
    return False


def club_gaps(model_list, *, not_owned=NOT_CLUB_OWNED, links=ONE_TO_ONE_LINKS) -> list[str]:
    """What is missing for distribution by club: a club-owned model without a non-null
    `club` foreign key, or with a unique constraint or unique field without the club."""
    gaps = []
    for model in model_list:
        label = model._meta.label
        if model is Club or label in not_owned or not reaches_club(model):
            continue
        history = getattr(model, "instance_type", None) is not None  # django-simple-history
        club = next((f for f in model._meta.concrete_fields if f.name == "club"), None)
        if club is None or club.related_model is not Club:
            gaps.append(f"{label}: no club")
            continue
        if history:
            # A record: simple-history makes its copied `club` nullable in Django's state;
            # the database makes it NOT NULL on PostgreSQL (league migration 0029, whose
            # catalogue tests are below).
            continue
        if club.null:
            gaps.append(f"{label}: club may be empty")
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.UniqueConstraint) and "club" not in (
                constraint.fields or ()
            ):
                gaps.append(f"{label}: unique {constraint.name} without club")
        for fields in model._meta.unique_together:
            if "club" not in fields:
                gaps.append(f"{label}: unique_together {fields} without club")
        for field in model._meta.concrete_fields:
            if field.unique and not field.primary_key and field.name != "club":
                if (label, field.name) not in links:
                    gaps.append(f"{label}: {field.name} unique without club")
    return gaps


def project_models():
    return [m for app in PROJECT_APPS for m in apps.get_app_config(app).get_models()]


def test_every_club_owned_model_has_its_club_in_every_unique_constraint():
    assert club_gaps(project_models()) == []


def test_the_walk_finds_a_table_without_club_in_a_unique_constraint():
    # Without its exemption the idempotency key (unique per login and key, its club
    # optional) is what the walk reports: it would report any other table alike.
    gaps = club_gaps(project_models(), not_owned={})
    assert gaps == [
        "league.IdempotencyKey: club may be empty",
        "league.IdempotencyKey: unique idempotency_key_unique_per_user without club",
    ]
    assert "league.Member: user unique without club" in club_gaps(project_models(), links={})


def test_the_history_tables_carry_the_club_too():
    for label in CLUB_PARENTS:
        history = apps.get_model(label).__dict__.get("history")
        if history is not None:
            assert "club" in {f.name for f in history.model._meta.concrete_fields}, label


def test_the_history_tables_are_in_their_clubs_scope():
    """Each historical model of a club-owned model is a ClubHistory, whose default manager
    is scoped by its own `club_id` (tests/league/audit/test_history_scoped.py queries it)."""
    checked = 0
    for model in project_models():
        tracked = getattr(model, "instance_type", None)  # django-simple-history
        if tracked is None or tracked is Club:
            continue
        assert issubclass(model, ClubHistory), model._meta.label
        assert model._default_manager.__class__.__module__ == "django_scopes.manager"
        checked += 1
    assert checked == 17
    assert not issubclass(Club.history.model, ClubHistory)


@pytest.mark.django_db
def test_a_row_saved_alone_without_its_club_takes_its_parents():
    club = neighbours()
    game = Game.objects.get(club=club, number=1)
    objection = Objection.objects.create(
        evening=game.evening, game=game, game_number=1, raised_by=game.loser, text="Falsch"
    )
    assert objection.club_id == club.pk


@pytest.mark.django_db
def test_every_club_owned_table_of_play_and_books_has_rows_with_the_club_of_their_parent(
    full_club,
):
    for label, parent in CLUB_PARENTS.items():
        model = apps.get_model(label)
        for row in model.objects.select_related(parent):
            assert row.club_id == getattr(row, parent).club_id, (label, row.pk)


def _one_of_each(club: Club) -> dict[str, models.Model]:
    """One row of each club-owned table with a parent, of `club` (the full club lacks a
    sign-off, a report build and a push subscription: written here)."""
    from league.banking.models import PushSubscription
    from league.closing.models import SeasonSignOff
    from league.reports.models import ReportBuild

    season = club.seasons.first()
    anna = club.members.get(name="Anna Becker")
    ReportBuild.objects.create(season=season)
    SeasonSignOff.objects.create(
        season=season,
        auditor=anna,
        signed_at=datetime.datetime.now(datetime.UTC),
        fingerprint="0" * 64,
        data_version=0,
    )
    PushSubscription.objects.create(
        member=anna, endpoint="https://fcm.googleapis.com/fcm/send/x", p256dh="k", auth="a"
    )
    rows = {}
    for label in CLUB_PARENTS:
        rows[label] = apps.get_model(label).objects.filter(club=club).first()
    return rows


@pytest.mark.skipif(connection.vendor != "postgresql", reason="composite keys: PostgreSQL")
@pytest.mark.django_db
def test_postgresql_refuses_a_row_claiming_another_club_than_its_parents(full_club):
    club = Club.objects.get(name=full_club)
    other = neighbours()
    rows = _one_of_each(club)
    assert all(rows.values()), [label for label, row in rows.items() if row is None]
    for label, row in rows.items():
        model = type(row)
        with pytest.raises(IntegrityError, match="_club_fk"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            model.objects.filter(pk=row.pk).update(club=other)
        assert model.objects.get(pk=row.pk).club_id == club.pk, label


# --- the one-to-one links between rows of one club: unique per club ----------------------------


def _linked_rows(club: Club) -> dict[str, tuple[models.Model, str, dict[str, object]]]:
    """For each link unique per club (by its constraint's name): a row of `club` with the
    link set, the link's name, and what a second row with the same link must differ in
    otherwise (the full club has each of them)."""
    from league.banking.models import BankStatementLine
    from league.ledger.models import LedgerEntry
    from league.runden.models import RundeGiven

    entries = LedgerEntry.objects.filter(club=club)
    return {
        "ledger_entry_unique_reverses": (
            entries.filter(reverses__isnull=False).first(),
            "reverses",
            {"payment": None},
        ),
        "ledger_entry_unique_payment": (
            entries.filter(payment__isnull=False, reversed_by__isnull=True).first(),
            "payment",
            {"reverses": None},
        ),
        "bank_line_unique_payment": (
            BankStatementLine.objects.filter(club=club).first(),
            "payment",
            {"part": 1},
        ),
        "runde_given_unique_schock_aus": (
            RundeGiven.objects.filter(club=club).first(),
            "schock_aus",
            {},
        ),
    }


@pytest.mark.django_db
def test_the_database_refuses_a_second_row_with_the_same_link_in_the_same_club(full_club):
    club = Club.objects.get(name=full_club)
    rows = _linked_rows(club)
    assert all(row for row, _link, _differs in rows.values()), rows
    for constraint, (row, link, differs) in rows.items():
        model = type(row)
        # The link is one-to-one to Python: the linked row's accessor is the row itself.
        accessor = model._meta.get_field(link).remote_field.get_accessor_name()
        assert getattr(getattr(row, link), accessor) == row, constraint
        before = model.objects.count()
        second = model.objects.get(pk=row.pk)
        second.pk = None
        for name, value in differs.items():
            setattr(second, name, value)
        # PostgreSQL names the constraint, SQLite its columns.
        refused = rf"{constraint}|club_id, \w+\.{link}_id"
        with pytest.raises(IntegrityError, match=refused), transaction.atomic():
            second.save()
        assert model.objects.count() == before, constraint


@pytest.mark.skipif(connection.vendor != "postgresql", reason="composite keys: PostgreSQL")
@pytest.mark.django_db
def test_postgresql_refuses_a_link_to_a_row_of_another_club(full_club):
    club = Club.objects.get(name=full_club)
    other = neighbours()
    keys = {
        "ledger_entry_unique_reverses": "league_ledgerentry_reverses_club_fk",
        "ledger_entry_unique_payment": "league_ledgerentry_payment_club_fk",
        "bank_line_unique_payment": "league_bankstatementline_payment_club_fk",
        "runde_given_unique_schock_aus": "games_rundegiven_schock_aus_club_fk",
    }
    for constraint, (row, _link, _differs) in _linked_rows(club).items():
        model = type(row)
        with pytest.raises(IntegrityError, match=keys[constraint]), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            model.objects.filter(pk=row.pk).update(club=other)
        assert model.objects.get(pk=row.pk).club_id == club.pk, constraint


# --- the migrations fill the column ---------------------------------------------------------

BEFORE = [
    ("games", "0012_provisional_evenings_objections_and_planned_evenings"),
    ("league", "0025_wall_screens"),
]


@pytest.mark.django_db(transaction=True)
def test_the_migrations_give_rows_written_before_them_the_club_of_their_parent():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        club = old.get_model("league", "Club").objects.create(name="Altclub")
        member = old.get_model("league", "Member").objects.create(club=club, name="Anna")
        season = old.get_model("league", "Season").objects.create(
            club=club,
            year=2020,
            starts_on=datetime.date(2020, 1, 1),
            ends_on=datetime.date(2020, 12, 31),
            mark_value=Decimal("1.00"),
            currency="DM",
        )
        evening = old.get_model("games", "Evening").objects.create(
            club=club, season=season, date=datetime.date(2020, 3, 6), secretary=member
        )
        old.get_model("games", "Attendance").objects.create(
            evening=evening, member=member, role="member"
        )
        game = old.get_model("games", "Game").objects.create(
            evening=evening, number=1, loser=member
        )
        schock_aus = old.get_model("games", "SchockAus").objects.create(
            game=game, thrower=member, position=1
        )
        old.get_model("league", "RundeGiven").objects.create(
            schock_aus=schock_aus, given_on=datetime.date(2020, 3, 6)
        )
        old.get_model("league", "PaymentReminder").objects.create(
            member=member, month=datetime.date(2020, 3, 1), amount=Decimal("1.00")
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    for label in (
        "games.Attendance",
        "games.Game",
        "games.SchockAus",
        "league.RundeGiven",
        "league.PaymentReminder",
    ):
        rows = list(apps.get_model(label).objects.values_list("club_id", flat=True))
        assert rows == [club.pk], label


#: Before and after league migration 0029 (the history tables keyed with the club).
HISTORY_UNKEYED = [("league", "0028_primary_keys_with_club")]
HISTORY_KEYED = [("league", "0029_history_primary_keys_with_club")]


def _history_sql(sql: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="composite keys: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_the_history_migration_fills_the_club_it_finds_and_stops_on_a_record_without_one():
    club = neighbours()
    game = Game.objects.filter(club=club).first()
    records = Game.history.model.objects.filter(id=game.pk)
    evening_record = Evening.history.model.objects.filter(club=club).first()
    executor = MigrationExecutor(connection)
    executor.migrate(HISTORY_UNKEYED)
    try:
        # A record of a live game without its club (found again), and a record of an
        # evening that no longer exists, of which no other record has a club either.
        _history_sql("UPDATE games_historicalgame SET club_id = NULL WHERE id = %s", [game.pk])
        _history_sql(
            "UPDATE games_historicalevening SET club_id = NULL, id = -1 WHERE history_id = %s",
            [evening_record.history_id],
        )
        stop = _history_migration().HistoryWithoutClub
        with pytest.raises(stop, match=r"\(games_historicalevening: 1\)"):
            MigrationExecutor(connection).migrate(HISTORY_KEYED)
        # Nothing changed: the migration is one transaction.
        assert set(records.values_list("club_id", flat=True)) == {None}
        assert primary_keys_without_club({"games_historicalgame"}) == ["games_historicalgame"]
        _history_sql("DELETE FROM games_historicalevening WHERE id = -1", [])
        MigrationExecutor(connection).migrate(HISTORY_KEYED)
        assert set(records.values_list("club_id", flat=True)) == {club.pk}
        assert primary_keys_without_club({"games_historicalgame"}) == []
    finally:
        _history_sql("DELETE FROM games_historicalevening WHERE club_id IS NULL", [])
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


# --- what relied on the old uniqueness -------------------------------------------------------


@pytest.mark.django_db
def test_a_client_key_is_spent_within_its_club_and_refused_there_a_second_time():
    from games.evenings.services import game_record
    from league.club.errors import BooksError

    club = neighbours()
    evening = Game.objects.get(club=club, number=1).evening
    people = list(club.members.order_by("name"))
    key = uuid.uuid4()
    game = game_record(evening=evening, loser=people[0], client_key=key)
    assert (game.club_id, game.client_key) == (club.pk, key)
    with pytest.raises(BooksError) as refused:
        game_record(evening=evening, loser=people[1], client_key=key)
    assert refused.value.code == "duplicate_client_key"
    assert Game.objects.filter(client_key=key).count() == 1


@pytest.mark.django_db
def test_a_browser_subscribing_for_a_person_of_another_club_leaves_the_first_club():
    from league.banking.models import PushSubscription
    from league.banking.services import push_subscription_save
    from tests.factories import MemberFactory

    endpoint = "https://fcm.googleapis.com/fcm/send/shared-phone"
    first = MemberFactory(club__name="Erster Club", name="Anna")
    second = MemberFactory(club__name="Zweiter Club", name="Berta")
    push_subscription_save(member=first, endpoint=endpoint, p256dh="k", auth="a")
    push_subscription_save(member=first, endpoint=endpoint, p256dh="k2", auth="a2")
    assert PushSubscription.objects.get(endpoint=endpoint).p256dh == "k2"
    push_subscription_save(member=second, endpoint=endpoint, p256dh="k3", auth="a3")
    rows = list(PushSubscription.objects.filter(endpoint=endpoint))
    assert [(r.club_id, r.member_id, r.p256dh) for r in rows] == [(second.club_id, second.pk, "k3")]


def club_owned_tables() -> set[str]:
    """The tables of the club's rows, keyed `(id, club_id)` (league migration 0028): every
    club-owned model's but the history records' (`club_history_tables()`)."""
    return {
        model._meta.db_table
        for model in project_models()
        if model is not Club
        and model._meta.label not in NOT_CLUB_OWNED
        and getattr(model, "instance_type", None) is None
        and reaches_club(model)
    }


def club_history_tables() -> set[str]:
    """The history tables of the club-owned models: every historical model's with the
    ClubHistory base (league/club/history.py), keyed `(history_id, club_id)` on
    PostgreSQL (league migration 0029)."""
    return {m._meta.db_table for m in project_models() if issubclass(m, ClubHistory)}


def _schema(sql: str, tables: set[str]) -> list[tuple]:
    """The rows of `sql` (PostgreSQL's catalogue), `%(tables)s` the names of `tables`."""
    with connection.cursor() as cursor:
        cursor.execute(sql, {"tables": sorted(tables)})
        return cursor.fetchall()


#: SQL: whether the constraint or index row `{row}`'s columns `{columns}` of the table
#: `{table}` include club_id.
_HAS_CLUB = (
    "EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = {table}"
    " AND a.attname = 'club_id' AND a.attnum = ANY({columns}))"
)


def primary_keys_without_club(tables: set[str]) -> list[str]:
    """The tables of `tables` whose primary key lacks club_id (PostgreSQL)."""
    has_club = _HAS_CLUB.format(table="c.conrelid", columns="c.conkey")
    rows = _schema(
        "SELECT c.conrelid::regclass::text FROM pg_constraint c WHERE c.contype = 'p'"
        f" AND c.conrelid::regclass::text = ANY(%(tables)s) AND NOT {has_club}",
        tables,
    )
    return sorted(table for (table,) in rows)


def unique_indexes_without_club(tables: set[str]) -> list[str]:
    """The unique indexes (of primary keys, of unique constraints, and plain ones) on
    `tables` that lack club_id, as "table: index" (PostgreSQL)."""
    has_club = _HAS_CLUB.format(table="i.indrelid", columns="i.indkey")
    rows = _schema(
        "SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text FROM pg_index i"
        f" WHERE i.indisunique AND i.indrelid::regclass::text = ANY(%(tables)s)"
        f" AND NOT {has_club}",
        tables,
    )
    return sorted(f"{table}: {index}" for table, index in rows)


def foreign_keys_without_club(tables: set[str]) -> list[str]:
    """The foreign keys between two tables of `tables` whose columns lack club_id on
    either side, as "table: definition" (PostgreSQL)."""
    own = _HAS_CLUB.format(table="c.conrelid", columns="c.conkey")
    theirs = _HAS_CLUB.format(table="c.confrelid", columns="c.confkey")
    rows = _schema(
        "SELECT c.conrelid::regclass::text, pg_get_constraintdef(c.oid) FROM pg_constraint c"
        " WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY(%(tables)s)"
        " AND c.confrelid::regclass::text = ANY(%(tables)s)"
        f" AND NOT ({own} AND {theirs})",
        tables,
    )
    return sorted(f"{table}: {definition}" for table, definition in rows)


def nullable_club_columns(tables: set[str]) -> list[str]:
    """The tables of `tables` whose club_id may be NULL (PostgreSQL)."""
    rows = _schema(
        "SELECT a.attrelid::regclass::text FROM pg_attribute a WHERE a.attname = 'club_id'"
        " AND NOT a.attnotnull AND a.attrelid::regclass::text = ANY(%(tables)s)",
        tables,
    )
    return sorted(table for (table,) in rows)


def tables_keyed_by_more_than_one_column(tables: set[str]) -> set[str]:
    """The tables of `tables` whose primary key has more than one column (PostgreSQL)."""
    rows = _schema(
        "SELECT c.conrelid::regclass::text FROM pg_constraint c WHERE c.contype = 'p'"
        " AND cardinality(c.conkey) > 1 AND c.conrelid::regclass::text = ANY(%(tables)s)",
        tables,
    )
    return {table for (table,) in rows}


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the schema Citus reads: PostgreSQL"
)


@postgresql_only
@pytest.mark.django_db
def test_every_primary_key_of_a_club_owned_table_includes_the_club():
    tables = club_owned_tables()
    assert "league_member" in tables and "games_game" in tables
    assert primary_keys_without_club(tables) == []


@postgresql_only
@pytest.mark.django_db
def test_every_unique_index_of_a_club_owned_table_includes_the_club():
    # A person's login too: UNIQUE (user_id, club_id), the login's one club in LoginClub.
    assert unique_indexes_without_club(club_owned_tables()) == []


@postgresql_only
@pytest.mark.django_db
def test_every_foreign_key_between_club_owned_tables_includes_the_club():
    assert foreign_keys_without_club(club_owned_tables()) == []


def _history_migration():
    return importlib.import_module("league.migrations.0029_history_primary_keys_with_club")


def test_the_history_migration_keys_every_history_table_of_a_club_owned_model():
    # Its list, against the models: a history table left out would keep `(history_id)`.
    listed = dict(_history_migration().HISTORY_TABLES)
    assert set(listed) == club_history_tables()
    assert len(listed) == 17
    for model in project_models():
        if issubclass(model, ClubHistory):
            assert listed[model._meta.db_table] == model.instance_type._meta.db_table


@postgresql_only
@pytest.mark.django_db
def test_every_history_table_of_a_club_owned_table_is_keyed_with_its_club():
    tables = club_history_tables()
    assert "games_historicalgame" in tables and "league_historicalmember" in tables
    assert primary_keys_without_club(tables) == []
    assert nullable_club_columns(tables) == []


@postgresql_only
@pytest.mark.django_db
def test_the_schema_walks_find_what_distribution_by_club_forbids():
    # Each walk reports a table that breaks its rule: the club's own (its key is (id)),
    # an idempotency key's unique (user, key), and a foreign key to the club's table,
    # which is not a club-owned table and so has no club_id to match.
    assert primary_keys_without_club({"league_club"}) == ["league_club"]
    assert primary_keys_without_club({"league_historicalclub"}) == ["league_historicalclub"]
    assert nullable_club_columns({"league_idempotencykey", "league_member"}) == [
        "league_idempotencykey"
    ]
    assert unique_indexes_without_club({"league_idempotencykey"}) == [
        "league_idempotencykey: idempotency_key_unique_per_user",
        "league_idempotencykey: league_idempotencykey_pkey",
    ]
    assert foreign_keys_without_club({"league_member", "league_club"}) == [
        "league_member: FOREIGN KEY (club_id) REFERENCES league_club(id)"
        " DEFERRABLE INITIALLY DEFERRED"
    ]


def test_the_backend_groups_by_every_column_exactly_for_the_tables_keyed_with_the_club():
    # schockclub/postgresql: Django may group by `id` alone only where it is the key.
    from schockclub.postgresql.base import keyed_with_club

    keyed = {m._meta.db_table for m in project_models() if keyed_with_club(m)}
    assert keyed == club_owned_tables() | club_history_tables()
    assert not keyed_with_club(Club)
    assert not keyed_with_club(Club.history.model)
    assert not keyed_with_club(apps.get_model("league", "IdempotencyKey"))
    assert not keyed_with_club(apps.get_model("league", "LoginClub"))
    assert keyed_with_club(Game.history.model)


@postgresql_only
@pytest.mark.django_db
def test_the_backend_groups_by_every_column_where_the_database_has_a_composite_key():
    # What the backend assumes against what PostgreSQL has: a table the backend takes for
    # keyed by `id` or `history_id` alone must be, or its aggregates are refused.
    from schockclub.postgresql.base import keyed_with_club

    tables = {m._meta.db_table: m for m in project_models()}
    composite = tables_keyed_by_more_than_one_column(set(tables))
    assert {t for t, m in tables.items() if keyed_with_club(m)} == composite
    assert "games_historicalgame" in composite


@postgresql_only
@pytest.mark.django_db
def test_an_aggregate_over_rows_of_the_club_is_answered_by_postgresql(full_club):
    from django.db.models import Count

    from games.evenings.models import Evening

    counts = Evening.objects.filter(club__name=full_club).annotate(n=Count("games"))
    assert connection.settings_dict["ENGINE"] == "schockclub.postgresql"
    assert sum(e.n for e in counts) == Game.objects.filter(club__name=full_club).count() > 0


@postgresql_only
@pytest.mark.django_db
def test_an_aggregate_over_history_records_of_the_club_is_answered_by_postgresql(full_club):
    # Each of the club's game records with an aggregate (its loser counted, one each):
    # grouped by the record's `history_id` alone, PostgreSQL would refuse it now that the
    # key is `(history_id, club_id)`.
    from django.db.models import Count

    from league.club.scoping import club_scope

    club = Club.objects.get(name=full_club)
    assert primary_keys_without_club({Game.history.model._meta.db_table}) == []
    with club_scope(club):
        records = list(Game.history.annotate(losers=Count("loser")))
        assert records and all(r.losers == 1 for r in records)
        assert len(records) == Game.history.count()


# --- a login is one person of one club ----------------------------------------------------


def _constraints_now() -> None:
    """Check the deferred constraints from here on, as the commit would (PostgreSQL; on
    SQLite the login's UNIQUE (user_id) is checked at once anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _login_of_ute():
    """Ute of the neighbours' club, given a login through the service."""
    from django.contrib.auth import get_user_model

    from league.club.models import Member
    from league.club.services import member_login_set

    login = get_user_model().objects.create_user("ute", password="x-123-geheim")
    ute = Member.objects.get(club=neighbours(), name="Ute")
    member_login_set(person=ute, user=login)
    return login, ute


@pytest.mark.django_db
def test_the_database_refuses_a_login_for_a_second_person_in_any_club():
    # Written around the service, as a careless writer would: an UPDATE of the column.
    from league.club.models import Member

    login, ute = _login_of_ute()
    refusals = {  # PostgreSQL names its constraint, SQLite the column
        ute.club: r"league_member_user_id_club_id_key|league_member\.user_id",
        Club.objects.create(name="Zweitclub"): r"league_member_user_club_fk|league_member\.user_id",
    }
    for club, refused in refusals.items():
        second = Member.objects.create(club=club, name="Ute zwei")
        with pytest.raises(IntegrityError, match=refused), transaction.atomic():
            _constraints_now()
            Member.objects.filter(pk=second.pk).update(user=login)
    assert list(Member.objects.filter(user=login)) == [ute]


@pytest.mark.django_db
def test_a_login_taken_from_a_person_is_given_to_a_person_of_another_club_by_the_service():
    from league.club.models import LoginClub, Member
    from league.club.services import member_login_set

    login, ute = _login_of_ute()
    assert LoginClub.objects.get(user=login).club_id == ute.club_id
    other = Member.objects.create(club=Club.objects.create(name="Zweitclub"), name="Ute")
    with transaction.atomic():
        member_login_set(person=ute, user=None)
        member_login_set(person=other, user=login)
        _constraints_now()
    assert LoginClub.objects.get(user=login).club_id == other.club_id
    assert Member.objects.get(user=login) == other
    assert Member.objects.get(pk=ute.pk).user_id is None


@postgresql_only
@pytest.mark.django_db
def test_postgresql_refuses_the_login_of_a_person_for_a_person_of_another_club():
    # Through the service too: the login's club moves, the first person's does not.
    from league.club.models import LoginClub, Member
    from league.club.services import member_login_set

    login, ute = _login_of_ute()
    other = Member.objects.create(club=Club.objects.create(name="Zweitclub"), name="Ute")
    with pytest.raises(IntegrityError, match="league_member_user_club_fk"), transaction.atomic():
        member_login_set(person=other, user=login)
        _constraints_now()
    assert LoginClub.objects.get(user=login).club_id == ute.club_id


@postgresql_only
@pytest.mark.django_db
def test_postgresql_keeps_a_persons_login_by_the_club_of_the_login():
    rows = _schema(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = 'league_member'::regclass AND contype IN ('u', 'f')"
        " AND pg_get_constraintdef(oid) LIKE '%%user_id%%' ORDER BY conname",
        set(),
    )
    assert rows == [
        (
            "league_member_user_club_fk",
            "FOREIGN KEY (user_id, club_id) REFERENCES league_loginclub(user_id, club_id)"
            " DEFERRABLE INITIALLY DEFERRED",
        ),
        ("league_member_user_id_club_id_key", "UNIQUE (user_id, club_id)"),
    ]
