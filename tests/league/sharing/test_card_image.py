"""The evening's image card (league/sharing/cards.py) is a 256-colour PNG: its flat colours
stay exact (the red band, the paper) and it is small enough for a chat on a phone."""

import io

import pytest
from PIL import Image

from league.sharing.cards import PAPER, RED, WIDTH, build_evening_card_png
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_the_card_keeps_its_flat_colours_exactly_in_a_palette_png(sample_evening):
    evening, _people = enter_sample_evening_copied(sample_evening)
    png = build_evening_card_png(evening=evening)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    rgb = image.convert("RGB")
    assert rgb.size[0] == WIDTH
    assert rgb.getpixel((5, 5)) == _rgb(RED)
    assert rgb.getpixel((5, rgb.size[1] - 5)) == _rgb(PAPER)
    assert len(png) < 100 * 1024
