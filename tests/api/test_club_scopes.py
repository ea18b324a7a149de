"""Every query of a club-owned model runs in a club's scope (league/club/scoping.py).

Outside a scope such a query raises ScopeError; inside one it returns that club's rows
only, also when the code forgets its club filter. A page request, an API request, a Celery
task and a management command each run in the right club's scope; the operator's admin
sees every club.
"""

from __future__ import annotations

import datetime
from collections import deque
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.db import models
from django.test import Client, RequestFactory
from django_scopes import ScopeError

from games.evenings.models import Evening, Game
from league.club.api_common import ClubScopedMixin
from league.club.middleware import ClubScopeMiddleware
from league.club.models import Club, Member, Season
from league.club.scoping import (
    across_clubs,
    club_scope,
    no_club_scope,
    scoped_club_id,
)
from league.reports.models import ReportBuild
from league.reports.tasks import build_season_report
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Models with a path to a Club that are not scoped, and why.
NOT_SCOPED = {
    # A write sent again with its key: found by the login (user, key), whatever its club.
    "league.IdempotencyKey",
    # The club of a login, installation-wide like the login (a reference table under
    # Citus): written with a person's login and read by the login, whatever its club.
    "league.LoginClub",
}


def _path_to_club(model: type[models.Model], depth: int = 0) -> bool:
    """Whether `model` reaches Club through its forward foreign keys (at most 5 steps)."""
    if depth > 5:
        return False
    for field in model._meta.get_fields():
        if not (field.many_to_one or field.one_to_one) or not field.concrete:
            continue
        target = field.related_model
        if target is Club:
            return True
        if target is not None and target is not model and _path_to_club(target, depth + 1):
            return True
    return False


def _club_owned_models() -> list[type[models.Model]]:
    owned = []
    for model in apps.get_models():
        label = f"{model._meta.app_label}.{model.__name__}"
        # django-simple-history's rows of the audit trail are club-owned rows too: their
        # `objects` is scoped as their model's (league/club/history.py).
        if label in NOT_SCOPED:
            continue
        if _path_to_club(model):
            owned.append(model)
    return owned


def test_the_club_owned_models_are_found():
    names = {m.__name__ for m in _club_owned_models()}
    assert {"Season", "Member", "Evening", "Game", "RoundThrow", "WallScreen"} <= names
    assert {"HistoricalMember", "HistoricalGame", "HistoricalRoundThrow"} <= names
    assert "Club" not in names and "HistoricalClub" not in names


@pytest.mark.scopes_enforced
@pytest.mark.parametrize("model", _club_owned_models(), ids=lambda m: m.__name__)
def test_a_query_of_a_club_owned_model_outside_a_scope_raises(model):
    with pytest.raises(ScopeError):
        list(model.objects.all()[:1])
    with pytest.raises(ScopeError):
        model.objects.filter(pk=1).exists()
    with pytest.raises(ScopeError):
        model.objects.count()


@pytest.mark.scopes_enforced
def test_a_query_without_any_scope_raises_too():
    """No scope at all (a thread, a task or command that opened none): it raises."""
    from django_scopes.state import state

    token = state.set(None)
    try:
        with pytest.raises(ScopeError):
            Member.objects.count()
    finally:
        state.reset(token)


@pytest.mark.scopes_enforced
def test_inside_a_scope_only_that_clubs_rows_even_unfiltered(cast):
    with club_scope(cast.club):
        members = set(Member.objects.all())  # deliberately no club filter
        evenings = set(Evening.objects.all())
        games = set(Game.objects.all())
        assert scoped_club_id() == cast.club.pk
    assert cast.secretary in members and cast.other_secretary not in members
    assert evenings == {cast.evening}
    assert cast.other_game not in games and set(cast.games) <= games
    with club_scope(cast.other_club.pk):
        assert set(Evening.objects.all()) == {cast.other_evening}
        # Another club's row by its id: not there.
        assert not Member.objects.filter(pk=cast.secretary.pk).exists()
    with across_clubs():
        assert Evening.objects.count() == 2


@pytest.mark.scopes_enforced
def test_no_club_scope_raises_inside_a_club_scope_block():
    with club_scope(1), no_club_scope():
        with pytest.raises(ScopeError):
            Season.objects.count()
        assert scoped_club_id() is None


def _unfiltered_members(seen: deque):
    """A stand-in that records the scope and a query that forgot its club filter."""

    def record(*args, **kwargs):
        seen.append((scoped_club_id(), set(Member.objects.values_list("club_id", flat=True))))

    return record


def test_a_page_request_runs_in_the_members_club_scope(cast):
    from league.standings import home

    seen: deque = deque()
    original = home.club_season

    def club_season(club):
        _unfiltered_members(seen)()
        return original(club)

    client = Client()
    client.force_login(cast.users["member"])
    with mock.patch.object(home, "club_season", club_season):
        response = client.get("/")
    assert response.status_code == 200
    assert seen == deque([(cast.club.pk, {cast.club.pk})])


def test_an_anonymous_request_has_no_club_and_a_club_query_raises(cast):
    def view(request):
        assert scoped_club_id() is None
        with pytest.raises(ScopeError):
            Member.objects.count()
        return "answered"

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    assert ClubScopeMiddleware(view)(request) == "answered"


def test_a_login_without_a_club_sees_no_clubs_rows(cast):
    def view(request):
        assert scoped_club_id() is None
        return list(Member.objects.all()), Evening.objects.count()

    request = RequestFactory().get("/")
    request.user = cast.users["nobody"]
    assert ClubScopeMiddleware(view)(request) == ([], 0)


def test_the_middleware_keeps_the_person_for_the_page_no_second_query(
    cast, django_assert_num_queries
):
    from league.club.access import member_for_user

    request = RequestFactory().get("/")
    request.user = UserFactory.build(pk=cast.users["member"].pk)

    def view(request):
        with django_assert_num_queries(0):
            assert member_for_user(request.user) == cast.member
        return None

    ClubScopeMiddleware(view)(request)


def test_an_api_request_by_token_runs_in_its_clubs_scope_even_unfiltered(cast, api):
    """The members list with its club filter taken away (a view that forgot it): still
    only the caller's club, for each club's caller."""
    with mock.patch.object(ClubScopedMixin, "scope", lambda self, queryset: queryset):
        mine = api("member").get("/api/v1/members/?page_size=500")
        theirs = api("outsider").get("/api/v1/members/?page_size=500")
        nobody = api("nobody").get("/api/v1/members/")
    assert mine.status_code == 200, mine.content
    names = {row["name"] for row in mine.json()["results"]}
    assert "Anna Becker" in names and "Otto Fremd" not in names and "Olga Fremd" not in names
    other = {row["name"] for row in theirs.json()["results"]}
    assert other == {"Otto Fremd", "Olga Fremd"}
    # A login without a club: the scope of no club, no rows.
    assert nobody.status_code == 200 and nobody.json()["results"] == []


def test_the_admin_sees_every_club_for_staff(cast):
    staff = UserFactory(username="operator", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/league/member/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Anna Becker" in body and "Otto Fremd" in body


def test_the_admin_is_not_across_clubs_for_a_member(cast):
    seen: list = []
    request = RequestFactory().get("/admin/")
    request.user = cast.users["member"]
    ClubScopeMiddleware(lambda r: seen.append(scoped_club_id()))(request)
    assert seen == [cast.club.pk]


@pytest.mark.scopes_enforced
def test_the_report_task_runs_in_its_builds_club_scope(cast):
    with across_clubs():
        build = ReportBuild.objects.create(season=cast.other_season)
    seen: deque = deque()
    with mock.patch("league.reports.tasks.report_build_run", _unfiltered_members(seen)):
        build_season_report.apply(args=[build.pk])
    assert seen == deque([(cast.other_club.pk, {cast.other_club.pk})])


@pytest.mark.scopes_enforced
def test_the_periodic_tasks_walk_the_clubs_each_in_its_scope(cast):
    from league.banking.tasks import send_notifications, send_payment_reminders

    # No scope of their own given: they open what they need and raise nothing.
    assert send_payment_reminders.apply().get() == 0
    with mock.patch("django.utils.timezone.now") as now:
        now.return_value = datetime.datetime(2026, 10, 12, 12, tzinfo=datetime.UTC)
        assert send_notifications.apply().get() >= 0


@pytest.mark.scopes_enforced
def test_a_command_runs_in_its_club_arguments_scope(cast, tmp_path):
    seen: deque = deque()

    def club_backup(*, club):
        _unfiltered_members(seen)()
        return b"{}"

    with mock.patch("league.management.commands.club_backup.club_backup", club_backup):
        call_command("club_backup", "Fremdclub", str(tmp_path / "backup.json.gz"))
    assert seen == deque([(cast.other_club.pk, {cast.other_club.pk})])


@pytest.mark.scopes_enforced
def test_a_token_page_opens_the_scope_of_its_links_club(cast):
    from league.sharing.services import wall_screen_create

    with across_clubs():
        _screen, token = wall_screen_create(club=cast.other_club, name="Tresen")
    response = Client().get(f"/tafel/{token}/")
    assert response.status_code == 200
    assert b"Fremdclub" in response.content
