"""The audit trail's history rows are club-owned rows in their club's scope
(league/club/history.py): a query of them outside a club scope raises ScopeError, inside
one it answers that club's records only, and a save in a scope still writes its record
with its club. The Club's own history is not a club's row and stays unscoped."""

from __future__ import annotations

import datetime

import pytest
from django.apps import apps
from django.db import connection, models
from django.db.migrations.executor import MigrationExecutor
from django_scopes import ScopeError

from games.evenings.models import Attendance, Evening, Game
from league.audit.selectors import club_audit_recent
from league.club.history import ClubHistory
from league.club.models import Club, Member, Season
from league.club.scoping import across_clubs, club_scope
from league.club.services import member_update
from tests.league.backup.conftest import full_club, neighbours

__all__ = ["full_club"]  # the fixture, imported for these tests

pytestmark = pytest.mark.django_db


def club_owned_history_models() -> list[type[models.Model]]:
    """The historical models of the project's club-owned models: every historical model
    but the Club's own."""
    found = []
    for model in apps.get_models():
        base = getattr(model, "instance_type", None)  # django-simple-history's model
        if base is not None and base is not Club and model._meta.app_label in ("league", "games"):
            found.append(model)
    return found


def test_every_historical_model_but_the_clubs_is_a_club_history():
    history_models = club_owned_history_models()
    assert len(history_models) == 17
    for model in history_models:
        assert issubclass(model, ClubHistory), model._meta.label
    assert not issubclass(Club.history.model, ClubHistory)


@pytest.mark.scopes_enforced
@pytest.mark.parametrize(
    "model", club_owned_history_models(), ids=lambda m: m.instance_type.__name__
)
def test_a_query_of_history_rows_outside_a_scope_raises(model):
    tracked = model.instance_type
    with pytest.raises(ScopeError):
        list(model.objects.all()[:1])
    with pytest.raises(ScopeError):
        model.objects.filter(history_type="+").exists()
    with pytest.raises(ScopeError):
        tracked.history.count()
    with pytest.raises(ScopeError):
        tracked.history.filter(id=1).exists()
    with pytest.raises(ScopeError):
        list(tracked.history.as_of(datetime.datetime.now(datetime.UTC)))
    with pytest.raises(ScopeError):
        list(tracked.history.latest_of_each())


@pytest.mark.scopes_enforced
def test_an_objects_history_outside_a_scope_raises(full_club):
    with across_clubs():
        game = Game.objects.filter(club__name=full_club).first()
    with pytest.raises(ScopeError):
        list(game.history.all())
    with pytest.raises(ScopeError):
        game.history.as_of(datetime.datetime.now(datetime.UTC))


@pytest.mark.scopes_enforced
def test_inside_a_clubs_scope_no_record_of_another_club(full_club):
    with across_clubs():
        other = neighbours()
        ours = Club.objects.get(name=full_club)
        # Both clubs have records in the tables of play: what the scope leaves out is there.
        for model in (Member, Season, Evening, Attendance, Game):
            clubs = set(model.history.values_list("club_id", flat=True))
            assert {ours.pk, other.pk} <= clubs, model
    for club in (ours, other):
        with club_scope(club):
            for model in club_owned_history_models():
                clubs = set(model.objects.values_list("club_id", flat=True))
                assert clubs <= {club.pk}, model._meta.label
                assert set(model.instance_type.history.values_list("club_id", flat=True)) == clubs
            now = datetime.datetime.now(datetime.UTC)
            assert {m.club_id for m in Member.history.as_of(now)} == {club.pk}
    with club_scope(ours):
        with across_clubs():
            their_game = Game.objects.filter(club=other).first()
        # Another club's game by its own history: no record, no state at any time.
        assert not their_game.history.exists()
        with pytest.raises(Game.DoesNotExist):
            their_game.history.as_of(datetime.datetime.now(datetime.UTC))


@pytest.mark.scopes_enforced
def test_a_save_in_a_scope_writes_its_record_with_its_club(full_club):
    with across_clubs():
        club = Club.objects.get(name=full_club)
        other = neighbours()
    with club_scope(club):
        person = Member.objects.filter(kind=Member.Kind.MEMBER, is_secretary=False).first()
        before = person.history.count()
        person = member_update(member=person, active=not person.active)
        records = list(person.history.all())
        assert len(records) == before + 1
        newest = records[0]
        assert (newest.history_type, newest.club_id, newest.active) == ("~", club.pk, person.active)
        # simple-history's own reads through the scoped manager: the previous record.
        assert newest.prev_record is not None and newest.prev_record.active != person.active
        assert person.history.as_of(datetime.datetime.now(datetime.UTC)).active == person.active
    # The record is one of its club's rows: another club's scope does not see it.
    with club_scope(other):
        assert not Member.history.filter(history_id=newest.history_id).exists()


def test_the_migrations_read_history_rows_unscoped():
    """A data migration's historical model (its state, without the app's managers) reads
    every club's records: migrate from zero runs no query in a scope."""
    state = MigrationExecutor(connection).loader.project_state()
    for model in club_owned_history_models():
        migrated = state.apps.get_model(model._meta.label)
        assert type(migrated._default_manager) is models.Manager, model._meta.label


def test_the_clubs_audit_list_shows_its_own_records_only(full_club):
    """club_audit_recent reads in its club's scope (no club filter of its own): called
    from code that sees every club, it still lists one club's records."""
    other = neighbours()
    ours = Club.objects.get(name=full_club)
    evenings = {
        club.pk: set(Evening.history.filter(club=club).values_list("id", flat=True))
        for club in (ours, other)
    }
    for club, elsewhere in ((ours, other), (other, ours)):
        shown = {line.evening_id for line in club_audit_recent(club=club, limit=500)}
        assert shown & evenings[club.pk]
        assert not shown & evenings[elsewhere.pk], club.name
