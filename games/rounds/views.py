"""Pages of games entered round by round: the entry of a game round by round, a stored
game's rounds, live feedback on a throw (JSON), the odds ("Wahrscheinlichkeiten") and the
members' Schock-Aus statistics.

Views parse, call one service or selector (games/rounds/services.py, selectors.py,
feedback.py), and render (STYLE.md 1).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.evenings.models import Evening, Game
from games.evenings.selectors import club_seasons_played, present_people
from games.rounds.feedback import muss_regel_for, rounds_played, throw_feedback
from games.rounds.forms import (
    NotationError,
    RoundsEntry,
    notation_message,
    offered_kinds,
    throw_query,
)
from games.rounds.selectors import (
    RoundsPlay,
    evening_game_context,
    game_rounds_detail,
    game_rounds_play,
    odds_overview,
    odds_simulation,
    rounds_entry_start,
    season_schock_aus_stats,
)
from games.rounds.services import (
    game_record_rounds,
)
from games.rules import PRESETS, RuleSet
from league.club.access import ClubRequest, member_for_user, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.models import RULE_PRESET_CHOICES, Member
from league.club.selectors import (
    VERSION_MAX,
    club_current_season,
    club_seasons,
    query_year,
    whole_number,
)
from league.club.statutes import season_rules


def _evening(request: ClubRequest, evening_id: int) -> Evening:
    return get_object_or_404(
        Evening.objects.select_related("season", "club", "secretary"),
        pk=evening_id,
        club=request.club,
    )


def _check(
    entry: RoundsEntry, evening: Evening, people: dict, *, add_next: bool = True
) -> RoundsPlay | None:
    """Play the typed rounds and actions (nothing is written); show the result or the
    error beside rows and rounds, and (``add_next``) the next round's rows. Returns the
    engine's play, or None when something was refused."""
    entry.drop_empty()
    if not entry.rounds:
        entry.error = _("Enter at least one round.")
        return None
    inputs = entry.inputs(people)
    if inputs is None:
        return None
    try:
        play = game_rounds_play(
            evening=evening, rounds=inputs, number=entry.number, require_finished=False
        )
    except BooksError as exc:
        entry.attach_error(exc.field, exc.message)
        return None
    played, seen = rounds_played(play)
    entry.show_play(
        played,
        schock_aus_after=seen,
        next_order=None if play.finished or not add_next else play.next_order,
        tied=play.tied if add_next else None,
    )
    return play


def _save(
    request: HttpRequest,
    entry: RoundsEntry,
    evening: Evening,
    people: dict,
    *,
    target_confirmed: bool = False,
):
    """Record the checked rounds; the redirect to the stored game, or None (errors shown).

    A game beyond the evening's target count (Abendsoll) is saved only with
    ``target_confirmed`` (the page's "Yes, save anyway" button); else the page asks,
    keeping every round typed (``entry.target_question``)."""
    rounds = entry.inputs(people)
    if rounds is None:  # a row could not be read: its error is on the page
        return None
    try:
        game = game_record_rounds(
            evening=evening,
            rounds=rounds,
            number=entry.number,
            expected_evening_version=whole_number(entry.version, maximum=VERSION_MAX) or None,
            target_confirmed=target_confirmed,
        )
    except BooksError as exc:
        if exc.code == "evening_target_reached":
            entry.target_question = True
            entry.error = exc.message
            return None
        entry.attach_error(exc.field, exc.message)
        if exc.code == "stale_version":
            # The typed rounds stay on the page; a second save, after a look at the
            # evening's games, goes through.
            evening.refresh_from_db(fields=["version"])
            entry.version = str(evening.version)
        return None
    messages.success(
        request,
        _("Game %(number)s saved: %(loser)s lost.")
        % {"number": game.number, "loser": game.loser.name},
    )
    return redirect("game_rounds", game_id=game.pk)


def _initial(evening: Evening, people: list[Member]) -> RoundsEntry:
    """The form of the evening's next game: its number, the first round's rows (the
    Ausscheidung everyone throws where the season's rule set has it, docs/rules.md 4)."""
    start = rounds_entry_start(evening=evening, people=people)
    entry = RoundsEntry.initial(number=start.number, order=start.order, version=evening.version)
    entry.rounds[0].schock_aus_before = start.schock_aus_before
    if season_rules(evening.season).ausscheidung:
        entry.rounds[0].kind = "ausscheidung"
    return entry


def _change_kind(entry: RoundsEntry, evening: Evening, people_list: list[Member], kind: str):
    """The last entry becomes ``kind`` (docs/rules.md 4): an untyped last round is replaced,
    a typed one kept and the new entry added after it; the entries before are checked.
    Returns the engine's play of the entries before, or None."""
    people = {m.pk: m for m in people_list}
    last = entry.rounds[-1] if entry.rounds else None
    if last is not None and all(r.empty for r in last.rows) and not last.who:
        entry.rounds.pop()
    play = _check(entry, evening, people, add_next=False) if entry.rounds else None
    if not entry.rounds:
        entry.rounds = []
    if play is not None and play.tied:
        order = play.tied
    elif play is not None:
        order = play.next_order
    else:
        order = rounds_entry_start(evening=evening, people=people_list).order
    entry.add_round(order, kind)
    return play


def _posted(request: HttpRequest, evening: Evening, people_list: list[Member]):
    """The posted form after its button: check the rounds (and add the next), drop the
    last round, save the game, or save it beyond the evening's target count
    (``confirm_target``, the answer to the page's question). Returns (entry, play,
    redirect after a save or None)."""
    people = {m.pk: m for m in people_list}
    entry = RoundsEntry.from_post(request.POST)
    action = request.POST.get("action", "check")
    kinds = dict(offered_kinds(season_rules(evening.season)))
    if action.startswith("kind_") and action[5:] in kinds:
        return entry, _change_kind(entry, evening, people_list, action[5:]), None
    entry.drop_empty()
    if action == "drop" and entry.rounds:
        entry.rounds.pop()
    play = _check(entry, evening, people)
    if action in ("save", "confirm_target") and play is not None:
        if not play.finished:
            entry.error = _(
                "The game is not over yet: enter the rounds until one player holds all Deckel."
            )
        elif (
            response := _save(
                request, entry, evening, people, target_confirmed=action == "confirm_target"
            )
        ) is not None:
            return entry, play, response
    if not entry.rounds:
        entry.rounds = _initial(evening, people_list).rounds
    return entry, play, None


def _rounds_entry_context(evening: Evening, people: list[Member], entry, play) -> dict:
    """The round entry's context (templates/games/_rounds_entry_body.html)."""
    rules = season_rules(evening.season)
    return {
        "evening": evening,
        "entry": entry,
        "people": people,
        "play": play,
        "rules": rules,
        "last_game": evening_game_context(evening=evening, number=entry.number or 1)[1],
        "attempt_choices": ["1", "2", "3"],
        "kinds": offered_kinds(rules),
    }


#: The empty round-by-round form of an evening's next game (the call adds the evening's id).
ROUNDS_ENTRY_BODY = KeptRead("rounds_entry_body", depends=("books",))
#: A stored game's rounds (the call adds the game's id).
GAME_ROUNDS_DETAIL = KeptRead("game_rounds_detail", depends=("books",))
#: The years of the club's seasons.
CLUB_SEASON_YEARS = KeptRead("club_season_years", depends=("books",))
#: A season's Schock-Aus figures: its books and the register (the people's names).
SEASON_SCHOCK_AUS_STATS = KeptRead("season_schock_aus_stats", depends=("season_part",))
#: The Schock-Aus page's books part (the call adds the year asked for).
SCHOCK_AUS_STATS_BODY = KeptRead("schock_aus_stats_body", depends=("books",))


@secretary_required
@books_page()
def game_rounds_entry(request: ClubRequest, evening_id: int) -> HttpResponse:
    """Enter a game round by round (secretary). Buttons: check the rounds and add the
    next one (works without JavaScript), drop the last round, save the game.

    The GET's empty form for the evening's next game (number, seating order, the season's
    rule set, the Schock-Aus so far) shows only the evening's books: it is kept per club
    books version and evening (`KeptRead.fragment`; every change of an evening or
    a season's statutes raises `books_changed`). A POST's form (checked rounds, errors) is
    rendered each time, never kept. An evening of another club, or one deleted (which
    moves the version), is a 404."""
    if request.method != "POST":

        def kept_context() -> dict:
            evening = _evening(request, evening_id)
            people = present_people(evening=evening)
            return _rounds_entry_context(evening, people, _initial(evening, people), None)

        body = ROUNDS_ENTRY_BODY.fragment(
            evening_id,
            request=request,
            template="games/_rounds_entry_body.html",
            context=kept_context,
        )
        return render(request, "games/rounds_entry.html", {"body": body})
    evening = _evening(request, evening_id)
    people = present_people(evening=evening)
    entry, play, response = _posted(request, evening, people)
    if response is not None:
        return response
    context = _rounds_entry_context(evening, people, entry, play)
    return render(request, "games/rounds_entry.html", context)


@member_required
@books_page()
def game_rounds(request: ClubRequest, game_id: int) -> HttpResponse:
    """A stored game's rounds (members of the club). The rounds read is kept by the club's
    books version (a game's rounds change only through `game_record_rounds` and
    `game_delete`, which move it), with ETag/304; another club's game or an
    unknown one is a 404 and nothing is kept."""

    def detail():
        game = get_object_or_404(
            Game.objects.select_related("evening__season", "loser", "vorleger"),
            pk=game_id,
            evening__club=request.club,
        )
        return game_rounds_detail(game=game)

    kept = GAME_ROUNDS_DETAIL.cached(game_id, request=request, build=detail)
    return render(request, "games/rounds_detail.html", {"detail": kept})


def _feedback_rules(request: ClubRequest) -> tuple[RuleSet, bool]:
    """The rule set and whether the Muss-Regel applies, for the live feedback: the
    evening's season's (``evening`` + ``schock_aus`` + ``last_game``), else ``preset`` +
    ``muss`` ("1"); the club preset by default."""
    q = request.GET
    if q.get("evening"):
        evening = _evening(request, whole_number(q.get("evening")) or 0)
        rules = season_rules(evening.season)
        muss = muss_regel_for(
            rules=rules,
            schock_aus_so_far=whole_number(q.get("schock_aus")) or 0,
            last_game=q.get("last_game") == "1",
        )
        return rules, muss
    preset = q.get("preset")
    return PRESETS[preset if preset in PRESETS else "club"], q.get("muss") == "1"


@member_required
@require_GET
def throw_evaluate(request: ClubRequest) -> JsonResponse:
    """Live feedback on a throw (JSON): GET ``dice``, ``attempts``, ``natural`` or ``turn``
    (the entry form's notation), ``max_attempts`` (the Vorleger's), and either ``evening``
    + ``schock_aus`` (the evening's Schock-Aus before this turn) + ``last_game``, or
    ``preset`` + ``muss`` ("1"). Answers ``throw_feedback``'s dict."""
    rules, muss = _feedback_rules(request)
    try:
        throw = throw_query(request.GET, default_max_attempts=rules.max_attempts)
    except NotationError as exc:
        message = notation_message(exc)
        return JsonResponse({"ok": False, "code": "notation", "attempt": None, "message": message})
    return JsonResponse(throw_feedback(rules=rules, muss_regel=muss, **throw))


@login_required
def odds(request: HttpRequest) -> HttpResponse:
    """ "Wahrscheinlichkeiten" (any logged-in user): exact odds and what the simulator
    measures, for a season's rule set (``?saison=YYYY``, default the club's current season;
    an unknown year is a 404) or a preset (``?preset=`` or ``?regeln=``; the club's rules
    without a club)."""
    member = member_for_user(request.user)
    seasons = list(club_seasons(club=member.club)) if member else []
    preset = request.GET.get("preset") or request.GET.get("regeln")
    season = None
    if preset not in PRESETS:
        preset, year = "club", query_year(request)
        season = next((s for s in seasons if s.year == year), None)
        if season is None and request.GET.get("saison"):
            raise Http404
        season = season or (club_current_season(club=member.club) if member else None)
    overview = odds_overview(preset=preset, season=season)
    context = {
        "odds": overview,
        "simulation": odds_simulation(rules=overview.rules),
        "seasons": seasons,
        "presets": [(k, v) for k, v in RULE_PRESET_CHOICES if k in PRESETS],
    }
    return render(request, "games/odds.html", context)


@member_required
@books_page()
def schock_aus_stats(request: ClubRequest) -> HttpResponse:
    """Schock-Aus thrown against expected, per person of a season (``?saison=<year>``,
    default the newest season with games, so a new empty season does not open empty; an
    unknown year shows the default). 404 for a club without seasons.

    The page's books part (templates/games/_schock_aus_stats_body.html: switcher, table) is
    kept per club books version and asked year (league/club/caching.py): it shows
    the season's games, round throws, rule set and people's names, each of which moves the
    books version when it changes (their writers raise `books_changed`). With the
    `books_page` ETag a repeated read is a 304."""
    # The asked year counts only when the club has that season: any other year shows the
    # default and shares its kept part (no kept copy per made-up year).
    years = CLUB_SEASON_YEARS.cached(
        request=request, build=lambda: [s.year for s in club_seasons(club=request.club)]
    )
    if not years:
        raise Http404
    year = query_year(request)
    year = year if year in years else None

    def context() -> dict:
        seasons = list(club_seasons(club=request.club))
        season = next((s for s in seasons if s.year == year), None)
        if season is None:
            played = club_seasons_played(club=request.club)
            season = played[0] if played else seasons[0]
        # Kept also per season's data version: a change to another season (which moves
        # the club's version, so the page) does not recompute this season's figures.
        stats = SEASON_SCHOCK_AUS_STATS.cached(
            request=request,
            season=season,
            build=lambda: season_schock_aus_stats(season=season),
        )
        return {"stats": stats, "seasons": seasons}

    body = SCHOCK_AUS_STATS_BODY.fragment(
        year,
        request=request,
        template="games/_schock_aus_stats_body.html",
        context=context,
    )
    return render(request, "games/schock_aus_stats.html", {"body": body})
