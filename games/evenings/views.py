"""Evening pages: the evenings of a season, the evening sheet for members, and for the
secretary the evening's attendance and the fast entry and correction of its games
(Post/Redirect/Get).

Lookups are scoped to `request.club`, so another club's evening or game is a 404. Writes go
through games/evenings/services.py (via its forms), figures come from
games/evenings/selectors.py.
"""

import datetime
import re
from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.evenings import services as evening_services
from games.evenings.calendar import club_calendar_ics
from games.evenings.forms import EveningForm, GameForm
from games.evenings.models import Evening, Game, Objection
from games.evenings.selectors import (
    EVENING_LIST,
    club_evening_provisional_state,
    club_planned_evenings,
    evening_books,
    evening_list,
    evening_objections,
    evening_on_date,
    evening_provisional_state,
    next_game_number,
    next_vorleger,
    present_people,
)
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.fields import parse_iso_date
from league.club.models import Member
from league.club.scoping import club_scope
from league.club.selectors import (
    club_season,
    club_seasons,
    member_of_calendar_token,
    query_year,
    whole_number,
)


def _next_game_form(evening: Evening) -> GameForm:
    """The entry form for the evening's next game: next number, Vorleger pre-filled."""
    number = next_game_number(evening=evening)
    vorleger = next_vorleger(evening=evening, number=number)
    return GameForm(evening=evening, initial={"number": number, "vorleger": vorleger.pk})


def _evening_context(evening: Evening, form: GameForm | None) -> dict:
    """The evening sheet's context (templates/games/_evening_body.html)."""
    books = evening_books(evening=evening)
    if form is not None:
        form.present = books.present
    last = books.last_game
    lapse = timedelta(seconds=evening_services.UNDO_SECONDS)
    undo_until = last.created_at + lapse if last else None
    return {
        # When the last game's "undo" lapses (ISO 8601; the page hides the button then,
        # the service refuses it anyway).
        "undo_until": undo_until.isoformat() if undo_until else "",
        "evening": books.evening,
        "books": books,
        "rows": books.game_rows,
        "present": books.present,
        "attendance": books.names_by_role,
        "last_game": books.last_game,
        "form": form,
    }


def _evening_page(request: ClubRequest, evening: Evening, form: GameForm | None):
    """The evening sheet rendered for this request (a form sent back with its errors)."""
    context = _evening_context(evening, form)
    context.update(evening_date=evening.date, entry_form=form is not None)
    return render(request, "games/evening.html", context)


def _today(request: ClubRequest, *args, **kwargs) -> str:
    """The club's day (Europe/Berlin): without ``?saison`` a page shows the season of
    today, which changes at a season's turn without the books (part of the ETag)."""
    return "" if query_year(request) is not None else timezone.localdate().isoformat()


#: The evenings page's books part: the call adds the year asked and the day without one.
EVENING_INDEX_BODY = KeptRead("evening_index_body", depends=("books", "role"))


@member_required
@books_page(extra=_today)
def evening_index(request: ClubRequest) -> HttpResponse:
    """The evenings of a season (?saison=<year>, default the season of today, else the
    latest; an unknown year is a 404).

    The page's books part (templates/games/_evening_index_body.html: heading, switcher,
    the list) is kept per club books version, asked year (the day without one) and role
    (league/club/caching.py): a repeated read renders only the page's frame."""
    year = query_year(request)
    is_secretary = request.member.is_secretary

    def context() -> dict:
        season = club_season(request.club, year)
        evenings = (
            EVENING_LIST.cached(
                season.pk, request=request, build=lambda: evening_list(season=season)
            )
            if season is not None
            else []
        )
        return {
            "season": season,
            "seasons": list(club_seasons(club=request.club)),
            "evenings": evenings,
            "is_secretary": is_secretary,
        }

    body = EVENING_INDEX_BODY.fragment(
        year,
        _today(request),
        request=request,
        template="games/_evening_index_body.html",
        context=context,
    )
    return render(request, "games/evening_list.html", {"body": body})


def _provisional_key(request: ClubRequest, pk: int) -> tuple:
    """The evening's provisional state as the page shows it (part of its ETag; read once
    a request): it moves with the clock and with objections, not with the books. One
    query."""
    if not hasattr(request, "provisional_key"):
        state = club_evening_provisional_state(club=request.club, evening_id=pk)
        request.provisional_key = state.key if state else ()
    return request.provisional_key


#: An evening's date (the call adds the evening's id): another club's is a 404, never kept.
EVENING_DATE = KeptRead("evening_date", depends=("books",))
#: The evening sheet, with the entry form for the secretary (the call adds the evening's id).
EVENING_BODY = KeptRead("evening_body", depends=("books", "role"))
#: The sheet with the next game's form of `game_entry` (the call adds the evening's id).
GAME_ENTRY_BODY = KeptRead("game_entry_body", depends=("books",))
#: A game's number and its correction form (the calls add the evening's and game's ids).
GAME_NUMBER = KeptRead("game_number", depends=("books",))
GAME_EDIT_BODY = KeptRead("game_edit_body", depends=("books",))


@member_required
@books_page(extra=_provisional_key)
def evening_detail(request: ClubRequest, pk: int) -> HttpResponse:
    """The evening sheet; for the secretary with the next game's entry form on top.

    The sheet (templates/games/_evening_body.html, the entry form included) is kept per
    club books version, evening and role: every change of an evening's records
    raises `books_changed` (games/evenings/services.py `evening_changed`), names and
    statutes do too. The form's CSRF token is the request's own on every use
    (`KeptRead.fragment`); a form sent back with errors is rendered by `game_entry`, never
    kept. An evening of another club is a 404."""
    is_secretary = request.member.is_secretary

    def evening() -> Evening:
        # The club's books version starts with the club's id: what is kept under it was
        # read for this club, so a kept read needs no lookup (another club's evening, or
        # one deleted, is looked up and a 404, never kept).
        return get_object_or_404(Evening, pk=pk, club=request.club)

    def context() -> dict:
        full = evening()
        form = _next_game_form(full) if is_secretary else None
        return {**_evening_context(full, form), "is_secretary": is_secretary}

    date = EVENING_DATE.cached(pk, request=request, build=lambda: evening().date)
    body = EVENING_BODY.fragment(
        pk, request=request, template="games/_evening_body.html", context=context
    )
    provisional = _provisional_key(request, pk)
    page = {
        "body": body,
        "evening_date": date,
        "entry_form": is_secretary,
        "evening_pk": pk,
        "provisional": bool(provisional and provisional[0]),
        "open_objections": provisional[1] if provisional else 0,
    }
    return render(request, "games/evening.html", page)


@secretary_required
@books_page()
def game_entry(request: ClubRequest, pk: int) -> HttpResponse:
    """Record the next game; on success back to the evening, ready for the one after.

    The GET's sheet with the next game's form (templates/games/_evening_body.html) is kept
    per club books version and evening (`KeptRead.fragment`): the next number, the
    Vorleger and the people present are the evening's books, and every change of them
    raises `books_changed`. A form sent back with its errors is rendered, never kept. An
    evening of another club (or one deleted, which moves the version) is a 404."""
    if request.method != "POST":

        def lookup() -> Evening:
            return get_object_or_404(Evening, pk=pk, club=request.club)

        def context() -> dict:
            full = lookup()
            return {**_evening_context(full, _next_game_form(full)), "is_secretary": True}

        date = EVENING_DATE.cached(pk, request=request, build=lambda: lookup().date)
        body = GAME_ENTRY_BODY.fragment(
            pk, request=request, template="games/_evening_body.html", context=context
        )
        page = {"body": body, "evening_date": date, "entry_form": True}
        return render(request, "games/evening.html", page)
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
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


def _game_edit_context(request: ClubRequest, pk: int, game_pk: int) -> tuple[dict, GameForm]:
    """The correction page's context (templates/games/_game_edit_body.html) with its form,
    bound to the POST if there is one. A game not of this evening and club is a 404."""
    game = get_object_or_404(Game, pk=game_pk, evening_id=pk, evening__club=request.club)
    initial = {
        "number": game.number,
        "vorleger": game.vorleger_id,
        "loser": game.loser_id,
        "schock_aus": [sa.thrower_id for sa in game.schock_aus.order_by("position")],
        "version": game.version,
    }
    form = GameForm(request.POST or None, evening=game.evening, game=game, initial=initial)
    context = {"evening": game.evening, "game": game, "form": form, "game_number": game.number}
    return context, form


@secretary_required
@books_page()
def game_edit(request: ClubRequest, pk: int, game_pk: int) -> HttpResponse:
    """Correct a game: number, Vorleger, loser, Schock-Aus.

    The GET's form shows only the game and the evening's people present: it is kept per
    club books version, evening and game (`KeptRead.fragment`; a change of the game
    or its evening raises `books_changed`). A form sent back with its errors is rendered,
    never kept."""
    if request.method != "POST":

        def kept_context() -> dict:
            context, form = _game_edit_context(request, pk, game_pk)
            form.present = present_people(evening=context["evening"])
            return {**context, "present": form.present}

        def game_number() -> int:
            found = get_object_or_404(Game, pk=game_pk, evening_id=pk, evening__club=request.club)
            return found.number

        # The club's books version starts with the club's id: what is kept under it was
        # read for this club (another club's game, or one deleted, is a 404, never kept).
        number = GAME_NUMBER.cached(pk, game_pk, request=request, build=game_number)
        body = GAME_EDIT_BODY.fragment(
            pk,
            game_pk,
            request=request,
            template="games/_game_edit_body.html",
            context=kept_context,
        )
        return render(request, "games/game_form.html", {"body": body, "game_number": number})
    context, form = _game_edit_context(request, pk, game_pk)
    if form.is_valid() and (saved := form.save()):
        messages.success(request, _game_saved_message(saved, form.cleaned_data["schock_aus"]))
        return redirect("evening_detail", pk=pk)
    form.present = present_people(evening=context["evening"])
    context["present"] = form.present
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
@require_POST
def game_undo(request: ClubRequest, pk: int, game_pk: int) -> HttpResponse:
    """Undo the evening's last game within two minutes of saving it (`game_undo`)."""
    game = get_object_or_404(Game, pk=game_pk, evening_id=pk, evening__club=request.club)
    try:
        number = evening_services.game_undo(game=game)
        messages.success(request, _("Game %(number)s undone.") % {"number": number})
    except BooksError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("evening_detail", args=[pk]) + "#erfassen")


@secretary_required
def evening_create(request: ClubRequest) -> HttpResponse:
    """A new evening with its attendance; then on to the entry of its games. When the
    date asked for (today before anything is sent) has an evening already, the page
    leads to it."""
    form = EveningForm(request.POST or None, club=request.club, secretary=request.member)
    if request.method == "POST" and form.is_valid() and (evening := form.save()):
        messages.success(request, _("Evening created. Enter the first game."))
        return redirect(reverse("evening_detail", args=[evening.pk]) + "#erfassen")
    day = getattr(form, "cleaned_data", {}).get("date") if form.is_bound else timezone.localdate()
    existing = evening_on_date(club=request.club, date=day) if day else None
    context = {"form": form, "evening": None, "existing": existing}
    return render(request, "games/evening_form.html", context)


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
    evening with its games in one step (the service reverses every charge,
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


# --- objections to a provisional evening ---------------------------------------------


@member_required
def evening_objections_page(request: ClubRequest, pk: int) -> HttpResponse:
    """The evening's objections: whether it is still provisional (vorläufig) and until
    when, each objection with its answer; a form to object to a game while it is
    provisional (every person of the club); for the secretary a form to answer each open
    objection and the button that declares the evening final. POST raises an objection
    (`objection_create`)."""
    evening = get_object_or_404(Evening.objects.select_related("season"), pk=pk, club=request.club)
    if request.method == "POST":
        game_id = whole_number(request.POST.get("game"))
        game = Game.objects.filter(evening=evening, pk=game_id).first() if game_id else None
        try:
            if game is None:
                raise BooksError("unknown_game", _("Please choose a game of this evening."))
            evening_services.objection_create(
                evening=evening, game=game, by=request.member, text=request.POST.get("text", "")
            )
            messages.success(request, _("Your objection was sent to the secretary."))
        except BooksError as exc:
            messages.error(request, exc.message)
        return redirect("evening_objections", pk=pk)
    context = {
        "evening": evening,
        "state": evening_provisional_state(evening=evening),
        "objections": evening_objections(evening=evening),
        "games": list(evening.games.select_related("loser").order_by("number")),
        "is_secretary": request.member.is_secretary,
    }
    return render(request, "games/objections.html", context)


@secretary_required
def objection_answer_page(request: ClubRequest, pk: int, objection_pk: int) -> HttpResponse:
    """POST only: the secretary answers an objection, corrected or dismissed with a
    reason (`objection_answer`)."""
    objection = get_object_or_404(
        Objection, pk=objection_pk, evening_id=pk, evening__club=request.club
    )
    if request.method == "POST":
        try:
            evening_services.objection_answer(
                objection=objection,
                by=request.member,
                outcome=request.POST.get("outcome", ""),
                reason=request.POST.get("reason", ""),
            )
            messages.success(request, _("The objection is answered."))
        except BooksError as exc:
            messages.error(request, exc.message)
    return redirect("evening_objections", pk=pk)


@secretary_required
def evening_finalise_page(request: ClubRequest, pk: int) -> HttpResponse:
    """POST only: the secretary declares the evening final (`evening_finalise`)."""
    evening = get_object_or_404(Evening, pk=pk, club=request.club)
    if request.method == "POST":
        try:
            evening_services.evening_finalise(evening=evening, by=request.member)
            messages.success(request, _("The evening is final."))
        except BooksError as exc:
            messages.error(request, exc.message)
    return redirect("evening_objections", pk=pk)


# --- the calendar -----------------------------------------------------------------------


def calendar_feed(request, token: str) -> HttpResponse:
    """GET /kalender/<token>.ics: the club's evenings as an iCalendar feed for the person
    whose secret link it is, without a login (calendar apps poll it). A revoked, forged
    or malformed link, or an inactive person: 404."""
    member = member_of_calendar_token(token=token)
    if member is None:
        raise Http404
    with club_scope(member.club):  # no login: the link's club
        ics = club_calendar_ics(club=member.club)
    response = HttpResponse(ics, content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    response["Content-Disposition"] = 'inline; filename="schockabende.ics"'
    return response


def _form_date(raw: str | None) -> datetime.date | None:
    return parse_iso_date(raw or "")


def _form_time(raw: str | None) -> datetime.time | None:
    """A time of day "HH:MM" of a form, or None (empty or not one: the statutes' time)."""
    if raw and re.fullmatch(r"[0-2][0-9]:[0-5][0-9]", raw) and int(raw[:2]) < 24:
        return datetime.time(int(raw[:2]), int(raw[3:]))
    return None


@secretary_required
def planned_evenings_page(request: ClubRequest) -> HttpResponse:
    """The secretary's planned evenings (the calendar): the statutes' evenings of the next
    weeks, each to move or cancel, and a form to add one. POST (field `action`: add, move
    or cancel) calls one service and returns here."""
    if request.method == "POST":
        action = request.POST.get("action")
        date, new_date = (
            _form_date(request.POST.get("date")),
            _form_date(request.POST.get("new_date")),
        )
        starts_at = _form_time(request.POST.get("time"))
        try:
            if date is None:
                raise BooksError("invalid_date", _("Please give a date."))
            if action == "add":
                evening_services.planned_evening_add(
                    club=request.club, date=date, starts_at=starts_at
                )
            elif action == "move" and new_date is not None:
                evening_services.planned_evening_move(
                    club=request.club, date=date, new_date=new_date, starts_at=starts_at
                )
            elif action == "cancel":
                evening_services.planned_evening_cancel(club=request.club, date=date)
            else:
                raise BooksError("invalid_date", _("Please give a date."))
            messages.success(request, _("The planned evenings are saved."))
        except BooksError as exc:
            messages.error(request, exc.message)
        return redirect("planned_evenings")
    context = {"planned": club_planned_evenings(club=request.club)}
    return render(request, "games/planned_evenings.html", context)
