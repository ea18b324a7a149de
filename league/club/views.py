"""League pages: home, season standings, a member's Marks and Runden (issue 2 item 6).

Every page needs a login and shows the user's own club only (league.access). Figures come
from the selectors; the views only pick the season and render.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.club.access import secretary_required
from league.club.forms import SeasonForm


@secretary_required
def season_new(request: HttpRequest) -> HttpResponse:
    """A new season of the club (the secretary's, so evenings of its dates can be entered)."""
    form = SeasonForm(request.POST or None, club=request.club)
    if request.method == "POST" and form.is_valid() and (season := form.save()):
        messages.success(request, _("Season %(year)s created.") % {"year": season.year})
        return redirect("season_standings", year=season.year)
    return render(request, "league/season_form.html", {"form": form})
