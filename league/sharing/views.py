"""The evening's share page (text with copy and share buttons, the image card) and the card
as PNG. Members of the evening's club only (another club's evening is a 404)."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import cache_control

from games.evenings.models import Evening
from league.club.access import ClubRequest, member_required
from league.sharing.cards import build_evening_card_png
from league.sharing.selectors import evening_share_text


@member_required
def evening_share(request: ClubRequest, pk: int) -> HttpResponse:
    """The text for the club's chat and the card, with copy and share buttons
    (static/js/share.js: the phone's share sheet where the browser has one)."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    url = request.build_absolute_uri(reverse("evening_detail", args=[evening.pk]))
    context = {
        "evening": evening,
        "text": evening_share_text(evening=evening, url=url),
        "url": url,
        "card_url": reverse("evening_share_card", args=[evening.pk]) + f"?v={evening.version}",
    }
    return render(request, "league/evening_share.html", context)


@member_required
@cache_control(private=True, max_age=300)
def evening_share_card(request: ClubRequest, pk: int) -> HttpResponse:
    """The evening's card as PNG (1080 px wide)."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    response = HttpResponse(build_evening_card_png(evening=evening), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="abend-{evening.date:%Y-%m-%d}.png"'
    return response
