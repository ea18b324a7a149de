"""The season report through the REST API: request, state, fetch."""

import pytest
from rest_framework.test import APIClient

from league.club.services import member_login_set
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(sample_season):
    user = UserFactory(username="carla")
    member = sample_season.club.members.get(name="Carla Vogt")
    member_login_set(person=member, user=user)
    client = APIClient()
    client.force_authenticate(user)
    return client


def url(season, pdf: bool = False) -> str:
    return f"/api/v1/seasons/{season.pk}/report/" + ("pdf/" if pdf else "")


def test_state_of_a_season_without_a_report_is_none(api, sample_season):
    response = api.get(url(sample_season.season))
    assert response.status_code == 200
    assert response.json()["state"] == "none"
    assert response.json()["download_url"] is None


def test_post_asks_for_the_report(api, sample_season, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(url(sample_season.season))
    assert response.status_code in (200, 202)
    assert response.json()["build"]["status"] in ("queued", "ready")


def test_state_after_an_eager_build_is_ready_with_a_download_url(
    api, sample_season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        api.post(url(sample_season.season))
    body = api.get(url(sample_season.season)).json()
    assert body["state"] == "ready"
    assert body["download_url"].endswith(url(sample_season.season, pdf=True))


def test_pdf_is_served_when_ready(api, sample_season, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        api.post(url(sample_season.season))
    response = api.get(url(sample_season.season, pdf=True))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_pdf_before_a_build_is_404_report_not_ready(api, sample_season):
    response = api.get(url(sample_season.season, pdf=True))
    assert response.status_code == 404
    assert response.json()["code"] == "report_not_ready"


def test_another_clubs_season_is_404(sample_season):
    from tests.factories import ClubFactory, MemberFactory

    stranger = UserFactory(username="fremd")
    MemberFactory(club=ClubFactory(name="Fremder Club"), name="Fritz", user=stranger)
    client = APIClient()
    client.force_authenticate(stranger)
    assert client.get(url(sample_season.season)).status_code == 404
    assert client.post(url(sample_season.season)).status_code == 404


def test_anonymous_is_401(sample_season):
    assert APIClient().get(url(sample_season.season)).status_code == 401
