"""Who may open which page: anonymous visitors are sent to the login, members read their
club, the secretary also writes it, and another club's evenings and games do not exist."""

import pytest
from django.urls import reverse

from games.evenings.models import Game

pytestmark = pytest.mark.django_db

READ_PAGES = ["standings", "evening_list", "evening_sheet", "my_dues"]
SECRETARY_PAGES = [
    "evening_create",
    "evening_edit",
    "evening_delete",
    "game_entry",
    "game_edit",
    "game_delete",
    "season_create",
]
# The pages that name one of the club's evenings or games (or persons).
OBJECT_PAGES = [
    "evening_sheet",
    "my_dues",
    "evening_edit",
    "evening_delete",
    "game_entry",
    "game_edit",
    "game_delete",
]


def _url(page: str, evening, member) -> str:
    game = evening.games.get(number=1)
    return {
        "standings": reverse("season_standings", args=[2026]),
        "evening_list": reverse("evening_list"),
        "evening_sheet": reverse("evening_detail", args=[evening.pk]),
        "my_dues": reverse("member_dues", args=[2026, member.pk]),
        "evening_create": reverse("evening_create"),
        "season_create": reverse("season_create"),
        "evening_edit": reverse("evening_edit", args=[evening.pk]),
        "evening_delete": reverse("evening_delete", args=[evening.pk]),
        "game_entry": reverse("game_entry", args=[evening.pk]),
        "game_edit": reverse("game_edit", args=[evening.pk, game.pk]),
        "game_delete": reverse("game_delete", args=[evening.pk, game.pk]),
    }[page]


@pytest.mark.parametrize("page", READ_PAGES + SECRETARY_PAGES + ["home", "my_dues_now"])
def test_anonymous_visitor_is_sent_to_the_login(client, evening, member, page):
    url = {"home": reverse("home"), "my_dues_now": reverse("my_dues")}.get(page) or _url(
        page, evening, member
    )
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


@pytest.mark.parametrize("page", READ_PAGES)
def test_member_reads_the_clubs_pages(member_client, evening, member, page):
    assert member_client.get(_url(page, evening, member)).status_code == 200


@pytest.mark.parametrize("page", SECRETARY_PAGES)
def test_member_may_not_open_the_secretarys_pages(member_client, evening, member, page):
    assert member_client.get(_url(page, evening, member)).status_code == 403


@pytest.mark.parametrize("page", READ_PAGES + SECRETARY_PAGES)
def test_secretary_opens_every_page(secretary_client, evening, member, page):
    assert secretary_client.get(_url(page, evening, member)).status_code == 200


@pytest.mark.parametrize("page", OBJECT_PAGES)
def test_another_clubs_secretary_finds_nothing(client, outsider, evening, member, page):
    client.force_login(outsider.user)
    assert client.get(_url(page, evening, member)).status_code == 404


def test_another_clubs_secretary_cannot_add_a_game(client, outsider, evening, member):
    client.force_login(outsider.user)
    before = Game.objects.count()
    response = client.post(_url("game_entry", evening, member), {"number": 9, "loser": member.pk})
    assert response.status_code == 404
    assert Game.objects.count() == before


def test_member_cannot_add_a_game(member_client, evening, member):
    before = Game.objects.count()
    response = member_client.post(
        _url("game_entry", evening, member), {"number": 9, "loser": member.pk}
    )
    assert response.status_code == 403
    assert Game.objects.count() == before


def test_another_clubs_standings_show_only_that_club(client, outsider, evening):
    client.force_login(outsider.user)
    response = client.get(reverse("season_standings", args=[2026]))
    assert response.context["season"].club == outsider.club
    assert "Anna Becker" not in response.content.decode()


def test_member_may_not_read_another_members_marks(member_client, evening, other_member):
    url = reverse("member_dues", args=[2026, other_member.pk])
    assert member_client.get(url).status_code == 403


def test_secretary_reads_every_members_marks(secretary_client, evening, other_member):
    url = reverse("member_dues", args=[2026, other_member.pk])
    assert secretary_client.get(url).status_code == 200


def test_home_leads_a_member_to_the_current_seasons_table(member_client, evening):
    response = member_client.get(reverse("home"))
    assert reverse("season_standings", args=[2026]) in response.content.decode()


def test_my_marks_link_leads_to_the_own_marks(member_client, evening, member):
    response = member_client.get(reverse("my_dues"))
    assert response["Location"] == reverse("member_dues", args=[2026, member.pk])


def test_login_page_is_open_to_everyone(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "Anmelden" in response.content.decode()


def test_unknown_season_is_not_found(member_client, evening):
    assert member_client.get(reverse("season_standings", args=[1999])).status_code == 404


def test_member_on_a_secretary_page_is_told_why_in_german(member_client, evening, member):
    response = member_client.get(_url("evening_edit", evening, member))
    assert "Nur der Buchführer des Vereins darf die Bücher ändern." in response.content.decode()


def test_staff_login_without_a_club_goes_to_the_admin(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="root", is_staff=True))
    assert client.get(reverse("home"))["Location"] == reverse("admin:index")


def test_login_without_a_club_is_told_so(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="lost"))
    response = client.get(reverse("home"))
    assert "Dieser Zugang gehört zu keinem Verein." in response.content.decode()


def test_login_without_a_club_sees_no_club_page(client, evening):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="lost"))
    assert client.get(reverse("evening_detail", args=[evening.pk])).status_code == 404


def test_home_without_a_season_says_so(client, club):
    from tests.factories import MemberFactory, UserFactory

    member = MemberFactory(club=club, name="Ida Neu", user=UserFactory(username="ida"))
    client.force_login(member.user)
    assert "Der Verein hat noch keine Saison." in client.get(reverse("home")).content.decode()
