"""Pages of the club register: a new season and a season's rule set (the secretary's),
and the rules page every member reads.

The forms (league/club/forms.py) hand their data to league/club/services.py; the views
render and redirect.
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from games.rules import PRESETS
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.forms import SeasonForm, SeasonRulesForm, preset_initial
from league.club.models import RULE_PRESET_CHOICES
from league.club.selectors import club_season, season_rules_overview

# The rules page's sections: games.rules.FlagInfo.group -> heading.
RULE_GROUPS = [
    ("section_6", _lazy("Throws and rounds")),
    ("seed", _lazy("Start and flow of a game")),
    ("variant", _lazy("Variants")),
]


def _preset_flags() -> dict[str, dict[str, bool | int | str]]:
    """Every preset's flags, for the form's script that fills them in when the Grundlage
    changes (without script: the "apply preset" button)."""
    return {name: rules.to_dict() for name, rules in PRESETS.items()}


def _applied(request: HttpRequest, form_class, **kwargs):
    """The form again, its flags those of the preset chosen (the "apply preset" button),
    everything else as posted; unbound, so nothing is refused yet."""
    preset = request.POST.get("rule_preset")
    if preset not in PRESETS:
        preset = "club"
    kept = {k: request.POST.get(k) for k in ("year", "starts_on", "ends_on") if k in request.POST}
    return form_class(initial={**kept, **preset_initial(preset)}, **kwargs)


@secretary_required
def season_new(request: ClubRequest) -> HttpResponse:
    """A new season of the club (the secretary's, so evenings of its dates can be entered),
    with its rule set: a preset, then flag by flag."""
    if request.method == "POST" and "apply_preset" in request.POST:
        form = _applied(request, SeasonForm, club=request.club)
    else:
        form = SeasonForm(request.POST or None, club=request.club)
        if request.method == "POST" and form.is_valid() and (season := form.save()):
            messages.success(request, _("Season %(year)s created.") % {"year": season.year})
            return redirect("season_standings", year=season.year)
    context = {"form": form, "preset_flags": _preset_flags(), "new": True}
    return render(request, "league/season_form.html", context)


@secretary_required
def season_rules_edit(request: ClubRequest, year: int) -> HttpResponse:
    """Change a season's rule set (the secretary's): Grundlage and flags."""
    season = club_season(request.club, year)
    if request.method == "POST" and "apply_preset" in request.POST:
        form = _applied(request, SeasonRulesForm, season=season)
    else:
        form = SeasonRulesForm(request.POST or None, season=season)
        if request.method == "POST" and form.is_valid() and form.save():
            messages.success(request, _("Rules of %(year)s saved.") % {"year": year})
            return redirect("season_rules", year=year)
    context = {"form": form, "season": season, "preset_flags": _preset_flags(), "new": False}
    return render(request, "league/season_form.html", context)


@member_required
def season_rules_page(request: ClubRequest, year: int) -> HttpResponse:
    """The season's rule set in German: every flag, its explanation and an example, and the
    preset it equals (or how it differs from its Grundlage)."""
    season = club_season(request.club, year)
    overview = season_rules_overview(season=season)
    names = dict(RULE_PRESET_CHOICES)
    context = {
        "overview": overview,
        "preset_label": names.get(overview.preset or "", overview.preset),
        "basis_label": names.get(overview.basis, overview.basis),
        "groups": RULE_GROUPS,
    }
    return render(request, "league/season_rules.html", context)


@member_required
def current_rules(request: ClubRequest) -> HttpResponse:
    """The rules of the current season (the navigation's link)."""
    season = club_season(request.club)
    if season is None:
        raise Http404
    return redirect("season_rules", year=season.year)
