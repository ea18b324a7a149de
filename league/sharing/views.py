"""The evening's share page (text with copy and share buttons, the image card) and the card
as PNG. Members of the evening's club only (another club's evening is a 404). And the
wall screen (`wall`, no login, behind a secret link) with the secretary's page of links
(`wall_screens`).

Both are kept per club books version (league/club/caching.py): the share text
and the card show the evening and the season's top three, which every change of the books
moves (`books_changed`), names included. The page's body is rendered once per version,
evening and link (the text ends with the absolute URL, so the host is part of the key);
the card's PNG bytes are drawn once per version, evening, language and club name. A
repeated GET with the ETag is answered 304. Another club's evening is looked up and a 404,
never kept.
"""

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.evenings.models import Evening
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.models import Club
from league.club.scoping import club_scope
from league.sharing.cards import build_evening_card_png
from league.sharing.forms import WallScreenForm
from league.sharing.models import WallScreen
from league.sharing.selectors import (
    evening_share_text,
    wall_board,
    wall_screen_by_token,
    wall_screens_of,
)
from league.sharing.services import wall_screen_create, wall_screen_revoke

#: The evening's share text and card link: the books (the call adds the evening's id and
#: its absolute link, which names the host).
EVENING_SHARE_BODY = KeptRead("evening_share_body", depends=("books",))
#: The evening's card PNG: the books (the call adds the evening's id and the club's name).
EVENING_SHARE_CARD = KeptRead("evening_share_card", depends=("books",))


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

    body = EVENING_SHARE_BODY.fragment(
        pk,
        url,
        request=request,
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

    day, png = EVENING_SHARE_CARD.cached(pk, request.club.name, request=request, build=build)
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="abend-{day}.png"'
    return response


# --- the wall screen -------------------------------------------------------------------------

#: The wall's kept read: the club's books and register (every saved game moves them) and
#: the day (tonight's evening is chosen by date). Not the link: every screen of a club
#: shares one rendering, so fifty screens build it once per saved game.
WALL = KeptRead("league.sharing.wall", ("books", "day"))

#: How often a wall screen asks whether something changed (milliseconds): within 5 s of
#: a saved game the screen shows it.
WALL_POLL_MS = 4000


def _wall_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def wall(request: HttpRequest, token: str) -> HttpResponse:
    """A club's wall screen, read-only and without a login, behind its secret link
    (`/tafel/<token>/`): tonight's games, who lost most, Schock-Aus and Runden owed, the
    season's standings; never money. ``?teil=1`` answers the board alone (the screen's
    polling, static/js/wall.js). An unknown or revoked link is a 404.

    A GET whose If-None-Match carries the current ETag is answered 304 after one query
    (the link with its club): nothing is rendered or read from the cache."""
    screen = wall_screen_by_token(token=token)
    if screen is None:
        raise Http404
    with club_scope(screen.club):  # no login: the link's club
        return _wall_page(request, screen.club)


def _wall_page(request: HttpRequest, club: Club) -> HttpResponse:
    part = request.GET.get("teil") == "1"
    etag = WALL.etag("part" if part else "page", request=request, club=club)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        return _wall_headers(HttpResponseNotModified(), etag)
    board = WALL.cached(
        request=request,
        build=lambda: render_to_string("league/_wall_board.html", {"board": wall_board(club=club)}),
        club=club,
    )
    if part:
        return _wall_headers(HttpResponse(board), etag)
    context = {
        "board": mark_safe(board),  # our own render
        "club_name": club.name,
        "poll_url": request.path + "?teil=1",
        "part_etag": WALL.etag("part", request=request, club=club),
        "poll_ms": WALL_POLL_MS,
    }
    return _wall_headers(render(request, "league/wall.html", context), etag)


@secretary_required
def wall_screens(request: ClubRequest) -> HttpResponse:
    """The secretary's wall links: make one (its link is shown once) and revoke one."""
    form = WallScreenForm(request.POST or None)
    new_link = None
    if request.method == "POST" and "revoke" in request.POST:
        try:
            screen_id = int(request.POST["revoke"])
            wall_screen_revoke(club=request.club, screen_id=screen_id)
        except (ValueError, WallScreen.DoesNotExist):
            return HttpResponseBadRequest(_("Unknown wall link."))
        messages.success(request, _("The wall link is revoked: it no longer opens."))
        return redirect("wall_screens")
    if request.method == "POST" and form.is_valid():
        try:
            _screen, token = wall_screen_create(
                club=request.club, name=form.cleaned_data["name"], user=request.user
            )
        except BooksError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            new_link = request.build_absolute_uri(reverse("wall", args=[token]))
            form = WallScreenForm()
    screens = wall_screens_of(club=request.club)
    return render(
        request,
        "league/wall_screens.html",
        {"form": form, "screens": screens, "new_link": new_link},
    )
