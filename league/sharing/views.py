"""The evening's share page (text with copy and share buttons, the image card) and the card
as PNG. Members of the evening's club only (another club's evening is a 404).

Both are kept per club books version (league/club/caching.py): the share text
and the card show the evening and the season's top three, which every change of the books
moves (`books_changed`), names included. The page's body is rendered once per version,
evening and link (the text ends with the absolute URL, so the host is part of the key);
the card's PNG bytes are drawn once per version, evening, language and club name. A
repeated GET with the ETag is answered 304. Another club's evening is looked up and a 404,
never kept.
"""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from games.evenings.models import Evening
from league.club.access import ClubRequest, member_required
from league.club.caching import books_cached, books_fragment, books_page
from league.sharing.cards import build_evening_card_png
from league.sharing.selectors import evening_share_text


@member_required
@books_page()
def evening_share(request: ClubRequest, pk: int) -> HttpResponse:
    """The text for the club's chat and the card, with copy and share buttons
    (static/js/share.js: the phone's share sheet where the browser has one)."""
    url = request.build_absolute_uri(reverse("evening_detail", args=[pk]))

    def context() -> dict:
        evening = get_object_or_404(Evening, pk=pk, club=request.club)
        card_url = reverse("evening_share_card", args=[evening.pk]) + f"?v={evening.version}"
        return {
            "evening": evening,
            "text": evening_share_text(evening=evening, url=url),
            "url": url,
            "card_url": card_url,
        }

    body = books_fragment(
        request,
        request.books_version,
        pk,
        url,
        template="league/_evening_share_body.html",
        context=context,
    )
    return render(request, "league/evening_share.html", {"body": body})


@member_required
@books_page()
def evening_share_card(request: ClubRequest, pk: int) -> HttpResponse:
    """The evening's card as PNG (1080 px wide)."""

    def build() -> tuple[str, bytes]:
        evening = get_object_or_404(Evening, pk=pk, club=request.club)
        return f"{evening.date:%Y-%m-%d}", build_evening_card_png(evening=evening)

    day, png = books_cached(
        "evening_share_card",
        request.books_version,
        pk,
        request.club.name,
        build=build,
    )
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="abend-{day}.png"'
    return response
