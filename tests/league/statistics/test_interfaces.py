"""The statistics pages and API: who sees what, and the figures shown."""

import pytest
from django.urls import reverse

from league.club.services import member_login_set
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory


@pytest.fixture
def member_client(client, books):
    user = UserFactory(username="bernd-login")
    member_login_set(person=books["bernd"], user=user)
    client.force_login(user)
    return client


@pytest.fixture
def outsider_client(client, db):
    other = ClubFactory(name="Anderer Club")
    user = UserFactory(username="outsider")
    MemberFactory(club=other, name="Otto", user=user)
    client.force_login(user)
    return client


def test_season_api_answers_the_hand_counted_figures(member_client, books):
    response = member_client.get(f"/api/v1/seasons/{books['s2025'].pk}/statistics/")
    assert response.status_code == 200
    body = response.json()
    assert body["year"] == 2025
    bernd = next(p for p in body["people"] if p["name"] == "Bernd")
    assert (bernd["games"], bernd["losses"], bernd["loss_rate"]) == (6, 3, "50.00")
    assert body["records"]["most_losses_evening"] == {
        "name": "Bernd",
        "date": "2025-10-01",
        "count": 2,
    }
    assert body["head_to_head"][0] == {"after": "Anna", "loser": "Bernd", "count": 2}
    assert [e["games"] for e in body["attendance"]] == [4, 2]


def test_records_api_covers_every_season(member_client, books):
    body = member_client.get("/api/v1/statistics/records/").json()
    assert (body["year"], body["seasons"], body["evenings"], body["games"]) == (None, 2, 3, 9)
    assert body["records"]["fastest_game"]["rounds"] == 2
    assert body["attendance"] == []


def test_another_clubs_season_is_404(outsider_client, books):
    response = outsider_client.get(f"/api/v1/seasons/{books['s2025'].pk}/statistics/")
    assert response.status_code == 404


def test_statistics_api_needs_a_login(client, books):
    assert client.get("/api/v1/statistics/records/").status_code in (401, 403)


def test_outsider_records_show_only_their_club(outsider_client, books):
    SeasonFactory(club=ClubFactory(name="Anderer Club"), year=2025)
    body = outsider_client.get("/api/v1/statistics/records/").json()
    assert body["games"] == 0
    assert body["people"] == []


def test_season_page_shows_figures_records_and_chart(member_client, books):
    response = member_client.get(reverse("statistics_season") + "?saison=2025")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bernd" in html
    assert "data:image/svg+xml;base64," in html
    assert "01.10.2025" in html


def test_records_page_and_statistik_page_link_each_other(member_client, books):
    response = member_client.get(reverse("statistics_records"))
    assert response.status_code == 200
    assert reverse("statistics_season") in response.content.decode()
    statistik = member_client.get(reverse("schock_aus_stats")).content.decode()
    assert reverse("statistics_records") in statistik


def test_a_name_with_dollars_is_drawn_as_plain_text(member_client, books):
    books["carl"].name = "$x$ Carl_1"
    books["carl"].save()
    assert member_client.get(reverse("statistics_records")).status_code == 200


def test_pages_need_a_login(client, books):
    response = client.get(reverse("statistics_records"))
    assert response.status_code == 302


def test_both_endpoints_are_in_the_schema(member_client):
    schema = member_client.get("/api/schema/?format=json").json()
    assert "/api/v1/seasons/{season_id}/statistics/" in schema["paths"]
    assert "/api/v1/statistics/records/" in schema["paths"]
