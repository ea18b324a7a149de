"""Pages of the club register: a new season (the secretary's).

The form (league/club/forms.py) hands its data to league/club/services.py; the view
renders and redirects to the new season's standings.
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
