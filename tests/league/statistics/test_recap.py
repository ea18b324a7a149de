"""The season recap card on the hand-built seasons of conftest.py."""

import io
from decimal import Decimal

import pytest
from django.urls import reverse

from league.club.services import member_login_set
from league.statistics.recap import recap_lines, recap_png, season_recap
from league.statistics.selectors import club_statistics
from tests.factories import UserFactory


def test_recap_names_champion_most_schock_aus_streak_and_kitty(books):
    recap = season_recap(season=books["s2025"])
    # Points 2025: Anna 2-1 = 1, Carl 1-1 = 0, Bernd 1-3 = -2 (guests not ranked).
    assert (recap.champions, recap.champion_points) == (["Anna"], 1)
    assert (recap.most_schock_aus, recap.most_schock_aus_count) == (["Anna"], 2)
    assert (recap.longest_streak_name, recap.longest_streak) == ("Anna", 3)
    # 6 games lost (1 Mark each) + Carl absent once (6 Marks) = 12 Marks at 0.50 EUR.
    assert (recap.kitty, recap.currency) == (Decimal("6.00"), "EUR")
    assert (recap.evenings, recap.games, recap.schock_aus) == (2, 6, 4)


def test_luckiest_and_unluckiest_are_ranked_by_luck(books):
    recap = season_recap(season=books["s2025"])
    people = club_statistics(club=books["club"], season=books["s2025"]).people
    lucks = sorted((p.luck, p.name) for p in people if p.games)
    assert recap.luckiest.name == lucks[-1][1]
    assert recap.unluckiest.name == lucks[0][1]
    titles = dict(recap_lines(recap))
    assert titles["Glückspilz"].startswith(recap.luckiest.name)


def test_card_is_a_png_1080_pixels_wide(books):
    from PIL import Image

    png = recap_png(season_recap(season=books["s2025"]))
    assert Image.open(io.BytesIO(png)).size == (1080, 1350)


def test_recap_page_and_image_for_members(client, books):
    user = UserFactory(username="recap-login")
    member_login_set(person=books["carl"], user=user)
    client.force_login(user)
    page = client.get(reverse("season_recap", args=[2025]))
    assert page.status_code == 200
    assert "Meister" in page.content.decode()
    image = client.get(reverse("season_recap_image", args=[2025]))
    assert image["Content-Type"] == "image/png"
    assert client.get(reverse("season_recap", args=[1900])).status_code == 404


@pytest.mark.parametrize("name", ["$x$", "a_b^c"])
def test_names_with_math_characters_draw(books, name):
    books["anna"].name = name
    books["anna"].save()
    assert recap_png(season_recap(season=books["s2025"])).startswith(b"\x89PNG")
