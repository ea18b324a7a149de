"""Pages of issue 3: a game entered round by round, a stored game's rounds, live feedback
on a throw, the odds ("Wahrscheinlichkeiten") and the members' Schock-Aus statistics.

Views parse, call one service or selector, and render (STYLE.md 1).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.evenings.models import Evening, Game
from games.evenings.selectors import next_game_number
from games.evenings.services import next_vorleger
from games.rounds.feedback import describe_throw, muss_regel_for, throw_feedback
from games.rounds.forms import NotationError, RoundsEntry, parse_dice, parse_turn
from games.rounds.selectors import (
    game_rounds_detail,
    odds_overview,
    present_people,
    round_summary,
    season_schock_aus_stats,
)
from games.rounds.services import evening_game_context, game_record_rounds, game_rounds_play
from games.rules import PRESETS
from league.club.access import member_for_user, member_required, secretary_required
from league.club.errors import BooksError
from league.club.models import RULE_PRESET_CHOICES, Season
from league.club.statutes import season_rules


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(
        Evening.objects.select_related("season", "club", "secretary"),
        pk=evening_id,
        club=request.club,
    )


def _check(entry: RoundsEntry, evening: Evening, people: dict) -> object | None:
    """Play the typed rounds (nothing is written); annotate rows and rounds with the
    result or the error. Returns the engine's play, or None when something was refused."""
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
    seen = play.schock_aus_before
    for block, outcome in zip(entry.rounds, play.outcomes, strict=True):
        block.schock_aus_before = seen
        block.summary = round_summary(outcome, play.player)
        for row, thrown, muss in zip(block.rows, outcome.throws, outcome.muss_regel, strict=True):
            row.result = describe_throw(thrown, play.rules, muss_regel=muss)
        seen += len(outcome.schock_aus)
    if not play.finished:
        entry.add_round(play.next_order)
        entry.rounds[-1].schock_aus_before = seen
    return play


def _save(request: HttpRequest, entry: RoundsEntry, evening: Evening, people: dict):
    """Record the checked rounds; the redirect to the stored game, or None (errors shown)."""
    try:
        game = game_record_rounds(
            evening=evening,
            rounds=entry.inputs(people),
            number=entry.number,
            expected_evening_version=_int(entry.version, 0) or None,
        )
    except BooksError as exc:
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


def _initial(evening: Evening, people_list: list) -> RoundsEntry:
    number = next_game_number(evening=evening)
    vorleger = next_vorleger(evening=evening, number=number)
    order = [vorleger] + [m for m in people_list if m != vorleger]
    entry = RoundsEntry.initial(number=number, order=order, version=evening.version)
    entry.rounds[0].schock_aus_before = evening_game_context(evening=evening, number=number)[0]
    return entry


@secretary_required
def game_rounds_entry(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Enter a game round by round (secretary). Buttons: check the rounds and add the
    next one (works without JavaScript), drop the last round, save the game."""
    evening = _evening(request, evening_id)
    people_list = present_people(evening=evening)
    people = {m.pk: m for m in people_list}
    play = None
    if request.method == "POST":
        entry = RoundsEntry.from_post(request.POST)
        action = request.POST.get("action", "check")
        entry.drop_empty()
        if action == "drop" and entry.rounds:
            entry.rounds.pop()
        play = _check(entry, evening, people)
        if action == "save" and play is not None:
            if not play.finished:
                entry.error = _(
                    "The game is not over yet: enter the rounds until one player holds all Deckel."
                )
            elif (response := _save(request, entry, evening, people)) is not None:
                return response
        if not entry.rounds:
            entry.rounds = _initial(evening, people_list).rounds
    else:
        entry = _initial(evening, people_list)
    last_game = evening_game_context(evening=evening, number=entry.number or 1)[1]
    return render(
        request,
        "games/rounds_entry.html",
        {
            "evening": evening,
            "entry": entry,
            "people": people_list,
            "play": play,
            "rules": season_rules(evening.season),
            "last_game": last_game,
            "attempt_choices": ["1", "2", "3"],
        },
    )


@member_required
def game_rounds(request: HttpRequest, game_id: int) -> HttpResponse:
    """A stored game's rounds (members of the club)."""
    game = get_object_or_404(
        Game.objects.select_related("evening__season", "loser", "vorleger"),
        pk=game_id,
        evening__club=request.club,
    )
    return render(request, "games/rounds_detail.html", {"detail": game_rounds_detail(game=game)})


@member_required
@require_GET
def throw_evaluate(request: HttpRequest) -> JsonResponse:
    """Live feedback on a throw (JSON): GET ``dice``, ``attempts``, ``natural`` or ``turn``
    (the entry form's notation), ``max_attempts`` (the Vorleger's), and either ``evening``
    + ``schock_aus`` (the evening's Schock-Aus before this turn) + ``last_game``, or
    ``preset`` + ``muss`` ("1"). Answers ``throw_feedback``'s dict."""
    q = request.GET
    rules = PRESETS["club"]
    muss = q.get("muss") == "1"
    if q.get("evening"):
        evening = _evening(request, _int(q.get("evening"), 0))
        rules = season_rules(evening.season)
        muss = muss_regel_for(
            rules=rules,
            schock_aus_so_far=_int(q.get("schock_aus"), 0),
            last_game=q.get("last_game") == "1",
        )
    elif q.get("preset") in PRESETS:
        rules = PRESETS[q["preset"]]
    max_attempts = _int(q.get("max_attempts"), rules.max_attempts)
    try:
        turn = parse_turn(q.get("turn", ""))
    except NotationError as exc:
        return JsonResponse(
            {
                "ok": False,
                "code": "notation",
                "attempt": None,
                "message": _("The attempts cannot be read: “%(text)s”. Example: 145:1 / 61:1 / 1")
                % {"text": exc},
            }
        )
    attempts = q.get("attempts")
    return JsonResponse(
        throw_feedback(
            rules=rules,
            dice=parse_dice(q.get("dice", "")),
            attempts=int(attempts) if attempts in ("1", "2", "3") else None,
            natural=q.get("natural") in ("1", "on", "true"),
            turn=turn,
            max_attempts=max_attempts if 1 <= max_attempts <= 3 else rules.max_attempts,
            muss_regel=muss,
        )
    )


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@login_required
def odds(request: HttpRequest) -> HttpResponse:
    """ "Wahrscheinlichkeiten": exact odds per rule set (any logged-in user). ``?regeln=``
    chooses the preset; default the user's club's latest season's, else the club's."""
    preset = request.GET.get("regeln")
    if preset not in PRESETS:
        member = member_for_user(request.user)
        season = Season.objects.filter(club=member.club).first() if member else None
        preset = season.rule_preset if season and season.rule_preset in PRESETS else "club"
    return render(
        request,
        "games/odds.html",
        {
            "odds": odds_overview(preset=preset),
            "presets": [(k, v) for k, v in RULE_PRESET_CHOICES if k in PRESETS],
        },
    )


@member_required
def schock_aus_stats(request: HttpRequest) -> HttpResponse:
    """Schock-Aus thrown against expected, per person of a season (``?saison=<year>``,
    default the club's latest season)."""
    seasons = list(Season.objects.filter(club=request.club).order_by("-year"))
    if not seasons:
        raise Http404
    year = _int(request.GET.get("saison"), seasons[0].year)
    season = next((s for s in seasons if s.year == year), seasons[0])
    return render(
        request,
        "games/schock_aus_stats.html",
        {
            "stats": season_schock_aus_stats(season=season),
            "seasons": seasons,
        },
    )
