"""The evening's image card for the club's chat: a PNG 1080 px wide,
drawn with Pillow in the club's colours, saved with a palette of 256 colours. Names are
drawn as plain text (no markup, no mathtext), in DejaVu Sans (shipped with matplotlib, so
every machine has it).
"""

import io
from functools import cache

from django.utils.translation import gettext as _
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

from games.evenings.models import Evening
from league.sharing.selectors import EveningShare, evening_share, signed

WIDTH = 1080
MARGIN = 72
RED, INK, MUTED, PAPER, GOLD = "#8a1c1c", "#1d2327", "#5f6b73", "#f4f1ea", "#ffd98a"


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = font_manager.findfont(
        font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    )
    return ImageFont.truetype(path, size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """`text` broken into lines no wider than `width` pixels (at spaces; a word longer than
    the line is cut)."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=font) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        while draw.textlength(word, font=font) > width:
            cut = len(word)
            while cut > 1 and draw.textlength(word[:cut], font=font) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines or [""]


def _blocks(share: EveningShare, club: str) -> list[tuple[str, int, bool, str]]:
    """(text, size, bold, colour) lines of the card, top to bottom."""
    blocks = [(club, 34, True, GOLD), (share.title, 56, True, "#ffffff")]
    body = [(share.games, 36, False, INK), (share.lost_most, 40, True, INK)]
    if share.schock_aus:
        body.append((_("Schock-Aus:"), 36, True, RED))
        body += [(line, 34, False, INK) for line in share.schock_aus]
    if share.runden:
        body.append((_("Runden owed:"), 36, True, RED))
        body += [(line, 34, False, INK) for line in share.runden]
    if share.top_three:
        body.append((_("Table %(year)s, top three:") % {"year": share.season_year}, 36, True, RED))
        body += [
            (f"{place}. {name} ({signed(points)})", 34, False, INK)
            for place, name, points in share.top_three
        ]
    return blocks + body


def build_evening_card_png(*, evening: Evening) -> bytes:
    """The evening's card as PNG bytes, 1080 px wide, as tall as its lines need (render
    under German: the texts come from gettext). Raises nothing for any evening of the
    database (an evening without games says so)."""
    share = evening_share(evening=evening)
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    inner = WIDTH - 2 * MARGIN
    laid: list[tuple[str, ImageFont.FreeTypeFont, str, int]] = []
    head_lines = 0  # the lines of club name and title (on the red band), however wrapped
    for index, (text, size, bold, colour) in enumerate(_blocks(share, evening.club.name)):
        font = _font(size, bold)
        for line in _fit(scratch, text, font, inner):
            laid.append((line, font, colour, int(size * 1.35)))
        if index == 1:
            head_lines = len(laid)
    header = MARGIN + sum(h for _t, _f, _c, h in laid[:head_lines]) + 24
    height = header + 40 + sum(h for _t, _f, _c, h in laid[head_lines:]) + MARGIN + 40
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, WIDTH, header], fill=RED)
    y = MARGIN
    for index, (line, font, colour, step) in enumerate(laid):
        if index == head_lines:
            y = header + 40
        draw.text((MARGIN, y), line, font=font, fill=colour)
        y += step
    draw.text((MARGIN, height - MARGIN), "Schockclub", font=_font(26), fill=MUTED)
    out = io.BytesIO()
    # A palette of 256 colours holds the card (flat colours, kept exactly by median cut;
    # text antialiased in some more): about 0.1 s and 50 KiB at 48 seasons, where
    # `optimize=True` on the RGB image took 0.5 s for 120 KiB (the bytes are
    # kept per books version).
    palette = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    palette.save(out, format="PNG")
    return out.getvalue()
