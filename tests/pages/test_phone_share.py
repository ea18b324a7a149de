"""Sharing an evening: the text for the club's chat, the image card
(PNG, 1080 px wide) and GET /api/v1/evenings/{id}/share/ for members of the club only."""

import io

import pytest
from django.urls import reverse
from PIL import Image

from games.evenings.services import game_record
from league.sharing.cards import build_evening_card_png
from league.sharing.selectors import evening_share_text

pytestmark = pytest.mark.django_db


def test_share_text_names_loser_schock_aus_runden_top_three_and_link(evening, member, secretary):
    game_record(evening=evening, loser=member, schock_aus_throwers=[member])
    text = evening_share_text(evening=evening, url="https://example.org/abende/1/")
    assert "Abend vom 6. März 2026" in text
    assert "Am meisten verloren: Anna Becker (2 Spiele)" in text
    assert "1. Schock-Aus: Bernd Krause (Spiel 1)" in text
    assert "2. Schock-Aus: Anna Becker (Spiel 3)" in text
    assert "Bernd Krause (erster Schock-Aus, Nr. 1)" in text
    assert "Anna Becker (letzter Schock-Aus, Nr. 2)" in text
    top = ["Tabelle 2026, die ersten drei:", "1. Bernd Krause (+1)", "2. Frank Roth (0)"]
    assert "\n".join([*top, "3. Anna Becker (−1)"]) in text
    assert text.endswith("https://example.org/abende/1/")


def test_a_tie_for_lost_most_names_everyone_tied(evening, member, guest):
    # the fixture's evening: Anna and the guest lost one game each
    text = evening_share_text(evening=evening, url="u")
    assert "Am meisten verloren: Anna Becker und Gustav Meier (1 Spiel)" in text


def test_the_card_is_a_png_1080_px_wide(evening):
    image = Image.open(io.BytesIO(build_evening_card_png(evening=evening)))
    assert image.format == "PNG"
    assert image.size[0] == 1080 and image.size[1] > 500


def test_a_long_name_stays_on_the_card(evening, member):
    member.name = "Anna-Maria Josefine Becker-Schulze von und zu Hohenlohe-Langenburg $x^2$"
    member.save()
    image = Image.open(io.BytesIO(build_evening_card_png(evening=evening)))
    assert image.size[0] == 1080


def test_the_share_page_shows_text_and_card(member_client, evening):
    response = member_client.get(reverse("evening_share", args=[evening.pk]))
    html = response.content.decode()
    assert "Am meisten verloren" in html
    assert reverse("evening_share_card", args=[evening.pk]) in html
    assert "js/share.js" in html


def test_the_card_is_served_to_members(member_client, evening):
    response = member_client.get(reverse("evening_share_card", args=[evening.pk]))
    assert response["Content-Type"] == "image/png"


def test_another_club_cannot_read_the_share_or_card(client, outsider, evening):
    client.force_login(outsider.user)
    assert client.get(reverse("evening_share", args=[evening.pk])).status_code == 404
    assert client.get(reverse("evening_share_card", args=[evening.pk])).status_code == 404
    assert client.get(f"/api/v1/evenings/{evening.pk}/share/").status_code == 404


def test_the_api_gives_text_and_image_url(member_client, evening):
    response = member_client.get(f"/api/v1/evenings/{evening.pk}/share/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"text", "image_url"}
    assert body["image_url"].endswith(reverse("evening_share_card", args=[evening.pk]))
    assert body["text"].endswith(f"/abende/{evening.pk}/")


def test_the_api_refuses_a_visitor(client, evening):
    assert client.get(f"/api/v1/evenings/{evening.pk}/share/").status_code == 401


def test_the_share_endpoint_is_in_the_schema_with_an_example(member_client):
    schema = member_client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/evenings/{evening_id}/share/"]["get"]
    content = operation["responses"]["200"]["content"]["application/json"]
    assert content["examples"]


def test_a_title_that_wraps_stays_on_the_red_band(evening, club):
    club.name = "Schockclub Eintracht von 1979 zu Frankfurt am Main-Sachsenhausen Süd"
    club.save()
    image = Image.open(io.BytesIO(build_evening_card_png(evening=evening))).convert("RGB")
    # the band ends below the last title line: the left margin's column is red down to it
    reds = [y for y in range(image.size[1]) if image.getpixel((10, y)) == (138, 28, 28)]
    band = max(reds)
    assert band > 250  # more than one line of club name and title
    # the title is white: no white pixel (a title line) lies below the band
    below = image.crop((0, band + 1, image.size[0], image.size[1]))
    assert (255, 255, 255) not in {colour for _n, colour in below.getcolors(1 << 20)}
