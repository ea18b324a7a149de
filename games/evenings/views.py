"""Evening pages: the evenings of a season, the evening sheet for members, and for the
secretary the evening's attendance and the fast entry and correction of its games
(Post/Redirect/Get).

Lookups are scoped to `request.club`, so another club's evening or game is a 404. Writes go
through games/evenings/services.py (via its forms), figures come from
games/evenings/selectors.py.
"""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from games.evenings import services as evening_services
from games.evenings.forms import EveningForm, GameForm
from games.evenings.models import Evening, Game
from games.evenings.selectors import evening_books, evening_list, next_game_number, present_people
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import books_cached, books_page
from league.club.errors import BooksError
from league.club.models import Member
from league.club.selectors import club_season, club_seasons, query_year, whole_number


def _next_game_form(evening: Evening) -> GameForm:
    """The entry form for the evening's next game: next number, Vorleger pre-filled."""
    number = next_game_number(evening=evening)
    vorleger = evening_services.next_vorleger(evening=evening, number=number)
    return GameForm(evening=evening, initial={"number": number, "vorleger": vorleger.pk})


def _evening_page(request: ClubRequest, evening: Evening, form: GameForm | None):
    books = evening_books(evening=evening)
    if form is not None:
        form.present = books.present
    context = {
        "evening": books.evening,
        "books": books,
        "rows": books.game_rows,
        "present": books.present,
        "attendance": books.names_by_role,
        "last_game": books.last_game,
        "form": form,
    }
    return render(request, "games/evening.html", context)


@member_required
@books_page()
def evening_index(request: ClubRequest) -> HttpResponse:
    """The evenings of a season (?saison=<year>, default the current season); cached by
    the club's books version (issue 15)."""
    season = club_season(request.club, query_year(request))
    version = request.books_version  # type: ignore[attr-defined]
    # Read only when the page's cached fragment is not there (league/templatetags).
    evenings = SimpleLazyObject(
        lambda: (
            books_cached(
                "evening_list", version, season.pk, build=lambda: evening_list(season=season)
            )
            if season is not None
            else []
        )
    )
    context = {
        "season": season,
        "seasons": list(club_seasons(club=request.club)),
        "evenings": evenings,
    }
    return render(request, "games/evening_list.html", context)


@member_required
def evening_detail(request: ClubRequest, pk: int) -> HttpResponse:
    """The evening sheet; for the secretary with the next game's entry form on top."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    form = _next_game_form(evening) if request.member.is_secretary else None
    return _evening_page(request, evening, form)


@secretary_required
def game_entry(request: ClubRequest, pk: int) -> HttpResponse:
    """Record the next game; on success back to the evening, ready for the one after."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    if request.method != "POST":
        return _evening_page(request, evening, _next_game_form(evening))
    form = GameForm(request.POST, evening=evening)
    if form.is_valid() and (game := form.save()):
        messages.success(request, _game_saved_message(game, form.cleaned_data["schock_aus"]))
        return redirect(reverse("evening_detail", args=[evening.pk]) + "#erfassen")
    return _evening_page(request, evening, form)


def _game_saved_message(game: Game, throwers: list[Member]) -> str:
    text = _("Game %(number)s saved: %(loser)s lost.") % {
        "number": game.number,
        "loser": game.loser.name,
    }
    if throwers:
        text += " " + _("Schock-Aus: %(names)s.") % {"names": ", ".join(t.name for t in throwers)}
    return text


@secretary_required
def game_edit(request: ClubRequest, pk: int, game_pk: int) -> HttpResponse:
    """Correct a game: number, Vorleger, loser, Schock-Aus."""
    game = get_object_or_404(Game, pk=game_pk, evening_id=pk, evening__club=request.club)
    initial = {
        "number": game.number,
        "vorleger": game.vorleger_id,
        "loser": game.loser_id,
        "schock_aus": [sa.thrower_id for sa in game.schock_aus.order_by("position")],
        "version": game.version,
    }
    form = GameForm(request.POST or None, evening=game.evening, game=game, initial=initial)
    if request.method == "POST" and form.is_valid() and (saved := form.save()):
        messages.success(request, _game_saved_message(saved, form.cleaned_data["schock_aus"]))
        return redirect("evening_detail", pk=pk)
    form.present = present_people(evening=game.evening)
    context = {"evening": game.evening, "game": game, "form": form, "present": form.present}
    return render(request, "games/game_form.html", context)


@secretary_required
def game_delete(request: ClubRequest, pk: int, game_pk: int) -> HttpResponse:
    """Ask, then delete a game (its charge is reversed in the ledger)."""
    game = get_object_or_404(Game, pk=game_pk, evening_id=pk, evening__club=request.club)
    if request.method != "POST":
        return render(request, "games/game_delete.html", {"evening": game.evening, "game": game})
    try:
        evening_services.game_delete(game=game)
        messages.success(request, _("Game %(number)s deleted.") % {"number": game.number})
    except BooksError as exc:
        messages.error(request, exc.message)
    return redirect("evening_detail", pk=pk)


@secretary_required
def evening_create(request: ClubRequest) -> HttpResponse:
    """A new evening with its attendance; then on to the entry of its games."""
    form = EveningForm(request.POST or None, club=request.club, secretary=request.member)
    if request.method == "POST" and form.is_valid() and (evening := form.save()):
        messages.success(request, _("Evening created. Enter the first game."))
        return redirect(reverse("evening_detail", args=[evening.pk]) + "#erfassen")
    return render(request, "games/evening_form.html", {"form": form, "evening": None})


@secretary_required
def evening_edit(request: ClubRequest, pk: int) -> HttpResponse:
    """Change an evening's date, secretary, attendance and notes."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    form = EveningForm(request.POST or None, club=request.club, evening=evening)
    if request.method == "POST" and form.is_valid() and form.save():
        messages.success(request, _("Evening saved."))
        return redirect("evening_detail", pk=pk)
    return render(request, "games/evening_form.html", {"form": form, "evening": evening})


@secretary_required
def evening_delete(request: ClubRequest, pk: int) -> HttpResponse:
    """Ask, naming what goes (games, Schock-Aus, Runden, the Marks charged), then delete the
    evening with its games in one step (issue 12 item 3; the service reverses every charge,
    audited). The page's version guards against games entered meanwhile elsewhere."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    if request.method != "POST":
        context = {"evening": evening, "books": evening_books(evening=evening)}
        return render(request, "games/evening_delete.html", context)
    try:
        evening_services.evening_delete(
            evening=evening,
            expected_version=whole_number(request.POST.get("version")),
            with_games=True,
        )
    except BooksError as exc:
        messages.error(request, exc.message)
        return redirect("evening_detail", pk=pk)
    messages.success(request, _("Evening deleted."))
    return redirect("season_standings", year=evening.season.year)
