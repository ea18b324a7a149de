"""Reads of the club register: a club's seasons, the season a page or a query names."""

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone

from league.club.models import Club, Season


def club_season(club: Club, year: int | None = None) -> Season | None:
    """The club's season of `year`; without a year the season of today, else the latest
    one; None when the club has no season yet. An unknown year is a 404."""
    seasons = Season.objects.filter(club=club)
    if year is not None:
        return get_object_or_404(seasons, year=year)
    today = timezone.localdate()
    current = seasons.filter(starts_on__lte=today, ends_on__gte=today).first()
    return current or seasons.order_by("-year").first()


def season_from_query(request: HttpRequest, *, default_current: bool = False) -> Season | None:
    """The club's season named by ?saison=YYYY (404 if unknown); None for ?saison=alle or
    no parameter, unless `default_current`: then the season of today (else the latest)."""
    year = request.GET.get("saison", "")
    if year == "alle" or (not year and not default_current):
        return None
    if not year:
        today = timezone.localdate()
        seasons = Season.objects.filter(club=request.club)
        current = seasons.filter(starts_on__lte=today, ends_on__gte=today).first()
        return current or seasons.order_by("-year").first()
    if not year.isdigit():
        raise Http404
    return get_object_or_404(Season, club=request.club, year=int(year))


def club_seasons(request: HttpRequest):
    return Season.objects.filter(club=request.club).order_by("-year")
