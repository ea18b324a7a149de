"""Writing people of the club (league.club.services): a change of name or kind moves the
data version of every season of the club, since names show in every season's books."""

import pytest
from django.urls import reverse

from league.club.errors import BooksError
from league.club.models import Season
from league.club.services import member_create, member_update, season_create
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_with_seasons():
    club = ClubFactory(name="Heimclub")
    for year in (2001, 2026):
        season_create(club=club, year=year)
    return club


def _versions(club) -> list[int]:
    return list(
        Season.objects.filter(club=club).order_by("year").values_list("data_version", flat=True)
    )


def _register_version(club) -> int:
    club.refresh_from_db(fields=["register_version"])
    return club.register_version


def test_renaming_a_person_moves_the_register_version_and_no_seasons_data_version(
    club_with_seasons,
):
    anna = member_create(club=club_with_seasons, name="Anna Becker")
    before, register = _versions(club_with_seasons), _register_version(club_with_seasons)
    member_update(member=anna, name="Anna Becker-Lange")
    assert _versions(club_with_seasons) == before
    assert _register_version(club_with_seasons) == register + 1


def test_deactivating_a_person_moves_no_version(club_with_seasons):
    anna = member_create(club=club_with_seasons, name="Anna Becker")
    before = _versions(club_with_seasons)
    member_update(member=anna, active=False)
    assert _versions(club_with_seasons) == before


def test_a_name_the_club_has_already_is_refused(club_with_seasons):
    member_create(club=club_with_seasons, name="Anna Becker")
    bernd = member_create(club=club_with_seasons, name="Bernd Krause")
    with pytest.raises(BooksError) as refused:
        member_update(member=bernd, name="  Anna   Becker ")
    assert refused.value.code == "member_exists"


@pytest.fixture
def staff(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_a_rename_in_the_admin_goes_through_the_service(staff, club_with_seasons):
    anna = member_create(club=club_with_seasons, name="Anna Becker")
    register = _register_version(club_with_seasons)
    response = staff.post(
        reverse("admin:league_member_change", args=[anna.pk]),
        {"club": club_with_seasons.pk, "name": "Anna Lange", "kind": "member", "active": "on"},
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.name == "Anna Lange"
    assert _register_version(club_with_seasons) > register


def test_the_admin_deletes_no_season_and_no_person(staff, club_with_seasons):
    season = Season.objects.filter(club=club_with_seasons).first()
    anna = member_create(club=club_with_seasons, name="Anna Becker")
    assert staff.get(reverse("admin:league_season_delete", args=[season.pk])).status_code == 403
    assert staff.get(reverse("admin:league_member_delete", args=[anna.pk])).status_code == 403
